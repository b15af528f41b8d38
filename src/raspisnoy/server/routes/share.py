"""QR codes of the site's own links (``POST /api/qr``): an invite to a table, a score
sheet's read-only or hand-over link, as SVG drawn by ``segno``, so a phone on the table
can scan what another shows.

The link comes in the body, not the address: a hand-over link carries its sheet's edit
token (in its fragment, which browsers never send), and request addresses end up in logs.
Only links of this site are drawn (its own host, or an allowed origin; the pages ``/``
and ``/score``), so the route cannot be used to make codes that lead elsewhere.
"""

from io import BytesIO
from urllib.parse import urlsplit

import segno
from fastapi import APIRouter, Request, Response

from raspisnoy.server.deps import SettingsDep
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.wire import QrIn

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["sharing"])
#: The pages of the site a code may lead to.
_PAGES = frozenset({"/", "/score"})


@router.post(
    "/qr",
    response_class=Response,
    responses={200: {"content": {"image/svg+xml": {"schema": {"type": "string"}}}}},
)
async def qr_code(body: QrIn, request: Request, settings: SettingsDep) -> Response:
    """The QR code of one of this site's links, as SVG (dark modules on white)."""
    link = urlsplit(body.url)
    own = request.headers.get("host", "").lower()
    origins = {origin.rstrip("/").lower() for origin in settings.allowed_origins}
    ours = link.netloc.lower() == own or f"{link.scheme}://{link.netloc}".lower() in origins
    if link.scheme not in ("http", "https") or not ours or link.path not in _PAGES:
        raise RequestError(
            Refusal.INVALID,
            f"url: only links to this site's pages ({', '.join(sorted(_PAGES))} at {own}) "
            f"get a QR code, not {body.url[:80]!r}",
        )
    drawn = BytesIO()
    segno.make(body.url, error="m").save(
        drawn, kind="svg", scale=4, border=4, dark="#000", light="#fff", xmldecl=False
    )
    return Response(
        drawn.getvalue(),
        media_type="image/svg+xml",
        headers={"cache-control": "no-store", "x-content-type-options": "nosniff"},
    )
