"""No level makes the absurd moves players complain of (issue 31): a bid of 0 holding the
joker and the ace of trumps, a low lead when every trick left is needed and a sure
winner is in hand. Checked over generated deals of every preset with a joker."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from positions import STRONG_HAND, needs_every_trick, strong_hand

from raspisnoy.bots import Bot, make_bot
from raspisnoy.bots.expert import ExpertBot
from raspisnoy.bots.knowledge import Knowledge
from raspisnoy.core import Bid, JokerMode, Play, View
from raspisnoy.core.fast import SUIT_MASKS

LEVELS = ("beginner", "heuristic", "expert")


def _bot(level: str) -> Bot:
    # A small search keeps the expert quick; the moves checked are not close calls.
    return ExpertBot(seed=1, iterations=300) if level == "expert" else make_bot(level, seed=1)


def _low(view: View, play: Play) -> bool:
    """A lead another seat may beat just by following suit higher (a card of its suit
    above it that the seat cannot see), or a joker thrown away as a discard."""
    if play.card.suit is None:
        return play.mode is JokerMode.DISCARD
    higher = SUIT_MASKS[play.card.suit] & ~((play.card.bit << 1) - 1)
    return bool(higher & Knowledge.from_view(view).unseen)


@pytest.mark.parametrize("level", LEVELS)
@settings(max_examples=40, deadline=None, derandomize=True)
@given(**STRONG_HAND)
def test_never_bids_zero_holding_the_joker_and_the_ace_of_trumps(
    level: str, preset: str, players: int, cards: int, before: int, seed: int
) -> None:
    game = strong_hand(preset, players, cards, before, seed)
    view = game.view(game.to_act)
    assert view.hand is not None and view.trump is not None
    assert all(card in view.hand for card in game.deck if card.is_joker)
    assert any(card.suit is view.trump and card.rank == 14 for card in view.hand)
    assert _bot(level).act(view) != Bid(0)


@pytest.mark.parametrize("level", LEVELS)
@settings(max_examples=40, deadline=None, derandomize=True)
@given(**STRONG_HAND)
def test_never_leads_low_needing_every_trick_with_winners_in_hand(
    level: str, preset: str, players: int, cards: int, before: int, seed: int
) -> None:
    del before  # the strong seat bids first, and so leads
    game = needs_every_trick(preset, players, cards, seed)
    view = game.view(game.to_act)
    assert view.bids is not None and view.seat is not None
    assert view.bids[view.seat] == view.cards and not view.trick.plays
    action = _bot(level).act(view)
    assert isinstance(action, Play)
    assert not _low(view, action), action
