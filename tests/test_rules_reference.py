"""The rules reference page: generated from the rules metadata, and committed up to date."""

from __future__ import annotations

from pathlib import Path

from raspisnoy.core.rules import PRESET_DESCRIPTIONS, PRESETS, option_info
from raspisnoy.rulebook.reference import rules_reference_markdown

PAGE = Path(__file__).resolve().parents[1] / "docs" / "rules-reference.md"


def test_committed_page_is_up_to_date() -> None:
    assert PAGE.read_text(encoding="utf-8") == rules_reference_markdown(), (
        "docs/rules-reference.md is out of date with the rules options and presets; run "
        "`.venv/bin/raspisnoy rules doc --output docs/rules-reference.md` and commit the result"
    )


def test_every_option_has_a_section() -> None:
    page = rules_reference_markdown()
    for info in option_info():
        assert f"\n### {info.name}\n" in page
        assert info.en in page and info.ru in page


def test_every_preset_has_a_section() -> None:
    page = rules_reference_markdown()
    for name in PRESETS:
        assert f"\n### {name}\n" in page
        en, ru = PRESET_DESCRIPTIONS[name]
        assert en in page and ru in page


def test_page_is_deterministic_and_ends_with_one_newline() -> None:
    page = rules_reference_markdown()
    assert page == rules_reference_markdown()
    assert page.startswith("# Rules reference\n")
    assert page.endswith("\n") and not page.endswith("\n\n")
