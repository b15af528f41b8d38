"""Translations of user-facing text: Russian (the audience's first language), Ukrainian,
English (the fallback).

Catalogs are JSON files ``<lang>/<domain>.json`` beside this module, one domain per part
of the product (``play.json`` for the terminal game, ``score.json`` for the scorekeeper,
…), each a flat object of message keys to ``str.format`` templates. The browser client
can load the same files. ``translate`` falls back to English, then to the key itself, so
a missing translation shows up as text rather than as a crash; a test checks that every
catalog has the same keys in every language.

A message that counts something has one key per CLDR plural category of its language
(``score.more_rounds.one``, ``.few``, ``.many``, ``.other`` in Russian; ``.one`` and
``.other`` in English): ``translate_count`` picks the category with Babel, so no ending
is written by hand. The browser does the same with ``Intl.PluralRules``.

The engine's errors that a person can cause (an unknown preset or option, a bad value, a
round plan that cannot be dealt, a number of players the rules do not allow, a name that
cannot be a player's) carry a code and its values; ``translate_error`` words them from the
``error.<code>`` messages (``errors.json``), so every terminal front end says them alike.
This layer reads only the code and the values, and imports nothing of the engine.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from babel import Locale

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "catalog",
    "detect_language",
    "error_templates",
    "plural_category",
    "plural_tags",
    "translate",
    "translate_count",
    "translate_error",
]

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


@cache
def _locale(lang: str) -> Locale:
    """Babel's locale, imported only by a message that counts: a command that prints
    none starts without Babel."""
    from babel import Locale

    return Locale.parse(lang if lang in LANGUAGES else DEFAULT_LANGUAGE)


def plural_category(lang: str, count: int) -> str:
    """The CLDR plural category of ``count`` in ``lang``: one, few, many or other."""
    category: str = _locale(lang).plural_form(abs(count))
    return category


def plural_tags(lang: str) -> frozenset[str]:
    """The plural categories ``lang`` has for whole numbers (what its catalogs must cover)."""
    return frozenset(_locale(lang).plural_form.tags | {"other"})


def translate_count(key: str, lang: str, /, count: int, **values: Any) -> str:
    """The message ``key`` in the plural form ``count`` takes in ``lang``; ``{count}`` and
    ``values`` fill it. Falls back like ``translate`` (to English's form of ``count``)."""
    for language in (lang, DEFAULT_LANGUAGE):
        template = catalog(language).get(f"{key}.{plural_category(language, count)}")
        if template is not None:
            return template.format(count=count, **values)
    return key


class CodedError(Protocol):
    """What ``translate_error`` reads of an error: the engine's ``RaspisnoyError`` (its
    English text, its code or ``None``, and the values of its message)."""

    @property
    def code(self) -> str | None: ...

    @property
    def params(self) -> Mapping[str, str | int]: ...


def translate_error(error: CodedError, lang: str, /) -> str:
    """The engine's error ``error`` in ``lang``: its ``error.<code>`` message, in the plural
    form of its ``count`` value where the message counts something, filled with its values.

    An error without a code, or with one the catalogs do not know (the scorekeeper's sheet
    problems, worded by ``score.problem.<code>``), is its English text: a person is always
    told what went wrong, if need be in English. So is a message its values cannot fill,
    rather than a crash in place of the error.
    """
    if error.code is None:
        return str(error)
    key = f"error.{error.code}"
    english = catalog(DEFAULT_LANGUAGE)
    values = dict(error.params)
    try:
        if f"{key}.other" in english:
            count = values.pop("count")
            if isinstance(count, int):
                return translate_count(key, lang, count, **values)
        elif key in english:
            return translate(key, lang, **values)
    except (KeyError, IndexError, ValueError):
        pass
    return str(error)


def error_templates(lang: str) -> dict[str, str]:
    """The engine's error messages in ``lang`` (English where it has none), keyed by code
    (a message that counts by ``CODE.<plural category>``), for a page that words an
    error's code and values itself. Python's ``{name!r}`` becomes ``'{name}'``, which a
    page's plain ``{name}`` filler fills as the engine's English message quotes a text."""
    prefix = "error."
    messages = {**catalog(DEFAULT_LANGUAGE), **catalog(lang)}
    return {
        key.removeprefix(prefix): re.sub(r"\{(\w+)!r\}", r"'{\1}'", template)
        for key, template in messages.items()
        if key.startswith(prefix)
    }


def detect_language(environ: Mapping[str, str] | None = None) -> str:
    """The user's language from ``LC_ALL``, ``LC_MESSAGES`` or ``LANG`` (``ru_RU.UTF-8`` → ru)."""
    env = os.environ if environ is None else environ
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        code = env.get(variable, "").split(".")[0].split("_")[0].lower()
        if code in LANGUAGES:
            return code
    return DEFAULT_LANGUAGE
