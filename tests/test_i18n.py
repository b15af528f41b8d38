"""Translations: every catalog has the same keys in every language, and lookups fall back."""

import json
from pathlib import Path

import pytest

from raspisnoy.i18n import LANGUAGES, detect_language, translate

CATALOGS = Path(__file__).resolve().parents[1] / "src" / "raspisnoy" / "i18n"


def _keys(lang: str, domain: str) -> set[str]:
    path = CATALOGS / lang / domain
    return set(json.loads(path.read_text(encoding="utf-8"))) if path.exists() else set()


@pytest.mark.parametrize("domain", sorted({p.name for p in CATALOGS.glob("*/*.json")}))
def test_every_language_has_every_key(domain: str) -> None:
    english = _keys("en", domain)
    assert english
    for lang in LANGUAGES:
        assert _keys(lang, domain) == english, f"{lang}/{domain}"


def test_translate_formats_and_falls_back() -> None:
    assert translate("kind.blind", "ru") == "тёмная"
    assert translate("kind.blind", "de") == "blind"
    assert translate("no.such.key", "uk") == "no.such.key"


def test_detect_language() -> None:
    assert detect_language({"LANG": "ru_RU.UTF-8"}) == "ru"
    assert detect_language({"LC_ALL": "uk_UA.UTF-8", "LANG": "ru_RU.UTF-8"}) == "uk"
    assert detect_language({"LANG": "de_DE.UTF-8"}) == "en"
    assert detect_language({}) == "en"
