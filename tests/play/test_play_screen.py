"""The terminal screen of ``raspisnoy play`` on hand-made deals: what it shows, what it
refuses and why, in every language. The person's typing is scripted; the output is
Rich's, rendered without colours."""

from __future__ import annotations

import io
import re
from collections.abc import Sequence

import pytest
from rich.console import Console

from raspisnoy.bots import BOTS
from raspisnoy.core import Bid, Card, ControlRound, Game, Play, RoundKind, resolve_rules
from raspisnoy.i18n import LANGUAGES, catalog, translate
from raspisnoy.play.screen import TerminalScreen, hand_order, parse_typed_card

NAMES = ("You", "Anna", "Boris")


class Typist:
    """Types scripted answers at the screen's prompts and keeps everything printed."""

    def __init__(self, lang: str, answers: Sequence[str]) -> None:
        self.output = io.StringIO()
        self.console = Console(file=self.output, width=120, color_system=None)
        self.answers = list(answers)
        self.prompts: list[str] = []
        self.screen = TerminalScreen(
            self.console, lang, levels=(None, "random", "random"), read=self._read
        )

    def _read(self, prompt: str) -> str:
        assert self.answers, f"no answer left for {prompt!r}; so far:\n{self.text}"
        self.prompts.append(prompt)
        answer = self.answers.pop(0)
        self.console.print(prompt + answer)
        return answer

    @property
    def text(self) -> str:
        return self.output.getvalue()


def dealt(
    plan: str,
    hands: str,
    trump: str | None,
    *,
    dealer: int = 0,
    bids: Sequence[int] = (),
    plays: str = "",
    **options: object,
) -> Game:
    """A 3-player game of a custom plan whose first round is dealt ``hands``
    ("AS KD | QH 6C | X 9D"), then ``bids`` and ``plays`` ("QD 9C") made in turn."""
    rules = resolve_rules("raspisnoy.com", custom_plan=tuple(plan.split(",")), **options)
    game = Game(rules, NAMES, first_dealer=dealer)
    cards = [[Card.parse(word) for word in hand.split()] for hand in hands.split("|")]
    game.deal(cards, None if trump is None else Card.parse(trump))
    for amount in bids:
        game.bid(amount)
    for play in plays.split():
        game.play(Play.parse(play))
    return game


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_dealers_forbidden_bid_is_shown_and_refused_with_its_reason(lang: str) -> None:
    # Anna bids 1, Boris 0: the person deals and may not bid 1.
    game = dealt("2", "AS KD | QH 6C | X 9D", "6H", bids=(1, 0))
    typist = Typist(lang, ["1", "7", "two", "²", "2"])
    assert typist.screen.ask(game.view(0), game.rounds) == Bid(2)
    reason = translate("play.forbidden", lang, bid=1, cards=2)
    assert f"{translate('play.bids', lang)} [0] (1) [2]" in typist.text
    assert typist.text.count(reason) == 2  # listed, then the answer to typing 1
    assert typist.text.count(translate("play.bid_range", lang, cards=2)) == 3
    assert typist.prompts == [translate("play.prompt.bid", lang)] * 5


def test_the_reasons_are_in_the_persons_language() -> None:
    game = dealt("2", "AS KD | QH 6C | X 9D", "6H", bids=(1, 0))
    for lang, words in [
        ("ru", "Вы сдаёте и не можете заказать 1"),
        ("uk", "Ви роздаєте і не можете замовити 1"),
        ("en", "You deal, so you may not bid 1"),
    ]:
        typist = Typist(lang, ["?", "2"])
        typist.screen.ask(game.view(0), game.rounds)
        assert words in typist.text
        assert translate("play.keys", lang) in typist.text  # "?" lists the keys


def test_a_card_that_must_not_be_played_is_marked_and_refused_with_the_suit_to_follow() -> None:
    # Anna leads (the person deals); the person holds ♦ and must follow.
    game = dealt("3", "AS KD 9D | QD 6C 8H | X 9C TH", "6H", bids=(1, 1, 0), plays="QD 9C")
    typist = Typist("en", ["1", "QH", "9", "nonsense", "KD"])
    assert typist.screen.ask(game.view(0), game.rounds) == Play.parse("KD")
    assert "Your hand: (1) A♠  [2] K♦  [3] 9♦" in typist.text
    assert "You must follow suit: ♦." in typist.text
    assert "You do not hold Q♥." in typist.text
    assert "There is no choice 9" in typist.text
    assert "nonsense is not a card" in typist.text
    # The table shows the trick so far and the turned-up trump.
    assert "Q♦" in typist.text
    assert "Trump: 6♥" in typist.text


def test_without_the_suit_led_a_trump_is_demanded_where_the_rules_say_so() -> None:
    game = dealt(
        "2", "AS 9H | QD 6C | X 9C", "6H", trump_when_void=True, bids=(0, 0, 1), plays="QD 9C"
    )
    typist = Typist("ru", ["1", "2"])
    assert typist.screen.ask(game.view(0), game.rounds) == Play.parse("9H")
    assert "У вас нет ♦, поэтому нужно бить козырем: ♥." in typist.text


def test_a_joker_led_as_highest_demands_the_highest_card_of_its_suit() -> None:
    game = dealt("2", "KD 9D | X 6C | AH 9C", "6S", bids=(1, 0, 0), plays="X:highest:D AH")
    typist = Typist("uk", ["2", "1"])
    assert typist.screen.ask(game.view(0), game.rounds) == Play.parse("KD")
    assert "Джокер вимагає вашу старшу ♦: К♦." in typist.text  # Cyrillic К, as players write it
    assert "Джокер: старша ♦" in typist.text  # Anna's joker in the trick


def test_the_jokers_modes_are_a_menu_with_highest_trumps_by_name() -> None:
    # The person leads (Boris deals) with the joker; ♥ is trump.
    game = dealt("2", "X 9D | QD 6C | AH 9C", "6H", dealer=2, bids=(1, 0, 0))
    typist = Typist("en", ["X", "0", "2", "4"])  # back out once, then choose again
    assert typist.screen.ask(game.view(0), game.rounds) == Play.parse("X:highest:H")
    menu = typist.text
    assert "[1] highest ♠ — everyone plays their highest ♠; the joker takes the trick" in menu
    assert "[4] highest trumps ♥ — everyone plays their highest ♥" in menu
    assert "[5] discard ♠ — the lowest ♠; ♠ is the suit led" in menu
    assert "[0] another card" in menu
    assert typist.prompts.count("Joker: ") == 2


def test_a_following_joker_offers_take_and_discard() -> None:
    game = dealt("2", "X 9D | QD 6C | AH 9C", "6H", bids=(1, 0, 0), plays="QD 9C")
    typist = Typist("ru", ["2", "3"])
    assert typist.screen.ask(game.view(0), game.rounds) == Play.parse("X:discard:C")
    assert "[1] забираю — бьёт всё и забирает взятку" in typist.text
    assert "[3] скидываю ♣ — младше шестёрки ♣, взятку не берёт" in typist.text
    assert "[6]" not in typist.text  # take and four discards: no "highest" when following


def test_a_blind_round_shows_the_hand_face_down_until_all_bids_are_in() -> None:
    game = dealt("2:blind", "AS KD | QH 6C | X 9D", "6H", dealer=2)
    typist = Typist("en", ["0"])
    assert typist.screen.ask(game.view(0), game.rounds) == Bid(0)
    assert "Your hand: ▒▒ ▒▒  face down until all bids are in" in typist.text
    assert "Trump: face down until all bids are in" in typist.text
    for hidden in ("A♠", "K♦", "6♥"):
        assert hidden not in typist.text


def test_a_forehead_round_shows_the_others_cards_but_not_your_own() -> None:
    game = dealt("1:forehead", "AS | QH | X", "6H", dealer=2)
    typist = Typist("en", ["1"])
    typist.screen.ask(game.view(0), game.rounds)
    assert "Card on the forehead" in typist.text
    assert "Q♥" in typist.text
    assert "Joker" in typist.text
    assert "A♠" not in typist.text
    assert "your card is on your forehead" in typist.text


def test_the_score_sheet_is_on_a_key_and_keeps_the_round_in_progress_out() -> None:
    game = dealt("1,2:blind", "AS | QH | 9D", "6H", dealer=2, bids=(1, 0, 1), plays="AS QH 9D")
    blind = [[Card.parse(c) for c in h.split()] for h in ("KS QS", "JD TD", "8C 7C")]
    game.deal(blind, Card.parse("6D"))
    game.bid(0)  # Anna
    game.bid(0)  # Boris; the person deals
    # Round 2 is blind and being bid: its trump (♦) and its kind are not on the sheet.
    typist = Typist("ru", ["ы", "0"])  # «ы» is the «s» key on a Russian keyboard
    typist.screen.ask(game.view(0), game.rounds)
    sheet = typist.text
    assert "Расписка" in sheet
    # ♥ trumps: Anna's Q♥ took the A♠.
    assert re.search(r"1 +1 +обычная +♥ +1/0 +-10 +0/1 +\+1 +1/0 +-10", sheet)
    assert re.search(r"Итог +-10 +1 +-10", sheet)
    after = sheet.split("Расписка")[1]
    assert "тёмная" not in after
    assert "♦" not in after


def test_the_last_placed_person_chooses_a_control_round_from_a_menu() -> None:
    # The person takes the only trick: 1, 5, 5 points, first place tied.
    game = dealt(
        "1", "AS | QH | 9S", "6D", dealer=2, control_game=True, bids=(0, 0, 0), plays="AS QH 9S"
    )
    typist = Typist("en", ["99", "7"])
    choice = typist.screen.ask(game.view(0), game.rounds)
    assert choice == ControlRound(RoundKind.BLIND, 0)
    assert "[7] blind, you deal" in typist.text  # the person's own case, not "dealt by You"
    assert "[2] normal, dealt by Anna" in typist.text
    assert "There is no choice 99" in typist.text


def test_hands_are_sorted_by_suit_high_cards_first_joker_last() -> None:
    hand = [Card.parse(c) for c in ["6H", "X", "AS", "9D", "7C", "TS", "AH"]]
    assert [str(c) for c in hand_order(hand)] == ["AS", "TS", "7C", "9D", "AH", "6H", "X"]


def test_two_jokers_are_told_apart() -> None:
    game = Game("georgian", (*NAMES, "Vera"), first_dealer=3)
    game.deal([[Card.parse(c)] for c in ("X1", "X2", "AS", "KD")], Card.parse("9H"))
    for amount in (0, 0, 0, 0):
        game.bid(amount)
    typist = Typist("en", ["X1", "1"])
    assert typist.screen.ask(game.view(0), game.rounds) == Play.parse("X1:highest:S")
    assert "Your hand: [1] Joker 1" in typist.text


@pytest.mark.parametrize(
    ("lang", "typed", "shown", "level"),
    [
        ("ru", ["дч", "кб"], ("К♦", "Д♥"), "случайный"),
        ("uk", ["ДЧ", "Кб"], ("К♦", "Д♥"), "випадковий"),
        ("en", ["qh", "KD"], ("K♦", "Q♥"), "random"),
    ],
)
def test_cards_are_written_and_typed_in_the_persons_letters(
    lang: str, typed: list[str], shown: tuple[str, str], level: str
) -> None:
    """Ranks read as on the web (К Д В Т in Russian and Ukrainian), a card may be typed in
    those letters with the suits' first letters (кб: king of diamonds), and the bots'
    levels are named in the person's language."""
    game = dealt("2", "KD 9D | QH 6C | AH 9C", "6S", dealer=2, bids=(0, 0, 1))
    typist = Typist(lang, typed)
    assert typist.screen.ask(game.view(0), game.rounds) == Play.parse("KD")
    king, queen = shown
    assert f"[1] {king}" in typist.text  # the hand, numbered
    assert translate("play.not_in_hand", lang, card=queen) in typist.text
    assert f"Anna · {level}" in typist.text


@pytest.mark.parametrize(
    ("lang", "refusal"),
    [
        ("ru", "T♠ — неясно, какая это карта: Т — туз, 10 — десятка."),
        ("uk", "T♠ — незрозуміло, яка це карта: Т — туз, 10 — десятка."),
    ],
)
def test_a_latin_t_that_looks_like_the_ace_is_refused_as_ambiguous(lang: str, refusal: str) -> None:
    """The screen writes the ace «Т♠» (Cyrillic); a Latin T means ten in records, so
    ``T♠``, ``Tч`` and ``TH`` typed with a Latin T are refused, saying what to type,
    rather than played as a ten."""
    game = dealt("2", "AS TH | QD 6C | KC 9C", "6D", dealer=2, bids=(0, 0, 1))
    typist = Typist(lang, ["T♠", "Tч", "TH", "10ч"])
    assert typist.screen.ask(game.view(0), game.rounds) == Play.parse("TH")
    assert "[1] Т♠  [2] 10♥" in typist.text
    assert refusal in typist.text
    assert typist.text.count("10 — десятка.") == 3


def test_in_english_a_latin_t_is_the_ten() -> None:
    game = dealt("2", "AS TH | QD 6C | KC 9C", "6D", dealer=2, bids=(0, 0, 1))
    typist = Typist("en", ["TH"])
    assert typist.screen.ask(game.view(0), game.rounds) == Play.parse("TH")


@pytest.mark.parametrize(
    ("typed", "card"),
    [("Т♠", "AS"), ("тт", "AC"), ("K♠", "KS"), ("B♠", "JS"), ("ДT", "QC"), ("10H", "TH")],
)
def test_latin_look_alikes_without_another_meaning_are_read_as_russian(
    typed: str, card: str
) -> None:
    """Latin K is the king in both notations, Latin B (В, валет) and T as a suit (Т,
    трефы) mean nothing else in records: they are read as the Russian letters."""
    assert parse_typed_card(typed, "ru") == Card.parse(card)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_joker_is_named_as_in_the_hand_and_may_be_typed_by_that_name(lang: str) -> None:
    """Typing the joker one does not hold names it as the hand does («Джокер», not X);
    the joker held may be typed by its name, in any case."""
    joker = translate("play.joker", lang)
    without = dealt("2", "AS TH | QD 6C | X 9C", "6D", dealer=2, bids=(0, 0, 1))
    typist = Typist(lang, ["Х", joker.lower(), "1"])
    typist.screen.ask(without.view(0), without.rounds)
    assert typist.text.count(translate("play.not_in_hand", lang, card=joker)) == 2
    held = dealt("2", "X TH | QD 6C | AS 9C", "6D", dealer=2, bids=(0, 0, 1))
    typist = Typist(lang, [joker.upper(), "1"])
    played = typist.screen.ask(held.view(0), held.rounds)
    assert isinstance(played, Play) and played.card == Card.parse("X")
    assert parse_typed_card(f"{joker} 2", lang) == Card.parse("X2")


@pytest.mark.parametrize(
    ("lang", "menu", "log"),
    [
        ("ru", "[1] обычная, сдаёте вы", "Anna выбирает контрольную: тёмная, сдаёте вы"),
        ("uk", "[1] звичайна, роздаєте ви", "Anna вибирає контрольну: темна, роздаєте ви"),
        ("en", "[1] normal, you deal", "Anna chooses a control round: blind, you deal"),
    ],
)
def test_a_control_round_the_person_deals_is_worded_in_their_person(
    lang: str, menu: str, log: str
) -> None:
    """Not «сдаёт Вы»: the person's own dealing is said to them, in the menu and in the
    log of another player's choice."""
    game = dealt(
        "1", "AS | QH | 9S", "6D", dealer=2, control_game=True, bids=(0, 0, 0), plays="AS QH 9S"
    )
    typist = Typist(lang, ["1"])
    typist.screen.ask(game.view(0), game.rounds)
    typist.screen.acted(1, ControlRound(RoundKind.BLIND, 0), game.view(0))
    assert menu in typist.text
    assert log in typist.text


def test_every_bot_level_is_named_in_every_language_and_in_the_help() -> None:
    for lang in LANGUAGES:
        for level in BOTS:
            assert f"bot.{level}" in catalog(lang), (lang, level)
            assert level in translate("cli.play.bots", lang)
