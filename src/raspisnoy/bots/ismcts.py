"""Information-set Monte Carlo tree search over sampled worlds, compiled with Numba.

The expert's search (``raspisnoy.bots.expert``). It works on states of
``raspisnoy.bots.fastsim``:

1. **Worlds.** The cards the seat cannot see are dealt many times at random within
   everything public (``Knowledge``: played cards, revealed voids, answers to a joker's
   "highest" demand, cards shown). Three times as many deals are drawn as kept, and the
   kept ones are drawn in proportion to how well they explain the bids the others made
   (the summed squares of bid minus the hand's quick trick count, as a Gaussian
   likelihood), so the search believes a player who bid 3 holds a hand worth about 3.
2. **Tree.** One tree over the information set (single-observer ISMCTS, as in Cowling,
   Powley and Whitehouse 2012): each iteration takes a world, walks down the tree
   choosing among the children whose actions are legal in that world by UCB1 with
   availability counts, adds one node, plays the rest of the round out with the fast
   simulator's contract-aware policy (the others' cards at random some of the time,
   ``NOISE``: real players are less predictable), and credits every node on the path with
   the utility of the seat that chose its action: its round points less half the mean
   of the others' (``RIVALRY``). Nodes widen progressively: a node gains children as it
   gains visits, the policy's choice first, so that a decision deep in the tree, under
   many different plays of the others, follows the policy until it has been visited
   often enough to judge the alternatives.
3. **Scale.** Utilities are measured from the mean, in units of the standard deviation,
   of the outcomes of the policy alone over the worlds: the exploration constant then means
   the same in a 1-card round worth a few points and in a 9-card round worth ninety, and
   under every scoring table.
4. **Choice.** The root's most visited action.

Everything random inside the compiled code comes from a NumPy ``Generator`` seeded from
the decision's ``random.Random`` for each batch of iterations, so a decision is a function
of the bot's seed and the view, as the bot protocol requires.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from raspisnoy.bots import fastsim as fs
from raspisnoy.bots import solver
from raspisnoy.bots.fastsim import Int64s, compiled, inlined
from raspisnoy.bots.inference import (
    BASIS,
    FEATURES,
    BidModel,
    bid_contexts,
    bid_log_likelihood,
    hand_features,
)
from raspisnoy.bots.knowledge import Knowledge, bits
from raspisnoy.bots.play_inference import (
    ROW_SIZE,
    PlayModel,
    past_plays,
    play_misfit,
    play_scores,
)
from raspisnoy.bots.solver import Table as SolverTable
from raspisnoy.core import RoundKind, View

__all__ = ["Solved", "Tree", "reward_scale", "search", "world_pool"]

Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]

#: Deals drawn per world kept, before weighting by the bids.
OVERSAMPLE = 3
#: How closely a hand's quick trick count is expected to match its owner's bid.
BID_SIGMA = 1.0
#: Tries at dealing one world before giving up (a draw can paint itself into a corner).
_SAMPLE_ATTEMPTS = 20
#: The UCB1 exploration constant, for rewards in units of the spread of the outcomes.
EXPLORATION = 1.0
#: Worlds played out by the policy alone to measure that spread, and its least value as
#: a share of the score table's range (a sure outcome must not make every point huge).
#: Fifty measure it to about a tenth (a standard deviation from n draws is off by about
#: 1/√(2n)), closely enough: no setting of the scale or of the exploration constant
#: measurably changed the results (docs/bots.md), and at 300 iterations a decision the
#: 200 pilot playouts of before took as long as the search itself.
_PILOT_WORLDS = 50
_MIN_SPAN = 0.05
#: Progressive widening: a node visited n times has 1 + ⌊WIDENING × √n⌋ children at most.
WIDENING = 0.25
#: In the playouts, the share of the others' cards played at random rather than by the
#: policy. The policy always takes or ducks as its contract says; real opponents do not,
#: and a search that trusts them to is too sure that it can duck. Without this noise the
#: expert made 26% of its bids 0 against OpenSpiel's ISMCTS (which made 9%), and made
#: only 63% of them (ISMCTS 74%); with it, 11% and 71% (docs/bots.md, "Measured").
NOISE = 0.9
#: How much each seat minds the others' points: it plays for its own round points minus
#: RIVALRY times the mean of the others', as a player out to win the game does, and so
#: spoils an opponent's contract when that costs it little. Against OpenSpiel's ISMCTS
#: this took ISMCTS's share of exact bids from 66% to 61% at no cost to the expert's own.
RIVALRY = 0.5
#: ``_noisy_play_out_solving``'s answer when it solved nothing.
NOT_SOLVED = -(1 << 50)
#: The longest path of one iteration: every bid and play of a round of 10 players.
_MAX_DEPTH = 512
_FLAGS = fs.BID_BASE + fs.MAX_ACTIONS
#: Set in an action code (above every real code) by whoever walks a tree down observed
#: plays (``Tree.descend``): a following joker's discard, whichever suit it named.
FOLLOWING_DISCARD = 1 << 20
#: The tree's arrays with one entry per node.
_NODE_ARRAYS = ("action", "player", "first_child", "next_sibling", "visits", "avail", "reward")


@dataclass(slots=True)
class Tree:
    """The search tree as parallel arrays; ``size[0]`` nodes are used and the search
    starts at node ``root``: node 0 at first, a deeper node when a seat's next decision
    goes on with the subtree of its last (``descend``, ``raspisnoy.bots.reuse``).

    A link to node 0 means none (node 0 is nobody's child or sibling), so that every
    array starts as zeros: the memory of a large capacity is only touched as it fills.

    ``player`` is the seat whose action led to the node, ``reward`` the sum of that
    seat's scaled utility over the iterations through it, ``avail`` how often the node's
    action was legal when its parent was visited. ``root_actions`` flags, by action code,
    what the searching seat may really do: a world can allow more (a bid of 0 that the
    seat's own streak of 0 bids forbids, which worlds do not track); the root's children
    of other actions (made when it was a deeper node) are kept but never chosen.
    """

    action: Int64s
    player: Int64s
    first_child: Int64s
    next_sibling: Int64s
    visits: Int64s
    avail: Int64s
    reward: Floats
    size: Int64s
    root_actions: Bools
    root: int = 0

    @classmethod
    def with_capacity(cls, nodes: int, root_actions: Iterable[int]) -> Tree:
        """An empty tree (just the root) with room for ``nodes`` nodes, searching the
        action codes ``root_actions`` at the root."""

        def ints() -> Int64s:
            return np.zeros(nodes, dtype=np.int64)

        return cls(
            action=ints(),
            player=ints(),
            first_child=ints(),
            next_sibling=ints(),
            visits=ints(),
            avail=ints(),
            reward=np.zeros(nodes, dtype=np.float64),
            size=np.ones(1, dtype=np.int64),
            root_actions=_flags(root_actions),
        )

    def reserve(self, nodes: int) -> None:
        """Make room for ``nodes`` nodes at least (doubling, so that a search that goes on
        batch after batch copies its tree only a few times)."""
        capacity = self.action.shape[0]
        if nodes <= capacity:
            return
        extra = max(nodes, 2 * capacity) - capacity
        for name in _NODE_ARRAYS:
            array = getattr(self, name)
            setattr(self, name, np.concatenate((array, np.zeros(extra, dtype=array.dtype))))

    def root_visits(self) -> dict[int, int]:
        """The root's children: action code to visits."""
        return {code: visits for code, (visits, _) in self.root_rewards().items()}

    def root_rewards(self) -> dict[int, tuple[int, float]]:
        """The root's children of ``root_actions``: action code to (visits, summed scaled
        reward)."""
        out: dict[int, tuple[int, float]] = {}
        child = int(self.first_child[self.root])
        while child > 0:
            code = int(self.action[child])
            if self.root_actions[code]:
                out[code] = (int(self.visits[child]), float(self.reward[child]))
            child = int(self.next_sibling[child])
        return out

    def best_action(self) -> int:
        """The most visited action at the root (of equals, the better mean reward)."""
        rewards = self.root_rewards()
        return max(
            rewards,
            key=lambda code: (rewards[code][0], rewards[code][1] / max(rewards[code][0], 1)),
            default=-1,
        )

    def restrict_root(self, codes: Iterable[int]) -> None:
        """Search only the action codes ``codes`` at the root from now on."""
        self.root_actions = _flags(codes)

    def descend(self, codes: Iterable[int]) -> int:
        """The node the actions ``codes`` lead to from the root (in the order they were
        made), or 0 if the tree does not hold them all. A code with ``FOLLOWING_DISCARD``
        set matches any discard of its joker: the search keeps one discard of a following
        joker, and the suit it names changes nothing."""
        node = self.root
        for code in codes:
            node = self._child(node, code)
            if node == 0:
                break
        return node

    def _child(self, node: int, code: int) -> int:
        """The child of ``node`` reached by the action ``code`` (0: none)."""
        loose = code & FOLLOWING_DISCARD
        wanted = (code & ~FOLLOWING_DISCARD) >> 2 if loose else code
        child = int(self.first_child[node])
        while child > 0:
            action = int(self.action[child])
            if (action >> 2 if loose else action) == wanted:
                return child
            child = int(self.next_sibling[child])
        return 0

    def rescale(self, old: tuple[float, float], new: tuple[float, float]) -> None:
        """Restate every node's summed reward, measured on the scale ``old`` (origin,
        unit: ``reward_scale``), on the scale ``new``: a kept tree's rewards then add up
        with those of a decision that measured its own scale."""
        (old_low, old_span), (new_low, new_span) = old, new
        used = int(self.size[0])
        visits = self.visits[:used]
        self.reward[:used] = (
            self.reward[:used] * old_span + visits * (old_low - new_low)
        ) / new_span


@dataclass(frozen=True, slots=True)
class Solved:
    """The exact solver's part in one decision's search: the last ``tricks`` tricks of
    every playout are solved for the searching seat (0: none), with ``table`` (a
    transposition table of this decision's rules and seat)."""

    tricks: int
    table: SolverTable


def reward_scale(
    worlds: Int64s, rules: Int64s, score: Int64s, rivalry: float = RIVALRY
) -> tuple[float, float]:
    """The origin and unit of the search's rewards for one decision (point 3 of the module
    docstring): the mean and standard deviation of the seat's utility when the first
    ``_PILOT_WORLDS`` worlds are played out by the policy, the unit at least a small share
    of the score table's range. Measure it once per decision: it costs as much as some
    tens of iterations."""
    low, span = _spread(worlds[:_PILOT_WORLDS], rules, score, rivalry)
    return low, max(span, _MIN_SPAN * float(score.max() - score.min()), 1.0)


def search(
    tree: Tree,
    worlds: Int64s,
    rules: Int64s,
    score: Int64s,
    scale: tuple[float, float],
    iterations: int,
    rng: random.Random,
    rivalry: float = RIVALRY,
    solved: Solved | None = None,
    noise: float = NOISE,
    exploration: float = EXPLORATION,
    widening: float = WIDENING,
) -> None:
    """Run ``iterations`` more iterations (fewer if the tree fills up) on ``tree``, with
    rewards measured on the ``scale`` of ``reward_scale`` (measured with the same
    ``rivalry``), the others' cards in the playouts at random ``noise`` of the time, UCB1's
    ``exploration`` constant and progressive ``widening`` as ``EXPLORATION`` and
    ``WIDENING`` say.
    With ``solved`` (a ``Solved`` of this decision), the searching seat's points in the
    last tricks of each playout are solved exactly instead of played out."""
    low, span = scale
    if solved is None:
        solved = Solved(0, SolverTable.empty(1))
    _search(
        worlds,
        rules,
        score,
        low,
        span,
        exploration,
        noise,
        rivalry,
        widening,
        iterations,
        _generator(rng),
        tree.action,
        tree.player,
        tree.first_child,
        tree.next_sibling,
        tree.visits,
        tree.avail,
        tree.reward,
        tree.size,
        tree.root_actions,
        tree.root,
        solved.tricks,
        solved.table.keys,
        solved.table.bounds,
    )


@compiled
def _search(
    worlds: Int64s,
    rules: Int64s,
    score: Int64s,
    low: float,
    span: float,
    exploration: float,
    noise: float,
    rivalry: float,
    widening: float,
    iterations: int,
    gen: np.random.Generator,
    action: Int64s,
    player: Int64s,
    first_child: Int64s,
    next_sibling: Int64s,
    visits: Int64s,
    avail: Int64s,
    reward: Floats,
    size: Int64s,
    root_actions: Bools,
    root: int,
    solve_tricks: int,
    keys: Int64s,
    bounds: Int64s,
) -> None:
    legal = np.empty(fs.MAX_ACTIONS, dtype=np.int64)
    legal_flag = np.zeros(_FLAGS, dtype=np.bool_)
    path = np.empty(_MAX_DEPTH, dtype=np.int64)
    points = np.empty(fs.MAX_PLAYERS, dtype=np.int64)
    utility = np.empty(fs.MAX_PLAYERS, dtype=np.float64)
    capacity = action.shape[0]
    seat = worlds[0, fs.S_TO_ACT]
    for _ in range(iterations):
        state = worlds[fs.below(gen, worlds.shape[0])].copy()
        node, depth = root, 0
        while state[fs.S_PHASE] != fs.PHASE_OVER:
            count = fs.legal_actions(state, rules, legal)
            if state[fs.S_PLAYED]:
                count = _one_discard_per_joker(legal, count)
            if node == root:
                count = _keep(legal, count, root_actions)
            for j in range(count):
                legal_flag[legal[j]] = True
            # Children legal in this world: count their availability, pick the best by UCB1.
            best, best_value = -1, -1.0
            child = first_child[node]
            while child > 0:
                if legal_flag[action[child]]:
                    legal_flag[action[child]] = False  # seen: not an untried action
                    avail[child] += 1
                    value = reward[child] / visits[child] + exploration * math.sqrt(
                        math.log(avail[child]) / visits[child]
                    )
                    if value > best_value:
                        best, best_value = child, value
                child = next_sibling[child]
            untried = 0
            for j in range(count):
                if legal_flag[legal[j]]:
                    legal_flag[legal[j]] = False
                    legal[untried] = legal[j]
                    untried += 1
            # Progressive widening: a node gains children as it gains visits, the
            # policy's choice first, so rarely visited nodes follow the policy rather
            # than spend their few visits on every legal action.
            widen = node == root or count - untried <= int(widening * math.sqrt(visits[node]))
            if untried and widen and size[0] < capacity:
                new = size[0]
                size[0] += 1
                action[new] = _newcomer(state, rules, legal, untried, gen)
                player[new] = state[fs.S_TO_ACT]
                next_sibling[new] = first_child[node]
                first_child[node] = new
                avail[new] = 1
                fs.apply_action(state, rules, action[new])
                depth += 1
                path[depth] = new
                break
            if best < 0:
                break  # the tree is full: play the rest out from here
            fs.apply_action(state, rules, action[best])
            node = best
            depth += 1
            path[depth] = node
        solved = _noisy_play_out_solving(
            state, rules, score, seat, noise, gen, solve_tricks, keys, bounds
        )
        _utilities(state, score, rivalry, points, utility, seat, solved)
        for step in range(1, depth + 1):
            visited = path[step]
            visits[visited] += 1
            reward[visited] += (utility[player[visited]] - low) / span


@compiled
def _newcomer(
    state: Int64s, rules: Int64s, untried: Int64s, count: int, gen: np.random.Generator
) -> int:
    """The action to add as a new child: the policy's, if untried, else a random one of
    the ``count`` untried actions."""
    favourite = fs.policy_action(state, rules)
    for j in range(count):
        if untried[j] == favourite:
            return favourite
    return int(untried[fs.below(gen, count)])


@compiled
def _noisy_play_out_solving(
    state: Int64s,
    rules: Int64s,
    score: Int64s,
    seat: int,
    noise: float,
    gen: np.random.Generator,
    solve_tricks: int,
    keys: Int64s,
    bounds: Int64s,
) -> int:
    """``fastsim.noisy_play_out``, and ``seat``'s points solved exactly
    (``solver.solve``) from the first moment of the card play with ``solve_tricks`` tricks
    left or fewer; ``NOT_SOLVED`` when ``solve_tricks`` is 0 or that moment never came
    (the tree walk went past it)."""
    solved = NOT_SOLVED
    if solve_tricks > 0:
        while state[fs.S_PHASE] == fs.PHASE_BID or (
            state[fs.S_PHASE] == fs.PHASE_PLAY
            and state[fs.S_CARDS] - state[fs.S_TRICKS] > solve_tricks
        ):
            fs.noisy_play_out_step(state, rules, seat, noise, gen)
        if state[fs.S_PHASE] == fs.PHASE_PLAY:
            solved = solver.solve_arrays(state, rules, score, seat, keys, bounds)
    fs.noisy_play_out(state, rules, seat, noise, gen)
    return solved


@compiled
def _utilities(
    state: Int64s,
    score: Int64s,
    rivalry: float,
    points: Int64s,
    out: Floats,
    seat: int,
    solved: int,
) -> None:
    """Each seat's utility of the finished round ``state``: its points (written to
    ``points``; ``seat``'s are ``solved`` unless that is ``NOT_SOLVED``) minus
    ``rivalry`` times the mean of the others'."""
    fs.round_points(state, score, points)
    if solved != NOT_SOLVED:
        points[seat] = solved
    players = state[fs.S_PLAYERS]
    total = 0
    for seat in range(players):
        total += points[seat]
    for seat in range(players):
        out[seat] = points[seat] - rivalry * (total - points[seat]) / (players - 1)


@compiled
def _spread(worlds: Int64s, rules: Int64s, score: Int64s, rivalry: float) -> tuple[float, float]:
    """The mean and standard deviation of the utility of the seat to act when every
    world is played out by the policy: the scale of the rewards at stake in this
    decision."""
    points = np.empty(fs.MAX_PLAYERS, dtype=np.int64)
    utility = np.empty(fs.MAX_PLAYERS, dtype=np.float64)
    seat = worlds[0, fs.S_TO_ACT]
    outcomes = np.empty(worlds.shape[0], dtype=np.float64)
    for i in range(worlds.shape[0]):
        state = worlds[i].copy()
        fs.play_out(state, rules)
        _utilities(state, score, rivalry, points, utility, seat, NOT_SOLVED)
        outcomes[i] = utility[seat]
    return outcomes.mean(), outcomes.std()


def _generator(rng: random.Random) -> np.random.Generator:
    """A NumPy generator for compiled code, seeded from the decision's ``rng``."""
    return np.random.default_rng(rng.getrandbits(64))


def _flags(codes: Iterable[int]) -> Bools:
    flags = np.zeros(_FLAGS, dtype=np.bool_)
    flags[list(codes)] = True
    return flags


@compiled
def _keep(actions: Int64s, count: int, flags: Bools) -> int:
    """Keep only the first ``count`` actions that ``flags`` allows; how many are left."""
    kept = 0
    for j in range(count):
        if flags[actions[j]]:
            actions[kept] = actions[j]
            kept += 1
    return kept


@compiled
def _one_discard_per_joker(actions: Int64s, count: int) -> int:
    """Drop a following joker's discards but the first: the suit it names changes nothing
    once a suit is led, and four copies of one choice would split its visits."""
    kept = 0
    for j in range(count):
        code = actions[j]
        card, mode = code >> 4, code >> 2 & 3
        if mode == fs.M_DISCARD and kept:
            previous = actions[kept - 1]
            if previous >> 4 == card and (previous >> 2 & 3) == fs.M_DISCARD:
                continue  # this joker's first discard is kept already
        actions[kept] = code
        kept += 1
    return kept


def world_pool(
    view: View,
    knowledge: Knowledge,
    count: int,
    rng: random.Random,
    model: BidModel | None = None,
    play_model: PlayModel | None = None,
) -> Int64s:
    """``count`` world states for the search (fewer, possibly none, when the deductions
    leave no consistent deal; that should not happen), kept in proportion to the
    likelihood of the others' bids: under ``model`` (learned inference,
    ``raspisnoy.bots.inference``), or without one the Gaussian of point 1 of the module
    docstring; and with ``play_model``, of their plays so far in the round too
    (``raspisnoy.bots.play_inference``)."""
    if view.trump_hidden:
        return _hidden_trump_pool(view, knowledge, count, rng)
    players = view.players
    base = fs.world_state(view, list(knowledge.known), view.trump_card)
    allowed = np.array(knowledge.allowed, dtype=np.int64)
    known = np.array(knowledge.known, dtype=np.int64)
    room = np.array([knowledge.hidden_count(seat) for seat in range(players)], dtype=np.int64)
    cards = np.array(bits(knowledge.unseen), dtype=np.int64)
    undealt = knowledge.unseen.bit_count() - int(room.sum())
    played = np.zeros(players, dtype=np.int64)
    for trick in (*view.tricks, view.trick):
        for position, play in enumerate(trick.plays):
            played[(trick.leader + position) % players] |= play.card.bit
    bids = np.full(players, -1, dtype=np.int64)
    contexts = np.zeros((players, len(FEATURES)), dtype=np.float64)
    forbidden = np.full(players, -1, dtype=np.int64)
    if model is not None:
        for seat, context in enumerate(bid_contexts(view)):
            bid = None if view.bids is None else view.bids[seat]
            if context is not None and bid is not None and seat != view.seat:
                bids[seat], contexts[seat], forbidden[seat] = (
                    bid,
                    context.vector(),
                    context.forbidden,
                )
    elif view.bids is not None and view.kind is not RoundKind.BLIND:
        for seat, bid in enumerate(view.bids):
            if bid is not None and seat != view.seat:
                bids[seat] = bid
    likelihood = _Likelihood(
        BID_SIGMA,
        model is not None,
        _NO_MODEL if model is None else model.weights,
        contexts,
        forbidden,
    )
    worlds = np.empty((count, fs.STATE_SIZE), dtype=np.int64)
    filled = _fill_worlds(
        base,
        known,
        allowed,
        room,
        cards,
        undealt,
        played,
        bids,
        likelihood,
        _play_rows(view, play_model),
        _generator(rng),
        worlds,
    )
    return worlds[:filled]


def _hidden_trump_pool(view: View, knowledge: Knowledge, count: int, rng: random.Random) -> Int64s:
    """Worlds for a blind round's bids, where the trump card is drawn with each world
    (rare and small: dealt in Python with ``Knowledge``)."""
    states = []
    for _ in range(count):
        hands = knowledge.sample(rng)
        if hands is None:
            break
        states.append(fs.world_state(view, hands, knowledge.draw_trump_card(hands, rng)))
    if not states:
        return np.empty((0, fs.STATE_SIZE), dtype=np.int64)
    return np.stack(states)


@compiled
def _by_constraint(allowed: Int64s, cards: Int64s) -> tuple[Int64s, Int64s]:
    """``cards`` ordered by how many seats may hold them, fewest first, and where each
    group of equally constrained cards ends in that order."""
    eligible = np.zeros(cards.shape[0], dtype=np.int64)
    for i in range(cards.shape[0]):
        for seat in range(allowed.shape[0]):
            eligible[i] += (allowed[seat] >> cards[i]) & 1
    ranking = np.argsort(eligible, kind="mergesort")
    order, counts = cards[ranking], eligible[ranking]
    ends = [
        i + 1
        for i in range(order.shape[0])
        if i + 1 == order.shape[0] or counts[i + 1] != counts[i]
    ]
    return order, np.array(ends, dtype=np.int64)


@compiled
def _deal(
    known: Int64s,
    allowed: Int64s,
    room: Int64s,
    order: Int64s,
    ends: Int64s,
    undealt: int,
    out: Int64s,
    gen: np.random.Generator,
) -> bool:
    """Deal the cards of ``order`` (shuffled in place within its groups of
    ``_by_constraint``, so the most constrained go first) to the seats with room that
    may hold them, weighted by their room, or leave them undealt; ``False`` when a card
    finds no seat."""
    players = known.shape[0]
    start = 0
    for end in ends:
        for i in range(end - 1, start, -1):
            j = start + fs.below(gen, i - start + 1)
            order[i], order[j] = order[j], order[i]
        start = end
    left = room.copy()
    rest = undealt
    for seat in range(players):
        out[seat] = known[seat]
    for card in order:
        total = rest
        for seat in range(players):
            if left[seat] and (allowed[seat] >> card) & 1:
                total += left[seat]
        if total == 0:
            return False
        pick = fs.below(gen, total)
        if pick < rest:
            rest -= 1
            continue
        pick -= rest
        for seat in range(players):
            if left[seat] and (allowed[seat] >> card) & 1:
                if pick < left[seat]:
                    left[seat] -= 1
                    out[seat] |= np.int64(1) << card
                    break
                pick -= left[seat]
    return True


@compiled
def _free(allowed: Int64s, room: Int64s, cards: Int64s) -> bool:
    """Whether every seat with room in its hand may hold every one of ``cards``."""
    everything = 0
    for card in cards:
        everything |= np.int64(1) << card
    for seat in range(allowed.shape[0]):
        if room[seat] and allowed[seat] & everything != everything:
            return False
    return True


@inlined
def _deal_freely(
    known: Int64s, room: Int64s, order: Int64s, out: Int64s, gen: np.random.Generator
) -> bool:
    """``_deal`` where every seat with room may hold every card of ``order``: the first
    cards of a shuffle of ``order`` split by the seats' room, the rest left undealt. Every
    deal is as likely as with ``_deal``'s card-by-card draws, at a fraction of the cost
    (the bidding and the first tricks of every round deal this way)."""
    dealt = 0
    for seat in range(known.shape[0]):
        out[seat] = known[seat]
        dealt += room[seat]
    for i in range(dealt):
        j = i + fs.below(gen, order.shape[0] - i)
        order[i], order[j] = order[j], order[i]
    i = 0
    for seat in range(known.shape[0]):
        for _ in range(room[seat]):
            out[seat] |= np.int64(1) << order[i]
            i += 1
    return True


class _Likelihood(NamedTuple):
    """How ``_fill_worlds`` scores a seat's bid given its hand: by the Gaussian of width
    ``sigma`` around the hand's quick trick count, or when ``learned`` by the bid model's
    ``weights``, each seat's features of the context in ``contexts`` and the bid the
    dealer's constraint forbade it in ``forbidden`` (``raspisnoy.bots.inference``)."""

    sigma: float
    learned: bool
    weights: Floats
    contexts: Floats
    forbidden: Int64s


class _Plays(NamedTuple):
    """The plays ``_fill_worlds`` weighs each deal by (``play_inference``): their
    ``rows`` (none: the plays weigh nothing) and the model's ``scores`` of each card at
    each play's moment."""

    rows: Int64s
    scores: Floats


def _play_rows(view: View, model: PlayModel | None) -> _Plays:
    """The others' plays of the round so far and their scores under ``model`` (none
    without one)."""
    if model is None:
        return _NO_PLAYS
    rows = past_plays(view)
    return _Plays(rows, play_scores(rows, model.weights))


_NO_PLAYS = _Plays(np.zeros((0, ROW_SIZE), dtype=np.int64), np.ones((0, 52)))


#: The weights passed when no model is used (the compiled code needs an array).
_NO_MODEL = np.zeros((len(BASIS), len(FEATURES)), dtype=np.float64)


@inlined
def _misfit(
    likelihood: _Likelihood, hand: int, seat: int, bids: Int64s, base: Int64s, x: Floats
) -> float:
    """How badly ``hand`` explains ``seat``'s bid: the squared distance from the hand's
    quick trick count, or the model's negative log-likelihood (``x``: room for the
    features)."""
    trump = base[fs.S_TRUMP]
    if not likelihood.learned:
        return float((bids[seat] - fs.hand_value(hand, trump)) ** 2)
    x[:] = likelihood.contexts[seat]
    hand_features(hand, trump, x)
    return -bid_log_likelihood(
        likelihood.weights, x, bids[seat], base[fs.S_CARDS], likelihood.forbidden[seat]
    )


@compiled
def _fill_worlds(
    base: Int64s,
    known: Int64s,
    allowed: Int64s,
    room: Int64s,
    cards: Int64s,
    undealt: int,
    played: Int64s,
    bids: Int64s,
    likelihood: _Likelihood,
    plays: _Plays,
    gen: np.random.Generator,
    worlds: Int64s,
) -> int:
    """Fill ``worlds`` with states of ``base`` holding dealt hands, drawn from
    ``OVERSAMPLE`` times as many deals in proportion to the ``likelihood`` of the
    ``bids`` (-1: nothing to explain) and of the ``plays``' rows (none: nothing to
    explain); returns how many were filled (0: no deal fits)."""
    players = known.shape[0]
    # The Gaussian's misfit is the squared distance, the model's the negative log-likelihood.
    spread = 1.0 if likelihood.learned else 2 * likelihood.sigma**2
    wanted = worlds.shape[0]
    drawn = wanted * OVERSAMPLE
    hands = np.empty((drawn, players), dtype=np.int64)
    misfit = np.zeros(drawn, dtype=np.float64)
    features = np.empty(likelihood.contexts.shape[1], dtype=np.float64)
    order, ends = _by_constraint(allowed, cards)
    free = _free(allowed, room, cards)
    got = 0
    for _ in range(drawn):
        dealt = False
        for _attempt in range(_SAMPLE_ATTEMPTS):
            if free:
                dealt = _deal_freely(known, room, order, hands[got], gen)
            else:
                dealt = _deal(known, allowed, room, order, ends, undealt, hands[got], gen)
            if dealt:
                break
        if not dealt:
            continue
        for seat in range(players):
            if bids[seat] >= 0:
                hand = hands[got, seat] | played[seat]
                misfit[got] += _misfit(likelihood, hand, seat, bids, base, features)
        if plays.rows.shape[0]:  # a log-likelihood, on the bids' misfit's scale
            misfit[got] += spread * play_misfit(hands[got], plays.rows, plays.scores)
        got += 1
    if got == 0:
        return 0
    weights = np.exp((misfit[:got].min() - misfit[:got]) / spread)
    cumulative = np.cumsum(weights)
    # Systematic resampling: ``wanted`` evenly spaced points on the cumulative weights.
    step = cumulative[-1] / wanted
    point = gen.random() * step
    chosen = 0
    for i in range(wanted):
        while cumulative[chosen] < point:
            chosen += 1
        worlds[i] = base
        for seat in range(players):
            worlds[i, fs.HANDS + seat] = hands[chosen, seat]
        point += step
    return int(wanted)
