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
move as ISMCTS takes on average in two calibration episodes of four ISMCTS bots
(``--time-ms`` overrides it). Forced
moves (one legal action) are played without asking either bot.

Run: ``scripts/bootstrap dev,bench && .venv/bin/python benchmarks/vs_openspiel.py
--deals 200 --workers 2``. It prints mean returns per side with 95% confidence
intervals, the difference per deal, both sides' time per move, and the raw playout
rates of our simulator and of OpenSpiel's ISMCTS; ``--json FILE`` also writes them.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pyspiel

sys.path.insert(0, str(Path(__file__).resolve().parent))
from openspiel_peer import load_oh_hell, measure_ismcts_simulations_per_s
from raspisnoy.bots import Bot
from raspisnoy.bots.expert import ExpertBot
from raspisnoy.bots.simulator import play_out
from raspisnoy.core import Bid, Card, Game, Play, Suit, resolve_rules
from raspisnoy.core.cards import card_at

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


def our_game(state: pyspiel.State) -> Game:
    """The pyspiel state's round replayed in our engine."""
    history = state.history()
    dealer = history[1]
    dealt = history[2 : 2 + PLAYERS * TRICKS]
    trump = our_card(history[2 + PLAYERS * TRICKS])
    hands = [[our_card(a) for a in dealt[seat::PLAYERS]] for seat in range(PLAYERS)]
    game = Game(RULES, PLAYERS, first_dealer=dealer)
    game.deal(hands, trump)
    for action in history[3 + PLAYERS * TRICKS :]:
        if action >= _BID_BASE:
            game.bid(action - _BID_BASE)
        else:
            game.play(Play.of(our_card(action)))
    return game


class OurBot(pyspiel.Bot):  # type: ignore[misc]
    """A raspisnoy bot as a ``pyspiel.Bot``: it sees only its seat's view."""

    def __init__(self, player: int, bot: Bot) -> None:
        pyspiel.Bot.__init__(self)
        self._player = player
        self._bot = bot

    def player_id(self) -> int:
        return self._player

    def provides_policy(self) -> bool:
        return False

    def restart_at(self, state: pyspiel.State) -> None:
        pass

    def step(self, state: pyspiel.State) -> int:
        action = self._bot.act(our_game(state).view(self._player))
        assert isinstance(action, Bid | Play)
        return their_action(action)


def _ismcts(seed: int) -> pyspiel.Bot:
    return pyspiel.ISMCTSBot(seed, pyspiel.RandomRolloutEvaluator(1, seed), 2.0, ISMCTS_SIMULATIONS)


def play_episode(deal: int, bots: list[pyspiel.Bot]) -> tuple[list[float], list[list[float]]]:
    """One episode of deal ``deal`` (its chance outcomes come from the deal's seed):
    the returns by seat and each seat's times per move in ms. Forced moves are played
    without asking the bot."""
    game = load_oh_hell(off_bid_penalty=True, points_per_trick=1)
    rng = random.Random(f"vs-openspiel/{deal}")
    state = game.new_initial_state()
    times: list[list[float]] = [[] for _ in range(PLAYERS)]
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
        started = time.perf_counter()
        action = bots[player].step(state)
        times[player].append((time.perf_counter() - started) * 1000)
        state.apply_action(action)
    return list(state.returns()), times


def play_deal(args: tuple[int, float]) -> dict[str, Any]:
    """Both seatings of one deal (experts in the even seats, then in the odd ones):
    returns and times per move of each side."""
    deal, time_ms = args
    out: dict[str, Any] = {"deal": deal, "ours": [], "theirs": [], "our_ms": [], "their_ms": []}
    for ours_parity in (0, 1):
        bots = [
            OurBot(seat, ExpertBot(seed=f"{deal}/{seat}", time_ms=time_ms, worlds=10**6))
            if seat % 2 == ours_parity
            else _ismcts(deal * 10 + seat)
            for seat in range(PLAYERS)
        ]
        returns, times = play_episode(deal, bots)
        for seat in range(PLAYERS):
            side = "ours" if seat % 2 == ours_parity else "theirs"
            out[side].append(returns[seat])
            out["our_ms" if side == "ours" else "their_ms"].extend(times[seat])
    return out


def ismcts_ms_per_move(deals: int = 2) -> float:
    """ISMCTS's mean time per (unforced) move in whole episodes of four ISMCTS bots."""
    times = []
    for deal in range(-deals, 0):
        _, seat_times = play_episode(deal, [_ismcts(seat) for seat in range(PLAYERS)])
        times += [ms for seat in seat_times for ms in seat]
    return statistics.fmean(times)


def ismcts_simulations_per_s(samples: int = 5) -> float:
    """OpenSpiel's ISMCTS simulations per second at the opening lead (8 legal cards)."""
    rates = [
        measure_ismcts_simulations_per_s(ISMCTS_SIMULATIONS, seed=s)["simulations_per_s"]
        for s in range(samples)
    ]
    return statistics.fmean(rates)


def our_playouts_per_s(seconds: float = 2.0) -> dict[str, float]:
    """Our simulator's playouts per second of a whole 8-card round from the opening lead
    (clone, then play to the end): with uniformly random legal moves, and with the
    contract-aware policy the expert uses."""
    rng = random.Random(0)
    start_state = Game(RULES, PLAYERS, seed=0)
    while start_state.phase == "bid":
        start_state.apply(rng.choice(start_state.legal_actions()))

    def random_playout(game: Game) -> None:
        while game.legal_actions():
            game.apply(rng.choice(game.legal_actions()))

    rates = {}
    for name, playout in (("random", random_playout), ("policy", lambda g: play_out(g, rng))):
        done, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            playout(start_state.clone())
            done += 1
        rates[name] = done / (time.perf_counter() - start)
    return rates


def _mean_ci(values: list[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, mean - half, mean + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--time-ms", type=float, default=None, help="expert budget per move")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()

    calibrated = ismcts_ms_per_move()
    time_ms = args.time_ms or calibrated
    print(
        f"ISMCTS ({ISMCTS_SIMULATIONS:,} simulations): {calibrated:.0f} ms per move; "
        f"expert budget {time_ms:.0f} ms per move"
    )
    units = [(deal, time_ms) for deal in range(args.deals)]
    results = []
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for done, result in enumerate(pool.map(play_deal, units), start=1):
            results.append(result)
            if done % 10 == 0 or done == len(units):
                print(f"  {done}/{len(units)} deals", file=sys.stderr)
    ours = [statistics.fmean(r["ours"]) for r in results]
    theirs = [statistics.fmean(r["theirs"]) for r in results]
    diff = [a - b for a, b in zip(ours, theirs, strict=True)]
    our_ms = sorted(ms for r in results for ms in r["our_ms"])
    their_ms = sorted(ms for r in results for ms in r["their_ms"])
    ismcts_rate = ismcts_simulations_per_s()
    figures = {
        "deals": len(results),
        "expert_mean_return": _mean_ci(ours),
        "ismcts_mean_return": _mean_ci(theirs),
        "difference_per_deal": _mean_ci(diff),
        "expert_ms_per_move": statistics.fmean(our_ms),
        "ismcts_ms_per_move": statistics.fmean(their_ms),
        "our_playouts_per_s": our_playouts_per_s(),
        "ismcts_simulations_per_s": ismcts_rate,
    }
    print(f"{'side':<10} {'mean return':>12} {'95% CI':>20} {'ms/move':>9}")
    for side, key, ms in (
        ("expert", "expert_mean_return", figures["expert_ms_per_move"]),
        ("ISMCTS", "ismcts_mean_return", figures["ismcts_ms_per_move"]),
    ):
        mean, low, high = figures[key]
        print(f"{side:<10} {mean:>12.2f} {f'{low:.2f} … {high:.2f}':>20} {ms:>9.0f}")
    mean, low, high = figures["difference_per_deal"]
    print(f"expert − ISMCTS per seat and deal: {mean:+.2f} (95% CI {low:+.2f} … {high:+.2f})")
    rates = figures["our_playouts_per_s"]
    print(
        f"playouts per second: ours {rates['random']:,.0f} random, {rates['policy']:,.0f} "
        f"with the expert's policy; OpenSpiel ISMCTS {ismcts_rate:,.0f} simulations"
    )
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
