"""The installable page's files: the service worker's shell names every file the page
loads (a new script left out would be missing offline), the manifest is valid and names
icons that exist."""

from __future__ import annotations

import json
import re

from raspisnoy.server.app import WEB_DIR

#: Served by the page itself (``/`` and ``/score`` are ``index.html``) or not part of
#: the shell (the service worker is fetched by the browser outside any cache).
NOT_FILES = {"index.html", "sw.js"}


def test_the_service_worker_keeps_every_file_of_the_page() -> None:
    worker = (WEB_DIR / "sw.js").read_text(encoding="utf-8")
    listed = re.search(r"const SHELL = \[(.*?)\];", worker, re.S)
    assert listed is not None
    shell = set(re.findall(r'"([^"]+)"', listed.group(1)))
    files = {
        "/" + path.relative_to(WEB_DIR).as_posix()
        for path in WEB_DIR.rglob("*")
        if path.is_file() and path.name not in NOT_FILES and not path.is_symlink()
    }
    assert shell == files | {"/", "/score"}


def test_the_manifest_names_icons_that_exist() -> None:
    manifest = json.loads((WEB_DIR / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert {"name", "short_name", "start_url", "display", "icons"} <= set(manifest)
    sizes = set()
    for icon in manifest["icons"]:
        assert (WEB_DIR / icon["src"].lstrip("/")).is_file(), icon
        sizes.add(icon["sizes"])
    assert {"192x192", "512x512"} <= sizes  # what browsers ask of an installable page
