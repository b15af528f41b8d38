"""Engine speed: random legal playouts through the public API, next to OpenSpiel's ``oh_hell``.

Measures, in one run on one machine:

- rounds per second of 4 players × 9 cards (the maximum deal) and of 4 players × 8 cards,
  the size OpenSpiel's ``oh_hell`` is loaded with (players=4, num_suits=4,
  num_cards_per_suit=9, num_tricks_fixed=8), so the ratio compares rounds of equal size;
- whole ``raspisnoy.com`` games per second for 3, 4 and 5 players;
- the cost of ``clone()`` and ``legal_actions()`` in µs on states sampled mid-round;
- OpenSpiel's figures for the same (``openspiel_peer``), when ``open-spiel`` is installed
  (``scripts/bootstrap dev,bench``).

A playout draws each action uniformly from ``legal_actions()`` with an explicit
``random.Random``; the deal is the engine's own seeded shuffle. Timings are noisy on a
shared machine, so the two engines' round rates are measured in alternating slices, and
their ``clone()`` and ``legal_actions()`` costs in alternating repeats, and each engine's
best is reported: compare the ratio, not absolute rates. ``--cpu-time`` times both by this
process's CPU time, which a loaded machine disturbs less than wall time.

    .venv/bin/python benchmarks/engine.py [--seconds 3] [--json out.json] [--cpu-time]
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

# Run as a script, this file's folder is on sys.path: the peer module sits beside it.
import openspiel_peer
from raspisnoy.core import Game, resolve_rules

ROUNDS_PER_GAME = 50  # rounds of one size played in one Game (a custom plan)
CALL_REPEATS = 3  # clone() and legal_actions() are measured this many times, alternating


def _playout(game: Game, rng: random.Random) -> None:
    """Play ``game`` to its end, choosing uniformly among the legal actions."""
    while not game.is_over:
        actions = game.legal_actions()
        game.apply(rng.choice(actions))


def rounds_per_second(players: int, cards: int, seconds: float, seed: int = 0) -> dict[str, Any]:
    """Random rounds of ``cards`` cards each (normal rounds, seeded deals) per second."""
    rules = resolve_rules(custom_plan=(str(cards),) * ROUNDS_PER_GAME)
    rng = random.Random(seed)
    rounds, start = 0, openspiel_peer.clock()
    while openspiel_peer.clock() - start < seconds:
        _playout(Game(rules, players, seed=rng.getrandbits(32)), rng)
        rounds += ROUNDS_PER_GAME
    elapsed = openspiel_peer.clock() - start
    return {"rounds": rounds, "seconds": elapsed, "rounds_per_s": rounds / elapsed}


def games_per_second(players: int, seconds: float, seed: int = 0) -> dict[str, Any]:
    """Whole random ``raspisnoy.com`` games per second."""
    rng = random.Random(seed)
    games, start = 0, openspiel_peer.clock()
    while openspiel_peer.clock() - start < seconds:
        _playout(Game("raspisnoy.com", players, seed=rng.getrandbits(32)), rng)
        games += 1
    elapsed = openspiel_peer.clock() - start
    return {"games": games, "seconds": elapsed, "games_per_s": games / elapsed}


def _sample_states(count: int, seed: int) -> list[Game]:
    """Mid-round states (4 players, 8 cards): one per random round, at a random action."""
    rules = resolve_rules(custom_plan=("8",))
    rng = random.Random(seed)
    states = []
    for _ in range(count):
        game = Game(rules, 4, seed=rng.getrandbits(32))
        for _ in range(rng.randrange(36)):
            actions = game.legal_actions()
            game.apply(rng.choice(actions))
        states.append(game)
    return states


def clone_and_legal_us(samples: int = 20000, seed: int = 0) -> dict[str, float]:
    """Mean µs of ``clone()`` and ``legal_actions()`` over mid-round states."""
    states = _sample_states(1000, seed)
    figures = {}
    for name, call in (("clone_us", Game.clone), ("legal_actions_us", Game.legal_actions)):
        start = openspiel_peer.clock()
        for i in range(samples):
            call(states[i % len(states)])
        figures[name] = (openspiel_peer.clock() - start) / samples * 1e6
    return figures


def _alternating_best(seconds: float, peer: bool, slices: int = 6) -> dict[str, dict[str, Any]]:
    """Both engines' 4 × 8 round rates in alternating slices; the best slice of each."""
    best: dict[str, dict[str, Any]] = {}
    for index in range(slices):
        runs = {"ours": rounds_per_second(4, 8, seconds / slices, seed=index)}
        if peer:
            runs["openspiel"] = openspiel_peer.measure_rounds_per_second(seconds / slices, index)
        for name, run in runs.items():
            if name not in best or run["rounds_per_s"] > best[name]["rounds_per_s"]:
                best[name] = run
    return best


def _keep_fastest(kept: dict[str, Any], figures: dict[str, Any]) -> None:
    """Keep in ``kept`` the lower of its and ``figures``' µs per ``clone()`` and per
    ``legal_actions()`` (the first figures are kept whole)."""
    for key, value in figures.items():
        if key not in kept or (key.endswith("_us") and value < kept[key]):
            kept[key] = value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument(
        "--cpu-time",
        action="store_true",
        help="time by this process's CPU time, not wall time (a busy shared machine)",
    )
    args = parser.parse_args()
    if args.cpu_time:
        openspiel_peer.use_cpu_time()
    console = Console()
    results: dict[str, Any] = {"ours": {}, "openspiel": None}
    ours = results["ours"]
    peer = openspiel_peer.available()
    with console.status("measuring rounds of equal size, alternating engines..."):
        best = _alternating_best(args.seconds, peer)
    ours["rounds_4p_8c"] = best["ours"]
    if peer:
        results["openspiel"] = best["openspiel"]
    with console.status("measuring clone() and legal_actions(), alternating engines..."):
        for _ in range(CALL_REPEATS):
            _keep_fastest(ours, clone_and_legal_us())
            if peer:
                _keep_fastest(results["openspiel"], openspiel_peer.measure_clone_and_legal_us())
    with console.status("measuring raspisnoy..."):
        ours["rounds_4p_9c"] = rounds_per_second(4, 9, args.seconds)
        for players in (3, 4, 5):
            ours[f"games_{players}p"] = games_per_second(players, args.seconds)
    console.print(_table(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


def _table(results: dict[str, Any]) -> Table:
    ours, peer = results["ours"], results["openspiel"]
    table = Table(title="Engine: random legal playouts (higher is better; µs lower is better)")
    for column in ("measure", "raspisnoy", "OpenSpiel oh_hell", "ratio ours/peer"):
        table.add_column(column, justify="right" if column != "measure" else "left")
    peer_rounds = peer["rounds_per_s"] if peer else None
    table.add_row(
        "rounds/s, 4 players × 9 cards", f"{ours['rounds_4p_9c']['rounds_per_s']:,.0f}", "", ""
    )
    table.add_row(
        "rounds/s, 4 players × 8 cards",
        f"{ours['rounds_4p_8c']['rounds_per_s']:,.0f}",
        f"{peer_rounds:,.0f}" if peer else "not installed",
        f"{ours['rounds_4p_8c']['rounds_per_s'] / peer_rounds:.2f}×" if peer else "",
    )
    for players in (3, 4, 5):
        rate = ours[f"games_{players}p"]["games_per_s"]
        table.add_row(f"whole games/s, {players} players", f"{rate:,.1f}", "", "")
    for key, label in (("clone_us", "clone() µs"), ("legal_actions_us", "legal_actions() µs")):
        theirs = peer[key] if peer else None
        table.add_row(
            label,
            f"{ours[key]:.2f}",
            f"{theirs:.2f}" if theirs else "not installed",
            f"{ours[key] / theirs:.2f}×" if theirs else "",
        )
    return table


if __name__ == "__main__":
    main()
