"""``raspisnoy train-inference``: fit the expert's bid model, or its play model, to the
bots' self-play (``raspisnoy.bots.inference_training``, docs/bots.md)."""

from __future__ import annotations

import json
import shlex
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, cast

import numpy as np
import typer
from rich.console import Console
from rich.progress import Progress

from raspisnoy.bots.inference import MODEL_PATH, BidModel
from raspisnoy.bots.inference_training import (
    BidSample,
    PlaySample,
    SelfPlay,
    choice_log_loss,
    fit,
    fit_choices,
    gaussian_weights,
    log_loss,
    play_design,
    self_play_bids,
    self_play_plays,
)
from raspisnoy.bots.play_inference import PLAY_MODEL_PATH, PlayModel
from raspisnoy.cli_support import cli_help, guarded, print_json, rules_from
from raspisnoy.core import RaspisnoyError

__all__ = ["train_inference_command"]

#: The share of the games whose bids are held out of the fit to measure it.
_HELD_OUT = 0.2


class Learned(StrEnum):
    """Which model ``train-inference`` fits."""

    BIDS = "bids"
    PLAYS = "plays"


def train_inference_command(
    games: Annotated[int, typer.Option("--games", help=cli_help("train-inference.games"))] = 400,
    seed: Annotated[
        str, typer.Option("--seed", help=cli_help("train-inference.seed"))
    ] = "infer-train",
    rules: Annotated[str, typer.Option("--rules", help=cli_help("option.rules"))] = "raspisnoy.com",
    players: Annotated[
        str, typer.Option("--players", help=cli_help("train-inference.players"))
    ] = "4",
    bidders: Annotated[
        str, typer.Option("--bidders", help=cli_help("train-inference.bidders"))
    ] = "expert,heuristic",
    iterations: Annotated[
        int, typer.Option("--iterations", help=cli_help("train-inference.iterations"))
    ] = 300,
    version: Annotated[
        int, typer.Option("--version", help=cli_help("train-inference.version"))
    ] = 1,
    model: Annotated[
        Learned, typer.Option("--model", help=cli_help("train-inference.model"))
    ] = Learned.BIDS,
    out: Annotated[Path | None, typer.Option("--out", help=cli_help("train-inference.out"))] = None,
) -> None:
    """``raspisnoy train-inference``; its help is the ``cli`` catalog's
    ``cli.train-inference``."""
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
    play = self_play_plays if model is Learned.PLAYS else self_play_bids
    with progress:
        task = progress.add_task("self-play", total=games)
        samples: Sequence[BidSample | PlaySample] = guarded(
            lambda: play(
                SelfPlay(games, seed, ruleset, counts, names, iterations),
                lambda number: progress.update(task, completed=number + 1),
            )
        )
    boundary = sum(1 for sample in samples if sample.game < games - held_out)
    training, testing = samples[:boundary], samples[boundary:]
    if not training or not testing:
        guarded(lambda: _refuse("the games made no choices to learn from: play more games"))
    command = "raspisnoy train-inference " + shlex.join(
        [
            f"--games={games}",
            f"--seed={seed}",
            f"--rules={rules}",
            f"--players={players}",
            f"--bidders={bidders}",
            f"--iterations={iterations}",
            f"--version={version}",
            *([f"--model={model}"] if model is Learned.PLAYS else []),
        ]
    )
    if model is Learned.PLAYS:
        document, figures = _plays(
            cast(list[PlaySample], training), cast(list[PlaySample], testing), version, command
        )
        out = out or PLAY_MODEL_PATH
    else:
        document, figures = _bids(
            cast(list[BidSample], training), cast(list[BidSample], testing), version, command
        )
        out = out or MODEL_PATH
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    print_json({"model": str(out), **figures})


def _bids(
    training: list[BidSample], testing: list[BidSample], version: int, command: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The bid model fitted to ``training``, and its figures on the held-out ``testing``."""
    weights = fit(training)
    return BidModel(weights, version, command).to_json(), {
        "bids": {"training": len(training), "held_out": len(testing)},
        "held_out_log_loss": {
            "learned": round(log_loss(weights, testing), 4),
            "gaussian": round(log_loss(gaussian_weights(), testing), 4),
        },
    }


def _plays(
    training: list[PlaySample], testing: list[PlaySample], version: int, command: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The play model fitted to ``training``, and its figures on the held-out ``testing``
    beside a model that takes every legal card as likely (all weights 0)."""
    weights = fit_choices(play_design(training))
    held_out = play_design(testing)
    return PlayModel(weights, version, command).to_json(), {
        "plays": {"training": len(training), "held_out": len(testing)},
        "held_out_log_loss": {
            "learned": round(choice_log_loss(weights, held_out), 4),
            "uniform": round(choice_log_loss(np.zeros_like(weights), held_out), 4),
        },
    }


def _refuse(message: str) -> None:
    raise RaspisnoyError(message)
