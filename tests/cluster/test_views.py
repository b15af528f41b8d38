"""Sending every seat its view of an action builds the public part of the JSON once
(``wire.seat_view_json``); that must give exactly what each seat's own view gives, in
every phase of every preset (blind rounds and forehead rounds hide different things)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from raspisnoy.core import PRESETS, Game, resolve_rules
from raspisnoy.server.wire import seat_view_json, view_json


@settings(max_examples=12, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 2**32))
def test_a_seats_view_built_on_the_public_part_is_its_own_view(preset: str, seed: int) -> None:
    rules = resolve_rules({"preset": preset})
    players = rules.max_players
    game = Game(rules, [f"P{seat}" for seat in range(players)], seed=str(seed))
    rng = random.Random(seed)
    while not game.is_over:
        public = view_json(game.view(None))
        for seat in range(players):
            view = game.view(seat)
            assert seat_view_json(seat, game.own_view(seat), public) == view_json(view)
        actor = game.to_act
        assert actor is not None
        game.apply(rng.choice(game.view(actor).legal_actions), actor)
