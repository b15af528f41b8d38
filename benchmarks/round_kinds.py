"""One bot against another in the arena, per kind of round, at a fixed search budget.

A duplicate arena match (``raspisnoy.arena``) of the first bot of ``--bots`` against
the others, in one process, with the expert's search fixed at ``--iterations`` a
decision (``--bid-iterations`` for its bids; its time budget set out of reach), so that
the figures do not depend on how loaded the machine is; with ``--minutes`` it stops at
the first whole deal after that time and reports the deals finished. It prints, for the
whole game and for every kind of round, the first bot's points per game less the
second's, paired by deal, with a 95% interval (``raspisnoy.arena.difference``), and each
bot's time per decision in the same run.

Run: ``nice -n 19 .venv/bin/python benchmarks/round_kinds.py --games 120 --iterations 2000
--json kinds.json`` (the expert against three heuristics on ``raspisnoy.com``).

With ``--solve-tricks K`` a variant of the expert joins as the bot ``expert-solved``: the
last K tricks of its playouts solved exactly (``ExpertBot.solve_tricks``), at
``--solved-iterations`` a decision (set for equal CPU time per decision), e.g.
``--bots expert-solved,expert,heuristic,heuristic``. With ``--learned-iterations N`` the
expert keeping its worlds by the learned bid model (``ExpertBot.learned_inference``)
joins as ``expert-learned`` at N iterations a decision, e.g. ``--bots
expert-learned,expert,heuristic,heuristic``. With ``--copy-iterations N`` the expert
itself joins as ``expert-copy`` at N iterations: against the expert at as many, a test
of the benchmark (any difference is the seats' or chance's). ``--variant
NAME:N:ATTRIBUTE=VALUE,…`` adds any variant of the expert as the bot NAME at N
iterations, with those ``ExpertBot`` attributes (integers, floats or ``true``/``false``),
e.g. ``--variant expert-reuse:300:reuse_tree=true``.

With ``--both-orders`` every deal is also played with the first two bots' seats swapped
(``expert,expert-learned,heuristic,heuristic`` beside ``expert-learned,expert,…``), deal
by deal, and the figures pool both orders (each bot's points per deal are its mean over
the games of both). The arena's rotation alone never swaps two bots' places in the
order of play, and the seat just before another strong bot loses some 17 points a game
on ``raspisnoy.com`` (docs/bots.md): one order alone measures that seat as much as the
bots.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from figures import print_figures
from raspisnoy.arena import MatchConfig, difference, summarize
from raspisnoy.arena.match import GameResult, play_games
from raspisnoy.bots import BOTS
from raspisnoy.bots.expert import ExpertBot
from raspisnoy.cli_support import rules_from

#: A time budget no decision reaches: the iterations end every search.
_OUT_OF_REACH_MS = 10.0**7


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="expert,heuristic,heuristic,heuristic")
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--seed", default="kinds")
    parser.add_argument("--rules", default="raspisnoy.com")
    parser.add_argument("--iterations", type=int, default=ExpertBot.default_iterations)
    parser.add_argument(
        "--bid-iterations", type=int, default=None, help="the expert's for a bid (--iterations)"
    )
    parser.add_argument("--solve-tricks", type=int, default=None, help="adds expert-solved")
    parser.add_argument("--solved-iterations", type=int, default=None, help="expert-solved's")
    parser.add_argument(
        "--learned-iterations", type=int, default=None, help="adds expert-learned at these"
    )
    parser.add_argument(
        "--copy-iterations", type=int, default=None, help="adds expert-copy at these"
    )
    parser.add_argument(
        "--variant", action="append", default=[], help="NAME:ITERATIONS:ATTRIBUTE=VALUE,…"
    )
    parser.add_argument("--minutes", type=float, default=None, help="stop after a whole deal")
    parser.add_argument(
        "--both-orders", action="store_true", help="also the first two bots' seats swapped"
    )
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()

    ExpertBot.default_iterations = args.iterations  # this process only: one worker
    ExpertBot.default_bid_iterations = args.bid_iterations
    if args.solve_tricks is not None:
        iterations = args.solved_iterations or args.iterations
        _add_variant("expert-solved", iterations, solve_tricks=args.solve_tricks)
    if args.learned_iterations is not None:
        _add_variant("expert-learned", args.learned_iterations, learned_inference=True)
    if args.copy_iterations is not None:
        _add_variant("expert-copy", args.copy_iterations)
    for variant in args.variant:
        name, iterations, traits = variant.split(":")
        _add_variant(name, int(iterations), **_traits(traits))
    lineup = tuple(name.strip() for name in args.bots.split(","))
    config = MatchConfig(
        bots=lineup,
        games=args.games,
        seed=args.seed,
        rules=rules_from(args.rules, []),
        workers=1,
        time_ms=_OUT_OF_REACH_MS,
    )
    orders = [config, _swapped(config)] if args.both_orders else [config]
    results = []
    stop = math.inf if args.minutes is None else time.monotonic() + 60 * args.minutes
    games = len(orders) * config.deals * config.players
    for result in _deal_by_deal(orders):
        results.append(result)
        print(f"  {len(results)}/{games} games", file=sys.stderr)
        if len(results) % (len(orders) * config.players) == 0 and time.monotonic() > stop:
            break  # games come deal by deal, both orders of a deal together: whole deals
    first, second = list(dict.fromkeys(lineup))[:2]  # the first two distinct bots
    summary = summarize(config, results)
    kinds = [stats.kind for stats in summary.bots[0].round_kinds]
    deals = len(results) // (len(orders) * config.players)
    figures: dict[str, Any] = {"games": len(results), "deals": deals}
    figures |= {f"order {i + 1}": ",".join(order.bots) for i, order in enumerate(orders)}
    for label, played in _by_order(results, orders):
        for kind in (None, *kinds):
            mean, (low, high) = difference(played, first, second, kind)
            name = f"{label}{first} − {second}, {kind or 'game'}"
            figures[name] = f"{mean:+.1f} ({low:+.1f} … {high:+.1f})"
    for bot in summary.bots:
        figures[f"{bot.name} ms per decision, p50"] = bot.decision_ms_p50
        figures[f"{bot.name} exact bids"] = bot.exact_bid_rate
    figures["bots"] = [bot.to_json() for bot in summary.bots]
    print_figures(f"{first} against {second}, points per game", figures, args.json, digits=3)


def _swapped(config: MatchConfig) -> MatchConfig:
    """The match with the line-up's first two seats swapped (same seed: same deals)."""
    first, second, *rest = config.bots
    return replace(config, bots=(second, first, *rest))


def _deal_by_deal(orders: list[MatchConfig]) -> Iterator[GameResult]:
    """The games of every order of the line-up, a deal's games in every order before the
    next deal's (so that a run stopped early has played each deal in every order)."""
    streams = [play_games(config) for config in orders]
    players = orders[0].players
    for _ in range(orders[0].deals):
        for stream in streams:
            for _ in range(players):
                yield next(stream)


def _by_order(
    results: list[GameResult], orders: list[MatchConfig]
) -> Iterator[tuple[str, list[GameResult]]]:
    """The games to sum up, with a label: all of them (both orders pooled), then, with
    two orders, each order's own (``order 1: ``, ``order 2: ``), to show the seats' bias."""
    yield "", results
    if len(orders) > 1:
        players = orders[0].players
        for index in range(len(orders)):
            games = [r for i, r in enumerate(results) if (i // players) % len(orders) == index]
            yield f"order {index + 1}: ", games


def _traits(text: str) -> dict[str, object]:
    """``ATTRIBUTE=VALUE,…`` as attributes: ``true``/``false``, integers, floats."""
    out: dict[str, object] = {}
    for item in filter(None, text.split(",")):
        name, value = item.split("=")
        if value in ("true", "false"):
            out[name] = value == "true"
        else:
            out[name] = float(value) if "." in value else int(value)
    return out


def _add_variant(name: str, iterations: int, **traits: object) -> None:
    """Register, in this process, the expert with the class attributes ``traits`` at
    ``iterations`` a decision as the bot ``name`` (``expert-solved``: ``solve_tricks``,
    ``expert-learned``: ``learned_inference``, ``expert-copy``: none, a ``--variant``:
    its own)."""
    attributes = {"name": name, "default_iterations": iterations, "default_bid_iterations": None}
    BOTS[name] = type(name, (ExpertBot,), {**attributes, **traits})


if __name__ == "__main__":
    main()
