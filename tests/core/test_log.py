"""The log (``Game.events``) is every action as it was applied, and a seed deals as it did.

The game keeps no list of events: ``events`` is made from the rounds on demand (the deal,
the bids from the dealer's left, the cards of each trick, the control-round choices). These
properties hold it to what an append-only log would be: the entries ``apply`` and ``deal``
returned (and a seeded game's own deals), in order, at every step of random games of every
preset, with a seed and without one (each deal then given from a seeded twin), with
control rounds. The
pinned deals check that a seed still deals the cards it dealt before the shuffles became
bit masks: a stored game is its seed and its actions, and must replay to the same game.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from raspisnoy.core import PRESETS, Card, Deal, Event, Game, Phase, resolve_rules

PRESET_NAMES = sorted(PRESETS)
#: A short plan with every kind of round, as in test_random_games.
SHORT_PLAN = ("3", "3:blind", "3:misere", "3:golden", "3:no-trump", "1:forehead", "3:percent", "3")


def _deal_of(game: Game) -> Event:
    """The deal a seeded game made for its current round (its log's last deal)."""
    return [event for event in game.events if isinstance(event.action, Deal)][-1]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    preset=st.sampled_from(PRESET_NAMES),
    seed=st.integers(0, 2**32),
    seeded=st.booleans(),
)
def test_the_log_is_every_action_as_applied(
    data: st.DataObject, preset: str, seed: int, seeded: bool
) -> None:
    rules = resolve_rules(preset, custom_plan=SHORT_PLAN, control_game=True)
    players = data.draw(st.integers(rules.min_players, rules.max_players), label="players")
    dealer = seed % players
    twin = Game(rules, players, seed=seed, first_dealer=dealer)
    game = twin.clone() if seeded else Game(rules, players, first_dealer=dealer)
    log = list(game.events)
    rng = random.Random(seed)
    while not game.is_over:
        if game.phase is Phase.DEAL:
            deal = _deal_of(twin).action
            assert isinstance(deal, Deal)
            log.append(game.deal(deal.hands, deal.trump_card))
        else:
            action = rng.choice(game.legal_actions())
            log.append(game.apply(action))
            twin.apply(action)
        events = game.events
        assert events[: len(log)] == tuple(log)
        if len(events) > len(log):  # a seeded game deals its next round itself
            assert seeded and len(events) == len(log) + 1
            assert isinstance(events[-1].action, Deal) and events[-1].round == game.round.number
            log.append(events[-1])
    assert game.events == twin.events
    assert Game.from_events(rules, players, game.events, first_dealer=dealer).events == game.events


def _hands(*texts: str) -> tuple[tuple[Card, ...], ...]:
    return tuple(tuple(Card.parse(card) for card in text.split()) for text in texts)


@pytest.mark.parametrize(
    ("seed", "actions", "expected"),
    [
        # Found with the engine before the shuffles became bit masks (commit c22abfa).
        (2026, 0, Event(1, None, Deal(_hands("KC", "AS", "JD", "QS"), Card.parse("7C")))),
        (
            "table-7",
            50,
            Event(
                4,
                None,
                Deal(
                    _hands("AC 7D AD QH", "6S 8S QC QD", "6C 9C TC KD", "QS 6H 7H AH"),
                    Card.parse("TS"),
                ),
            ),
        ),
    ],
)
def test_a_seed_deals_as_before(seed: int | str, actions: int, expected: Event) -> None:
    game = Game("raspisnoy.com", 4, seed=seed)
    for _ in range(actions):
        game.apply(game.legal_actions()[-1])
    assert _deal_of(game) == expected


#: A round's deal: each seat's hand (sorted), then the turned-up card.
_Deal = tuple[tuple[tuple[Card, ...], ...], Card]


def _reference_deals(seed: int, players: int, rounds: int, deck: list[Card]) -> list[_Deal]:
    """The first dealer, then each round's hands (sorted) and turned-up card, as the
    engine's docstrings define them: one ``random.Random`` draws the dealer, then each
    round's deck is sorted by one ``random()`` per card, in deck order, and dealt one card
    at a time from the dealer's left; the next card is turned up."""
    rng = random.Random(f"raspisnoy/{seed}")
    dealer = rng.randrange(players)
    deals: list[_Deal] = []
    for number in range(rounds):
        order = sorted(deck, key=lambda _card: rng.random())
        first, dealt = dealer + number + 1, players * 8
        hands = [
            sorted(order[(seat - first) % players : dealt : players]) for seat in range(players)
        ]
        deals.append((tuple(map(tuple, hands)), order[dealt]))
    return deals


@pytest.mark.parametrize("seed", range(0, 400, 7))
def test_a_seed_deals_every_round_as_its_definition(seed: int) -> None:
    rules = resolve_rules(custom_plan=("8",) * 4)
    game, rng = Game(rules, 4, seed=seed), random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    deck = sorted(game.deck, key=lambda card: card.index)
    expected = _reference_deals(seed, 4, 4, deck)
    assert [(r.hands, r.trump_card) for r in game.rounds()] == expected
