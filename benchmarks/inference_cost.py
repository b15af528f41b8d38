"""The CPU time a decision costs the expert with the Gaussian and with the learned bid
model (``ExpertBot.learned_inference``), on the same positions, to set both at equal CPU.

Collects the decisions (bids and cards with a choice) of ``--games`` seeded games of
``--rules`` for 4 players played by heuristics, and times the expert's choice at each,
the two variants taking turns position by position (so that the load of a shared
machine falls on both alike), in CPU seconds of this process (``time.process_time``).
It reports the mean milliseconds of CPU a decision of each, over bids and cards apart,
and their ratio.

Run: ``nice -n 10 .venv/bin/python benchmarks/inference_cost.py --games 2 --iterations 300
--learned-iterations 300 --json cost.json``
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from figures import print_figures
from raspisnoy.bots.expert import ExpertBot
from raspisnoy.bots.heuristic import HeuristicBot
from raspisnoy.core import Game, Phase, View, resolve_rules

#: A time budget no decision reaches: the iterations end every search.
_OUT_OF_REACH_MS = 10.0**7


class _Learned(ExpertBot):
    learned_inference = True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", default="inference-cost")
    parser.add_argument("--rules", default="raspisnoy.com")
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--learned-iterations", type=int, default=300)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    views = _decisions(args.rules, args.games, args.seed)
    bots = {
        "gaussian": ExpertBot(time_ms=_OUT_OF_REACH_MS, iterations=args.iterations),
        "learned": _Learned(time_ms=_OUT_OF_REACH_MS, iterations=args.learned_iterations),
    }
    for bot in bots.values():
        bot.act(views[0])  # loads the compiled code
    spent = {(name, phase): 0.0 for name in bots for phase in (Phase.BID, Phase.PLAY)}
    for view in views:
        for name, bot in bots.items():
            start = time.process_time()
            bot.act(view)
            spent[name, view.phase] += time.process_time() - start
    figures: dict[str, Any] = {"decisions": len(views)}
    for phase in (Phase.BID, Phase.PLAY):
        count = sum(view.phase is phase for view in views)
        for name in bots:
            figures[f"{name}, {phase.value}, CPU ms a decision"] = round(
                1000 * spent[name, phase] / count, 3
            )
    total = {name: spent[name, Phase.BID] + spent[name, Phase.PLAY] for name in bots}
    figures["learned / gaussian, CPU"] = round(total["learned"] / total["gaussian"], 3)
    print_figures("The expert's CPU a decision, Gaussian against learned", figures, args.json)


def _decisions(rules: str, games: int, seed: str) -> list[View]:
    """The views of every bid and card with a choice in ``games`` games of heuristics."""
    views = []
    for number in range(games):
        game = Game(resolve_rules(rules), 4, seed=f"{seed}/{number}")
        bot = HeuristicBot(seed=number)
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            if view.phase in (Phase.BID, Phase.PLAY) and len(view.legal_actions) > 1:
                views.append(view)
            game.apply(bot.act(view), seat)
    return views


if __name__ == "__main__":
    main()
