"""The installable page's files: the service worker's shell names every file the page
loads (a new script left out would be missing offline) and the manifest of each language
the page links; the manifest is valid, names icons that exist, and is served in each of
the client's languages (Russian for any other)."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest
from server_helpers import Server

from raspisnoy.i18n import LANGUAGES
from raspisnoy.server.app import WEB_DIR

#: Served by the page itself (``/`` and ``/score`` are ``index.html``) or not part of
#: the shell (the service worker is fetched by the browser outside any cache).
NOT_FILES = {"index.html", "sw.js"}
#: The installed app's name in each language, as the client's catalogs call the game.
NAMES = {"ru": "Расписной покер", "uk": "Розписний покер", "en": "Raspisnoy poker"}


def _shell() -> set[str]:
    worker = (WEB_DIR / "sw.js").read_text(encoding="utf-8")
    listed = re.search(r"const SHELL = \[(.*?)\];", worker, re.S)
    assert listed is not None
    return set(re.findall(r'"([^"]+)"', listed.group(1)))


def _linked_manifests() -> set[str]:
    """What the page links as its manifest: index.html's, then (js/i18n.js's
    ``manifestHref``) the one of each language once the page's language is known."""
    page = (WEB_DIR / "index.html").read_text(encoding="utf-8")
    static = re.findall(r'<link rel="manifest" href="([^"]+)">', page)
    script = (WEB_DIR / "js" / "i18n.js").read_text(encoding="utf-8")
    template = re.search(r"function manifestHref\(lang\) \{\s*return `([^`]+)`;", script)
    assert len(static) == 1 and template is not None
    return {*static, *(template.group(1).replace("${lang}", lang) for lang in LANGUAGES)}


def test_the_service_worker_keeps_every_file_of_the_page() -> None:
    files = {
        "/" + path.relative_to(WEB_DIR).as_posix()
        for path in WEB_DIR.rglob("*")
        if path.is_file() and path.name not in NOT_FILES and not path.is_symlink()
    }
    assert _shell() == files | {"/", "/score"} | _linked_manifests()


def test_the_service_worker_keeps_the_manifest_the_page_links_in_each_language() -> None:
    linked = _linked_manifests()
    assert linked == {"/manifest.webmanifest"} | {
        f"/manifest/{lang}.webmanifest" for lang in LANGUAGES
    }
    assert linked <= _shell()


def test_the_manifest_names_icons_that_exist() -> None:
    manifest = json.loads((WEB_DIR / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert {"name", "short_name", "start_url", "display", "icons"} <= set(manifest)
    sizes = set()
    for icon in manifest["icons"]:
        assert (WEB_DIR / icon["src"].lstrip("/")).is_file(), icon
        sizes.add(icon["sizes"])
    assert {"192x192", "512x512"} <= sizes  # what browsers ask of an installable page


def _manifest(server: Server, path: str) -> dict[str, Any]:
    answer = httpx.get(f"{server.base}{path}")
    assert answer.status_code == 200, path
    assert answer.headers["content-type"].startswith("application/manifest+json"), path
    manifest: dict[str, Any] = answer.json()
    return manifest


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_manifest_is_served_in_each_language(server: Server, lang: str) -> None:
    static = _manifest(server, "/manifest.webmanifest")
    manifest = _manifest(server, f"/manifest/{lang}.webmanifest")
    messages = json.loads((WEB_DIR / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert manifest["name"] == NAMES[lang] == messages["web.app.title"]
    assert manifest["short_name"] == messages["web.app.short_name"]
    assert manifest["description"] == messages["web.app.description"]
    assert manifest["lang"] == lang
    assert len(manifest["short_name"]) <= 12  # what a home screen shows under the icon
    # One app whatever its language: the same id, address, colours and icons.
    words = {"name", "short_name", "description", "lang"}
    assert {k: v for k, v in manifest.items() if k not in words} == {
        k: v for k, v in static.items() if k not in words
    }


@pytest.mark.parametrize("lang", ["xx", "de", "RU", "ru-RU", "manifest"])
def test_the_manifest_of_another_language_is_russian(server: Server, lang: str) -> None:
    russian = _manifest(server, "/manifest/ru.webmanifest")
    assert _manifest(server, f"/manifest/{lang}.webmanifest") == russian
    # index.html's own manifest, linked before the page knows its language, is Russian too.
    assert _manifest(server, "/manifest.webmanifest") == russian
    assert russian["name"] == "Расписной покер" and russian["lang"] == "ru"
