"""Instructions per random 50-round playout (4 players × 8 cards): the engine, OpenSpiel's
``oh_hell`` and the benchmark's bare loop, counted by valgrind, which no load disturbs.

``benchmarks/engine.py`` times rounds, and on a shared machine its clocks swing; an
instruction count does not. Each figure is valgrind's ``cachegrind`` count of a child
process playing ``--playouts`` playouts with ``engine.py``'s own loop, less that of a
child playing none (the interpreter's start and the imports), divided by the playouts.
"loop" is that loop driving a stand-in game that does nothing (``random.choice`` and the
calls): every engine pays it. OpenSpiel's "playout" is 50 of its rounds
(``openspiel_peer``), counted when ``open-spiel`` is installed. ``--baseline OTHER/src``
counts another tree's engine too (``PYTHONPATH=OTHER/src``). Hash seeds are fixed, so a
count repeats to within a few thousand instructions.

    .venv/bin/python benchmarks/engine_instructions.py [--playouts 5] [--baseline /tmp/base/src]
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

# Run as a script, this file's folder is on sys.path: its neighbours are importable.
import openspiel_peer
from engine import ROUNDS_PER_GAME, _playout
from raspisnoy.core import Game, resolve_rules

#: Playouts played before counting in every child, so that caches filled on first use
#: (interned plays, log entries, points tables) are filled in both the counted run and the
#: empty one.
WARM_UP = 30


class _StandIn:
    """The loop's share: ``Game``'s playout API (``is_over``, ``legal_actions``, ``apply``)
    over ``ROUNDS_PER_GAME`` rounds of 36 actions, each call doing next to nothing."""

    __slots__ = ("_left", "is_over")
    _LEGAL = tuple(range(5))

    def __init__(self) -> None:
        self._left, self.is_over = ROUNDS_PER_GAME * 36, False

    def legal_actions(self) -> tuple[int, ...]:
        return self._LEGAL

    def apply(self, _action: int) -> None:
        self._left -= 1
        self.is_over = self._left == 0


def _play(which: str, playouts: int) -> None:
    """Play ``WARM_UP`` playouts of ``which`` (ours, openspiel, loop), freeze what the
    process holds so far (``gc.freeze``), then play ``playouts`` more."""
    rng = random.Random(0)
    play_one = _player(which, rng)
    for _ in range(WARM_UP):
        play_one()
    # The imports' objects out of the collector's way: a full collection over them would
    # fall in some counts and not others (several M instructions), whatever the engine did.
    gc.collect()
    gc.freeze()
    for _ in range(playouts):
        play_one()


def _player(which: str, rng: random.Random) -> Callable[[], None]:
    """A call that plays one playout of ``which`` (ours, openspiel, loop) with ``rng``."""
    if which == "openspiel":
        game = openspiel_peer.load_oh_hell()

        def openspiel() -> None:
            for _ in range(ROUNDS_PER_GAME):
                openspiel_peer._random_playout(game.new_initial_state(), rng)

        return openspiel
    if which == "loop":
        return lambda: _playout(_StandIn(), rng)  # type: ignore[arg-type]
    rules = resolve_rules(custom_plan=("8",) * ROUNDS_PER_GAME)
    return lambda: _playout(Game(rules, 4, seed=rng.getrandbits(32)), rng)


def _count(which: str, playouts: int, source: Path | None) -> int:
    """Instructions of a child process playing ``playouts`` playouts of ``which``."""
    return count_instructions([__file__, "--child", which, "--playouts", str(playouts)], source)


def count_instructions(arguments: list[str], source: Path | None = None) -> int:
    """Instructions valgrind counts in ``python ARGUMENTS`` (hash seeds fixed), with
    ``PYTHONPATH=source`` when given (another tree's engine)."""
    environment = {**os.environ, "PYTHONHASHSEED": "0"}
    if source is not None:
        environment["PYTHONPATH"] = str(source)
    command = ["valgrind", "--tool=cachegrind", "--cache-sim=no"]
    command += ["--cachegrind-out-file=/dev/null", sys.executable, *arguments]
    output = subprocess.run(command, env=environment, capture_output=True, text=True, check=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", output.stderr)
    if found is None:
        raise SystemExit(f"no instruction count from valgrind:\n{output.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def per_playout(which: str, playouts: int, source: Path | None = None) -> float:
    """Millions of instructions per playout of ``which``."""
    counted = _count(which, playouts, source) - _count(which, 0, source)
    return counted / playouts / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--playouts", type=int, default=5)
    parser.add_argument("--baseline", type=Path, default=None)
    parser.add_argument("--child", choices=("ours", "openspiel", "loop"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _play(args.child, args.playouts)
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    rows = {"raspisnoy (this tree)": per_playout("ours", args.playouts)}
    if args.baseline is not None:
        rows["raspisnoy (baseline)"] = per_playout("ours", args.playouts, args.baseline)
    if openspiel_peer.available():
        rows["OpenSpiel oh_hell"] = per_playout("openspiel", max(1, args.playouts // 2))
    rows["the loop alone"] = per_playout("loop", args.playouts)
    print(f"M instructions per {ROUNDS_PER_GAME}-round playout (4 players × 8 cards)")
    for name, millions in rows.items():
        print(f"  {name:<24}{millions:8.2f}")
    if "OpenSpiel oh_hell" in rows:
        ratio = rows["OpenSpiel oh_hell"] / rows["raspisnoy (this tree)"]
        print(f"  OpenSpiel / this tree: {ratio:.2f}×")


if __name__ == "__main__":
    main()
