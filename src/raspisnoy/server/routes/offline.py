"""``/offline/…``: the files of offline play (docs/offline.md), public and static: what
the browser's worker loads to run the game on the device. Nothing here depends on who
asks, and nothing of any game is in them."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import FileResponse, Response

from raspisnoy.server.deps import ServicesDep
from raspisnoy.server.wire import OfflineStatusOut

router = APIRouter(tags=["offline"])

_TYPES = {".mjs": "text/javascript", ".wasm": "application/wasm", ".zip": "application/zip"}


@router.get("/offline/status", response_model=OfflineStatusOut)
async def offline_status(services: ServicesDep) -> dict[str, object]:
    """Whether offline play is installed on this server, and the versions of its files."""
    return services.offline.status()


@router.get("/offline/pyodide/{name}", include_in_schema=False)
async def pyodide_file(name: str, services: ServicesDep) -> Response:
    """One of Pyodide's files; 404 when offline play is not installed."""
    path = services.offline.pyodide_file(name)
    if path is None:
        return Response(status_code=404)
    return FileResponse(path, media_type=_TYPES.get(path.suffix, "application/json"))


@router.get("/offline/snapshot/{version}/{bundle}", include_in_schema=False)
async def snapshot(version: str, bundle: str, services: ServicesDep) -> Response:
    """The engine's memory snapshot made at install time for these very files (gzipped:
    the browser unpacks it); 404 for any other version, or when none was made."""
    path = services.offline.snapshot_file()
    if path is None or services.offline.snapshot_path != f"/offline/snapshot/{version}/{bundle}":
        return Response(status_code=404)
    return FileResponse(
        path, media_type="application/octet-stream", headers={"content-encoding": "gzip"}
    )


@router.get("/offline/raspisnoy.zip", include_in_schema=False)
async def bundle(services: ServicesDep) -> Response:
    """The pure modules the worker runs (the rules, the bots, the messages' shapes)."""
    return Response(services.offline.bundle, media_type="application/zip")
