"""Translations: every catalog has the same messages in every language, each counting
message with exactly its language's CLDR plural forms, and lookups fall back."""

import json
import re
from pathlib import Path

import pytest

from raspisnoy.i18n import (
    LANGUAGES,
    catalog,
    detect_language,
    error_templates,
    plural_category,
    plural_tags,
    translate,
    translate_count,
    translate_error,
)

CATALOGS = Path(__file__).resolve().parents[1] / "src" / "raspisnoy" / "i18n"
PLURAL_KEY = re.compile(r"^(?P<message>.+)\.(?P<form>zero|one|two|few|many|other)$")


def _keys(lang: str, domain: str) -> set[str]:
    path = CATALOGS / lang / domain
    return set(json.loads(path.read_text(encoding="utf-8"))) if path.exists() else set()


def _messages(keys: set[str]) -> dict[str, set[str]]:
    """Message names and their plural forms (an empty set for a message without). A
    counting message always has an ``.other`` form, so ``web.score.bid.zero`` is none."""
    messages: dict[str, set[str]] = {}
    for key in keys:
        match = PLURAL_KEY.match(key)
        if match and f"{match['message']}.other" not in keys:
            match = None
        name = match["message"] if match else key
        forms = messages.setdefault(name, set())
        if match:
            forms.add(match["form"])
    return messages


@pytest.mark.parametrize("domain", sorted({p.name for p in CATALOGS.glob("*/*.json")}))
def test_every_language_has_every_message_in_all_its_plural_forms(domain: str) -> None:
    english = _messages(_keys("en", domain))
    assert english
    for lang in LANGUAGES:
        messages = _messages(_keys(lang, domain))
        assert messages.keys() == english.keys(), f"{lang}/{domain}"
        for name, forms in messages.items():
            if forms:
                assert forms == plural_tags(lang), f"{lang}/{domain}: {name}"


def test_plural_forms_follow_cldr() -> None:
    assert [plural_category("ru", n) for n in (1, 2, 5, 11, 21, 22, 25)] == [
        "one", "few", "many", "many", "one", "few", "many",
    ]  # fmt: skip
    assert [plural_category("en", n) for n in (0, 1, 2, 21)] == ["other", "one", "other", "other"]
    assert translate_count("score.more_rounds", "ru", 21) == "ещё 21 раздача"
    assert translate_count("score.more_rounds", "uk", 3) == "ще 3 роздачі"
    assert translate_count("score.more_rounds", "ru", 5) == "ещё 5 раздач"
    assert translate_count("score.more_rounds", "en", 1) == "1 more round"
    assert translate_count("score.more_rounds", "de", 2) == "2 more rounds"  # English
    assert translate_count("web.round.cards", "en", 1) == "1 card"


def test_translate_formats_and_falls_back() -> None:
    assert translate("kind.blind", "ru") == "тёмная"
    assert translate("kind.blind", "de") == "blind"
    assert translate("no.such.key", "uk") == "no.such.key"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_error_templates_fill_in_a_page_as_in_python(lang: str) -> None:
    """The engine's errors a page words itself: every code (plural forms of ``lang``'s
    categories), each with only plain ``{name}`` places, and filled the page's way they
    say what ``translate_error`` says for every error the engine's tests raise alike."""
    from raspisnoy.core import RaspisnoyError

    templates = error_templates(lang)
    codes = {key.removeprefix("error.") for key in catalog("en") if key.startswith("error.")}
    assert set(templates) >= codes
    for template in templates.values():
        assert re.fullmatch(r"([^{}]|\{\w+\})*", template), template
    values: dict[str, str | int] = {"number": 2, "entry": "13", "players": 3, "count": 12}
    error = RaspisnoyError("custom_plan entry 2 '13': …", code="plan_cards", params=values)
    key = f"plan_cards.{plural_category(lang, 12)}"
    assert templates[key].format(**values) == translate_error(error, lang)


def test_translate_error_words_a_code_else_says_the_english() -> None:
    """The engine's error by its code, in the plural form its count takes; an error
    without a code, with one the catalogs do not know (a sheet's problem) or without the
    values its words need is its English message."""
    from raspisnoy.core import RaspisnoyError

    values: dict[str, str | int] = {"preset": "classic", "low": 3, "high": 6, "count": 21}
    english = "classic is played by 3 to 6 players, not 21"
    players = RaspisnoyError(english, code="players", params=values)
    assert translate_error(players, "ru").startswith("за столом 21 игрок, а по правилам «classic»")
    assert translate_error(players, "uk").startswith("за столом 21 гравець, а за правилами")
    assert translate_error(players, "de") == english
    for uncoded in (
        RaspisnoyError("no code"),
        RaspisnoyError("a sheet's problem", code="bid_range", params={"cards": 1, "bid": 2}),
        RaspisnoyError("too few values", code="players", params={"count": 2}),
        RaspisnoyError("no count", code="plan_cards", params={"number": 1}),
    ):
        assert translate_error(uncoded, "ru") == str(uncoded)


def test_detect_language() -> None:
    assert detect_language({"LANG": "ru_RU.UTF-8"}) == "ru"
    assert detect_language({"LC_ALL": "uk_UA.UTF-8", "LANG": "ru_RU.UTF-8"}) == "uk"
    assert detect_language({"LANG": "de_DE.UTF-8"}) == "en"
    assert detect_language({}) == "en"


def _web(lang: str) -> dict[str, str]:
    messages: dict[str, str] = json.loads((CATALOGS / lang / "web.json").read_text("utf-8"))
    return messages


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_help_speaks_the_players_language(lang: str) -> None:
    """The rules options' help texts and choices never show the engine's names: ids
    like per_trick_taken or no-trump, joker codes (X1), and in Russian and Ukrainian no
    English word at all (raspisnoy.com is a site's name, and stays)."""
    from raspisnoy.core.rules import option_info

    ids = {info.name for info in option_info()}
    ids |= {choice for info in option_info() for choice in info.choices}
    internal = {name for name in ids if "_" in name or "-" in name} | {"X1", "X2"}
    for key, text in _web(lang).items():
        if not key.startswith(("web.option.", "web.choice.")):
            continue
        plain = re.sub(r"\{\w+\}", "", text.replace("raspisnoy.com", ""))
        words = set(re.findall(r"[\w-]+", plain))
        assert not words & internal, f"{lang} {key}: {text}"
        if lang != "en":
            assert not re.search(r"[A-Za-z]{3,}", plain), f"{lang} {key}: {text}"


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_status_words_do_not_assume_a_gender(lang: str) -> None:
    """«Анна отошёл», «Я вернулся», «взял»: what the page, the server and the terminal say
    of a player fits anyone."""
    masculine = re.compile(
        r"\b(отошёл|отошедш\w*|вернулся|взял|ушёл|не пришёл|снят|відійшов|повернувся|взяв|пішов"
        r"|не прийшов|знятий)\b(?!\()"  # «снят(а)» fits anyone
    )
    found = {key: text for key, text in catalog(lang).items() if masculine.search(text)}
    assert not found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_rules_option_and_choice_has_its_words(lang: str) -> None:
    """Each option of ``/api/rules`` has a label and a help text, and each of its choices a
    name, in every language: the lobby never falls back to an id."""
    from raspisnoy.core.rules import PRESETS, option_info

    messages = _web(lang)
    wanted = {f"web.preset.{name}" for name in PRESETS}
    for info in option_info():
        wanted |= {f"web.option.{info.name}", f"web.option.{info.name}.help"}
        wanted |= {f"web.choice.{info.name}.{choice}" for choice in info.choices}
    assert wanted <= messages.keys(), sorted(wanted - messages.keys())
