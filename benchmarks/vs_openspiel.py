"""Our expert bot against OpenSpiel's C++ ISMCTS on OpenSpiel's own ``oh_hell``.

The game is OpenSpiel's ``oh_hell`` with players=4, num_suits=4, num_cards_per_suit=9,
num_tricks_fixed=8, off_bid_penalty=true, points_per_trick=1: an exact bid scores
tricks + 10, a miss loses one point per trick off the bid. Our expert plays it as a
``pyspiel.Bot``: at each of its turns the pyspiel state's history (the deal, the trump,
the bids and cards so far) is replayed into our engine under the matching ruleset
(``oh-hell`` with a 36-card deck, one round of 8 cards, the same scoring), and the
expert decides from that seat's ``View`` only, as everywhere else. Its opponents are
``pyspiel.ISMCTSBot`` with a ``RandomRolloutEvaluator`` and 10,000 simulations a move.

Each deal is played twice: experts in seats 0 and 2 against ISMCTS in 1 and 3, then the
other way round, so both sides hold every hand. The expert gets the same wall time per
move as ISMCTS takes: its mean time per move so far in the run (at first, in one
calibration episode of four ISMCTS bots), so the two stay equal as the machine's load
changes; ``--time-ms`` fixes it instead, and ``--iterations`` fixes the expert's search
at that many iterations a move whatever the time (on a loaded machine, where times
are noisy, the fairer match: the ratio of the two sides' times in the same run is
reported as ``ismcts_time_ratio``). Forced moves (one legal action) are played
without asking either bot. Each worker process loads the expert's compiled search
before its first deal (``expert.warm_up``), so that no move's time includes loading it.

Run: ``scripts/bootstrap dev,bench && .venv/bin/python benchmarks/vs_openspiel.py
--deals 200 --workers 2 --log vs.jsonl``. It prints mean returns per side with 95%
confidence intervals, the difference per deal, both sides' time per move, shares of exact
bids and of bids of 0, and the playout rates of our simulator and of OpenSpiel's ISMCTS;
``--json FILE`` also writes them. Times are wall times and, beside them, the CPU time of
the thread that moved (``ismcts_cpu_time_ratio``): on a shared machine a move of a few
milliseconds spends most of its wall time waiting for a core, which makes the ratio of
wall times a measure of the load rather than of the bots. With ``--log`` every finished
deal (returns, bids, tricks taken, times) is appended to the file, and a run started
again with the same log goes on from where it stopped. ``--simulations`` and
``--first-deal`` run smaller or other matches, to try a change of the expert quickly
before the full one; ``--bid-iterations`` gives the expert's bids a budget of their own;
``--rivalry`` and ``--noise`` set the expert's ``ExpertBot.rivalry`` and ``.noise`` (how
much it minds the others' points, how often the others play at random in its playouts;
``--bid-noise`` its ``.bid_noise``, the same for its bids' searches only),
``--worlds`` its ``.worlds`` (deals of the hidden cards a decision), ``--reuse-tree``
its ``.reuse_tree`` (a decision goes on with the seat's last tree), ``--play-inference``
and ``--learned-inference`` its ``.play_inference`` and ``.learned_inference`` (worlds
weighed by the others' plays too; by the learned bid model), ``--exploration``
and ``--widening`` its UCB1 constant and progressive widening's. ``--paired-with LOG``
adds how much more the expert gained over ISMCTS than in another run's log, deal by deal
on the deals both played (a variant against the present expert on the same deals). The
figures record the learned models the expert ran with (``expert_learned_models``: each
model file's document, weights included), since retraining changes the shipped files.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel

sys.path.insert(0, str(Path(__file__).resolve().parent))
from openspiel_peer import load_oh_hell, measure_ismcts_simulations_per_s
from raspisnoy.bots import Bot, fastsim
from raspisnoy.bots.expert import ExpertBot, warm_up
from raspisnoy.core import Bid, Card, Game, Play, Suit, resolve_rules
from raspisnoy.core.fast import card_at
from vs_openspiel_logs import gap, mean_ci, read_log

PLAYERS, TRICKS, RANKS = 4, 8, 9
#: Our ruleset for OpenSpiel's game: 36 cards without a joker, one round of 8 cards, an
#: exact bid worth tricks + 10 and a miss one point off per trick.
RULES = resolve_rules(
    "oh-hell",
    lowest_rank=6,
    custom_plan=(str(TRICKS),),
    miss_scoring="under_over",
    undertrick_per_trick=-1,
    undertrick_counts="missing",
    overtrick_per_trick=-1,
    overtrick_counts="extra",
)
#: OpenSpiel's suits are C, D, S, H (card = rank * 4 + suit, ranks 2..T for 9 ranks).
_SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES, Suit.HEARTS)
_BID_BASE = PLAYERS * RANKS  # bid actions follow the 36 card actions
ISMCTS_SIMULATIONS = 10_000
#: The expert's time budget when its iterations are fixed: out of any search's reach.
_OUT_OF_REACH_MS = 10.0**7


def our_card(action: int) -> Card:
    """Our card for an OpenSpiel card action (its 2..T ranks become our 6..A)."""
    suit = _SUITS[action % 4]
    return card_at(13 * suit + (action // 4 + 6) - 2)


def their_action(action: Bid | Play) -> int:
    """OpenSpiel's action id for our bid or card."""
    if isinstance(action, Bid):
        return _BID_BASE + action.amount
    card = action.card
    assert card.suit is not None
    return (card.rank - 6) * 4 + _SUITS.index(card.suit)


#: Where a history's bids and plays start: after the number of tricks, the dealer, the
#: dealt cards and the trump card.
_DEAL_END = 3 + PLAYERS * TRICKS


def our_game(state: pyspiel.State) -> Game:
    """The pyspiel state's round replayed in our engine."""
    history = state.history()
    game = _dealt_game(history)
    for action in history[_DEAL_END:]:
        _apply(game, action)
    return game


def _dealt_game(history: list[int]) -> Game:
    """Our game of a pyspiel history, just dealt: its hands, trump card and dealer."""
    dealer = history[1]
    dealt = history[2 : 2 + PLAYERS * TRICKS]
    trump = our_card(history[2 + PLAYERS * TRICKS])
    hands = [[our_card(a) for a in dealt[seat::PLAYERS]] for seat in range(PLAYERS)]
    game = Game(RULES, PLAYERS, first_dealer=dealer)
    game.deal(hands, trump)
    return game


def _apply(game: Game, action: int) -> None:
    """Make the bid or play of OpenSpiel's ``action`` in our ``game``."""
    if action >= _BID_BASE:
        game.bid(action - _BID_BASE)
    else:
        game.play(Play.of(our_card(action)))


class OurBot(pyspiel.Bot):  # type: ignore[misc]
    """A raspisnoy bot as a ``pyspiel.Bot``: it sees only its seat's view. It keeps our
    game in step with the episode, applying only the actions made since its last turn
    (as a player follows the table), rather than replaying the whole round each time."""

    def __init__(self, player: int, bot: Bot) -> None:
        pyspiel.Bot.__init__(self)
        self._player = player
        self._bot = bot
        self._game: Game | None = None
        self._history: list[int] = []

    def player_id(self) -> int:
        return self._player

    def provides_policy(self) -> bool:
        return False

    def restart_at(self, state: pyspiel.State) -> None:
        self._game = None

    def step(self, state: pyspiel.State) -> int:
        history = state.history()
        if self._game is None or history[: len(self._history)] != self._history:
            self._game, self._history = _dealt_game(history), history[:_DEAL_END]
        for action in history[len(self._history) :]:
            _apply(self._game, action)
        self._history = history
        action = self._bot.act(self._game.view(self._player))
        assert isinstance(action, Bid | Play)
        return their_action(action)


def _ismcts(seed: int, simulations: int = ISMCTS_SIMULATIONS) -> pyspiel.Bot:
    return pyspiel.ISMCTSBot(seed, pyspiel.RandomRolloutEvaluator(1, seed), 2.0, simulations)


def play_episode(
    deal: int, bots: list[pyspiel.Bot]
) -> tuple[pyspiel.State, list[list[float]], list[list[float]]]:
    """One episode of deal ``deal`` (its chance outcomes come from the deal's seed):
    the final state and each seat's wall and CPU times per move in ms (the CPU time of
    the thread that moves: what a move costs, however loaded the machine). Forced moves
    are played without asking the bot."""
    game = load_oh_hell(off_bid_penalty=True, points_per_trick=1)
    rng = random.Random(f"vs-openspiel/{deal}")
    state = game.new_initial_state()
    times: list[list[float]] = [[] for _ in range(PLAYERS)]
    cpu: list[list[float]] = [[] for _ in range(PLAYERS)]
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        legal = state.legal_actions()
        player = state.current_player()
        if len(legal) == 1:
            state.apply_action(legal[0])
            continue
        started, started_cpu = time.perf_counter(), time.thread_time()
        action = bots[player].step(state)
        times[player].append((time.perf_counter() - started) * 1000)
        cpu[player].append((time.thread_time() - started_cpu) * 1000)
        state.apply_action(action)
    return state, times, cpu


def play_deal(
    args: tuple[int, float, int, int | None, int | None, dict[str, Any]],
) -> dict[str, Any]:
    """Both seatings of one deal (experts in the even seats, then in the odd ones) against
    ISMCTS with ``simulations`` a move, the expert with ``time_ms`` a move or, if given,
    ``iterations`` whatever the time (``bid_iterations``, if given, for its bids) and the
    ``ExpertBot`` attributes ``traits`` (rivalry, noise, …): returns, bids, tricks taken
    and times per move of each side (in ms, to 0.1 ms: a log of a long match stays small
    enough to keep)."""
    deal, time_ms, simulations, iterations, bid_iterations, traits = args
    if iterations is not None:
        time_ms = _OUT_OF_REACH_MS
    lists: tuple[str, ...] = ("ours", "theirs", "our_ms", "their_ms", "our_cpu_ms", "their_cpu_ms")
    lists += ("our_bids", "their_bids", "our_taken", "their_taken")
    out: dict[str, Any] = {"deal": deal} | {key: [] for key in lists}
    for ours_parity in (0, 1):
        bots = [
            OurBot(
                seat,
                _expert(f"{deal}/{seat}", time_ms, iterations, bid_iterations, traits),
            )
            if seat % 2 == ours_parity
            else _ismcts(deal * 10 + seat, simulations)
            for seat in range(PLAYERS)
        ]
        state, times, cpu = play_episode(deal, bots)
        returns, played = state.returns(), our_game(state).rounds()[-1]
        assert played.bids is not None
        for seat in range(PLAYERS):
            side, mine = ("ours", "our") if seat % 2 == ours_parity else ("theirs", "their")
            out[side].append(returns[seat])
            out[f"{mine}_ms"].extend(round(ms, 1) for ms in times[seat])
            out[f"{mine}_cpu_ms"].extend(round(ms, 1) for ms in cpu[seat])
            out[f"{mine}_bids"].append(played.bids[seat])
            out[f"{mine}_taken"].append(played.taken[seat])
    return out


def _expert(
    seed: str,
    time_ms: float,
    iterations: int | None,
    bid_iterations: int | None,
    traits: dict[str, Any],
) -> ExpertBot:
    """Our expert for one seat of one deal, with the ``ExpertBot`` attributes
    ``traits``."""
    bot = ExpertBot(
        seed=seed,
        time_ms=time_ms,
        iterations=iterations or 10**6,
        bid_iterations=bid_iterations or iterations or 10**6,
    )
    for name, value in traits.items():
        setattr(bot, name, value)
    return bot


def ismcts_simulations_per_s(samples: int = 5) -> float:
    """OpenSpiel's ISMCTS simulations per second at the opening lead (8 legal cards)."""
    rates = [
        measure_ismcts_simulations_per_s(ISMCTS_SIMULATIONS, seed=s)["simulations_per_s"]
        for s in range(samples)
    ]
    return statistics.fmean(rates)


def our_playouts_per_s(seconds: float = 2.0) -> dict[str, float]:
    """Our compiled simulator's playouts per second of a whole 8-card round from the
    opening lead (copy the state, then play to the end): with uniformly random legal
    moves, and with the contract-aware policy the expert's search uses."""
    rng = random.Random(0)
    game = Game(RULES, PLAYERS, seed=0)
    while game.phase == "bid":
        game.apply(rng.choice(game.legal_actions()))
    start_state = fastsim.encode_game(game)
    rules = fastsim.rules_vector(RULES, game.round.kind)
    gen = np.random.default_rng(0)
    playouts: dict[str, Callable[[Any], object]] = {
        "random": lambda state: fastsim.random_play_out(state, rules, gen),
        "policy": lambda state: fastsim.play_out(state, rules),
    }
    rates = {}
    for name, playout in playouts.items():
        playout(start_state.copy())  # compiled (or loaded) before the clock starts
        done, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            for _ in range(1000):
                playout(start_state.copy())
            done += 1000
        rates[name] = done / (time.perf_counter() - start)
    return rates


def _bid_figures(results: list[dict[str, Any]], side: str) -> dict[str, float]:
    """A side's share of exact bids and of bids of 0 (deals logged with bids only)."""
    pairs = [
        (bid, taken)
        for r in results
        if f"{side}_bids" in r
        for bid, taken in zip(r[f"{side}_bids"], r[f"{side}_taken"], strict=True)
    ]
    if not pairs:
        return {"exact": math.nan, "zero": math.nan}
    return {
        "exact": sum(bid == taken for bid, taken in pairs) / len(pairs),
        "zero": sum(bid == 0 for bid, _ in pairs) / len(pairs),
    }


def play_deals(
    deals: range,
    workers: int,
    time_ms: float | None,
    log: Path | None,
    simulations: int,
    iterations: int | None = None,
    bid_iterations: int | None = None,
    traits: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """Play the ``deals`` not yet in ``log`` (one JSON line per finished deal, appended as
    each finishes, so an interrupted run resumes where it stopped) against ISMCTS with
    ``simulations`` a move. The expert's budget is ``time_ms``, or else ISMCTS's mean
    time per move so far, updated after every deal so that the two stay equal when the
    machine's load changes. ``traits``: the expert's attributes to set (``ExpertBot``'s
    ``rivalry``, ``noise``, ``reuse_tree``, ``worlds``)."""
    results = read_log(log)
    calibration: list[float] = []
    if not results and time_ms is None and iterations is None:
        calibrators = [_ismcts(seat, simulations) for seat in range(PLAYERS)]
        seat_times = play_episode(-1, calibrators)[1]  # wall times: the budget is wall time
        calibration = [ms for seat in seat_times for ms in seat]

    def budget() -> float:
        seen = [ms for r in results for ms in r["their_ms"]] or calibration
        return time_ms or (statistics.fmean(seen) if seen else _OUT_OF_REACH_MS)

    todo = [deal for deal in deals if deal not in {r["deal"] for r in results}]
    with ProcessPoolExecutor(max_workers=workers, initializer=warm_up) as pool:
        pending: set[Future[dict[str, Any]]] = set()
        while todo or pending:
            while todo and len(pending) < workers:
                pending.add(
                    pool.submit(
                        play_deal,
                        (
                            todo.pop(0),
                            budget(),
                            simulations,
                            iterations,
                            bid_iterations,
                            traits or {},
                        ),
                    )
                )
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                result = future.result()
                results.append(result)
                if log is not None:
                    with log.open("a", encoding="utf-8") as file:
                        file.write(json.dumps(result) + "\n")
                expert = f"{iterations} iterations" if iterations else f"{budget():.0f} ms"
                print(f"  {len(results)}/{len(deals)} deals, expert {expert}", file=sys.stderr)
    return results


def paired_change(
    results: list[dict[str, Any]], other: list[dict[str, Any]]
) -> tuple[float, float, float, int]:
    """How much more the expert gained over ISMCTS per seat and deal in ``results`` than
    in ``other`` (another run's log, e.g. of another variant), on the deals both played:
    the mean over those deals of the two runs' difference, its 95% interval, the deals."""
    theirs = {r["deal"]: gap(r) for r in other}
    changes = [gap(r) - theirs[r["deal"]] for r in results if r["deal"] in theirs]
    return (*mean_ci(changes), len(changes))


def _times(results: list[dict[str, Any]], key: str) -> list[float]:
    """Every move's time under ``key`` (logs of before the CPU times lack them)."""
    return [ms for r in results for ms in r.get(key, ())]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--first-deal", type=int, default=0, help="number of the first deal")
    parser.add_argument(
        "--simulations", type=int, default=ISMCTS_SIMULATIONS, help="ISMCTS's per move"
    )
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--time-ms", type=float, default=None, help="expert budget per move")
    parser.add_argument(
        "--iterations", type=int, default=None, help="expert's search iterations per move"
    )
    parser.add_argument(
        "--bid-iterations", type=int, default=None, help="expert's for a bid (--iterations)"
    )
    parser.add_argument("--rivalry", type=float, default=ExpertBot.rivalry, help="expert's")
    parser.add_argument("--noise", type=float, default=ExpertBot.noise, help="expert's")
    parser.add_argument(
        "--bid-noise", type=float, default=None, help="expert's, for its bids (--noise)"
    )
    parser.add_argument("--worlds", type=int, default=ExpertBot.worlds, help="expert's")
    parser.add_argument("--exploration", type=float, default=ExpertBot.exploration, help="expert's")
    parser.add_argument("--widening", type=float, default=ExpertBot.widening, help="expert's")
    parser.add_argument(
        "--reuse-tree", action="store_true", help="expert keeps its tree between moves"
    )
    parser.add_argument(
        "--play-inference", action="store_true", help="expert weighs its worlds by the plays"
    )
    parser.add_argument(
        "--learned-inference",
        action="store_true",
        help="expert weighs its worlds by the learned bid model",
    )
    parser.add_argument("--log", type=Path, default=None, help="per-deal results (resumable)")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    parser.add_argument(
        "--paired-with", type=Path, default=None, help="another run's log: the paired change"
    )
    args = parser.parse_args()

    deals = range(args.first_deal, args.first_deal + args.deals)
    traits: dict[str, Any] = {
        "rivalry": args.rivalry,
        "noise": args.noise,
        "bid_noise": args.bid_noise,
        "worlds": args.worlds,
        "reuse_tree": args.reuse_tree,
        "play_inference": args.play_inference,
        "learned_inference": args.learned_inference,
        "exploration": args.exploration,
        "widening": args.widening,
    }
    results = play_deals(
        deals,
        args.workers,
        args.time_ms,
        args.log,
        args.simulations,
        args.iterations,
        args.bid_iterations,
        traits,
    )
    ours = [statistics.fmean(r["ours"]) for r in results]
    theirs = [statistics.fmean(r["theirs"]) for r in results]
    diff = [gap(r) for r in results]
    our_ms, their_ms = _times(results, "our_ms"), _times(results, "their_ms")
    our_cpu, their_cpu = _times(results, "our_cpu_ms"), _times(results, "their_cpu_ms")
    ismcts_rate = ismcts_simulations_per_s()
    figures: dict[str, Any] = {
        "deals": len(results),
        "first_deal": args.first_deal,
        "ismcts_simulations": args.simulations,
        "expert_iterations": args.iterations,
        "expert_bid_iterations": args.bid_iterations or args.iterations,
        "expert_rivalry": args.rivalry,
        "expert_noise": args.noise,
        "expert_bid_noise": args.bid_noise,
        "expert_worlds": args.worlds,
        "expert_reuse_tree": args.reuse_tree,
        "expert_play_inference": args.play_inference,
        "expert_learned_inference": args.learned_inference,
        "expert_exploration": args.exploration,
        "expert_widening": args.widening,
        "expert_learned_models": _expert("models", 1.0, 1, None, traits).learned_models(),
        "expert_mean_return": mean_ci(ours),
        "ismcts_mean_return": mean_ci(theirs),
        "difference_per_deal": mean_ci(diff),
        "expert_ms_per_move": statistics.fmean(our_ms),
        "ismcts_ms_per_move": statistics.fmean(their_ms),
        "ismcts_time_ratio": statistics.fmean(their_ms) / statistics.fmean(our_ms),
        "ismcts_median_time_ratio": statistics.median(their_ms) / statistics.median(our_ms),
        "expert_cpu_ms_per_move": statistics.fmean(our_cpu) if our_cpu else math.nan,
        "ismcts_cpu_ms_per_move": statistics.fmean(their_cpu) if their_cpu else math.nan,
        "ismcts_cpu_time_ratio": (
            statistics.fmean(their_cpu) / statistics.fmean(our_cpu) if our_cpu else math.nan
        ),
        "our_playouts_per_s": our_playouts_per_s(),
        "ismcts_simulations_per_s": ismcts_rate,
        "expert_bids": _bid_figures(results, "our"),
        "ismcts_bids": _bid_figures(results, "their"),
    }
    if args.paired_with is not None:
        figures["paired_with"] = str(args.paired_with)
        figures["difference_less_paired"] = paired_change(results, read_log(args.paired_with))
    header = ("side", "mean return", "95% CI", "ms/move", "exact", "bid 0")
    print("{:<8} {:>12} {:>14} {:>8} {:>6} {:>6}".format(*header))
    for side, name in (("expert", "expert"), ("ISMCTS", "ismcts")):
        mean, low, high = figures[f"{name}_mean_return"]
        ms, bids = figures[f"{name}_ms_per_move"], figures[f"{name}_bids"]
        print(
            f"{side:<8} {mean:>12.2f} {f'{low:.2f} … {high:.2f}':>14} {ms:>8.0f} "
            f"{bids['exact']:>6.1%} {bids['zero']:>6.1%}"
        )
    mean, low, high = figures["difference_per_deal"]
    print(f"expert − ISMCTS per seat and deal: {mean:+.2f} (95% CI {low:+.2f} … {high:+.2f})")
    print(
        f"ISMCTS's time per move: {figures['ismcts_time_ratio']:.1f} × the expert's "
        f"(medians {figures['ismcts_median_time_ratio']:.1f} ×; CPU time "
        f"{figures['ismcts_cpu_time_ratio']:.1f} ×: {figures['ismcts_cpu_ms_per_move']:.1f} "
        f"against {figures['expert_cpu_ms_per_move']:.1f} ms)"
    )
    if args.paired_with is not None:
        mean, low, high, deals = figures["difference_less_paired"]
        print(
            f"less the run of {args.paired_with} on the same {deals} deals: {mean:+.2f} "
            f"(95% CI {low:+.2f} … {high:+.2f})"
        )
    rates = figures["our_playouts_per_s"]
    print(
        f"playouts per second: ours {rates['random']:,.0f} random, {rates['policy']:,.0f} "
        f"with the expert's policy; OpenSpiel ISMCTS {ismcts_rate:,.0f} simulations"
    )
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
