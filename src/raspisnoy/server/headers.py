"""Security headers on every HTTP answer (issue 27, item 12): a Content-Security-Policy
the browser client satisfies, ``X-Frame-Options`` and ``X-Content-Type-Options``.

The client is static files of this server: its scripts are modules loaded from here
(none inline), its sockets and requests go to this server, its images are its own (and
the QR codes of invites and sheets, drawn from this server's answers into ``blob:``
addresses). Its screens write ``style`` attributes, so inline
styles are allowed; inline scripts are not, except on the API reference (Swagger UI
starts itself with one), which gets a policy of its own. No page may be framed, so no
other site can lay its page over a table to catch clicks.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CONTENT_SECURITY_POLICY", "DOCS_SECURITY_POLICY", "SecurityHeaders"]

_COMMON = (
    "default-src 'self'; connect-src 'self'; img-src 'self' data: blob:; "
    "style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)
#: The policy of every answer but the API reference's.
CONTENT_SECURITY_POLICY = f"{_COMMON}; script-src 'self' 'unsafe-eval'"
#: The API reference's (``/api/docs``): Swagger UI's inline start-up script.
DOCS_SECURITY_POLICY = f"{_COMMON}; script-src 'self' 'unsafe-eval' 'unsafe-inline'"


class SecurityHeaders:
    """ASGI middleware adding the headers to every HTTP answer; ``docs_path`` gets
    ``DOCS_SECURITY_POLICY``."""

    def __init__(self, app: ASGIApp, docs_path: str) -> None:
        self.app = app
        self._docs_path = docs_path
        self._common = [
            (b"x-content-type-options", b"nosniff"),
            (b"x-frame-options", b"DENY"),
        ]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = DOCS_SECURITY_POLICY if scope["path"] == self._docs_path else None
        added = [
            *self._common,
            (b"content-security-policy", (policy or CONTENT_SECURITY_POLICY).encode()),
        ]

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *added]
            await send(message)

        await self.app(scope, receive, with_headers)
