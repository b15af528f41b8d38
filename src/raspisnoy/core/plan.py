"""The round plan: how many cards each round deals and what kind of round it is."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from raspisnoy.core.errors import InvalidInputError
from raspisnoy.core.kinds import RoundKind, parse_plan_entry
from raspisnoy.core.rules import Rules, max_cards

__all__ = ["RoundKind", "RoundSpec", "check_players", "round_plan"]


@dataclass(frozen=True, slots=True)
class RoundSpec:
    """One round of the plan: its 1-based number, cards per player and kind."""

    number: int
    cards: int
    kind: RoundKind
    #: ``kind.has_bids`` and ``kind.has_trump``, stored: the engine asks on every deal.
    has_bids: bool = field(init=False, repr=False, compare=False)
    has_trump: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "has_bids", self.kind.has_bids)
        object.__setattr__(self, "has_trump", self.kind.has_trump)

    def to_json(self) -> dict[str, object]:
        """The ``schedule --json`` object (docs/record.md)."""
        return {"round": self.number, "cards": self.cards, "kind": str(self.kind)}


def check_players(rules: Rules, players: int) -> None:
    """Raise ``InvalidInputError`` unless the ruleset allows this many players."""
    if not rules.min_players <= players <= rules.max_players:
        low, high = rules.min_players, rules.max_players
        raise InvalidInputError(
            f"{rules.preset} is played by {low} to {high} players, not {players}",
            code="players",
            params={"preset": rules.preset, "low": low, "high": high, "count": players},
        )


@lru_cache(maxsize=256)
def round_plan(rules: Rules, players: int) -> tuple[RoundSpec, ...]:
    """The whole game's rounds, in order (docs/rules.md 1, "The round plan"; 2.2)."""
    check_players(rules, players)
    top = max_cards(rules, players)
    if rules.custom_plan:
        plan = enumerate(rules.custom_plan, start=1)
        return tuple(_custom_round(number, text, top, players) for number, text in plan)
    deals = [(cards, RoundKind.NORMAL) for cards in _deal_sequence(rules, players, top)]
    for name in rules.special_rounds:
        kind = RoundKind(name)
        deals += [(kind.cards(top), kind)] * players
    return tuple(RoundSpec(n, cards, kind) for n, (cards, kind) in enumerate(deals, start=1))


def _deal_sequence(rules: Rules, players: int, top: int) -> list[int]:
    """Cards of the normal rounds, by the ``deal_sequence`` option (docs/rules.md 2.2)."""
    up, down = list(range(1, top)), list(range(top - 1, 0, -1))
    if rules.deal_sequence == "classic":
        return up + [top] * players + down
    if rules.deal_sequence == "georgian":
        return up + [top] * players + down + [top] * players
    # raspisnoy.com: every player deals the maximum once (once in the ascending phase).
    return up + [top] + (down if rules.descending else []) + [top] * (players - 1)


def _custom_round(number: int, text: str, top: int, players: int) -> RoundSpec:
    """One entry of the ``custom_plan`` option (already checked by ``parse_plan_entry``),
    which may deal each of the ``players`` at most ``top`` cards."""
    cards, kind = parse_plan_entry(number, text)
    if cards > top:
        raise InvalidInputError(
            f"custom_plan entry {number} {text!r}: cards must be 1 to {top} for this many players",
            code="plan_cards",
            params={"number": number, "entry": text, "count": top, "players": players},
        )
    return RoundSpec(number, cards, kind)
