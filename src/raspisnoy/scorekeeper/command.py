"""``raspisnoy score``: keep the score of a game played with real cards.

``score --sheet FILE [--json]`` checks and scores a sheet file (docs/sheet-format.md);
``score new`` sets up a table and walks it through the game round by round, showing the
«расписная» sheet and asking for every bid and trick count; ``score resume FILE`` goes on
with a saved sheet. The sheet is written atomically after every entry, so closing the
terminal loses nothing. Interactive text is translated (``--lang ru|uk|en``, by default
the system's language); ``--sheet`` output follows docs/record.md's conventions: JSON on
standard output, one ``error:`` line on standard error and exit 1 for a bad sheet.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TextIO

import typer

from raspisnoy.cli_support import (
    SetOption,
    chosen_language,
    cli_help,
    escape_markup,
    fail,
    file_error,
    print_json,
    rules_from,
)
from raspisnoy.core import PRESETS, RaspisnoyError, RoundKind, Rules
from raspisnoy.i18n import (
    translate,
    translate_count,
    translate_error,
)
from raspisnoy.scorekeeper import (
    Entry,
    EntryKind,
    ScoredRound,
    Sheet,
    SheetError,
    read_sheet,
    write_sheet,
)
from raspisnoy.scorekeeper.sheetfile import sheet_report
from raspisnoy.stopping import ask_line, stopping_at_safe_points

if TYPE_CHECKING:
    from rich.console import Console
    from rich.prompt import Prompt
    from rich.table import Table
    from rich.text import TextType

__all__ = ["score_app"]

score_app = typer.Typer(help=cli_help("score"))

#: Commands typed at a prompt, with the keys at the same place on a Russian keyboard.
_UNDO, _EDIT, _QUIT = {"u", "г"}, {"e", "у"}, {"q", "й"}
_KIND_NAMES = {str(kind) for kind in RoundKind}
#: Upcoming rounds shown below the current one.
_AHEAD = 3

LangOption = Annotated[str | None, typer.Option("--lang", help=cli_help("score.lang"))]


def _console() -> Console:
    """Text is soft-wrapped, so a path or a command in it can be copied whole, and not
    highlighted: the numbers in a message are not styled apart from it. (Rich is imported
    here, by the commands that show a sheet or ask: ``--sheet FILE --json`` needs none.)"""
    from rich.console import Console

    return Console(soft_wrap=True, highlight=False)


@functools.cache
def _stop_safe_prompt() -> type[Prompt]:
    """Rich's prompt with the answer read by ``raspisnoy.stopping.ask_line``: a stop
    signal stops the program while it waits for the answer, and never cuts the question
    off. It asks for no password and reads no other stream: the sheet needs neither.
    (Rich is imported here, by the commands that ask.)"""
    from rich.prompt import Prompt

    class StopSafePrompt(Prompt):
        @classmethod
        def get_input(
            cls, console: Console, prompt: TextType, password: bool, stream: TextIO | None = None
        ) -> str:
            return ask_line(console, prompt)

    return StopSafePrompt


def _load(path: Path, session: _Session | None = None) -> Sheet:
    """The sheet in ``path``, or one ``error:`` line: in English for ``score --sheet``
    (its error lines are read by programs, as ``replay``'s are), in the language of the
    ``session`` that resumes it (``_Session.problem``, ``file_error``)."""
    try:
        return read_sheet(path)
    except SheetError as error:
        fail(f"{path}: {error if session is None else session.problem(error)}")
    except OSError as error:
        fail(file_error(error, None if session is None else session.lang))
    except UnicodeDecodeError:
        if session is None:
            fail(f"{path}: the file is not UTF-8 text")
        fail(f"{path}: {translate('file.not_utf8', session.lang)}")


@score_app.callback(invoke_without_command=True)
def score(
    context: typer.Context,
    sheet_file: Annotated[
        Path | None, typer.Option("--sheet", help=cli_help("score.sheet"))
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help=cli_help("score.json"))] = False,
    lang: LangOption = None,
) -> None:
    """Check and score a sheet file, or keep score interactively (new, resume)."""
    if context.invoked_subcommand is not None:
        return
    if sheet_file is None:
        sys.stdout.write(context.get_help() + "\n")
        raise typer.Exit()
    language = chosen_language(lang)
    sheet = _load(sheet_file)
    if as_json:
        print_json(sheet_report(sheet))
        return
    _Session(_console(), language, sheet_file, sheet).show(ahead=0, clear=False)


@score_app.command("new", help=cli_help("score.new"))
def new(
    file: Annotated[Path | None, typer.Argument(help=cli_help("score.new.file"))] = None,
    rules: Annotated[str | None, typer.Option("--rules", help=cli_help("score.new.rules"))] = None,
    settings: SetOption = None,
    lang: LangOption = None,
) -> None:
    session = _Session(_console(), chosen_language(lang), file, None)
    session.run(lambda: session.set_up(rules, settings or []))


@score_app.command("resume", help=cli_help("score.resume"))
def resume(
    file: Annotated[Path, typer.Argument(help=cli_help("score.resume.file"))],
    lang: LangOption = None,
) -> None:
    session = _Session(_console(), chosen_language(lang), file, None)
    session.resume(_load(file, session))


class _Session:
    """One table keeping score at a terminal: asks, checks, saves and shows the sheet."""

    def __init__(self, console: Console, lang: str, path: Path | None, sheet: Sheet | None):
        self.console = console
        self.lang = lang
        self.path = path
        self._sheet = sheet
        #: Messages since the last question: shown again below a redrawn sheet.
        self._notes: list[str] = []

    @property
    def sheet(self) -> Sheet:
        assert self._sheet is not None, "set_up() first"
        return self._sheet

    def resume(self, sheet: Sheet) -> None:
        """Go on keeping score on ``sheet``, read from the session's file."""
        self._sheet = sheet
        self.run(lambda: None)

    def t(self, key: str, **values: Any) -> str:
        """A message of the ``score`` catalog in the session's language."""
        return translate(f"score.{key}", self.lang, **values)

    def kind(self, kind: RoundKind) -> str:
        return translate(f"kind.{kind}", self.lang)

    def ask(self, question: str, default: str | None = None) -> str:
        """One answer, stripped; ``default`` is what Enter gives."""
        prompt = _stop_safe_prompt()
        self._notes.clear()  # the messages before a question have been seen
        if default is None:
            answer = prompt.ask(question, console=self.console)
        else:
            shown = default != ""
            answer = prompt.ask(question, console=self.console, default=default, show_default=shown)
        return answer.strip()

    def say(self, markup: str) -> None:
        """Print a message now, and again below the sheet if the screen is redrawn first."""
        self.console.print(markup)
        self._notes.append(markup)

    def say_error(self, message: str) -> None:
        self.say(f"[bold red]{escape_markup(message)}[/]")

    def problem(self, error: RaspisnoyError) -> str:
        """An error in the session's language: a sheet's problem with its place (a format
        problem that the engine found in the engine's wording), any other error of the
        engine (the rules asked for, their options) by ``translate_error``."""
        if not isinstance(error, SheetError):
            return translate_error(error, self.lang)
        cause = error.__cause__
        if error.code == "format" and isinstance(cause, RaspisnoyError) and cause.code:
            problem = translate_error(cause, self.lang)
        else:
            problem = self.sheet_problem(error)
        if error.round is None:
            return problem
        if error.player is None:
            return self.t("where_round", round=error.round, problem=problem)
        return self.t("where_player", round=error.round, player=error.player, problem=problem)

    def sheet_problem(self, error: SheetError) -> str:
        """What is wrong with the sheet, without the place, from ``score.problem.<code>``
        (the file's shape from ``score.format.<code>``, by plural form where it counts)."""
        if error.detail_code is not None:
            values = dict(error.detail_params)
            key = f"score.format.{error.detail_code}"
            count = values.pop("count", None)
            if isinstance(count, int):
                return translate_count(key, self.lang, count, **values)
            return translate(key, self.lang, **values)
        values = dict(error.params)
        for name in ("kind", "expected"):  # round kinds in the reader's language
            value = values.get(name)
            if isinstance(value, str) and value in _KIND_NAMES:
                values[name] = self.kind(RoundKind(value))
        return self.t(f"problem.{error.code}", **values)

    # ------------------------------------------------------------------ the game

    def run(self, set_up: Callable[[], None]) -> None:
        """Set up (for a new sheet), then ask for entries until the game is complete; a
        closed input stops with the sheet saved, and so does a stop signal (Ctrl-C, a kill,
        the terminal closing), at the next question: an entry being saved is saved first
        (``raspisnoy.stopping``)."""
        with stopping_at_safe_points():
            try:
                set_up()
                self.save()
                self.play()
            except EOFError:
                self.console.print()
                self.stopped()
            except KeyboardInterrupt:
                self.console.print()
                self.stopped()
                raise typer.Exit(130) from None

    def stopped(self) -> None:
        if self._sheet is not None and self.path is not None:
            self.console.print(self.t("saved_resume", path=escape_markup(str(self.path))))

    def play(self) -> None:
        while (entry := self.sheet.next_entry) is not None:
            self.show()
            answer = self.ask(self.question(entry), self.default(entry))
            command = answer.lower()
            if not command:
                continue
            if command in _QUIT:
                self.stopped()
                return
            if command in _UNDO:
                self.change(self.sheet.undo)
            elif command in _EDIT:
                self.edit()
            elif entry.kind is EntryKind.CONTROL:
                self.control(entry, answer)
            else:
                self.enter(entry, answer)
        self.show(ahead=0)
        self.announce_winners()

    def change(self, make: Callable[[], Sheet]) -> bool:
        """Apply a change to the sheet and save it; a problem is shown and changes nothing."""
        try:
            sheet = make()
        except SheetError as error:
            self.say_error(self.problem(error))
            return False
        self._sheet = sheet
        self.save()
        return True

    def save(self) -> None:
        assert self.path is not None
        try:
            write_sheet(self.sheet, self.path)
        except OSError as error:
            # The entry stays in memory; the next save writes it with everything else.
            reason = file_error(error, self.lang, named=False)
            self.say_error(self.t("save_failed", path=str(self.path), reason=reason))

    def number(self, answer: str) -> int | None:
        try:
            return int(answer)
        except ValueError:
            self.say_error(self.t("not_a_number", answer=answer))
            return None

    def enter(self, entry: Entry, answer: str) -> None:
        value = self.number(answer)
        if value is None:
            return
        if entry.kind is EntryKind.BID:
            self.change(lambda: self.sheet.bid(entry.seat, value))
        else:
            self.change(lambda: self.sheet.take(entry.seat, value))

    def question(self, entry: Entry) -> str:
        names = self.sheet.players
        player = escape_markup(names[entry.seat])
        if entry.round_kind is None or entry.dealer is None:  # a control round to choose
            kinds = "  ".join(f"{n}. {self.kind(kind)}" for n, kind in enumerate(entry.kinds, 1))
            return f"{self.t('control_question', player=player)}\n{kinds}"
        heading = self.t(
            "round_heading",
            round=entry.round,
            cards=entry.cards,
            kind=self.kind(entry.round_kind),
            dealer=escape_markup(names[entry.dealer]),
        )
        choices = _choices_text(entry.choices)
        if entry.kind is EntryKind.BID:
            question = self.t("bid_question", player=player, choices=choices)
            if entry.forbidden is not None:
                question += " — " + self.t("dealer_may_not", bid=entry.forbidden)
        elif len(entry.choices) == 1:  # the only count left: Enter takes it (the default)
            question = self.t("taken_last", player=player)
        else:
            question = self.t("taken_question", player=player, choices=choices)
        return f"{heading}\n{self.t('commands')}\n{question}"

    @staticmethod
    def default(entry: Entry) -> str | None:
        """Enter takes the only value possible (the last trick count of a round)."""
        if entry.kind is EntryKind.TAKEN and len(entry.choices) == 1:
            return str(entry.choices[0])
        return None

    def control(self, entry: Entry, answer: str) -> None:
        """The control round: ``answer`` is the kind's number; then ask for the dealer."""
        kinds = entry.kinds
        index = self.number(answer)
        if index is None or not 1 <= index <= len(kinds):
            self.say_error(self.t("pick_one", low=1, high=len(kinds)))
            return
        dealer = self.pick(self.sheet.players, self.t("control_dealer"), default=None)
        self.change(lambda: self.sheet.choose_control(kinds[index - 1], dealer))

    def pick(self, names: tuple[str, ...], question: str, default: int | None) -> int:
        """Ask for one of ``names`` by number (1-based) or by name until the answer is one."""
        for number, name in enumerate(names, 1):
            self.console.print(f"  {number}. {escape_markup(name)}")
        shown = None if default is None else str(default + 1)
        while True:
            answer = self.ask(question, shown)
            if answer in names:
                return names.index(answer)
            if answer.isdigit() and 1 <= int(answer) <= len(names):
                return int(answer) - 1
            self.say_error(self.t("pick_one", low=1, high=len(names)))

    def edit(self) -> None:
        """Rewrite one round: Enter keeps each value as it is."""
        sheet = self.sheet
        rounds = len(sheet.rounds)
        answer = self.ask(self.t("edit_which", last=rounds), str(rounds))
        number = self.number(answer)
        if number is None or not 1 <= number <= rounds:
            self.say_error(self.t("pick_one", low=1, high=rounds))
            return
        row = sheet.scored[number - 1]
        order = [(row.dealer + 1 + k) % len(sheet.players) for k in range(len(sheet.players))]
        bids = self.edit_values(row.bids, order, "edit_bid") if row.kind.has_bids else None
        taken = self.edit_values(row.taken, order, "edit_taken")
        if self.change(lambda: sheet.edit_round(number, bids, taken)):
            self.say(self.t("edited", round=number))

    def edit_values(
        self, values: tuple[int | None, ...] | None, order: list[int], key: str
    ) -> tuple[int | None, ...]:
        """New values by seat, asked in bidding order; ``-`` clears one."""
        current = list(values or (None,) * len(order))
        for seat in order:
            shown = "-" if current[seat] is None else str(current[seat])
            while True:
                answer = self.ask(
                    self.t(key, player=escape_markup(self.sheet.players[seat])), shown
                )
                if answer == "-":
                    current[seat] = None
                    break
                value = self.number(answer)
                if value is not None:
                    current[seat] = value
                    break
        return tuple(current)

    def announce_winners(self) -> None:
        names = ", ".join(self.sheet.players[seat] for seat in self.sheet.winners)
        key = "winner" if len(self.sheet.winners) == 1 else "winners"
        self.console.print(f"[bold green]{escape_markup(self.t(key, names=names))}[/]")
        if self.path is not None:
            self.console.print(self.t("saved", path=escape_markup(str(self.path))))

    # ------------------------------------------------------------------ setting up

    def set_up(self, preset: str | None, settings: list[str]) -> None:
        """Ask for the ruleset (unless given), the players, the first dealer and the file."""
        if self.path is not None and self.path.exists():
            fail(self.t("file_exists", path=str(self.path)))
        self.console.print(f"[bold]{self.t('welcome')}[/]")
        rules = self.given_rules(preset, settings) if preset or settings else self.ask_rules()
        players = self.ask_players(rules)
        dealer = self.pick(players, self.t("first_dealer"), default=0)
        self.path = self.path or self.ask_path()
        self._sheet = Sheet.start(rules, players, dealer)

    def given_rules(self, preset: str | None, settings: list[str]) -> Rules:
        try:
            return rules_from(preset or "raspisnoy.com", settings)
        except RaspisnoyError as error:
            fail(self.problem(error))

    def ask_rules(self) -> Rules:
        """The preset, then its options: a bad option asks for the options again, not for
        the preset already chosen."""
        preset = self.ask_preset()
        while True:
            options = self.ask(self.t("options"), "")
            try:
                return rules_from(preset, options.split())
            except RaspisnoyError as error:
                self.say_error(self.problem(error))

    def ask_preset(self) -> str:
        names = list(PRESETS)
        for number, name in enumerate(names, 1):
            # The preset by its name in the person's language (the web client's), with the
            # id that may be typed instead of the number.
            label = escape_markup(translate(f"web.preset.{name}", self.lang))
            description = escape_markup(translate(f"web.preset.{name}.desc", self.lang))
            self.console.print(f"  {number}. [bold]{label}[/] ({name}) — {description}")
        while True:
            answer = self.ask(self.t("ruleset"), "1")
            if answer in names:
                return answer
            if answer.isdigit() and 1 <= int(answer) <= len(names):
                return names[int(answer) - 1]
            self.say_error(self.t("pick_one", low=1, high=len(names)))

    def ask_players(self, rules: Rules) -> tuple[str, ...]:
        low, high = rules.min_players, rules.max_players
        while True:
            answer = self.ask(self.t("players", low=low, high=high))
            names = tuple(name.strip() for name in answer.split(",") if name.strip())
            if not low <= len(names) <= high:
                self.say_error(self.t("players_count", low=low, high=high, count=len(names)))
            elif len(set(names)) != len(names):
                self.say_error(self.t("players_distinct"))
            else:
                try:
                    Sheet.start(rules, names)
                except SheetError as error:
                    self.say_error(self.problem(error))
                    continue
                return names

    def ask_path(self) -> Path:
        default = datetime.now().strftime("score-%Y-%m-%d-%H%M.json")
        while True:
            path = Path(self.ask(self.t("file"), default))
            if not path.exists():
                return path
            self.say_error(self.t("file_exists", path=str(path)))

    # ------------------------------------------------------------------ the sheet

    def show(self, ahead: int = _AHEAD, *, clear: bool = True) -> None:
        """The «расписная»: a row per round entered (and ``ahead`` rounds to come), bid/taken
        and points per player, the totals; the entry awaited is highlighted. ``clear``
        redraws it in place of the screen (on a terminal), as a live sheet. A terminal too
        narrow for it (a phone's) gets a compact sheet (``raspisnoy.play.layout``)."""
        from raspisnoy.play.layout import fitted

        redrawn = clear and self.console.is_terminal and not self.console.is_dumb_terminal
        if redrawn:
            self.console.clear()
        self.console.print(fitted(self.console, functools.partial(self.sheet_table, ahead)))
        if redrawn:
            for note in self._notes:
                self.console.print(note)

    def sheet_table(self, ahead: int, compact: bool) -> Table:
        """The sheet as a table; ``compact``: the round's number, kind, cards and dealer in
        one two-line cell, each player's bid/taken above the points, names shortened."""
        from rich.table import Table

        from raspisnoy.play.layout import (
            ROUND_CELL,
            compact_table,
            name_width,
            round_cell,
            short_names,
        )

        sheet = self.sheet
        heads = ("col_round", "col_cards", "col_kind", "col_dealer")
        names = sheet.players
        if compact:
            table = compact_table(self.t("sheet_title"), show_footer=True)
            number, cards, kind, dealer = map(self.t, heads)
            table.add_column(round_cell(number, kind, cards, dealer), footer=self.t("total"))
            names = short_names(names, name_width(self.console.width, ROUND_CELL, len(names)))
        else:
            table = Table(title=self.t("sheet_title"), show_footer=True)
            for key in heads:
                table.add_column(self.t(key), footer=self.t("total") if key == "col_kind" else "")
        for seat, name in enumerate(names):
            table.add_column(escape_markup(name), justify="right", footer=str(sheet.totals[seat]))
        entry = sheet.next_entry
        between = "\n" if compact else " "
        for row in sheet.scored:
            cells = [_cell(row, seat, entry, between) for seat in range(len(names))]
            dealer = names[row.dealer]
            table.add_row(*self.row_head(row.number, row.cards, row.kind, dealer, compact), *cells)
        upcoming = sheet.plan[len(sheet.scored) :]
        for spec in upcoming[:ahead]:
            dealer = names[(sheet.first_dealer + spec.number - 1) % len(names)]
            table.add_row(*self.row_head(spec.number, spec.cards, spec.kind, dealer, compact))
        if ahead and len(upcoming) > ahead:
            more = translate_count("score.more_rounds", self.lang, len(upcoming) - ahead)
            table.add_row(f"… {more}" if compact else "…", *([] if compact else ["", more]))
        return table

    def row_head(
        self, number: int, cards: int, kind: RoundKind, dealer: str, compact: bool
    ) -> list[str]:
        """The cells that describe a round: number, cards, kind and dealer, or on a compact
        sheet one cell of two lines."""
        from raspisnoy.play.layout import round_cell

        if compact:
            return [round_cell(number, self.kind(kind), cards, escape_markup(dealer))]
        return [str(number), str(cards), self.kind(kind), escape_markup(dealer)]


def _cell(row: ScoredRound, seat: int, entry: Entry | None, between: str) -> str:
    """``bid/taken``, ``between``, ``points`` for one player in one round; the awaited
    entry in reverse."""
    bid = "–" if row.bids is None else _value(row.bids[seat])
    text = f"{bid}/{_value(row.taken[seat])}"
    if row.points is not None:
        points = row.points[seat]
        exact = row.bids is None or row.bids[seat] == row.taken[seat]
        return f"[{'green' if exact else 'red'}]{text}{between}{points:+d}[/]"
    if entry is not None and entry.round == row.number and entry.seat == seat:
        return f"[reverse]{text}[/]"
    return text


def _value(value: int | None) -> str:
    return "·" if value is None else str(value)


def _choices_text(choices: tuple[int, ...]) -> str:
    """``0-5`` for a run, ``0, 1, 3, 4`` otherwise."""
    if len(choices) > 2 and choices == tuple(range(choices[0], choices[-1] + 1)):
        return f"{choices[0]}-{choices[-1]}"
    return ", ".join(map(str, choices))
