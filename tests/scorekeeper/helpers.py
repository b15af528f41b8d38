"""Helpers shared by the scorekeeper tests: random games and the sheets that record them."""

from __future__ import annotations

import random

from raspisnoy.core import Game, round_plan
from raspisnoy.scorekeeper import EntryKind, Sheet, SheetRound


def played_game(rules: str, players: int, seed: int) -> Game:
    """A whole game of random legal actions."""
    game = Game(rules, players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game


def sheet_of(game: Game) -> Sheet:
    """The sheet a table would have written for ``game``: its bids and tricks taken."""
    planned = len(round_plan(game.rules, game.players))
    rounds = tuple(
        SheetRound(
            result.bids,
            result.taken,
            result.kind if result.number > planned else None,
            result.dealer if result.number > planned else None,
        )
        for result in game.rounds()
    )
    first_dealer = game.rounds()[0].dealer
    return Sheet(game.rules, game.names, first_dealer, rounds)


def fill(sheet: Sheet, rounds: int) -> Sheet:
    """Enter ``rounds`` whole rounds: everyone bids the lowest allowed bid and the first
    player in bidding order takes every trick."""
    for _ in range(rounds):
        entry = sheet.next_entry
        assert entry is not None
        number = entry.round
        while (entry := sheet.next_entry) is not None and entry.round == number:
            if entry.kind is EntryKind.BID:
                sheet = sheet.bid(entry.seat, entry.choices[0])
            else:
                sheet = sheet.take(entry.seat, max(entry.choices))
    return sheet
