"""Who wins a trick: the suit led, trumps, every joker mode and the rule options on them.

Suits and trumps are ints here (``Suit`` values, -1 for none), and cards are looked up by
index, because the game calls ``winner_of`` once per trick on its hot path.
"""

from __future__ import annotations

from collections.abc import Sequence

from raspisnoy.core.actions import JokerMode, Play
from raspisnoy.core.cards import ALL_CARDS, Suit
from raspisnoy.core.errors import InvalidInputError
from raspisnoy.core.rules import Rules

__all__ = ["NO_TRUMP", "SUIT_OF", "rotated_trump", "trick_winner", "winner_of"]

NO_TRUMP = -1
#: Per card index: suit as an int (-1 for jokers) and rank.
SUIT_OF = tuple(-1 if c.suit is None else int(c.suit) for c in ALL_CARDS)
_RANK_OF = tuple(c.rank for c in ALL_CARDS)
_HIGHEST, _TAKE = JokerMode.HIGHEST, JokerMode.TAKE


def trick_winner(plays: Sequence[Play], leader: int, trump: Suit | None, rules: Rules) -> int:
    """The seat that wins a complete trick (docs/rules.md 1, "Play" and "The joker"; 2.5;
    3.1 and 3.2)."""
    if not plays:
        raise InvalidInputError("a trick needs at least one play")
    return winner_of(plays, leader, NO_TRUMP if trump is None else int(trump), rules)


def winner_of(plays: Sequence[Play], leader: int, trump: int, rules: Rules) -> int:
    """``trick_winner`` with the trump as an int (-1: none)."""
    players = len(plays)
    first = plays[0]
    if first.mode is _HIGHEST or first.mode is _TAKE:
        return (leader + _led_joker_position(plays, trump, rules)) % players
    lead_suit = SUIT_OF[first.card.index] if first.suit is None else int(first.suit)
    position = _best_position(plays, lead_suit, trump)
    if position < 0:
        if rules.joker_discard_lead_unfollowed == "joker_wins":
            return leader
        # docs/rules.md 3.1: a joker led as "discard S" that nobody followed or trumped; the
        # suit of the first card played after it decides.
        suits = [SUIT_OF[play.card.index] for play in plays[1:]]
        lead_suit = next((suit for suit in suits if suit >= 0), -1)
        position = max(_best_position(plays, lead_suit, trump), 0)
    return (leader + position) % players


def _led_joker_position(plays: Sequence[Play], trump: int, rules: Rules) -> int:
    """Winner of a trick led by a joker that wins ("highest S", or "take" as a lead): it
    does, unless a later joker takes (the later wins) or, with the option
    ``joker_highest_beaten_by_trump``, a trump beats a "highest S" where S is not trump."""
    first = plays[0]
    takes = [p for p, play in enumerate(plays) if p and play.mode is _TAKE]
    if takes:
        return takes[-1]
    if first.mode is _HIGHEST and rules.joker_highest_beaten_by_trump and first.suit != trump:
        position = _best_position(plays, trump, trump)
        if position > 0:
            return position
    return 0


def _best_position(plays: Sequence[Play], lead_suit: int, trump: int) -> int:
    """Position of the winning play: the last joker "take", else the highest trump, else the
    highest card of ``lead_suit``; -1 when no play qualifies."""
    best, best_position, take_position = -1, -1, -1
    for position, play in enumerate(plays):
        index = play.card.index
        suit = SUIT_OF[index]
        if suit < 0:
            if play.mode is _TAKE:
                take_position = position  # of two jokers taking, the later wins
            continue
        if suit == trump:
            strength = 100 + _RANK_OF[index]
        elif suit == lead_suit:
            strength = _RANK_OF[index]
        else:
            continue
        if strength > best:
            best, best_position = strength, position
    return take_position if take_position >= 0 else best_position


def rotated_trump(led_suit: int, round_has_trump: bool) -> int:
    """«Круговые козыри»: the trump of a trick is the suit after the suit led (♠→♣→♦→♥→♠);
    none after a joker led as "take", or in a no-trump round."""
    return (led_suit + 1) % 4 if led_suit >= 0 and round_has_trump else NO_TRUMP
