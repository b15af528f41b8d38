"""Pages for people: the API reference at ``/api/docs`` (Swagger UI served from the
``swagger-ui-py`` package's files, so it works without the internet), and the browser
client's ``/score`` and ``/casino`` pages."""

from importlib.util import find_spec
from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles

__all__ = ["DOCS_ASSETS", "add_docs", "score_page_router"]

#: Where the Swagger UI files are served.
DOCS_ASSETS = "/api/docs-assets"


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


def score_page_router(web_dir: Path) -> APIRouter:
    """``/score`` (the scorekeeper) and ``/casino`` (the casino game): pages that are the
    client's ``index.html`` (the client routes on the path)."""
    router = APIRouter()

    async def client_page() -> FileResponse:
        return FileResponse(web_dir / "index.html")

    for path in ("/score", "/casino"):
        router.add_api_route(path, client_page, methods=["GET"], include_in_schema=False)
    return router
