"""A hand's record: replaying it from its seed and decisions, and checking it.

``CasinoHand.to_record()`` writes the record; ``replay_record`` rebuilds the hand from
its seed, antes, balance and decisions (the cards follow from the seed), and
``verify_record`` checks a finished hand: the seed hashes to the commitment shown before
the deal, and replaying it deals exactly the cards and results the record shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from raspisnoy.casino.game import HAND_FORMAT, CasinoHand
from raspisnoy.casino.shuffle import commitment
from raspisnoy.core import InvalidInputError

__all__ = ["replay_record", "verify_record"]

#: What a replay must reproduce of a finished hand's record.
_CHECKED = ("boxes", "dealer", "dealer_draw", "results", "final_balance")


def replay_record(data: object, seed: str | None = None) -> CasinoHand:
    """The hand of a record (finished or not): dealt from ``seed`` (else the record's),
    with every decision applied in order."""
    if not isinstance(data, Mapping) or data.get("format") != HAND_FORMAT:
        raise InvalidInputError(f"format: not a {HAND_FORMAT} record")
    seed = seed if seed is not None else data.get("seed")
    if not isinstance(seed, str):
        raise InvalidInputError("seed: missing; it is revealed once the hand is over")
    antes, balance, actions = data.get("antes"), data.get("balance"), data.get("actions")
    if not isinstance(antes, list):
        raise InvalidInputError("antes: must be a list")
    hand = CasinoHand(antes, balance, seed)  # type: ignore[arg-type]
    if not isinstance(actions, list):
        raise InvalidInputError("actions: must be a list")
    for number, entry in enumerate(actions, 1):
        if not isinstance(entry, Mapping) or set(entry) != {"box", "action"}:
            raise InvalidInputError(f"actions[{number}]: must be {{'box': N, 'action': TEXT}}")
        if hand.to_act is None or entry["box"] != hand.to_act + 1:
            raise InvalidInputError(f"actions[{number}]: box {entry['box']} is not the box to act")
        hand.apply(entry["action"])
    return hand


def verify_record(data: Any) -> dict[str, object]:
    """Check a finished hand's record; raise ``InvalidInputError`` naming what differs."""
    if not isinstance(data, Mapping):
        raise InvalidInputError("the record must be a JSON object")
    seed, promised = data.get("seed"), data.get("commitment")
    if not isinstance(seed, str):
        raise InvalidInputError("seed: missing; it is revealed once the hand is over")
    if commitment(seed) != promised:
        raise InvalidInputError("commitment: the seed does not hash to it; the deal was changed")
    hand = replay_record(data)
    if not hand.is_over:
        raise InvalidInputError("actions: the hand is not finished")
    replayed = hand.to_record()
    for field in _CHECKED:
        if replayed[field] != data.get(field):
            raise InvalidInputError(f"{field}: the seed deals {replayed[field]!r}, not this")
    return {
        "ok": True,
        "commitment": hand.commitment,
        "seed": seed,
        "final_balance": hand.balance,
        "results": replayed["results"],
    }
