"""``expert``: information-set Monte Carlo tree search on a compiled simulator.

For each decision the expert deals the cards it cannot see in many ways consistent with
everything public, keeps the deals in proportion to how well they explain the bids the
others made, and searches one tree over all of them: every iteration takes one such
world, walks the tree (bids and plays of every seat, each chosen by UCB1 among the
actions legal in that world), plays the round out with a contract-aware policy (the
others' cards mostly at random: real players are less predictable) and credits each
seat with its real points for the round (``round_points`` through the score table,
non-linear as it is) less half the mean of the others' points: it plays to win. The
most visited action at the root is played (``raspisnoy.bots.ismcts``). Bids, plays and
joker modes are all searched this way; only the choice of a control round is left to
the heuristic.

The simulator (``raspisnoy.bots.fastsim``) is compiled with Numba and follows the
engine's rules for every preset and option; the search runs about 100,000 iterations a
second on one core. The first decision of a process loads (or, once per installation,
compiles) that code.

It is deterministic for a given seed; the time budget (``time_ms``) only cuts the
number of iterations when a decision would otherwise run over it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np

from raspisnoy.bots import fastsim
from raspisnoy.bots.base import Bot, decision_rng
from raspisnoy.bots.heuristic import HeuristicBot, choose_control
from raspisnoy.bots.inference import BidModel, shipped_model
from raspisnoy.bots.ismcts import (
    EXPLORATION,
    NOISE,
    RIVALRY,
    WIDENING,
    Solved,
    Tree,
    reward_scale,
    search,
    world_pool,
)
from raspisnoy.bots.knowledge import Knowledge
from raspisnoy.bots.play_inference import PlayModel, shipped_play_model
from raspisnoy.bots.reuse import KeptTree, history, round_key
from raspisnoy.bots.solver import Table as SolverTable
from raspisnoy.bots.tactics import cashing_leads
from raspisnoy.core import (
    Action,
    Bid,
    Game,
    InvalidInputError,
    JokerMode,
    Phase,
    Play,
    View,
    resolve_rules,
)
from raspisnoy.core.fast import SUIT_MASKS, mask_of

__all__ = [
    "ExpertBot",
    "Outcome",
    "RootValue",
    "outcomes",
    "root_values",
    "searched_equivalent",
    "warm_up",
]

#: Iterations per batch: the budget is checked between batches.
_BATCH = 512
#: Nodes the tree starts with; it grows as the search goes on (one node per iteration).
_FIRST_CAPACITY = 16 * _BATCH
#: Share of the budget the search may use; the rest covers setting it up and returning.
_BUDGET_SHARE = 0.97
#: Worlds dealt per decision (fewer when fewer iterations are allowed).
WORLDS = 1000
#: Entries of the exact solver's transposition table for one decision (its positions
#: are those of the last few tricks: a small table, quick to set up, holds them).
_SOLVER_TABLE = 1 << 12


class ExpertBot(Bot):
    """Searches sampled worlds with ISMCTS (see the module docstring)."""

    name = "expert"
    default_time_ms = 1000.0
    #: Search iterations per decision when the time budget allows: some 50 ms for a
    #: 9-card round on one core of the development machine.
    default_iterations = 5000
    #: Search iterations for a bid when the time budget allows (``None``: as for a card).
    default_bid_iterations: int | None = None
    #: Tricks at the end of each playout solved exactly for the searching seat
    #: (``solver``; 0: none): see docs/bots.md for what it measured.
    solve_tricks = 0
    #: Whether the worlds are kept by the learned bid model (``raspisnoy.bots.inference``)
    #: rather than the Gaussian of the quick trick count: see docs/bots.md for what it
    #: measured.
    learned_inference = False
    #: Whether the worlds are also kept by how well they explain the others' plays so
    #: far in the round, under the learned play model (``raspisnoy.bots.play_inference``):
    #: see docs/bots.md for what it measured.
    play_inference = False
    #: How much the seat minds the others' points, and how often the others play a random
    #: card in the playouts (``ismcts.RIVALRY``, ``ismcts.NOISE``; benchmarks vary them).
    rivalry = RIVALRY
    noise = NOISE
    #: The others' random share in the playouts of a bid's search (``None``: ``noise``): a
    #: benchmark's lever, since the bid is where a search too sure of random opponents
    #: would ask for more tricks than real ones leave it (docs/bots.md, session 28).
    bid_noise: float | None = None
    #: Whether a decision goes on with the subtree of the seat's last decision in the
    #: round under the actions made since (``raspisnoy.bots.reuse``), its visits kept,
    #: rather than with an empty tree: see docs/bots.md for what it measured.
    reuse_tree = False
    #: Worlds dealt per decision (fewer when fewer iterations are allowed): dealing them
    #: is some 30% of a decision of 1,400 iterations (docs/bots.md, session 14).
    worlds = WORLDS
    #: UCB1's exploration constant and progressive widening's (``ismcts.EXPLORATION``,
    #: ``ismcts.WIDENING``; benchmarks vary them).
    exploration = EXPLORATION
    widening = WIDENING

    def __init__(
        self,
        seed: int | str = 0,
        time_ms: float | None = None,
        iterations: int | None = None,
        bid_iterations: int | None = None,
    ) -> None:
        """``iterations`` a decision (``default_iterations`` if ``None``); a bid, with
        ``bid_iterations`` (``default_bid_iterations``), may have more: once a round and
        the decision that sets the contract, it gains more from a sharper search than a
        card does."""
        super().__init__(seed, time_ms)
        self.iterations = self.default_iterations if iterations is None else iterations
        if bid_iterations is None:
            bid_iterations = self.default_bid_iterations or self.iterations
        self.bid_iterations = bid_iterations
        self._kept: KeptTree | None = None
        if min(self.iterations, self.bid_iterations) < 1:
            raise InvalidInputError(
                "the expert needs at least one search iteration, not "
                f"{min(self.iterations, self.bid_iterations)}"
            )

    def choose(self, view: View, rng: random.Random) -> Action:
        if view.phase is Phase.CHOOSE:
            return choose_control(view)
        deadline = time.perf_counter() + self.time_ms / 1000 * _BUDGET_SHARE
        bidding = view.phase is Phase.BID
        iterations = self.bid_iterations if bidding else self.iterations
        noise = self.bid_noise if bidding and self.bid_noise is not None else self.noise
        kept = self._kept_tree(view)
        searched = _search_root(
            view,
            rng,
            iterations,
            deadline,
            self.rivalry,
            worlds_wanted=self.worlds,
            cash=True,
            solve_tricks=self.solve_tricks,
            noise=noise,
            shape=(self.exploration, self.widening),
            model=self._bid_model(),
            play_model=self._play_model(),
            kept=kept,
        )
        self._kept = None
        if searched is None:  # no deal fits what was seen: should not happen
            return HeuristicBot(self.seed).choose(view, rng)
        tree, legal, scale = searched
        if self.reuse_tree:
            self._kept = KeptTree(round_key(view), history(view), tree, scale)
        return legal[tree.best_action()]

    def _bid_model(self) -> BidModel | None:
        """The learned bid model the worlds are kept by, if ``learned_inference``."""
        return shipped_model() if self.learned_inference else None

    def _play_model(self) -> PlayModel | None:
        """The learned play model the worlds are also kept by, if ``play_inference``."""
        return shipped_play_model() if self.play_inference else None

    def learned_models(self) -> dict[str, dict[str, object]]:
        """The documents of the learned models this expert decides with, by kind
        (``bid``, ``play``; none by default): what a benchmark's figures record, so that
        they say which weights were measured (the shipped files change with retraining)."""
        used = {"bid": self._bid_model(), "play": self._play_model()}
        return {kind: model.to_json() for kind, model in used.items() if model is not None}

    def _kept_tree(self, view: View) -> tuple[Tree, tuple[float, float]] | None:
        """The tree of this seat's last decision in the round, rooted where the actions
        since lead, and its reward scale; ``None`` without ``reuse_tree``, or when there
        is no such tree or it never tried the path the round took."""
        if not self.reuse_tree or self._kept is None:
            return None
        tree = self._kept.follow(view)
        return None if tree is None else (tree, self._kept.scale)


@dataclass(frozen=True, slots=True)
class RootValue:
    """One of the actions searched at the root: how often the search tried it, and the
    seat's mean round points over those tries (its expected points after the action)."""

    action: Bid | Play
    visits: int
    points: float


def root_values(
    view: View,
    iterations: int,
    *,
    seed: int | str = 0,
    time_ms: float | None = None,
    rivalry: float = 0.0,
    only: Bid | Play | None = None,
    worlds: int = WORLDS,
) -> tuple[RootValue, ...]:
    """The expert's search from ``view`` (a bid or a card to choose, not a control round),
    with every root action's visits and expected round points, most visited first: the
    first is the action the search would play. ``rivalry`` 0 searches for the seat's own
    points (what a review or a hint reports); the expert at a table plays with
    ``ismcts.RIVALRY``. With ``only`` (an action of the root, ``searched_equivalent``)
    every iteration starts with that action: a sharper estimate of one move than the
    few visits a poor move gets beside the others. ``worlds`` deals of the hidden cards
    are searched (fewer if fewer iterations): a quick search needs fewer, and dealing
    them is much of its cost. Only ``view`` is read, so nothing
    hidden from the seat is used. Deterministic for a seed when ``time_ms`` is ``None``
    (no time limit)."""
    if view.phase not in (Phase.BID, Phase.PLAY) or not view.my_turn:
        raise InvalidInputError(f"seat {view.seat} has no bid or card to choose now")
    deadline = math.inf if time_ms is None else time.perf_counter() + time_ms / 1000
    rng = decision_rng(f"review/{seed}", view)
    searched = _search_root(view, rng, iterations, deadline, rivalry, only, worlds)
    if searched is None:
        raise InvalidInputError("no deal of the hidden cards fits what the seat has seen")
    tree, legal, (low, span) = searched
    values = [
        RootValue(legal[code], visits, low + span * reward / visits)
        for code, (visits, reward) in tree.root_rewards().items()
        if visits
    ]
    return tuple(sorted(values, key=lambda value: (-value.visits, -value.points)))


def searched_equivalent(view: View, action: Bid | Play) -> Bid | Play:
    """The action the search tries in place of ``action``: itself, or the card the search
    treats as the same (the lowest of a sequence of its own cards with no unseen card
    between them; the first discard of a following joker)."""
    knowledge = Knowledge.from_view(view)
    distinct = _distinct(view, knowledge)
    if not isinstance(action, Play):
        return action
    if action.mode is JokerMode.DISCARD and view.trick.plays:
        # Every discard of a following joker is in ``distinct``, but the search keeps the
        # first only: whichever suit it names, that is the one searched.
        return next(
            play
            for play in distinct
            if isinstance(play, Play) and play.card == action.card and play.mode is action.mode
        )
    if action in distinct:
        return action
    kept = {play.card for play in distinct if isinstance(play, Play)}
    card = action.card
    below = [own for own in view.hand or () if own.suit is card.suit and own.bit < card.bit]
    return Play.of(max((own for own in below if own in kept), key=lambda own: own.bit))


def _search_root(
    view: View,
    rng: random.Random,
    iterations: int,
    deadline: float,
    rivalry: float,
    only: Bid | Play | None = None,
    worlds_wanted: int = WORLDS,
    *,
    cash: bool = False,
    solve_tricks: int = 0,
    model: BidModel | None = None,
    play_model: PlayModel | None = None,
    noise: float = NOISE,
    kept: tuple[Tree, tuple[float, float]] | None = None,
    shape: tuple[float, float] = (EXPLORATION, WIDENING),
) -> tuple[Tree, dict[int, Bid | Play], tuple[float, float]] | None:
    """Search ``view`` for up to ``iterations`` iterations (stopping between batches once
    ``deadline``, a ``perf_counter`` time, has passed) over the root's distinct actions,
    or ``only`` one of them: the tree, the root's actions by code and the reward scale;
    ``None`` when no world fits what the seat has seen. With ``cash``, a seat that needs
    every trick left and holds a sure winner does not search its low leads
    (``tactics.cashing_leads``): when the contract is nearly hopeless every lead scores
    about the same, and the search's noise would pick a low card as often as not. The
    last ``solve_tricks`` tricks of every playout are solved exactly for the seat
    (``ismcts.Solved``). With ``model`` the worlds are kept by that bid model
    (``ismcts.world_pool``), and with ``play_model`` by that play model too.
    ``noise``: the share of the others' cards played at random in the playouts. With
    ``kept`` (a tree rooted at this decision and the reward scale it was searched on)
    the search goes on with that tree, its rewards restated on this decision's scale.
    ``shape``: UCB1's exploration constant and progressive widening's
    (``ismcts.search``)."""
    knowledge = Knowledge.from_view(view)
    wanted = max(1, min(worlds_wanted, iterations))
    worlds = world_pool(view, knowledge, wanted, rng, model, play_model)
    if not len(worlds):
        return None
    rules = fastsim.rules_vector(view.rules, view.kind)
    score = fastsim.score_table(view.rules, view.kind, view.cards)
    actions = _distinct(view, knowledge)
    if cash and view.phase is Phase.PLAY:
        actions = cashing_leads(view, knowledge, cast(list[Play], actions))
    legal = {
        fastsim.encode_action(action): action
        for action in actions
        if only is None or action == only
    }
    if not legal:
        raise InvalidInputError(f"{only} is not one of the actions the search tries")
    scale = reward_scale(worlds, rules, score, rivalry)
    if kept is None:
        tree = Tree.with_capacity(min(iterations, _FIRST_CAPACITY) + 1, legal)
    else:
        tree, kept_scale = kept
        tree.rescale(kept_scale, scale)
        tree.restrict_root(legal)
    solved = Solved(solve_tricks, SolverTable.empty(_SOLVER_TABLE if solve_tricks else 1))
    done = 0
    while done < iterations and (done == 0 or time.perf_counter() < deadline):
        batch = min(_BATCH, iterations - done)
        tree.reserve(int(tree.size[0]) + batch + 1)
        search(tree, worlds, rules, score, scale, batch, rng, rivalry, solved, noise, *shape)
        done += batch
    return tree, legal, scale


@dataclass(frozen=True, slots=True)
class Outcome:
    """What becomes of one root action over deals of the hidden cards consistent with
    the seat's view, each played out after it by the search's playout policy: the
    share of deals in which the seat takes exactly its bid (``None`` in a round without
    bids), and the seat's mean tricks and round points; and ``won``, for each deal, which
    of the round's tricks the seat wins from this one on (bit ``t``: the ``t + 1``-th
    trick). The figures a review's reasons cite beside the search's expected points
    (docs/review.md)."""

    action: Bid | Play
    deals: int
    made: float | None
    tricks: float
    points: float
    won: tuple[int, ...]


def outcomes(
    view: View, actions: Sequence[Bid | Play], *, deals: int = 200, seed: int | str = 0
) -> tuple[Outcome, ...]:
    """The ``Outcome`` of each of ``actions`` (legal now for the seat of ``view``), over
    the same ``deals`` deals for every action (so they differ by the action alone).
    Only ``view`` is read. Deterministic for a seed."""
    if view.phase not in (Phase.BID, Phase.PLAY) or not view.my_turn or view.seat is None:
        raise InvalidInputError(f"seat {view.seat} has no bid or card to choose now")
    rng = decision_rng(f"outcomes/{seed}", view)
    worlds = world_pool(view, Knowledge.from_view(view), max(1, deals), rng)
    if not len(worlds):
        raise InvalidInputError("no deal of the hidden cards fits what the seat has seen")
    rules = fastsim.rules_vector(view.rules, view.kind)
    score = fastsim.score_table(view.rules, view.kind, view.cards)
    seat = view.seat
    points = np.empty(fastsim.MAX_PLAYERS, dtype=np.int64)
    out = []
    for action in actions:
        code = fastsim.encode_action(action)
        made = tricks = total = 0
        has_bid = True
        won = []
        for world in worlds:
            state = world.copy()
            before = int(state[fastsim.TAKEN + seat])
            trick = int(state[fastsim.S_TRICKS])
            fastsim.apply_action(state, rules, code)
            now = int(state[fastsim.TAKEN + seat]) > before
            won.append(fastsim.play_out_tricks(state, rules, seat) | now << trick)
            fastsim.round_points(state, score, points)
            bid, taken = int(state[fastsim.BIDS + seat]), int(state[fastsim.TAKEN + seat])
            has_bid = has_bid and bid >= 0
            made += bid == taken
            tricks += taken
            total += int(points[seat])
        count = len(worlds)
        share = made / count if has_bid else None
        out.append(Outcome(action, count, share, tricks / count, total / count, tuple(won)))
    return tuple(out)


def warm_up() -> Action:
    """Load the search's compiled code (compiling it, the first time after installing),
    so that the first real decision is not held up: one tiny decision of one iteration,
    returned. The server runs it in the background as it starts."""
    game = Game(resolve_rules(custom_plan=("2",)), 3, seed=0)
    seat = game.to_act
    assert seat is not None
    return ExpertBot(iterations=1).act(game.view(seat))


def _distinct(view: View, knowledge: Knowledge) -> list[Bid] | list[Play]:
    """The legal actions without cards that cannot differ in effect, which would only
    split the search's visits: of legal cards in sequence (no unseen card between them,
    nor one on the table in this trick, which the higher card beats and the lower does
    not) only the lowest. Only legal cards stand for each other: under a joker's
    «highest» demand the highest card of the suit is the one legal, whatever lower cards
    of it the hand holds. (Of a following joker's discards the search itself keeps one.)"""
    if view.phase is Phase.BID:
        return [action for action in view.legal_actions if isinstance(action, Bid)]
    out: list[Play] = []
    legal = mask_of(play.card for play in view.legal_actions if isinstance(play, Play))
    splitting = knowledge.unseen
    for play in view.trick.plays:
        splitting |= play.card.bit
    for action in view.legal_actions:
        assert isinstance(action, Play)
        card = action.card
        if card.suit is not None:
            lower_own = legal & SUIT_MASKS[card.suit] & (card.bit - 1)
            if lower_own:
                nearest = 1 << (lower_own.bit_length() - 1)
                between = (card.bit - 1) & ~(2 * nearest - 1)
                if not between & splitting:
                    continue  # our next lower card of the suit is as good, and searched
        out.append(action)
    return out
