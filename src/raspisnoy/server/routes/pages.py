"""Pages for people: the API reference at ``/api/docs`` (Swagger UI served from the
``swagger-ui-py`` package's files, so it works without the internet), the browser
client's ``/score`` and ``/casino`` pages, and its web app manifest in each of its
languages (``/manifest/{lang}.webmanifest``)."""

import json
from functools import cache
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

from raspisnoy.i18n import LANGUAGES

__all__ = [
    "DOCS_ASSETS",
    "MANIFEST_LANGUAGE",
    "add_docs",
    "score_page_router",
    "web_manifest",
]

#: Where the Swagger UI files are served.
DOCS_ASSETS = "/api/docs-assets"
#: The manifest's language for a language the client does not have (the audience's
#: first; the static ``/manifest.webmanifest`` is in it too).
MANIFEST_LANGUAGE = "ru"
#: The manifest's fields that are words, and the client's message each is.
_MANIFEST_TEXTS = {
    "name": "web.app.title",
    "short_name": "web.app.short_name",
    "description": "web.app.description",
}


def _swagger_ui_files() -> Path:
    """The folder of Swagger UI's JavaScript and CSS inside the ``swagger_ui`` package
    (found without importing it: only its static files are used)."""
    spec = find_spec("swagger_ui")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the swagger-ui-py package is missing: pip install swagger-ui-py")
    return Path(next(iter(spec.submodule_search_locations))) / "static"


def add_docs(app: FastAPI, docs_url: str) -> None:
    """Serve the interactive API reference at ``docs_url`` from local files."""
    app.mount(DOCS_ASSETS, StaticFiles(directory=_swagger_ui_files()), name="docs-assets")
    openapi_url = app.openapi_url or "/api/openapi.json"

    @app.get(docs_url, include_in_schema=False)
    async def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=openapi_url,
            title=f"{app.title}: API",
            swagger_js_url=f"{DOCS_ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{DOCS_ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{DOCS_ASSETS}/favicon-32x32.png",
        )


def web_manifest(web_dir: Path, lang: str) -> dict[str, Any]:
    """The client's web app manifest (``manifest.webmanifest``) with its name, short name
    and description in ``lang`` from the client's own catalog (``i18n/<lang>.json``), or
    in ``MANIFEST_LANGUAGE`` for a language the client does not have. Its ``id`` stays
    ``/`` whatever the language: one installed app, named in its person's language."""
    manifest: dict[str, Any] = json.loads(
        (web_dir / "manifest.webmanifest").read_text(encoding="utf-8")
    )
    lang = lang if lang in LANGUAGES else MANIFEST_LANGUAGE
    messages = json.loads((web_dir / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    manifest.update({field: messages[key] for field, key in _MANIFEST_TEXTS.items()})
    manifest["lang"] = lang
    return manifest


@cache
def _manifest_bytes(web_dir: Path, lang: str) -> bytes:
    """``web_manifest`` as sent, read once per language (the files are the server's own)."""
    return json.dumps(web_manifest(web_dir, lang), ensure_ascii=False).encode()


def score_page_router(web_dir: Path) -> APIRouter:
    """``/score`` (the scorekeeper) and ``/casino`` (the casino game): pages that are the
    client's ``index.html`` (the client routes on the path); and
    ``/manifest/{lang}.webmanifest``, the web app manifest in the page's language (the
    page links it: ``js/i18n.js``), Russian for any other ``lang``."""
    router = APIRouter()

    async def client_page() -> FileResponse:
        return FileResponse(web_dir / "index.html")

    for path in ("/score", "/casino"):
        router.add_api_route(path, client_page, methods=["GET"], include_in_schema=False)

    @router.get("/manifest/{lang}.webmanifest", include_in_schema=False)
    async def manifest(lang: str) -> Response:
        known = lang if lang in LANGUAGES else MANIFEST_LANGUAGE  # one copy for any other
        return Response(_manifest_bytes(web_dir, known), media_type="application/manifest+json")

    return router
