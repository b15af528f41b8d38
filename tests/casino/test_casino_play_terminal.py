"""``raspisnoy casino play`` as a terminal review found it: what a stop leaves on the
screen, the verify hint and ``--seed`` across runs, the hint's table at 40 and 80
columns, the short antes prompt, quotes and payouts in the person's words, and the
dealer's hand once his game is bought."""

from __future__ import annotations

import io
import re
import shlex
from collections.abc import Callable
from pathlib import Path

import pytest
from casino_helpers import Result
from rich.console import Console

from raspisnoy.casino_command.play import CasinoTerminal, Wallet
from raspisnoy.i18n import translate

Cli = Callable[..., Result]


class Person:
    """Types ``answers`` one by one, then ends the input (Ctrl-D); keeps the prompts."""

    def __init__(self, answers: list[str]) -> None:
        self.answers, self.prompts = iter(answers), list[str]()

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        try:
            return next(self.answers)
        except StopIteration:
            raise EOFError from None


def _play(
    wallet: Path, answers: list[str], *, lang: str, seed: str, width: int = 100
) -> tuple[str, Person]:
    """Hands dealt from ``seed`` and played with ``answers`` until they run out: the screen
    and the person."""
    out, person = io.StringIO(), Person(answers)
    console = Console(file=out, width=width, color_system=None)
    CasinoTerminal(console, lang, wallet, read=person, seeds=lambda: seed).run()
    return out.getvalue(), person


def _hint(screen: str) -> list[str]:
    """The hint's lines: from its heading to «Лучше всего»."""
    lines = screen.splitlines()
    start = next(i for i, line in enumerate(lines) if "ожидаемый итог в анте" in line)
    end = next(i for i, line in enumerate(lines) if line.startswith("Лучше всего"))
    return lines[start : end + 1]


@pytest.mark.parametrize("stop", [KeyboardInterrupt, EOFError], ids=["ctrl-c", "ctrl-d"])
def test_a_stop_at_a_prompt_says_saved_on_a_line_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stop: type[BaseException]
) -> None:
    """The terminal leaves the cursor after the prompt (and its ``^C``): «Сохранено…»
    comes below it, as in ``raspisnoy play``."""

    def typed() -> str:
        raise stop

    monkeypatch.setattr("builtins.input", typed)
    out = io.StringIO()
    CasinoTerminal(Console(file=out, width=200, color_system=None), "ru", tmp_path / "c.json").run()
    prompt, saved = out.getvalue().splitlines()[-2:]
    assert prompt.startswith("Анте (1-100)") and prompt.rstrip().endswith(":")
    assert saved.startswith("Сохранено в ")


def test_the_verify_hint_names_the_wallet_and_can_be_run_as_shown(cli: Cli, tmp_path: Path) -> None:
    wallet = tmp_path / "my wallet.json"
    screen, _ = _play(wallet, ["10", "1"], lang="ru", seed="demo/1", width=400)
    command = re.search(r"\(проверка: (raspisnoy casino verify .+)\)$", screen, re.MULTILINE)
    assert command is not None
    assert command[1] == f"raspisnoy casino verify {shlex.quote(str(wallet))}"
    assert cli(*shlex.split(command[1])[1:]).status == 0


def test_a_second_run_with_the_same_seed_deals_new_hands(cli: Cli, tmp_path: Path) -> None:
    """Each run plays one hand and stops at the end of input; the second run's hand is
    ``demo/2``, not ``demo/1`` again, whose seed the first run revealed."""
    wallet = str(tmp_path / "c1.json")
    for _ in range(2):
        result = cli(
            "casino", "play", "--wallet", wallet, "--seed", "demo", "--lang", "en", stdin="10\n1\n"
        )
        assert result.status == 0, result.stderr
    history = Wallet.load(Path(wallet)).history
    assert [record["seed"] for record in history] == ["demo/1", "demo/2"]
    assert history[0]["commitment"] != history[1]["commitment"]


@pytest.mark.parametrize("width", [40, 80])
def test_the_hint_keeps_each_value_beside_its_option(tmp_path: Path, width: int) -> None:
    """Names wrap in their own column at 40 columns; a value and its error never go to a
    line of their own, and no line runs past the terminal."""
    screen, _ = _play(tmp_path / "c.json", ["10", "0", "1"], lang="ru", seed="demo/1", width=width)
    hint = _hint(screen)
    assert all(len(line) <= width for line in hint), hint
    values = [
        line for line in hint if re.search(r"[+-]\d+\.\d{3}  (точно|± 0\.\d{3} \(95%\))$", line)
    ]
    assert len(values) >= 5 and any("±" in line for line in values), hint
    alone = [line for line in hint if line.strip().startswith(("точно", "±", "+", "-"))]
    assert alone == [], hint


def test_the_hint_for_buying_the_dealers_game_says_he_has_no_game(tmp_path: Path) -> None:
    """Bet, the dealer shows 5♦ 8♥ 2♣ 4♦ 6♣ (no game), ask for the hint: all his cards are
    face up, so it is not «против открытой карты»."""
    screen, _ = _play(tmp_path / "c.json", ["10", "2", "0", "1"], lang="ru", seed="u/1")
    head = _hint(screen)[0]
    assert head.endswith(" 3♥ 9♥ 10♣, у дилера нет игры: ожидаемый итог в анте"), head


def test_the_dealers_hand_after_his_game_is_bought_is_shown(tmp_path: Path) -> None:
    """He discards his highest card, the 8♥, and draws the Q♠ in its place."""
    screen, _ = _play(tmp_path / "c.json", ["10", "2", "1"], lang="en", seed="u/1")
    dealer_lines = [line for line in screen.splitlines() if line.startswith("Dealer:")]
    assert dealer_lines[-2:] == ["Dealer: 5♦ 8♥ 2♣ 4♦ 6♣", "Dealer: 5♦ Q♠ 2♣ 4♦ 6♣"]
    assert "The dealer discarded 8♥ and drew Q♠." in screen


@pytest.mark.parametrize(
    ("seed", "answers", "line"),
    [
        ("demo/1", ["10", "1"], "Бокс 1: сброс; итог -10"),
        ("u/1", ["10", "2", "1"], "Бокс 1: у дилера так и нет игры: ставка возвращена; итог -20"),
        ("win/2", ["10", "2"], "Бокс 1: выигрыш; выплата 1:1; итог +20"),
    ],
    ids=["fold", "bet-back", "win"],
)
def test_a_payout_is_named_only_where_the_bet_is_paid(
    tmp_path: Path, seed: str, answers: list[str], line: str
) -> None:
    screen, _ = _play(tmp_path / "c.json", answers, lang="ru", seed=seed)
    assert line in screen.splitlines()
    assert "0:1" not in screen


@pytest.mark.parametrize("lang", ["ru", "uk", "en"])
def test_the_antes_prompt_fits_a_line_of_80_and_says_what_enter_repeats(
    tmp_path: Path, lang: str
) -> None:
    _, person = _play(tmp_path / "c.json", ["10 5", "1", "1"], lang=lang, seed="demo/1")
    first, again = (prompt for prompt in person.prompts if "10 10 5" in prompt)
    assert len(first) < 80 and len(again) < 80
    assert re.search(r"Enter\W+10,", first) and re.search(r"Enter\W+10 5,", again)


@pytest.mark.parametrize(
    ("lang", "typed", "said"),
    [
        ("ru", ["abc", "10", "9", "4", "x", "q"], ["«abc»: анте", "«9» — такого", "«x»: назовите"]),
        ("uk", ["abc", "10", "9", "4", "x", "q"], ["«abc»: анте", "«9» — такого", "«x»: назвіть"]),
    ],
)
def test_what_was_typed_is_quoted_in_the_persons_quotes(
    tmp_path: Path, lang: str, typed: list[str], said: list[str]
) -> None:
    screen, _ = _play(tmp_path / "c.json", typed, lang=lang, seed="demo/1")
    for words in said:
        assert words in screen
    assert "'" not in screen


@pytest.mark.parametrize(
    ("lang", "jack", "queen"), [("ru", "В", "Д"), ("uk", "В", "Д"), ("en", "J", "Q")]
)
def test_cards_are_named_in_the_persons_language(
    tmp_path: Path, lang: str, jack: str, queen: str
) -> None:
    """Every card on the screen is written as ``raspisnoy play`` writes it: «В♠» and «Д♠»
    in Russian and Ukrainian, ``J♠`` and ``Q♠`` in English. Seed ``u/1`` deals the box
    7♦ J♠ 3♥ 9♥ 10♣ against the up card 6♣ and a dealer without a game (5♦ 8♥ 2♣ 4♦ 6♣).
    One hand asks for the hint, changes the 7♦ and the 3♥ (drawing Q♠ and 8♠), bets and
    asks for the purchase's hint; the other bets and buys the dealer's game, who discards
    the 8♥ and draws the Q♠."""
    changed, _ = _play(
        tmp_path / "a.json", ["10", "0", "4", "1 3", "2", "0", "1"], lang=lang, seed="u/1"
    )
    lines = changed.splitlines()
    box = f"7♦ {jack}♠ 3♥ 9♥ 10♣"
    assert any(line.endswith(f")  {box}  ") for line in lines), changed
    assert translate("casino.advise.head", lang, cards=box, up="6♣") in lines, "the hint"
    change = translate("casino.option.change", lang)
    assert any(line.startswith(f"  {change} 7♦ {jack}♠ ") for line in lines), "the options"
    assert f"  [1] 7♦  [2] {jack}♠  [3] 3♥  [4] 9♥  [5] 10♣" in lines, "the change's menu"
    after = f"{jack}♠ 9♥ 10♣ {queen}♠ 8♠"
    assert translate("casino.advise.head_purchase", lang, cards=after) in lines, "the purchase"

    bought, _ = _play(tmp_path / "b.json", ["10", "2", "1"], lang=lang, seed="u/1")
    dealer = translate("casino.play.dealer", lang, cards=f"5♦ {queen}♠ 2♣ 4♦ 6♣")
    assert dealer in bought.splitlines()
    assert translate("casino.play.dealer_drew", lang, discard="8♥", draw=f"{queen}♠") in bought
    if lang != "en":
        assert not re.search(r"[JQKA][♠♣♦♥]", changed + bought)
