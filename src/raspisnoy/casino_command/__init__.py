"""The ``raspisnoy casino`` commands (docs/casino.md, *The command line*, is their
contract for ``hand``, ``compare`` and ``settle``).

The casino's command line, in the command layer above both the rules
(``raspisnoy.casino``, pure: no I/O, no Typer) and the advisor
(``raspisnoy.casino_advisor``). It is a package of its own, not a ``command`` module of
either: its commands use both, the rules may not import the command line, and the
advisor's NumPy and Numba are loaded only by the commands that advise (``advise``,
``play``), so ``hand``, ``compare``, ``settle`` and ``verify`` start without them. Every
expected failure ends in one ``error: ...`` line on standard error, nothing on standard
output, exit status 1 (2 for a usage error, as the rest of the command line).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ClassVar

import typer

from raspisnoy.casino.cards import parse_card, parse_cards
from raspisnoy.casino.evaluate import Evaluation, compare, evaluate
from raspisnoy.casino.record import verify_record
from raspisnoy.casino.settle import BoxRecord
from raspisnoy.cli_support import (
    LazyCommand,
    LazyGroup,
    cli_help,
    guarded,
    help_without_command,
    print_json,
)
from raspisnoy.core import InvalidInputError, loads_json
from raspisnoy.i18n import detect_language, translate

if TYPE_CHECKING:
    from raspisnoy.casino_advisor import Advice

__all__ = ["casino_app"]

#: The terminal game's wallet file (``play``), which ``verify`` checks too.
WALLET_FORMAT = "raspisnoy-casino-wallet/1"


class _CasinoCommands(LazyGroup):
    """The terminal game is imported when it runs: it loads the advisor and Rich."""

    lazy: ClassVar[Mapping[str, LazyCommand]] = {
        "play": LazyCommand("raspisnoy.casino_command.play:play_command", "casino.play")
    }


casino_app = typer.Typer(help=cli_help("casino"), cls=_CasinoCommands)


@casino_app.callback(invoke_without_command=True)
def _casino(context: typer.Context) -> None:
    """Without a command: the help, exit 0, as ``raspisnoy rules`` (Typer's
    ``no_args_is_help`` printed it, then an empty ``error:`` line, and exited 2)."""
    help_without_command(context)


_LANG = detect_language()
_JSON = Annotated[bool, typer.Option("--json", help=cli_help("option.json"))]


def _t(key: str, **values: object) -> str:
    return translate(key, _LANG, **values)


def _describe(evaluation: Evaluation) -> str:
    names = _t(f"casino.combination.{evaluation.combination}")
    if evaluation.second is not None:
        names += " + " + _t(f"casino.combination.{evaluation.second}")
    cards = " ".join(card.pretty() for card in evaluation.cards)
    return _t(
        "casino.hand.line",
        cards=cards,
        names=names,
        pays=evaluation.pays,
        qualifies=_t("casino.hand.qualifies" if evaluation.qualifies else "casino.hand.does_not"),
    )


@casino_app.command("hand", help=cli_help("casino.hand"))
def hand_command(
    cards: Annotated[list[str], typer.Argument(help=cli_help("casino.hand.cards"))],
    as_json: _JSON = False,
) -> None:
    evaluation = guarded(lambda: evaluate(parse_cards(cards, "cards", (5, 6))))
    if as_json:
        print_json(evaluation.to_json())
        return
    sys.stdout.write(_describe(evaluation) + "\n")


@casino_app.command("compare", help=cli_help("casino.compare"))
def compare_command(
    player: Annotated[str, typer.Argument(help=cli_help("casino.compare.player"))],
    dealer: Annotated[str, typer.Argument(help=cli_help("casino.compare.dealer"))],
    as_json: _JSON = False,
) -> None:
    def decide() -> str:
        mine = parse_cards(player, "player", (5, 6))
        theirs = parse_cards(dealer, "dealer", (5,))
        common = set(mine) & set(theirs)
        if common:
            raise InvalidInputError(f"{min(common)} is in both hands")
        return {1: "player", 0: "tie", -1: "dealer"}[compare(mine, theirs)]

    winner = guarded(decide)
    if as_json:
        print_json({"winner": winner})
        return
    sys.stdout.write(_t(f"casino.compare.{winner}") + "\n")


@casino_app.command("settle", help=cli_help("casino.settle"))
def settle_command(
    file: Annotated[str, typer.Argument(help=cli_help("casino.settle.file"))],
    as_json: _JSON = False,
) -> None:
    result = guarded(lambda: BoxRecord.from_json(_load_json(file)).settle())
    if as_json:
        print_json(result.to_json())
        return
    sys.stdout.write(
        _t(
            "casino.settle.line",
            outcome=_t(f"casino.outcome.{result.outcome}"),
            net=f"{result.net:+d}",
            pays=result.pays,
        )
        + "\n"
    )


@casino_app.command("verify", help=cli_help("casino.verify"))
def verify_command(
    file: Annotated[str, typer.Argument(help=cli_help("casino.verify.file"))],
    as_json: _JSON = False,
) -> None:
    def check() -> list[dict[str, object]]:
        data = _load_json(file)
        if isinstance(data, dict) and data.get("format") == WALLET_FORMAT:
            return [verify_record(record) for record in data.get("history", [])]
        return [verify_record(data)]

    reports = guarded(check)
    if as_json:
        print_json(reports[0] if len(reports) == 1 else reports)
        return
    for report in reports:
        sys.stdout.write(_t("casino.verify.ok", commitment=report["commitment"]) + "\n")


@casino_app.command("advise", help=cli_help("casino.advise"))
def advise_command(
    cards: Annotated[list[str], typer.Argument(help=cli_help("casino.advise.cards"))],
    up: Annotated[str | None, typer.Option("--up", help=cli_help("casino.advise.up"))] = None,
    dealer: Annotated[
        str | None, typer.Option("--dealer", help=cli_help("casino.advise.dealer"))
    ] = None,
    seen: Annotated[str | None, typer.Option("--seen", help=cli_help("casino.advise.seen"))] = None,
    money: Annotated[
        float | None, typer.Option("--money", help=cli_help("casino.advise.money"))
    ] = None,
    no_exchange: Annotated[
        bool, typer.Option("--no-exchange", help=cli_help("casino.advise.no-exchange"))
    ] = False,
    seed: Annotated[int, typer.Option("--seed", help=cli_help("casino.advise.seed"))] = 0,
    as_json: _JSON = False,
) -> None:
    # The advisor (and, where installed, NumPy and Numba) only for this command.
    from raspisnoy.casino_advisor import advise, advise_purchase
    from raspisnoy.casino_command.text import advice_text

    def run() -> Advice:
        known = parse_cards(seen or "", "--seen")
        if dealer is not None:
            if up is not None:
                raise InvalidInputError("give --up or --dealer, not both")
            box = parse_cards(cards, "cards", (5, 6))
            return advise_purchase(box, parse_cards(dealer, "--dealer", (5,)), seen=known)
        if up is None:
            raise InvalidInputError("--up: the dealer's up card is needed")
        box = parse_cards(cards, "cards", (5,))
        return advise(
            box,
            parse_card(up, "--up"),
            seen=known,
            money=money,
            exchange=not no_exchange,
            seed=seed,
        )

    advice = guarded(run)
    if as_json:
        print_json(advice.to_json())
        return
    sys.stdout.write(advice_text(advice, _LANG))


def _load_json(file: str) -> Any:
    """The JSON document in ``file`` (``-``: standard input): UTF-8 text, a leading
    byte-order mark allowed as ``replay`` allows it. A document Python cannot decode
    (nested too deep, a number too long) is an error like text that is not JSON."""
    data = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
    text = data.decode("utf-8")  # not caught here: the command says "not UTF-8" itself
    try:
        return loads_json(text)
    except InvalidInputError as error:
        raise InvalidInputError(f"{file}: {error}") from None
