"""The terminal side of ``raspisnoy play``: what the person sees (Rich) and what they type.

The screen scrolls like a card table's log: each bot's bid and card is one line, and
when the person is to act the whole table is drawn: every seat's bid, tricks taken,
total and card in the trick, the trump card, and the person's hand sorted by suit with
a number on every card, ``[n]`` on those that may be played now and ``(n)`` on the rest
(so the marking survives a terminal without colours). Bids are listed the same way,
``(n)`` for a bid refused, with the reason. Typing a refused bid or card shows why it is
refused; a joker opens a menu of its legal modes; ``s`` shows the score sheet. A table
too wide for the terminal (a phone's) is drawn compact (``raspisnoy.play.layout``), and
the hand breaks between cards.

Everything the person reads comes from the ``play`` catalog in their language, and the
cards are written by ``raspisnoy.i18n.cards``, as ``raspisnoy casino play`` writes them. The
screen only ever sees the person's ``View`` (and, for the score sheet, the finished
rounds' bids, tricks taken and points), so it cannot show a hidden card.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

from raspisnoy.core import (
    Action,
    Bid,
    Card,
    ControlRound,
    InvalidInputError,
    JokerMode,
    Phase,
    Play,
    RoundKind,
    RoundResult,
    Suit,
    View,
    round_plan,
)
from raspisnoy.i18n import translate
from raspisnoy.i18n.cards import LETTER_RANKS, card_text, rank_text
from raspisnoy.play.layout import (
    ROUND_CELL,
    compact_table,
    fits,
    fitted,
    flow,
    name_width,
    round_cell,
    short_names,
)
from raspisnoy.play.session import RoundsSoFar
from raspisnoy.stopping import ask_line

__all__ = ["TerminalScreen", "parse_typed_card", "play_text"]

#: Keys that show the score sheet: ``s`` and the letters on that key in Russian and
#: Ukrainian layouts, so nobody has to switch layouts to look at the scores.
SHEET_KEYS = frozenset({"s", "ы", "і"})
HELP_KEYS = frozenset({"?", "h", "р"})
_FACE_DOWN = "▒▒"
_RED_SUITS = (Suit.DIAMONDS, Suit.HEARTS)
#: The cells a rule needs beside its title.
_RULE_ENDS = 4
#: The longest a name is shown in a compact table of the seats.
_COMPACT_NAME = 7


#: The suits, in record notation, in the order of each language's ``suit.letters``.
_SUIT_LETTERS = "SCDH"
#: Latin capitals drawn like a Cyrillic one: ``T`` typed on a Latin layout looks like the
#: Russian «Т» (туз) on the screen, but means ten in docs/record.md's notation.
_CYRILLIC_LOOK = str.maketrans("ABCEHKMOPTX", "АВСЕНКМОРТХ")
#: The ranks written as a letter in record notation.
_RECORD_RANKS = "TJQKA"


class AmbiguousCardError(InvalidInputError):
    """A card typed with a Latin letter that looks like one of the session's letters but
    means another rank in record notation (``T♠`` where «Т» is the ace): refused rather
    than guessed. ``letter`` is the session's letter and ``meant``/``record`` the ranks
    (``A``, ``T``) that the look-alike and the Latin letter stand for."""

    def __init__(self, text: str, letter: str, meant: str, record: str) -> None:
        super().__init__(f"{text!r} is ambiguous")
        self.letter, self.meant, self.record = letter, meant, record


def play_text(play: Play, lang: str) -> str:
    """A card played as ``raspisnoy play`` shows someone else's move: ``Д♦``, ``Джокер:
    забирает``, ``Джокер: старшая ♥`` (the trump unknown, highest trumps too)."""
    if play.mode is None:
        return card_text(play.card, lang)
    return f"{card_text(play.card, lang)}: {mode_text(play, lang, None, mine=False)}"


def mode_text(play: Play, lang: str, trump: Suit | None, *, mine: bool) -> str:
    """A joker's mode as the person says it (the menu, their own move) or, not ``mine``,
    as it is said of someone else: «забирает», «скидывает ♣»."""
    person = "" if mine else "_others"
    if play.mode is JokerMode.TAKE or play.suit is None:
        return translate(f"play.mode.take{person}", lang)
    if play.mode is JokerMode.HIGHEST:
        key = "highest_trumps" if play.suit is trump else "highest"
        return translate(f"play.mode.{key}", lang, suit=play.suit.symbol)
    return translate(f"play.mode.discard{person}", lang, suit=play.suit.symbol)


def parse_typed_card(text: str, lang: str) -> Card:
    """The card typed: docs/record.md's notation (``QD``, ``10♦``, ``X``) or ``lang``'s letters
    for ranks and suits (``ДБ`` is the queen of diamonds, ``ТТ`` the ace of clubs, ``10Ч``
    the ten of hearts in Russian), in either case; the joker also as ``Х`` (Cyrillic) or by
    its name on the screen (``джокер``, ``Джокер 1``). A Latin letter that looks like one
    of ``lang``'s is read as that letter, unless it means something else in record notation
    (``T♠`` in Russian, where «Т» is the ace): then ``AmbiguousCardError``. Raises
    ``InvalidInputError`` for anything else."""
    typed = text.strip().upper().replace("Х", "X")
    joker = translate("play.joker", lang).upper()
    if typed.startswith(joker):
        typed = "X" + typed.removeprefix(joker).strip()
    if len(typed) >= 2:
        ranks = {translate(f"rank.{rank}", lang).upper(): rank for rank in LETTER_RANKS}
        suits = dict(zip(translate("suit.letters", lang).upper(), _SUIT_LETTERS, strict=True))
        head = typed[:-1]
        rank = _read(head, ranks)
        if head in _RECORD_RANKS and rank != head:  # records read the Latin letter otherwise
            raise AmbiguousCardError(text, head.translate(_CYRILLIC_LOOK), rank, head)
        typed = rank + _read(typed[-1], suits)
    try:
        return Card.parse(typed)
    except InvalidInputError:
        raise InvalidInputError(f"{text!r} is not a card") from None


def _read(typed: str, letters: dict[str, str]) -> str:
    """``typed`` (a rank or a suit) in record notation: what the session's ``letters``
    make of it or of the Cyrillic letter it is drawn like (Latin ``B``, «В»), else itself."""
    return letters.get(typed) or letters.get(typed.translate(_CYRILLIC_LOOK)) or typed


def hand_order(hand: Sequence[Card]) -> list[Card]:
    """A hand as people hold it: by suit (♠ ♣ ♦ ♥), high cards first, jokers last."""
    return sorted(hand, key=lambda card: (card.suit is None, card.suit or 0, -card.rank))


class TerminalScreen:
    """Draws the game for the person at seat 0 and reads their choices."""

    def __init__(
        self,
        console: Console,
        lang: str,
        *,
        levels: Sequence[str | None] = (),
        delay: float = 0.0,
        read: Callable[[str], str] | None = None,
    ) -> None:
        """``levels``: the bot level by seat, shown beside the names; ``delay``: seconds
        to wait before each bot's move; ``read``: reads one line after a prompt (the
        console's input by default)."""
        self.console = console
        self.lang = lang
        self.levels = tuple(levels)
        self.delay = delay
        self._read = read or partial(ask_line, console)

    def t(self, key: str, **values: object) -> str:
        """The message ``key`` of the catalog in the person's language."""
        return translate(key, self.lang, **values)

    # ------------------------------------------------------------------ the log

    def round_start(self, view: View) -> None:
        total = len(round_plan(view.rules, view.players))
        kind = self.t(f"kind.{view.kind}")
        key = "play.round" if view.round <= total else "play.control_round"
        heading = Text(self.t(key, number=view.round, total=total, cards=view.cards, kind=kind))
        self.console.print()
        # A rule cuts a title too long for it: a narrow terminal gets the title below it.
        if cell_len(heading.plain) + _RULE_ENDS <= self.console.width:
            self.console.rule(heading)
        else:
            self.console.rule()
            self.console.print(heading)
        self.console.print(self._dealer_and_trump(view))

    def pause(self) -> None:
        if self.delay > 0:
            time.sleep(self.delay)

    def acted(self, seat: int, action: Action, view: View) -> None:
        # The person reads "You bid 2", the others' moves "Anna bids 2".
        who = {"name": view.names[seat]}
        suffix = "_you" if seat == view.seat else ""
        if isinstance(action, Bid):
            self._say(self.t(f"play.log.bid{suffix}", bid=action.amount, **who))
        elif isinstance(action, Play):
            lead = self.t(f"play.log.play{suffix}", **who)
            self._say(Text.assemble(lead, self._play(action, view, mine=seat == view.seat)))
        elif isinstance(action, ControlRound):
            choice = self._control_choice(action, view)
            self._say(self.t(f"play.log.control{suffix}", choice=choice, **who))

    def trick_won(self, view: View, winner: int) -> None:
        suffix = "_you" if winner == view.seat else ""
        message = self.t(f"play.log.trick{suffix}", name=view.names[winner])
        self._say(Text(message, style="bold"))

    def trump_revealed(self, view: View) -> None:
        self._say(Text.assemble(self.t("play.log.revealed"), " ", self._trump(view)))

    def round_over(self, view: View, result: RoundResult) -> None:
        self.console.print(fitted(self.console, partial(self._round_table, view, result)))

    def _round_table(self, view: View, result: RoundResult, compact: bool) -> Table:
        """Each player's bid, tricks, points and total after a round; ``compact``: no
        frame, short names and headers, for a narrow terminal."""
        title = self.t("play.round_over", number=result.number)
        table = compact_table(title) if compact else Table(title=title, box=box.SIMPLE)
        table.add_column(self.t("play.col.player"))
        bid_key = "play.col.bid_short" if compact else "play.col.bid"
        for key in (bid_key, "play.col.taken", "play.col.points", "play.col.total"):
            table.add_column(self.t(key), justify="right")
        for seat, name in enumerate(self._names(view, compact)):
            bid = "–" if result.bids is None else str(result.bids[seat])
            points = "" if result.points is None else f"{result.points[seat]:+d}"
            table.add_row(Text(name), bid, str(result.taken[seat]), points, str(view.totals[seat]))
        return table

    def game_over(
        self, view: View, rounds: Sequence[RoundResult], winners: Sequence[int], record: Path
    ) -> None:
        self.score_sheet(view, rounds)
        names = ", ".join(view.names[seat] for seat in winners)
        key = "play.winner" if len(winners) == 1 else "play.winners"
        self._say(Text(self.t(key, names=names), style="bold green"))
        pairs = zip(view.names, view.totals, strict=True)
        totals = " · ".join(f"{name} {total}" for name, total in pairs)
        self._say(self.t("play.final_totals", totals=totals))
        self._say(self.t("play.record", path=record))

    def saved(self, record: Path) -> None:
        self.console.print()
        self._say(self.t("play.saved", path=record))

    def score_sheet(self, view: View, rounds: Sequence[RoundResult]) -> None:
        """The «расписная» sheet of the finished rounds: bid/taken and points per player.

        The round in progress is left out: its trump may still be face down."""
        self.console.print(fitted(self.console, partial(self._sheet, view, rounds)))

    def _sheet(self, view: View, rounds: Sequence[RoundResult], compact: bool) -> Table:
        """The sheet: a row per round, a column per player, the totals at the bottom.
        ``compact`` (a narrow terminal): the round, its kind, cards and trump in one
        two-line cell, each player's bid/taken above the points, names shortened."""
        heads = ("play.col.round", "play.col.cards", "play.col.kind", "play.col.trump")
        if compact:
            table = compact_table(self.t("play.sheet"))
            number, cards, kind, trump = map(self.t, heads)
            table.add_column(round_cell(number, kind, cards, trump))
        else:
            table = Table(title=self.t("play.sheet"), box=box.SIMPLE_HEAD)
            for key in heads:
                table.add_column(self.t(key))
        width = name_width(self.console.width, ROUND_CELL, view.players)
        for name in self._names(view, compact, width):
            table.add_column(Text(name), justify="right")
        between = "\n" if compact else "  "
        for result in rounds:
            if result.points is None:
                continue
            bids = result.bids or ("–",) * view.players
            cells = [
                f"{bid}/{taken}{between}{points:+d}"
                for bid, taken, points in zip(bids, result.taken, result.points, strict=True)
            ]
            trump = "–" if result.trump is None else result.trump.symbol
            kind = self.t(f"kind.{result.kind}")
            if compact:
                head = [round_cell(result.number, kind, result.cards, trump)]
            else:
                head = [str(result.number), str(result.cards), kind, trump]
            table.add_row(*head, *cells)
        table.add_section()
        blanks = [] if compact else [""] * 3
        table.add_row(self.t("play.col.total"), *blanks, *map(str, view.totals))
        return table

    @staticmethod
    def _names(view: View, compact: bool, width: int = _COMPACT_NAME) -> tuple[str, ...]:
        """The players' names, in a compact table shortened to ``width``."""
        return short_names(view.names, width) if compact else view.names

    # ------------------------------------------------------------------ the person's turn

    def ask(self, view: View, rounds: RoundsSoFar) -> Action:
        """Draw the table and read the person's bid, card or control-round choice."""
        self.show(view)
        if view.phase is Phase.BID:
            return self._ask_bid(view, rounds)
        if view.phase is Phase.CHOOSE:
            return self._ask_control(view, rounds)
        return self._ask_play(view, rounds)

    def show(self, view: View) -> None:
        """The table: every seat, the trick, the trump and the person's hand. Where the
        table does not fit the terminal, a compact one, with the bots' levels below it."""
        table = self._seats(view, compact=False)
        if fits(self.console, table):
            self.console.print(table)
        else:
            self.console.print(self._seats(view, compact=True))
            if any(self.levels):
                self.console.print(Text(self._levels(view), style="dim"))
        self.console.print(self._dealer_and_trump(view))

    def _seats(self, view: View, compact: bool) -> Table:
        """A row per seat: its bid, tricks, total and card in the trick (or, bidding a
        forehead round, the card on its forehead). ``compact`` (a narrow terminal): no
        frame, short names and headers, the bots' levels below the table (the dealer is
        named under it anyway)."""
        forehead = view.kind is RoundKind.FOREHEAD and view.phase is Phase.BID
        table = compact_table() if compact else Table(box=box.ROUNDED, show_edge=True)
        table.add_column("")
        table.add_column(self.t("play.col.player"))
        bid_key = "play.col.bid_short" if compact else "play.col.bid"
        for key in (bid_key, "play.col.taken", "play.col.total"):
            table.add_column(self.t(key), justify="right")
        last = "play.col.forehead" if forehead else "play.col.trick"
        table.add_column(self.t(f"{last}_short" if compact else last))
        in_trick = {
            (view.trick.leader + offset) % view.players: play
            for offset, play in enumerate(view.trick.plays)
        }
        names = self._names(view, compact)
        for seat in range(view.players):
            if forehead:
                shown = view.shown_hands[seat]
                card = Text(_FACE_DOWN) if shown is None else self._cards(shown)
            else:
                play = in_trick.get(seat)
                card = Text() if play is None else self._play(play, view, mine=seat == view.seat)
            bid = view.bids[seat] if view.bids is not None else "–"
            table.add_row(
                "▶" if seat == view.to_act else "",
                self._seat_name(view, seat, names[seat], notes=not compact),
                "" if bid is None else str(bid),
                str(view.taken[seat]),
                str(view.totals[seat]),
                card,
            )
        return table

    def _ask_bid(self, view: View, rounds: RoundsSoFar) -> Bid:
        self._show_hand(view, legal=None)
        allowed = {action.amount for action in view.legal_actions if isinstance(action, Bid)}
        marks = [
            Text(f"[{amount}]", style="bold") if amount in allowed else Text(f"({amount})", "dim")
            for amount in range(view.cards + 1)
        ]
        self._print_items("play.bids", marks, gap=" ")
        for amount in range(view.cards + 1):
            if amount not in allowed:
                self._warn(f"({amount}) {self._why_not_bid(view, amount)}")
        while True:
            text = self._prompt("play.prompt.bid", view, rounds)
            if not text.isdecimal():
                self._warn(self.t("play.bid_range", cards=view.cards))
            elif int(text) in allowed:
                return Bid(int(text))
            else:
                self._warn(self._why_not_bid(view, int(text)))

    def _why_not_bid(self, view: View, amount: int) -> str:
        if not 0 <= amount <= view.cards:
            return self.t("play.bid_range", cards=view.cards)
        known = [bid for bid in view.bids or () if bid is not None]
        if view.seat == view.dealer and amount == view.cards - sum(known):
            return self.t("play.forbidden", bid=amount, cards=view.cards)
        return self.t("play.zero_limit", limit=view.rules.max_zero_bids_in_a_row)

    def _ask_play(self, view: View, rounds: RoundsSoFar) -> Play:
        legal = [action for action in view.legal_actions if isinstance(action, Play)]
        playable = {play.card for play in legal}
        hand = self._show_hand(view, legal=playable)
        while True:
            card = self._read_card(self._prompt("play.prompt.card", view, rounds), hand)
            if card is None:
                continue
            if card not in playable:
                self._warn(self._why_not_card(view, card, playable))
            elif not card.is_joker:
                return Play.of(card)
            else:
                modes = [play for play in legal if play.card == card]
                labels = [self._joker_choice(play, view) for play in modes]
                chosen = self._menu(labels, "play.prompt.joker", view, rounds, back=True)
                if chosen >= 0:
                    return modes[chosen]

    def _read_card(self, text: str, hand: Sequence[Card]) -> Card | None:
        """The card typed as its number or its name (``QD``, ``10♦``, ``X``); ``None`` after
        saying what is wrong."""
        if text.isdecimal():
            if 1 <= int(text) <= len(hand):
                return hand[int(text) - 1]
            self._warn(self.t("play.no_choice", text=text))
            return None
        try:
            card = parse_typed_card(text, self.lang)
        except AmbiguousCardError as error:
            self._warn(self._ambiguity(error, text))
            return None
        except InvalidInputError:
            self._warn(self.t("play.not_a_card", text=text))
            return None
        if card not in hand:
            self._warn(self.t("play.not_in_hand", card=card_text(card, self.lang)))
            return None
        return card

    def _ambiguity(self, error: AmbiguousCardError, text: str) -> str:
        """What to type for each of the two cards a look-alike letter might mean:
        «T♠ — неясно, какая это карта: Т — туз, 10 — десятка»."""
        return self.t(
            "play.ambiguous",
            text=text,
            letter=error.letter,
            meant=self.t(f"play.rank_name.{error.meant}"),
            other=rank_text(error.record, self.lang),
            record=self.t(f"play.rank_name.{error.record}"),
        )

    def _why_not_card(self, view: View, card: Card, playable: set[Card]) -> str:
        """Why ``card`` may not be played: a suit to follow, a highest card demanded by a
        led joker, or a trump to play. Read off the legal cards, which all share a suit."""
        lead = view.trick.plays[0] if view.trick.plays else None
        suits = {legal.suit for legal in playable if legal.suit is not None}
        if lead is None or len(suits) != 1:
            return self.t("play.not_now", card=card_text(card, self.lang))
        suit = suits.pop()
        follow = lead.suit if lead.card.is_joker else lead.card.suit
        if suit is not follow:
            missing = "–" if follow is None else follow.symbol
            return self.t("play.must_trump", suit=missing, trump=suit.symbol)
        if lead.mode is JokerMode.HIGHEST:
            highest = next(legal for legal in playable if legal.suit is suit)
            return self.t("play.must_highest", suit=suit.symbol, card=card_text(highest, self.lang))
        return self.t("play.must_follow", suit=suit.symbol)

    def _ask_control(self, view: View, rounds: RoundsSoFar) -> ControlRound:
        choices = [action for action in view.legal_actions if isinstance(action, ControlRound)]
        self._say(self.t("play.control_choice"))
        labels = [Text(self._control_choice(choice, view)) for choice in choices]
        return choices[self._menu(labels, "play.prompt.control", view, rounds)]

    def _control_choice(self, choice: ControlRound, view: View) -> str:
        """A control round's kind and dealer, «сдаёте вы» when the person deals."""
        kind = self.t(f"kind.{choice.kind}")
        if choice.dealer == view.seat:
            return self.t("play.control_option_you", kind=kind)
        return self.t("play.control_option", kind=kind, dealer=view.names[choice.dealer])

    # ------------------------------------------------------------------ pieces

    def _menu(
        self,
        labels: Sequence[Text],
        prompt: str,
        view: View,
        rounds: RoundsSoFar,
        *,
        back: bool = False,
    ) -> int:
        """Numbered choices; the index chosen, or -1 for ``0`` (back) when ``back``."""
        for number, label in enumerate(labels, start=1):
            self.console.print(Text.assemble(f"  [{number}] ", label))
        if back:
            self.console.print(Text(f"  [0] {self.t('play.back')}"))
        while True:
            text = self._prompt(prompt, view, rounds)
            if text.isdecimal() and 1 <= int(text) <= len(labels):
                return int(text) - 1
            if back and text == "0":
                return -1
            self._warn(self.t("play.no_choice", text=text))

    def _prompt(self, key: str, view: View, rounds: RoundsSoFar) -> str:
        """Read a non-empty line; the score sheet and help keys are answered on the spot."""
        while True:
            text = self._read(self.t(key)).strip()
            if text.lower() in SHEET_KEYS:
                self.score_sheet(view, rounds())
            elif text.lower() in HELP_KEYS:
                self._say(self.t("play.keys"))
            elif text:
                return text

    def _show_hand(self, view: View, legal: set[Card] | None) -> list[Card]:
        """Print the hand (face down when hidden); with ``legal``, numbered for choosing."""
        if view.hand is None:
            hidden = "play.hand_forehead" if view.kind is RoundKind.FOREHEAD else "play.hand_blind"
            line = Text(self.t("play.hand") + " " + " ".join([_FACE_DOWN] * view.cards) + "  ")
            line.append(self.t(hidden), style="dim")
            self.console.print(line)
            return []
        hand = hand_order(view.hand)
        cards = []
        for number, card in enumerate(hand, start=1):
            if legal is None:
                cards.append(self._card(card))
            elif card in legal:
                cards.append(Text.assemble((f"[{number}] ", "bold"), self._card(card)))
            else:
                cards.append(Text(f"({number}) {self._card(card).plain}", style="dim"))
        self._print_items("play.hand", cards, gap="  ")
        if legal is not None:
            self.console.print(Text(self.t("play.legend"), style="dim"))
        return hand

    def _print_items(self, label: str, items: Sequence[Text], gap: str) -> None:
        """The ``label`` message, then ``items`` (cards, bids), on as many lines as the
        terminal needs: a line breaks between two items, never inside one."""
        first = Text.assemble(self.t(label), " ", *items[:1])
        self.console.print(flow([first, *items[1:]], self.console.width, gap), soft_wrap=True)

    def _seat_name(self, view: View, seat: int, name: str, *, notes: bool) -> Text:
        """The seat's ``name``, the person's in bold; with ``notes``, the dealer's mark and
        the bot's level beside it."""
        text = Text(name, style="bold" if seat == view.seat else "")
        marks = []
        if notes and seat == view.dealer:
            marks.append(self.t("play.dealer_mark"))
        level = self.levels[seat] if seat < len(self.levels) else None
        if notes and level is not None:
            marks.append(self.t(f"bot.{level}"))
        if marks:
            text.append(" · " + ", ".join(marks), style="dim")
        return text

    def _levels(self, view: View) -> str:
        """The bots' levels in one line: «Боты: Анна, Борис — опытный; Вера — мастер»."""
        names = self._names(view, compact=True)
        by_level: dict[str, list[str]] = {}
        for seat, level in enumerate(self.levels):
            if level is not None:
                by_level.setdefault(self.t(f"bot.{level}"), []).append(names[seat])
        groups = "; ".join(f"{', '.join(bots)} — {label}" for label, bots in by_level.items())
        return self.t("play.levels", levels=groups)

    def _dealer_and_trump(self, view: View) -> Text:
        return Text.assemble(
            self.t("play.dealer", name=view.names[view.dealer]), " · ", self._trump(view)
        )

    def _trump(self, view: View) -> Text:
        if view.trump_hidden:
            return Text(self.t("play.trump_hidden"))
        if view.rules.rotating_trumps:
            return Text(self.t("play.trump_rotating"))
        if view.trump_card is None or view.trump is None:
            return Text(self.t("play.no_trump"))
        return Text.assemble(self.t("play.trump") + " ", self._card(view.trump_card))

    def _card(self, card: Card) -> Text:
        label = card_text(card, self.lang)
        if card.suit is None:  # X, or X1 and X2 in decks with two jokers
            return Text(label, style="bold magenta")
        return Text(label, style="bold red" if card.suit in _RED_SUITS else "bold")

    def _cards(self, cards: Sequence[Card]) -> Text:
        return Text(" ").join(self._card(card) for card in hand_order(cards))

    def _play(self, play: Play, view: View, *, mine: bool) -> Text:
        """A card played; a joker with its announced mode, in the first person for the
        person's own («забираю») and in the third for anyone else's («Вера ходит: Джокер:
        забирает»)."""
        if play.mode is None:
            return self._card(play.card)
        mode = mode_text(play, self.lang, view.trump, mine=mine)
        return Text.assemble(self._card(play.card), ": ", mode)

    def _joker_choice(self, play: Play, view: View) -> Text:
        """A joker mode in the menu: its name and what it does here."""
        leading = not view.trick.plays
        suit = "" if play.suit is None else play.suit.symbol
        if play.mode is JokerMode.TAKE:
            meaning = self.t("play.explain.take_lead" if leading else "play.explain.take")
        elif play.mode is JokerMode.HIGHEST:
            meaning = self.t("play.explain.highest", suit=suit)
        else:
            key = "play.explain.discard_lead" if leading else "play.explain.discard"
            meaning = self.t(key, suit=suit)
        mode = mode_text(play, self.lang, view.trump, mine=True)
        return Text.assemble((mode, "bold"), " — ", meaning)

    def _say(self, message: str | Text) -> None:
        self.console.print(message, soft_wrap=True, markup=False, highlight=False)

    def _warn(self, message: str) -> None:
        self._say(Text(message, style="bold yellow"))
