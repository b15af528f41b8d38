"""Text for people shared by the casino commands: the advisor's table."""

from __future__ import annotations

from raspisnoy.casino.cards import parse_cards
from raspisnoy.casino_advisor.advisor import Advice
from raspisnoy.i18n import translate

__all__ = ["advice_text", "option_label"]


def advice_text(advice: Advice, lang: str) -> str:
    """The advice as a table for people, best option first."""
    lines = [
        translate(
            "casino.advise.head",
            lang,
            cards=" ".join(card.pretty() for card in advice.cards),
            up=advice.up.pretty(),
        )
    ]
    for option in advice.options:
        error = translate("casino.advise.exact", lang)
        if option.method == "sampled":
            error = translate("casino.advise.sampled", lang, error=f"{option.error:.3f}")
        lines.append(f"  {option_label(option.option, lang):<28} {option.value:+8.3f}  {error}")
    lines.append(
        translate("casino.advise.best", lang, option=option_label(advice.best.option, lang))
    )
    return "\n".join(lines) + "\n"


def option_label(option: str, lang: str) -> str:
    """An option's name for people: ``change 8C 9S`` → ``change 8♣ 9♠``."""
    word, _, cards = option.partition(" ")
    label = translate(f"casino.option.{word}", lang)
    if cards:
        label += " " + " ".join(card.pretty() for card in parse_cards(cards))
    return label
