"""Draws the web app's PNG icons (``src/raspisnoy/web/icons/``) from ``favicon.svg`` with
Chromium (Playwright, the browser tests' Chromium): the manifest's 192 and 512 px icons,
and a maskable one with the card inside the safe circle on the felt green. The PNGs are
committed; run this again after changing the favicon:

    .venv/bin/python scripts/make_icons.py
"""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import sync_playwright

WEB = Path(__file__).resolve().parents[1] / "src" / "raspisnoy" / "web"
CHROMIUM = os.environ.get("RASPISNOY_CHROMIUM", "/usr/lib/chromium/chromium")
#: The icon's colours: the felt of the theme colour behind a maskable icon.
FELT = "#0f5132"
#: (file, size in px, background, share of the size the card takes).
ICONS = [
    ("icon-192.png", 192, "transparent", 1.0),
    ("icon-512.png", 512, "transparent", 1.0),
    ("icon-maskable-512.png", 512, FELT, 0.62),
]


def main() -> None:
    svg = (WEB / "favicon.svg").read_text(encoding="utf-8")
    (WEB / "icons").mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--headless", "--no-sandbox"]
        )
        for name, size, background, share in ICONS:
            page = browser.new_page(viewport={"width": size, "height": size})
            inner = round(size * share)
            page.set_content(
                f"<body style='margin:0;display:grid;place-items:center;width:{size}px;"
                f"height:{size}px;background:{background}'>"
                f"<div style='width:{inner}px;height:{inner}px'>{svg}</div></body>"
            )
            page.eval_on_selector("svg", "s => { s.style.width = s.style.height = '100%'; }")
            page.screenshot(path=WEB / "icons" / name, omit_background=background == "transparent")
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
