"""The expert's tree kept from a seat's last decision for its next one in the round.

Between two decisions of a seat the round goes on by actions everyone saw: its own and
the others' bids and cards. Its last search's tree holds, under the path of those
actions, the visits of every iteration whose world and choices led there; the next
decision can start from that subtree (``ismcts.Tree.descend``) instead of an empty
tree. Every world an iteration carried down that path allowed each action on it (the
search only walks actions legal in the world at hand), so the subtree's statistics come
from worlds consistent with what was observed since.

A ``KeptTree`` belongs to one bot object (so to one process): a bot built anew, after a
server restart or in another worker, has none and searches from nothing. A decision is
then a function of the bot's seed, the view and the views of the seat's earlier
decisions in the round that this bot object made: a whole game replayed with new bots
repeats every decision.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from raspisnoy.bots import fastsim
from raspisnoy.bots.ismcts import FOLLOWING_DISCARD, Tree
from raspisnoy.core import JokerMode, View

__all__ = ["KeptTree", "history", "round_key"]

#: What fixes a round for one seat: the round's number, the seat, its hand as dealt
#: (the cards it holds and has played) and the trump card's index (-1: none shown).
RoundKey = tuple[int, int, int, int]


def round_key(view: View) -> RoundKey:
    """The ``RoundKey`` of ``view``'s round and seat."""
    assert view.seat is not None
    dealt = sum(card.bit for card in view.hand or ())
    players = view.players
    for trick in (*view.tricks, view.trick):
        seat = (view.seat - trick.leader) % players
        if seat < len(trick.plays):
            dealt |= trick.plays[seat].card.bit
    trump = -1 if view.trump_card is None else view.trump_card.index
    return view.round, view.seat, dealt, trump


def history(view: View) -> tuple[int, ...]:
    """The action codes (``fastsim.encode_action``) of the round so far, in the order
    they were made: the bids from the dealer's left, then every trick's plays. A
    following joker's discard has ``ismcts.FOLLOWING_DISCARD`` set."""
    players = view.players
    codes = []
    if view.bids is not None:
        for turn in range(players):
            bid = view.bids[(view.dealer + 1 + turn) % players]
            if bid is not None:
                codes.append(fastsim.BID_BASE + bid)
    for trick in (*view.tricks, view.trick):
        for position, play in enumerate(trick.plays):
            code = fastsim.encode_action(play)
            if position and play.mode is JokerMode.DISCARD:
                code |= FOLLOWING_DISCARD
            codes.append(code)
    return tuple(codes)


@dataclass(slots=True)
class KeptTree:
    """A decision's tree, the reward scale it was searched on, and the round and
    ``history`` of its view."""

    key: RoundKey
    history: tuple[int, ...]
    tree: Tree
    scale: tuple[float, float]

    def follow(self, view: View) -> Tree | None:
        """The tree (its arrays shared) rooted where the actions made since lead, for the
        decision of ``view``; ``None`` when ``view`` is not a later moment of the same
        round and seat, or the tree never tried the path that the round took."""
        now = history(view)
        done = len(self.history)
        if round_key(view) != self.key or len(now) <= done or now[:done] != self.history:
            return None
        node = self.tree.descend(now[done:])
        return replace(self.tree, root=node) if node else None
