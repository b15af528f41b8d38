"""Text for people shared by the casino commands: the advisor's table."""

from __future__ import annotations

import textwrap

from raspisnoy.casino.cards import parse_cards
from raspisnoy.casino_advisor.advisor import Advice, OptionValue
from raspisnoy.i18n import translate

__all__ = ["advice_text", "option_label"]

#: The indent of the options and the gap between the table's columns.
_INDENT = _GAP = "  "
#: The narrowest the options' names get in a narrow terminal: they wrap, and the values
#: stay on the line where a name starts.
_MIN_LABEL = 12


def advice_text(advice: Advice, lang: str, width: int = 80) -> str:
    """The advice as a table for people, best option first, in ``width`` columns: an
    option's name, its value, and whether the value is exact. The names' column is as wide
    as the longest name, or narrower where the terminal is narrow, a long name then going
    on, indented, on the next line: no line runs past ``width`` and every value stays on
    its option's first line."""
    rows = [
        (option_label(option.option, lang), f"{option.value:+.3f}", _error(option, lang))
        for option in advice.options
    ]
    value_width = max(len(value) for _, value, _ in rows)
    fixed = len(_INDENT) + 2 * len(_GAP) + value_width + max(len(error) for *_, error in rows)
    label_width = max(min(max(len(label) for label, *_ in rows), width - fixed), _MIN_LABEL)
    lines = [_head(advice, lang)]
    for label, value, error in rows:
        first, *rest = textwrap.wrap(label, label_width, subsequent_indent=_INDENT)
        lines.append(f"{_INDENT}{first:<{label_width}}{_GAP}{value:>{value_width}}{_GAP}{error}")
        lines += [_INDENT + part for part in rest]
    lines.append(
        translate("casino.advise.best", lang, option=option_label(advice.best.option, lang))
    )
    return "\n".join(lines) + "\n"


def _head(advice: Advice, lang: str) -> str:
    """What the table values: a box's decision against the dealer's up card or, once he
    has shown all his cards without a game, whether to buy his game."""
    cards = " ".join(card.pretty() for card in advice.cards)
    if any(option.option == "decline" for option in advice.options):
        return translate("casino.advise.head_purchase", lang, cards=cards)
    return translate("casino.advise.head", lang, cards=cards, up=advice.up.pretty())


def _error(option: OptionValue, lang: str) -> str:
    """``exact``, or the half-width of a sampled value's 95% interval."""
    if option.method == "sampled":
        return translate("casino.advise.sampled", lang, error=f"{option.error:.3f}")
    return translate("casino.advise.exact", lang)


def option_label(option: str, lang: str) -> str:
    """An option's name for people: ``change 8C 9S`` → ``change 8♣ 9♠``."""
    word, _, cards = option.partition(" ")
    label = translate(f"casino.option.{word}", lang)
    if cards:
        label += " " + " ".join(card.pretty() for card in parse_cards(cards))
    return label
