"""The terminal side of ``raspisnoy play``: what the person sees (Rich) and what they type.

The screen scrolls like a card table's log: each bot's bid and card is one line, and
when the person is to act the whole table is drawn: every seat's bid, tricks taken,
total and card in the trick, the trump card, and the person's hand sorted by suit with
a number on every card, ``[n]`` on those that may be played now and ``(n)`` on the rest
(so the marking survives a terminal without colours). Bids are listed the same way,
``(n)`` for a bid refused, with the reason. Typing a refused bid or card shows why it is
refused; a joker opens a menu of its legal modes; ``s`` shows the score sheet.

Everything the person reads comes from the ``play`` catalog in their language. The
screen only ever sees the person's ``View`` (and, for the score sheet, the finished
rounds' bids, tricks taken and points), so it cannot show a hidden card.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from raspisnoy.core import (
    RANK_NAMES,
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
from raspisnoy.play.session import RoundsSoFar
from raspisnoy.stopping import ask_line

__all__ = ["TerminalScreen", "card_text", "parse_typed_card"]

#: Keys that show the score sheet: ``s`` and the letters on that key in Russian and
#: Ukrainian layouts, so nobody has to switch layouts to look at the scores.
SHEET_KEYS = frozenset({"s", "ы", "і"})
HELP_KEYS = frozenset({"?", "h", "р"})
_FACE_DOWN = "▒▒"
_RED_SUITS = (Suit.DIAMONDS, Suit.HEARTS)


#: The ranks and suits that have letters of their own in each language's catalog.
_LETTER_RANKS = "JQKA"
_SUIT_LETTERS = "SCDH"


def card_text(card: Card, lang: str) -> str:
    """A card as players of ``lang`` write it, like the web client: ``Д♦`` and ``10♦`` in
    Russian, ``Q♦`` in English; a joker by its record name (``X``, ``X1``)."""
    if card.suit is None:
        return str(card)
    rank = "10" if card.rank == 10 else RANK_NAMES[card.rank]
    if rank in _LETTER_RANKS:
        rank = translate(f"rank.{rank}", lang)
    return rank + card.suit.symbol


def parse_typed_card(text: str, lang: str) -> Card:
    """The card typed: docs/record.md's notation (``QD``, ``10♦``, ``X``) or ``lang``'s letters
    for ranks and suits (``ДБ`` is the queen of diamonds, ``ТТ`` the ace of clubs, ``10Ч``
    the ten of hearts in Russian), in either case; ``Х`` (Cyrillic) is the joker too.
    Raises ``InvalidInputError`` for anything else."""
    typed = text.strip().upper().replace("Х", "X")
    if len(typed) >= 2:
        ranks = {translate(f"rank.{rank}", lang).upper(): rank for rank in _LETTER_RANKS}
        suits = dict(zip(translate("suit.letters", lang).upper(), _SUIT_LETTERS, strict=True))
        head, tail = typed[:-1], typed[-1]
        typed = ranks.get(head, head) + suits.get(tail, tail)
    try:
        return Card.parse(typed)
    except InvalidInputError:
        raise InvalidInputError(f"{text!r} is not a card") from None


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
        self.console.print()
        self.console.rule(
            Text(self.t(key, number=view.round, total=total, cards=view.cards, kind=kind))
        )
        self.console.print(self._dealer_and_trump(view), soft_wrap=True)

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
            kind, dealer = self.t(f"kind.{action.kind}"), view.names[action.dealer]
            self._say(self.t(f"play.log.control{suffix}", kind=kind, dealer=dealer, **who))

    def trick_won(self, view: View, winner: int) -> None:
        suffix = "_you" if winner == view.seat else ""
        message = self.t(f"play.log.trick{suffix}", name=view.names[winner])
        self._say(Text(message, style="bold"))

    def trump_revealed(self, view: View) -> None:
        self._say(Text.assemble(self.t("play.log.revealed"), " ", self._trump(view)))

    def round_over(self, view: View, result: RoundResult) -> None:
        table = Table(title=self.t("play.round_over", number=result.number), box=box.SIMPLE)
        for key in ("play.col.player", "play.col.bid", "play.col.taken", "play.col.points"):
            table.add_column(self.t(key), justify="left" if key == "play.col.player" else "right")
        table.add_column(self.t("play.col.total"), justify="right")
        for seat, name in enumerate(view.names):
            bid = "–" if result.bids is None else str(result.bids[seat])
            points = "" if result.points is None else f"{result.points[seat]:+d}"
            table.add_row(Text(name), bid, str(result.taken[seat]), points, str(view.totals[seat]))
        self.console.print(table)

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
        table = Table(title=self.t("play.sheet"), box=box.SIMPLE_HEAD)
        for key in ("play.col.round", "play.col.cards", "play.col.kind", "play.col.trump"):
            table.add_column(self.t(key))
        for name in view.names:
            table.add_column(Text(name), justify="right")
        for result in rounds:
            if result.points is None:
                continue
            bids = result.bids or ("–",) * view.players
            cells = [
                f"{bid}/{taken}  {points:+d}"
                for bid, taken, points in zip(bids, result.taken, result.points, strict=True)
            ]
            trump = "–" if result.trump is None else result.trump.symbol
            kind = self.t(f"kind.{result.kind}")
            table.add_row(str(result.number), str(result.cards), kind, trump, *cells)
        table.add_section()
        table.add_row(self.t("play.col.total"), "", "", "", *map(str, view.totals))
        self.console.print(table)

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
        """The table: every seat, the trick, the trump and the person's hand."""
        forehead = view.kind is RoundKind.FOREHEAD and view.phase is Phase.BID
        table = Table(box=box.ROUNDED, show_edge=True)
        table.add_column("")
        for key in ("play.col.player", "play.col.bid", "play.col.taken", "play.col.total"):
            table.add_column(self.t(key), justify="left" if key == "play.col.player" else "right")
        table.add_column(self.t("play.col.forehead" if forehead else "play.col.trick"))
        in_trick = {
            (view.trick.leader + offset) % view.players: play
            for offset, play in enumerate(view.trick.plays)
        }
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
                self._seat_name(view, seat),
                "" if bid is None else str(bid),
                str(view.taken[seat]),
                str(view.totals[seat]),
                card,
            )
        self.console.print(table)
        self.console.print(self._dealer_and_trump(view), soft_wrap=True)

    def _ask_bid(self, view: View, rounds: RoundsSoFar) -> Bid:
        self._show_hand(view, legal=None)
        allowed = {action.amount for action in view.legal_actions if isinstance(action, Bid)}
        line = Text(self.t("play.bids") + " ")
        for amount in range(view.cards + 1):
            mark = f"[{amount}]" if amount in allowed else f"({amount})"
            line.append(mark + " ", style="bold" if amount in allowed else "dim")
        self.console.print(line, soft_wrap=True)
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
        except InvalidInputError:
            self._warn(self.t("play.not_a_card", text=text))
            return None
        if card not in hand:
            self._warn(self.t("play.not_in_hand", card=card_text(card, self.lang)))
            return None
        return card

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
        labels = [
            Text(
                self.t(
                    "play.control_option",
                    kind=self.t(f"kind.{choice.kind}"),
                    dealer=view.names[choice.dealer],
                )
            )
            for choice in choices
        ]
        return choices[self._menu(labels, "play.prompt.control", view, rounds)]

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
            self.console.print(Text.assemble(f"  [{number}] ", label), soft_wrap=True)
        if back:
            self.console.print(Text(f"  [0] {self.t('play.back')}"), soft_wrap=True)
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
        line = Text(self.t("play.hand") + " ")
        if view.hand is None:
            hidden = "play.hand_forehead" if view.kind is RoundKind.FOREHEAD else "play.hand_blind"
            line.append(" ".join([_FACE_DOWN] * view.cards) + "  ")
            line.append(self.t(hidden), style="dim")
            self.console.print(line, soft_wrap=True)
            return []
        hand = hand_order(view.hand)
        for number, card in enumerate(hand, start=1):
            if legal is None:
                line.append_text(self._card(card))
            elif card in legal:
                line.append(f"[{number}] ", style="bold")
                line.append_text(self._card(card))
            else:
                line.append(f"({number}) ", style="dim")
                line.append(self._card(card).plain, style="dim")
            line.append("  ")
        self.console.print(line, soft_wrap=True)
        if legal is not None:
            self.console.print(Text(self.t("play.legend"), style="dim"), soft_wrap=True)
        return hand

    def _seat_name(self, view: View, seat: int) -> Text:
        name = Text(view.names[seat], style="bold" if seat == view.seat else "")
        notes = []
        if seat == view.dealer:
            notes.append(self.t("play.dealer_mark"))
        level = self.levels[seat] if seat < len(self.levels) else None
        if level is not None:
            # A level without a translation (a bot added later) shows as it is typed.
            label = self.t(f"bot.{level}")
            notes.append(level if label == f"bot.{level}" else label)
        if notes:
            name.append(" · " + ", ".join(notes), style="dim")
        return name

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
        if card.suit is None:  # X, or X1 and X2 in decks with two jokers
            label = f"{self.t('play.joker')} {str(card).removeprefix('X')}".strip()
            return Text(label, style="bold magenta")
        label = card_text(card, self.lang)
        return Text(label, style="bold red" if card.suit in _RED_SUITS else "bold")

    def _cards(self, cards: Sequence[Card]) -> Text:
        return Text(" ").join(self._card(card) for card in hand_order(cards))

    def _play(self, play: Play, view: View, *, mine: bool) -> Text:
        """A card played; a joker with its announced mode, in the first person for the
        person's own («забираю») and in the third for anyone else's («Вера ходит: Джокер:
        забирает»)."""
        if play.mode is None:
            return self._card(play.card)
        return Text.assemble(self._card(play.card), ": ", self._mode(play, view.trump, mine=mine))

    def _mode(self, play: Play, trump: Suit | None, *, mine: bool = True) -> str:
        """A joker's mode as the person says it (the menu, their own move) or, not
        ``mine``, as it is said of someone else: «забирает», «скидывает ♣»."""
        person = "" if mine else "_others"
        if play.mode is JokerMode.TAKE or play.suit is None:
            return self.t(f"play.mode.take{person}")
        if play.mode is JokerMode.HIGHEST:
            key = "highest_trumps" if play.suit is trump else "highest"
            return self.t(f"play.mode.{key}", suit=play.suit.symbol)
        return self.t(f"play.mode.discard{person}", suit=play.suit.symbol)

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
        return Text.assemble((self._mode(play, view.trump), "bold"), " — ", meaning)

    def _say(self, message: str | Text) -> None:
        self.console.print(message, soft_wrap=True, markup=False, highlight=False)

    def _warn(self, message: str) -> None:
        self._say(Text(message, style="bold yellow"))
