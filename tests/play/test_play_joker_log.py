"""The terminal's log of a joker: the person's own move in the first person («Вы ходите:
Джокер: забираю»), anyone else's in the third («Anna ходит: Джокер: забирает»), in each
language (issue 28: a bot's joker read «Вера ходит: Джокер: забираю»)."""

from __future__ import annotations

import pytest
from test_play_screen import Typist, dealt

from raspisnoy.core import Play

#: What each language logs for Anna's joker (take, then discard ♣) and for the person's.
SAID = {
    "ru": (
        "Anna ходит: Джокер: забирает",
        "Anna ходит: Джокер: скидывает ♣",
        "Вы ходите: Джокер: забираю",
    ),
    "uk": (
        "Anna ходить: Джокер: забирає",
        "Anna ходить: Джокер: скидає ♣",
        "Ви ходите: Джокер: забираю",
    ),
    "en": ("Anna plays Joker: takes", "Anna plays Joker: discards ♣", "You play Joker: take"),
}


@pytest.mark.parametrize("lang", sorted(SAID))
def test_a_jokers_mode_is_logged_in_the_players_person(lang: str) -> None:
    theirs_take, theirs_discard, mine = SAID[lang]
    for action, expected in (("X:take", theirs_take), ("X:discard:C", theirs_discard)):
        # Anna (seat 1) follows the person's 9♦ with the joker (Boris deals).
        game = dealt("2", "9D QH | X 6C | AH 9C", "6H", dealer=2, bids=(1, 0, 0), plays="9D")
        typist = Typist(lang, [])
        play = Play.parse(action)
        game.play(play)
        typist.screen.acted(1, play, game.view(0))
        assert expected in typist.text, typist.text
    # the person (seat 0) follows Anna's and Boris's cards with the joker
    game = dealt("2", "X 9D | QD 6C | AH 9C", "6H", bids=(1, 0, 0), plays="QD 9C")
    typist = Typist(lang, [])
    play = Play.parse("X:take")
    game.play(play)
    typist.screen.acted(0, play, game.view(0))
    assert mine in typist.text, typist.text
