"""Text for people shared by the casino commands: the advisor's table.

Its cards are written as the caller names them: ``raspisnoy casino advise``, which reads
docs/record.md's notation, writes them so (``Q♦``); the terminal game in the person's
language (``Д♦``), as everything else it shows."""

from __future__ import annotations

import textwrap
from collections.abc import Callable

from raspisnoy.casino.cards import Card, parse_cards
from raspisnoy.casino_advisor.advisor import Advice, OptionValue
from raspisnoy.i18n import translate

__all__ = ["CardName", "advice_text", "option_label"]

#: The indent of the options and the gap between the table's columns.
_INDENT = _GAP = "  "
#: The narrowest the options' names get in a narrow terminal: they wrap, and the values
#: stay on the line where a name starts.
_MIN_LABEL = 12


#: Writes a card for people: ``Card.pretty`` in record notation's letters (``Q♦``), or a
#: person's language's (``raspisnoy.i18n.cards.card_text``: ``Д♦``).
CardName = Callable[[Card], str]


def advice_text(
    advice: Advice, lang: str, width: int = 80, *, card_name: CardName = Card.pretty
) -> str:
    """The advice as a table for people, best option first, in ``width`` columns: an
    option's name, its value, and whether the value is exact. The names' column is as wide
    as the longest name, or narrower where the terminal is narrow, a long name then going
    on, indented, on the next line: no line runs past ``width`` and every value stays on
    its option's first line. Every card is written by ``card_name``."""
    rows = [
        (
            option_label(option.option, lang, card_name),
            f"{option.value:+.3f}",
            _error(option, lang),
        )
        for option in advice.options
    ]
    value_width = max(len(value) for _, value, _ in rows)
    fixed = len(_INDENT) + 2 * len(_GAP) + value_width + max(len(error) for *_, error in rows)
    label_width = max(min(max(len(label) for label, *_ in rows), width - fixed), _MIN_LABEL)
    lines = [_head(advice, lang, card_name)]
    for label, value, error in rows:
        first, *rest = textwrap.wrap(label, label_width, subsequent_indent=_INDENT)
        lines.append(f"{_INDENT}{first:<{label_width}}{_GAP}{value:>{value_width}}{_GAP}{error}")
        lines += [_INDENT + part for part in rest]
    lines.append(
        translate(
            "casino.advise.best", lang, option=option_label(advice.best.option, lang, card_name)
        )
    )
    return "\n".join(lines) + "\n"


def _head(advice: Advice, lang: str, card_name: CardName) -> str:
    """What the table values: a box's decision against the dealer's up card or, once he
    has shown all his cards without a game, whether to buy his game."""
    cards = " ".join(map(card_name, advice.cards))
    if any(option.option == "decline" for option in advice.options):
        return translate("casino.advise.head_purchase", lang, cards=cards)
    return translate("casino.advise.head", lang, cards=cards, up=card_name(advice.up))


def _error(option: OptionValue, lang: str) -> str:
    """``exact``, or the half-width of a sampled value's 95% interval."""
    if option.method == "sampled":
        return translate("casino.advise.sampled", lang, error=f"{option.error:.3f}")
    return translate("casino.advise.exact", lang)


def option_label(option: str, lang: str, card_name: CardName = Card.pretty) -> str:
    """An option's name for people: ``change 8C 9S`` → ``change 8♣ 9♠``, its cards written
    by ``card_name``."""
    word, _, cards = option.partition(" ")
    label = translate(f"casino.option.{word}", lang)
    if cards:
        label += " " + " ".join(map(card_name, parse_cards(cards)))
    return label
