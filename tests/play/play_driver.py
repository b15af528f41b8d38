"""Drive ``raspisnoy play`` like a person at a terminal, and predict the game it must give.

``Person`` is one way of playing (a bid from the middle of the allowed ones, the joker
whenever it may be played, "highest trumps" when that is on the menu, else the lowest
card). ``expected_game`` plays that person against the real bots in-process;
``Terminal`` plays the same person through a pseudo-terminal against the real program,
reading only what the program prints: the bids line, the hand with its ``[n]``/``(n)``
marks and the joker menu. Along the way it also types what a person gets wrong (a
refused bid, a card that may not be played, the score-sheet key) and counts the
refusals the program explained.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pexpect

from raspisnoy.core import Action, Bid, Card, Game, JokerMode, Phase, Play, Rules, Suit, View
from raspisnoy.i18n import translate
from raspisnoy.play.screen import parse_typed_card
from raspisnoy.play.session import HUMAN, Seating

_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
_CHOICE = re.compile(r"([\[(])(\d+)[\])] (\S+)")


def strip_ansi(text: str) -> str:
    return _ANSI.sub("", text).replace("\r", "")


class Person:
    """The choices of the person at seat 0, from the options on offer."""

    @staticmethod
    def bid(allowed: list[int]) -> int:
        return sorted(allowed)[len(allowed) // 2]

    @staticmethod
    def card(playable: list[Card]) -> Card:
        jokers = [card for card in playable if card.is_joker]
        return jokers[0] if jokers else min(playable)

    @staticmethod
    def joker(highest_trumps: list[bool]) -> int:
        """Which joker mode, given whether each menu entry is "highest trumps"."""
        return highest_trumps.index(True) if True in highest_trumps else 0

    def act(self, view: View) -> Action:
        """The same choices made on a ``View``, in-process."""
        if view.phase is Phase.BID:
            return Bid(self.bid([a.amount for a in view.legal_actions if isinstance(a, Bid)]))
        plays = [a for a in view.legal_actions if isinstance(a, Play)]
        card = self.card(list(dict.fromkeys(play.card for play in plays)))
        modes = [play for play in plays if play.card == card]
        if not card.is_joker:
            return modes[0]
        flags = [p.mode is JokerMode.HIGHEST and p.suit is view.trump for p in modes]
        return modes[self.joker(flags)]


@dataclass
class Seen:
    """What the person met in one game: joker modes played, refusals explained."""

    jokers: list[Play] = field(default_factory=list)
    forbidden_bids: int = 0
    refused_cards: int = 0
    prompts: int = 0


def expected_game(rules: Rules, names: tuple[str, ...], seating: Seating) -> tuple[Game, Seen]:
    """The game ``raspisnoy play`` must give when ``Person`` plays seat 0."""
    game = Game(rules, names, seed=seating.seed)
    bots, person, seen = seating.bots(), Person(), Seen()
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        if seat == HUMAN:
            action = person.act(view)
            allowed = {a.amount for a in view.legal_actions if isinstance(a, Bid)}
            if view.phase is Phase.BID and view.dealer == HUMAN and len(allowed) <= view.cards:
                seen.forbidden_bids += 1
            if isinstance(action, Play) and action.card.is_joker:
                seen.jokers.append(action)
        else:
            action = bots[seat].act(view)
        game.apply(action, seat)
    return game, seen


class Terminal:
    """``raspisnoy play`` running in a pseudo-terminal, played by ``Person``."""

    def __init__(self, args: list[str], cwd: Path, lang: str) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
        env.update(TERM="xterm-256color", LANG="C.UTF-8", PYTHONIOENCODING="utf-8")
        self.lang = lang
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "raspisnoy", "play", *args, "--lang", lang, "--delay", "0"],
            cwd=str(cwd),
            env=env,
            encoding="utf-8",
            dimensions=(60, 220),
            timeout=30,
        )
        self.transcript: list[str] = []
        self.seen = Seen()
        self.person = Person()
        self.sheet_shown = False

    def t(self, key: str, **values: object) -> str:
        return translate(key, self.lang, **values)

    def play(self, stop_after_prompts: int | None = None) -> str:
        """Answer every prompt until the program exits (or press Ctrl-C at the given
        prompt); the whole screen, without colours."""
        prompts = [self.t(f"play.prompt.{kind}") for kind in ("bid", "card", "joker")]
        while True:
            index = self.child.expect_exact([*prompts, pexpect.EOF])
            screen = self._read()
            if index == 3:
                break
            self.seen.prompts += 1
            if self.seen.prompts == stop_after_prompts:
                self.child.sendintr()
                continue
            if not self.sheet_shown:
                self._show_sheet(prompts[index])
            if index == 0:
                self._bid(screen, prompts[0])
            elif index == 1:
                self._card(screen, prompts[1])
            else:
                self._joker(screen)
        self.child.close()
        return "".join(self.transcript)

    @property
    def exit_status(self) -> int | None:
        return self.child.exitstatus

    def _read(self) -> str:
        text = strip_ansi(self.child.before or "")
        self.transcript.append(text)
        return text

    def _expect_after(self, answer: str, message: str, prompt: str) -> None:
        """Type ``answer``; the program must say ``message`` and ask again."""
        self.child.sendline(answer)
        self.child.expect_exact(prompt)
        said = self._read()
        assert message in said, f"typed {answer!r}, expected {message!r}, got:\n{said}"

    def _show_sheet(self, prompt: str) -> None:
        self._expect_after("s", self.t("play.sheet"), prompt)
        self.sheet_shown = True

    def _bid(self, screen: str, prompt: str) -> None:
        line = _last_line(screen, self.t("play.bids"))
        choices = _CHOICE_MARKS.findall(line)
        allowed = [int(n) for mark, n in choices if mark == "["]
        for mark, number in choices:
            if mark == "(":
                message = self.t("play.forbidden", bid=number, cards=len(choices) - 1)
                self._expect_after(number, message, prompt)
                self.seen.forbidden_bids += 1
        self.child.sendline(str(self.person.bid(allowed)))

    def _card(self, screen: str, prompt: str) -> None:
        hand = _CHOICE.findall(_last_line(screen, self.t("play.hand")))
        cards = {int(n): self._parse_card(text) for _, n, text in hand}
        playable = {int(n) for mark, n, _ in hand if mark == "["}
        refused = [int(n) for mark, n, _ in hand if mark == "("]
        if refused and self.seen.refused_cards < 3:
            self.child.sendline(str(refused[0]))
            self.child.expect(self._refusal_pattern())
            self._read()
            self.child.expect_exact(prompt)
            self._read()
            self.seen.refused_cards += 1
        chosen = self.person.card([cards[n] for n in sorted(playable)])
        self.child.sendline(str(next(n for n, card in cards.items() if card == chosen)))

    def _joker(self, screen: str) -> None:
        menu = [line.strip() for line in screen.splitlines() if re.match(r"\s+\[[1-9]\d*\] ", line)]
        trumps = [self.t("play.mode.highest_trumps", suit=s) for s in "♠♣♦♥"]
        flags = [any(label.split("] ", 1)[1].startswith(t + " ") for t in trumps) for label in menu]
        choice = self.person.joker(flags)
        label = menu[choice].split("] ", 1)[1]
        self.seen.jokers.append(self._joker_play(label))
        self.child.sendline(str(choice + 1))

    def _joker_play(self, label: str) -> Play:
        """The joker play a menu label names (to compare with the expected game)."""
        joker = Card.parse("X")
        for mode in JokerMode:
            for suit in "♠♣♦♥":
                key = f"play.mode.{mode}"
                names = [self.t(key, suit=suit)]
                if mode is JokerMode.HIGHEST:
                    names.append(self.t("play.mode.highest_trumps", suit=suit))
                if any(label.startswith(name + " ") for name in names):
                    if mode is JokerMode.TAKE:
                        return Play(joker, mode)
                    return Play(joker, mode, Suit.parse(suit))
        raise AssertionError(f"unknown joker menu entry {label!r}")

    def _refusal_pattern(self) -> str:
        keys = ("play.must_follow", "play.must_highest", "play.must_trump")
        starts = [re.escape(self.t(key).split("{")[0]) for key in keys]
        return "|".join(starts)

    def _parse_card(self, text: str) -> Card:
        # The screen writes ranks in the session's letters (В♣ in Russian), the joker by name.
        return parse_typed_card(text, self.lang)


_CHOICE_MARKS = re.compile(r"([\[(])(\d+)[\])]")


def _last_line(screen: str, start: str) -> str:
    lines = [line for line in screen.splitlines() if line.startswith(start)]
    assert lines, f"no line starting with {start!r} in:\n{screen}"
    return lines[-1]


def final_totals(transcript: str, lang: str, names: tuple[str, ...]) -> list[int]:
    """The totals the program printed last, by seat."""
    prefix = translate("play.final_totals", lang, totals="")
    line = _last_line(transcript, prefix)[len(prefix) :]
    parts = line.strip().split(" · ")
    assert [part.rsplit(" ", 1)[0] for part in parts] == list(names), line
    return [int(part.rsplit(" ", 1)[1]) for part in parts]
