"""``raspisnoy casino play``: casino Russian poker in the terminal, with play money.

The wallet file keeps the balance, the hand in progress (its seed, antes and decisions,
from which it is replayed) and the finished hands' records, so a game stopped at any
prompt (``q``, Ctrl-C, end of input) goes on where it stopped. A Ctrl-C, a kill or the
terminal closing stops it at the next prompt, once what it was doing is shown and saved
(``raspisnoy.stopping``). Nothing is bought: a wallet that runs dry is refilled for
free. The text is in the person's language (``--lang``, else ``LANG``), its cards too,
written as ``raspisnoy play`` writes them (``raspisnoy.i18n.cards``: «Д♣» in Russian);
the wallet's records keep docs/record.md's notation (``QC``).
"""

from __future__ import annotations

import json
import random
import re
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from raspisnoy.casino.actions import Action, Bet, BuyCard, BuyDealer, Decline, Fold, Phase
from raspisnoy.casino.cards import Card
from raspisnoy.casino.game import MAX_BOXES, CasinoHand, hand_cost
from raspisnoy.casino.record import replay_record
from raspisnoy.casino.settle import MAX_ANTE, MIN_ANTE, BoxResult, dealer_after_purchase
from raspisnoy.casino.shuffle import new_seed
from raspisnoy.casino.view import HandView
from raspisnoy.casino_advisor.hint import advice_for
from raspisnoy.casino_command import WALLET_FORMAT
from raspisnoy.casino_command.text import advice_text
from raspisnoy.cli_support import chosen_language, cli_help, fail, file_error
from raspisnoy.core import RaspisnoyError
from raspisnoy.files import write_atomically
from raspisnoy.i18n import translate, translate_error
from raspisnoy.i18n.cards import card_text
from raspisnoy.stopping import ask_line, stopping_at_safe_points

__all__ = ["START_BALANCE", "CasinoTerminal", "Wallet", "play_command"]

START_BALANCE = 1000
#: Finished hands kept in the wallet, newest last.
HISTORY = 100


class Quit(Exception):
    """The person asked to stop (``q``, Ctrl-C or end of input)."""


class WalletError(RaspisnoyError):
    """A wallet file the command cannot use; ``casino.play.wallet.<key>`` words it for
    the person, with ``path`` and the ``values``."""

    def __init__(self, message: str, key: str, path: Path, **values: str) -> None:
        super().__init__(message)
        self.key, self.values = key, {"path": str(path), "format": WALLET_FORMAT, **values}


@dataclass(slots=True)
class Wallet:
    """The play money and the hands of one player, as kept in the wallet file."""

    balance: int = START_BALANCE
    hand: dict[str, Any] | None = None
    history: list[dict[str, Any]] = field(default_factory=list)
    refills: int = 0

    @classmethod
    def load(cls, path: Path) -> Wallet:
        if not path.exists():
            return cls()
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise WalletError(f"{path}: not a {WALLET_FORMAT} file", "format", path) from None
        if not isinstance(data, dict) or data.get("format") != WALLET_FORMAT:
            raise WalletError(f"{path}: not a {WALLET_FORMAT} file", "format", path)
        balance = data.get("balance")
        if type(balance) is not int or balance < 0:
            english = f"{path}: balance {balance!r} is not a number of chips"
            raise WalletError(english, "balance", path, balance=repr(balance))
        return cls(balance, data.get("hand"), list(data.get("history", [])), data.get("refills", 0))

    def save(self, path: Path) -> None:
        data = {
            "format": WALLET_FORMAT,
            "balance": self.balance,
            "refills": self.refills,
            "hand": self.hand,
            "history": self.history[-HISTORY:],
        }
        # Private: the hand in progress has its seed, which deals the cards still hidden.
        write_atomically(path, json.dumps(data, ensure_ascii=False, indent=1) + "\n", private=True)


class CasinoTerminal:
    """Plays hands with the person: reads antes and decisions, shows the table."""

    def __init__(
        self,
        console: Console,
        lang: str,
        wallet_path: Path,
        *,
        read: Callable[[str], str] | None = None,
        seeds: Callable[[], str] | None = None,
    ) -> None:
        self.console = console
        self.lang = lang
        self.path = wallet_path
        self.wallet = Wallet.load(wallet_path)
        self._read = read or partial(ask_line, console)
        #: Where each new hand's seed comes from.
        self.seeds = seeds or (lambda: new_seed(random.SystemRandom()))
        self._last_antes = "10"

    def t(self, key: str, **values: object) -> str:
        return translate(f"casino.play.{key}", self.lang, **values)

    def run(self, hands: int | None = None) -> None:
        """Play until the person quits (or ``hands`` hands are finished); a stop signal
        stops it at the next prompt (``raspisnoy.stopping``)."""
        played = 0
        with stopping_at_safe_points():
            try:
                while hands is None or played < hands:
                    hand = self._resume() or self._new_hand()
                    self._play(hand)
                    played += 1
            except Quit:
                self._say(self.t("saved", path=self.path))

    # ----------------------------------------------------------------- one hand

    def _resume(self) -> CasinoHand | None:
        if self.wallet.hand is None:
            return None
        hand = replay_record(self.wallet.hand, self.wallet.hand["seed"])
        self._say(self.t("resumed"))
        return hand

    def _new_hand(self) -> CasinoHand:
        if self.wallet.balance < MIN_ANTE:
            self.wallet.balance = START_BALANCE
            self.wallet.refills += 1
            self._say(self.t("refill", balance=START_BALANCE))
        self._say()
        self._say(self.t("balance", balance=self.wallet.balance))
        while True:
            last = self._last_antes
            text = self._ask(
                self.t("antes", low=MIN_ANTE, high=MAX_ANTE, boxes=MAX_BOXES, last=last)
            )
            text = text or last
            antes = self._antes(text)
            if antes is None:
                continue
            hand = CasinoHand(antes, self.wallet.balance, self.seeds())
            self._last_antes = text
            self._keep(hand)
            return hand

    def _antes(self, text: str) -> list[int] | None:
        """The antes typed, or ``None`` once the person is told, in their language, what
        is wrong with them: not numbers, out of bounds, or more than the balance."""
        try:
            antes = [int(part) for part in text.split()]
        except ValueError:
            self._say(self.t("bad_antes", text=text))
            return None
        if not 1 <= len(antes) <= MAX_BOXES or not all(MIN_ANTE <= a <= MAX_ANTE for a in antes):
            self._say(self.t("antes_range", low=MIN_ANTE, high=MAX_ANTE, boxes=MAX_BOXES))
            return None
        cost, balance = hand_cost(antes), self.wallet.balance
        if cost > balance:
            self._say(self.t("antes_short", cost=cost, balance=balance))
            return None
        return antes

    def _play(self, hand: CasinoHand) -> None:
        self._say(self.t("commitment", commitment=hand.commitment))
        while not hand.is_over:
            view = hand.view()
            self._show(view)
            self._decide(hand, view)
            self._keep(hand)
        self._show(hand.view())
        self._finish(hand)

    def _decide(self, hand: CasinoHand, view: HandView) -> None:
        box = view.to_act
        assert box is not None
        menu: dict[str, Action] = {}
        if view.phase is Phase.PURCHASE:
            if hand.can_buy_dealer():
                menu["1"] = BuyDealer()
            menu["2"] = Decline()
        else:
            menu["1"] = Fold()
            if hand.can_bet():
                menu["2"] = Bet()
            if hand.can_buy_card():
                menu["3"] = BuyCard()
        labels = {number: self.t(f"option.{action}") for number, action in menu.items()}
        # A change (4) asks for its cards next; it is allowed exactly when a buy is.
        if "3" in menu:
            labels["4"] = self.t("option.change")
        for number, label in labels.items():
            self._say(f"  [{number}] {label}")
        self._say(f"  [0] {self.t('option.hint')}   [q] {self.t('option.quit')}")
        while True:
            choice = self._ask(self.t("prompt", box=box + 1))
            if choice == "0":
                self._hint(view)
            elif choice == "4" and "4" in labels:
                cards = self._ask_change(view)
                if cards:
                    hand.change(cards)
                    return
            elif choice in menu:
                hand.apply(menu[choice])
                return
            else:
                self._say(self.t("bad_choice", choice=choice))

    def _ask_change(self, view: HandView) -> tuple[Card, ...]:
        cards = view.boxes[view.to_act or 0].cards or ()
        numbers = "  ".join(f"[{i}] {self._card(card)}" for i, card in enumerate(cards, 1))
        self._say("  " + numbers)
        text = self._ask(self.t("which"))
        try:
            picked = sorted({int(part) for part in text.replace(",", " ").split()})
        except ValueError:
            picked = []
        if not picked or not all(1 <= number <= len(cards) for number in picked):
            self._say(self.t("bad_change", text=text))
            return ()
        return tuple(cards[number - 1] for number in picked)

    def _hint(self, view: HandView) -> None:
        table = advice_text(advice_for(view), self.lang, self.console.width, card_name=self._card)
        self._say(table, end="")

    def _finish(self, hand: CasinoHand) -> None:
        for number, result in enumerate(hand.results, 1):
            self._say(self._result(number, result))
        self._say(self.t("seed", seed=hand.seed, path=shlex.quote(str(self.path))))
        self.wallet.balance = hand.balance
        self.wallet.history.append(hand.to_record())
        self.wallet.hand = None
        self.wallet.save(self.path)

    def _result(self, number: int, result: BoxResult) -> str:
        """A box's outcome and net, with the pay on its bet only where the bet is paid (a
        win): a fold or a loss is not said to pay 0:1."""
        outcome = translate(f"casino.outcome.{result.outcome}", self.lang)
        key = "result_paid" if result.pays else "result"
        return self.t(key, box=number, outcome=outcome, pays=result.pays, net=f"{result.net:+d}")

    # ----------------------------------------------------------------- the table

    def _show(self, view: HandView) -> None:
        self._say()
        self.console.print(Text(self.t("dealer", cards=self._dealer_cards(view)), style="bold"))
        if view.dealer_draw is not None:
            draw = view.dealer_draw
            self._say(
                self.t("dealer_drew", discard=self._card(draw.discard), draw=self._card(draw.draw))
            )
        for box in view.boxes:
            cards = self._cards(box.cards) if box.cards else "▒▒ ▒▒ ▒▒ ▒▒ ▒▒"
            state = self.t("closed") if box.closed else ""
            if box.folded:
                state = self.t("folded")
            elif box.bet and not box.closed:
                state = self.t("bet")
            marker = "→" if view.to_act is not None and box.number == view.to_act + 1 else " "
            self._say(
                f"{marker} {self.t('box', number=box.number, ante=box.ante)}  {cards}  {state}"
            )
        self._say(self.t("balance", balance=view.balance))

    def _dealer_cards(self, view: HandView) -> str:
        """The dealer's hand as it stands: four cards face down and the up card, his five
        cards once shown, and, once his game is bought, the hand after his draw (the line
        below says which card he changed)."""
        if view.dealer is None:
            return "▒▒ ▒▒ ▒▒ ▒▒ " + self._card(view.up_card)
        cards = view.dealer
        if view.dealer_draw is not None:
            cards = dealer_after_purchase(cards, view.dealer_draw.draw)
        return self._cards(cards)

    def _card(self, card: Card) -> str:
        """A card as the person's language writes it: «Д♣» in Russian, ``Q♣`` in English."""
        return card_text(card, self.lang)

    def _cards(self, cards: Sequence[Card]) -> str:
        """Cards in the order given, written as ``_card`` writes them."""
        return " ".join(map(self._card, cards))

    def _keep(self, hand: CasinoHand) -> None:
        """Save the hand in progress (its seed stays in the wallet, never on screen)."""
        if hand.is_over:
            return
        record = hand.to_record()
        record["seed"] = hand.seed
        self.wallet.hand = record
        self.wallet.save(self.path)

    def _say(self, text: str = "", end: str = "\n") -> None:
        """A line for the person, printed as it is (``[1]`` is text, not markup)."""
        self.console.print(text, end=end, markup=False, highlight=False)

    def _ask(self, prompt: str) -> str:
        try:
            text = self._read(prompt + " ").strip()
        except (EOFError, KeyboardInterrupt):
            # Ctrl-C or Ctrl-D leaves the prompt's line open: what follows goes below it.
            self._say()
            raise Quit from None
        if text.lower() in ("q", "quit", "й"):
            raise Quit
        return text


def play_command(
    wallet: Annotated[Path, typer.Option("--wallet", help=cli_help("casino.play.wallet"))] = Path(
        "raspisnoy-casino.json"
    ),
    lang: Annotated[str | None, typer.Option("--lang", help=cli_help("casino.play.lang"))] = None,
    seed: Annotated[str | None, typer.Option("--seed", help=cli_help("casino.play.seed"))] = None,
) -> None:
    """``raspisnoy casino play``; its help is the ``cli`` catalog's ``cli.casino.play``."""
    language = chosen_language(lang)
    try:
        terminal = CasinoTerminal(Console(), language, wallet)
        if seed is not None:
            terminal.seeds = _numbered_seeds(seed, terminal.wallet)
        terminal.run()
    except WalletError as error:
        fail(translate(f"casino.play.wallet.{error.key}", language, **error.values))
    except RaspisnoyError as error:
        fail(translate_error(error, language))
    except OSError as error:
        fail(file_error(error, language))


def _numbered_seeds(seed: str, wallet: Wallet) -> Callable[[], str]:
    """``SEED/1``, ``SEED/2``…: the hands of a game replayed with ``--seed`` (for tests and
    demonstrations; without it every seed is fresh system randomness). The numbers go on
    after the last ``SEED/N`` among the wallet's finished hands, so a second run with the
    same ``--seed`` deals new hands rather than ones whose seed is already revealed."""
    numbered = re.compile(re.escape(seed) + r"/([1-9][0-9]*)")

    def next_seed() -> str:
        seeds = (str(record.get("seed")) for record in wallet.history)
        dealt = (int(match[1]) for text in seeds if (match := numbered.fullmatch(text)))
        return f"{seed}/{max(dealt, default=0) + 1}"

    return next_seed
