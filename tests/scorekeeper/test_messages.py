"""The ``score`` catalogs: every problem the model can report is translated, and every
translation uses the same placeholders as the English text."""

from __future__ import annotations

import string

import pytest

from raspisnoy.i18n import LANGUAGES, catalog
from raspisnoy.scorekeeper import PROBLEMS


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_the_english_catalog_states_each_problem_as_the_model_does() -> None:
    english = catalog("en")
    assert {code: english[f"score.problem.{code}"] for code in PROBLEMS} == PROBLEMS


@pytest.mark.parametrize("lang", LANGUAGES)
def test_translations_use_the_english_placeholders(lang: str) -> None:
    english, messages = catalog("en"), catalog(lang)
    score_keys = [key for key in english if key.startswith("score.")]
    assert score_keys
    for key in score_keys:
        assert _placeholders(messages[key]) == _placeholders(english[key]), f"{lang}: {key}"
