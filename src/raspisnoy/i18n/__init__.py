"""Translations of user-facing text: Russian (the audience's first language), Ukrainian,
English (the fallback).

Catalogs are JSON files ``<lang>/<domain>.json`` beside this module, one domain per part
of the product (``play.json`` for the terminal game, ``score.json`` for the scorekeeper,
…), each a flat object of message keys to ``str.format`` templates. The browser client
can load the same files. ``translate`` falls back to English, then to the key itself, so
a missing translation shows up as text rather than as a crash; a test checks that every
catalog has the same keys in every language.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["DEFAULT_LANGUAGE", "LANGUAGES", "catalog", "detect_language", "translate"]

#: Supported languages, primary first.
LANGUAGES = ("ru", "uk", "en")
DEFAULT_LANGUAGE = "en"
_HERE = Path(__file__).resolve().parent


@cache
def catalog(lang: str) -> Mapping[str, str]:
    """Every message of ``lang``, all domains merged (an unknown language has none)."""
    if lang not in LANGUAGES:
        return {}
    messages: dict[str, str] = {}
    for path in sorted((_HERE / lang).glob("*.json")):
        messages.update(json.loads(path.read_text(encoding="utf-8")))
    return messages


def translate(key: str, lang: str, /, **values: Any) -> str:
    """The message ``key`` in ``lang`` (else English, else the key), formatted with ``values``."""
    template = catalog(lang).get(key) or catalog(DEFAULT_LANGUAGE).get(key) or key
    return template.format(**values) if values else template


def detect_language(environ: Mapping[str, str] | None = None) -> str:
    """The user's language from ``LC_ALL``, ``LC_MESSAGES`` or ``LANG`` (``ru_RU.UTF-8`` → ru)."""
    env = os.environ if environ is None else environ
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        code = env.get(variable, "").split(".")[0].split("_")[0].lower()
        if code in LANGUAGES:
            return code
    return DEFAULT_LANGUAGE
