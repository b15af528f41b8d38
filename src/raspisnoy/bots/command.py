"""``raspisnoy train-inference``: fit the expert's bid model to the bots' self-play
(``raspisnoy.bots.inference_training``, docs/bots.md)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import Progress

from raspisnoy.bots.inference import MODEL_PATH, BidModel
from raspisnoy.bots.inference_training import (
    fit,
    gaussian_weights,
    log_loss,
    self_play_bids,
)
from raspisnoy.cli_support import guarded, print_json, rules_from
from raspisnoy.core import RaspisnoyError

__all__ = ["train_inference_command"]

#: The share of the games whose bids are held out of the fit to measure it.
_HELD_OUT = 0.2


def train_inference_command(
    games: Annotated[int, typer.Option("--games", help="Self-play games to learn from.")] = 400,
    seed: Annotated[str, typer.Option("--seed", help="Seed of the games.")] = "infer-train",
    rules: Annotated[str, typer.Option("--rules", help="Ruleset preset.")] = "raspisnoy.com",
    players: Annotated[
        str, typer.Option("--players", help="Players per game, comma-separated, in turn.")
    ] = "4",
    bidders: Annotated[
        str, typer.Option("--bidders", help="The bots that bid, comma-separated, in turn.")
    ] = "expert,heuristic",
    iterations: Annotated[
        int, typer.Option("--iterations", help="The expert's search iterations a bid.")
    ] = 300,
    version: Annotated[int, typer.Option("--version", help="The model's version.")] = 1,
    out: Annotated[Path, typer.Option("--out", help="Where to write the model.")] = MODEL_PATH,
) -> None:
    """Fit the expert's bid model to the bids of seeded self-play games and write it."""
    counts = [int(count) for count in players.split(",") if count.strip()]
    names = [name.strip().lower() for name in bidders.split(",") if name.strip()]
    if games < 2 or not counts or not names:
        guarded(lambda: _refuse("--games must be 2 or more, --players and --bidders not empty"))
    ruleset = guarded(lambda: rules_from(rules, []))
    console = Console(stderr=True)
    progress = Progress(
        *Progress.get_default_columns(), console=console, disable=not console.is_terminal
    )
    held_out = max(1, round(games * _HELD_OUT))
    with progress:
        task = progress.add_task("self-play", total=games)
        samples = guarded(
            lambda: self_play_bids(
                games,
                seed=seed,
                rules=ruleset,
                players=counts,
                bidders=names,
                iterations=iterations,
                on_game=lambda number: progress.update(task, completed=number + 1),
            )
        )
    boundary = sum(1 for sample in samples if sample.game < games - held_out)
    training, testing = samples[:boundary], samples[boundary:]
    if not training or not testing:
        guarded(lambda: _refuse("the games made no bids to learn from: play more games"))
    weights = fit(training)
    command = "raspisnoy train-inference " + shlex.join(
        [
            f"--games={games}",
            f"--seed={seed}",
            f"--rules={rules}",
            f"--players={players}",
            f"--bidders={bidders}",
            f"--iterations={iterations}",
            f"--version={version}",
        ]
    )
    model = BidModel(weights, version, command)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(model.to_json(), indent=1) + "\n", encoding="utf-8")
    print_json(
        {
            "model": str(out),
            "bids": {"training": len(training), "held_out": len(testing)},
            "held_out_log_loss": {
                "learned": round(log_loss(weights, testing), 4),
                "gaussian": round(log_loss(gaussian_weights(), testing), 4),
            },
        }
    )


def _refuse(message: str) -> None:
    raise RaspisnoyError(message)
