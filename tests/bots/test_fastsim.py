"""The compiled simulator follows the engine, the ground truth: the same states, legal
actions, trick winners and points at every step of random games, on every preset, round
kind and card-play option; the same playout policy as ``simulator``; the same worlds as
``simulator.round_game`` builds."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from raspisnoy.bots import fastsim as fs
from raspisnoy.bots import simulator
from raspisnoy.bots.knowledge import Knowledge
from raspisnoy.core import (
    PRESETS,
    Bid,
    Card,
    Game,
    JokerMode,
    Phase,
    Play,
    Rules,
    Suit,
    max_cards,
    parse_action,
    resolve_rules,
)
from raspisnoy.core.fast import ALL_CARDS, JOKERS

Options = dict[str, Any]


def _joker(rules: Rules) -> Options:
    """A joker for a preset that has none (oh-hell), so that joker options matter."""
    return {} if rules.jokers else {"extra_jokers": 1}


#: Rule variants, as changes to a preset: each card-play option the other way round from
#: the preset (so both values are tried), two jokers, the bidding limits, trump sources.
VARIANTS: dict[str, Callable[[Rules], Options]] = {
    "preset": lambda rules: {},
    "trump_when_void": lambda rules: {"trump_when_void": not rules.trump_when_void},
    "rotating_trumps": lambda rules: {"rotating_trumps": True, **_joker(rules)},
    "rotating_trumps_void": lambda rules: {"rotating_trumps": True, "trump_when_void": True},
    "joker_lead_take": lambda rules: {"joker_lead_take": True, **_joker(rules)},
    "joker_highest_beaten_by_trump": lambda rules: {
        "joker_highest_beaten_by_trump": not rules.joker_highest_beaten_by_trump,
        **_joker(rules),
    },
    "joker_discard_lead_unfollowed": lambda rules: {
        "joker_discard_lead_unfollowed": "joker_wins"
        if rules.joker_discard_lead_unfollowed == "first_follower_suit"
        else "first_follower_suit",
        **_joker(rules),
    },
    "two_jokers": lambda rules: {"extra_jokers": 2 - len(rules.jokers), "joker_lead_take": True},
    "dealer_constraint": lambda rules: {"dealer_constraint": not rules.dealer_constraint},
    "zero_bids_1": lambda rules: {"max_zero_bids_in_a_row": 1},
    "zero_bids_2": lambda rules: {"max_zero_bids_in_a_row": 2, "dealer_constraint": False},
    "dealer_last": lambda rules: {"trump_source": "dealer_last"},
    "max_deal_trump": lambda rules: {
        "max_deal_trump": "none" if rules.max_deal_trump == "dealer_shows" else "dealer_shows"
    },
}


def _plan(rules: Rules, players: int) -> tuple[str, ...]:
    """A short plan with every kind of round, and a deal of every card's share."""
    top = max_cards(rules, players)
    entries = ["1", "2:blind", "3:no-trump", "1:forehead", "3:misere", "2:golden", "4:percent"]
    entries += ["1", "2", str(top)]
    return tuple(
        f"{min(int(cards), top)}:{kind}" if kind else str(min(int(cards), top))
        for cards, _, kind in (entry.partition(":") for entry in entries)
    )


def _player_counts(rules: Rules) -> list[int]:
    """3 to 6 players and the high counts, as far as the ruleset allows, and its fewest."""
    wanted = {rules.min_players, 3, 4, 5, 6, 8, 10}
    return sorted(count for count in wanted if count in rules.player_counts)


def _step(game: Game, state: fs.Int64s, rules: fs.Int64s, action: Bid | Play) -> None:
    """Apply ``action`` to both the game and the state."""
    game.apply(action)
    fs.apply_action(state, rules, fs.encode_action(action))


def _legal(state: fs.Int64s, rules: fs.Int64s) -> list[Bid | Play]:
    out = np.empty(fs.MAX_ACTIONS, dtype=np.int64)
    count = fs.legal_actions(state, rules, out)
    return [fs.decode_action(int(code)) for code in out[:count]]


def _points(state: fs.Int64s, score: fs.Int64s) -> list[int]:
    out = np.zeros(fs.MAX_PLAYERS, dtype=np.int64)
    fs.round_points(state, score, out)
    return [int(points) for points in out[: state[fs.S_PLAYERS]]]


def _play_game(rules: Rules, players: int, seed: int) -> int:
    """Play a whole game, half by the playout policy and half at random, keeping a state
    in step with it by ``apply_action``, and check at every step that the state is the
    game's own, that the legal actions and the policy's choice are the engine's, and at
    every round's end the tricks taken and points. Returns the actions checked."""
    game = Game(rules, players, seed=seed)
    rng = random.Random(seed)
    checked = 0
    while game.phase is Phase.BID or game.phase is Phase.PLAY:
        spec = game.round
        vector = fs.rules_vector(rules, spec.kind)
        state = fs.encode_game(game)
        while state[fs.S_PHASE] != fs.PHASE_OVER:
            assert state.tolist() == fs.encode_game(game).tolist()
            legal = _legal(state, vector)
            assert legal == list(game.legal_actions())
            policy = fs.decode_action(fs.policy_action(state, vector))
            assert policy == simulator.policy_action(game, rng)
            _step(game, state, vector, policy if rng.random() < 0.5 else rng.choice(legal))
            checked += 1
        result = game.rounds()[spec.number - 1]
        assert state[fs.TAKEN : fs.TAKEN + players].tolist() == list(result.taken)
        score = fs.score_table(rules, spec.kind, spec.cards)
        assert _points(state, score) == list(result.points or ())
    return checked


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_whole_games_follow_the_engine(preset: str, variant: str) -> None:
    base = resolve_rules(preset)
    checked = 0
    for players in _player_counts(base):
        rules = base.replace(custom_plan=_plan(base, players), **VARIANTS[variant](base))
        checked += _play_game(rules, players, seed=players * 7919 + len(variant))
    assert checked > 100


def _one_round(
    preset: str, hands: list[str], trump: str | None, actions: str, **options: Any
) -> None:
    """Deal ``hands`` (text per seat; the last seat deals, so seat 0 bids and leads first)
    for one round, apply ``actions`` to the game and the state in step, and compare them."""
    size = len(hands[0].split())
    rules = resolve_rules(preset, custom_plan=(str(size),), **options)
    game = Game(rules, len(hands), first_dealer=len(hands) - 1)
    game.deal([[Card.parse(c) for c in hand.split()] for hand in hands], _card(trump))
    vector = fs.rules_vector(rules, game.round.kind)
    state = fs.encode_game(game)
    for text in actions.split():
        _step(game, state, vector, parse_action(text))  # type: ignore[arg-type]
        if not game.is_over:
            assert state.tolist() == fs.encode_game(game).tolist()
    assert game.is_over and state[fs.S_PHASE] == fs.PHASE_OVER
    assert state[fs.TAKEN : fs.TAKEN + len(hands)].tolist() == list(game.taken)


def _card(text: str | None) -> Card | None:
    return None if text is None else Card.parse(text)


GEORGIAN = {"jokers": ("6S", "6C")}  # X1 and X2


@pytest.mark.parametrize(
    ("hands", "trump", "actions", "options"),
    [
        # Of two jokers taking, the later wins.
        (["KD", "X1", "X2"], "7H", "0 0 0 KD X1:take X2:take", GEORGIAN),
        (
            ["X1", "AS", "X2"],
            "7H",
            "0 0 0 X1:take AS X2:take",
            GEORGIAN | {"joker_lead_take": True},
        ),
        # A joker led "highest" of a side suit loses to a trump only with the option.
        (["X", "AS", "6H"], "7H", "0 0 0 X:highest:S AS 6H", {}),
        (
            ["X", "AS", "6H"],
            "7H",
            "0 0 0 X:highest:S AS 6H",
            {"joker_highest_beaten_by_trump": True},
        ),
        # A joker led "discard" that nobody follows: the first follower's suit, or the joker.
        (["X", "AC", "KD"], "7H", "0 0 0 X:discard:S AC KD", {}),
        (
            ["X", "AC", "KD"],
            "7H",
            "0 0 0 X:discard:S AC KD",
            {"joker_discard_lead_unfollowed": "joker_wins"},
        ),
        # Rotating trumps: after spades, clubs are trump.
        (["AS", "6C", "KS"], None, "0 0 0 AS 6C KS", {"rotating_trumps": True}),
    ],
)
def test_joker_and_trump_tricks_have_the_engines_winner(
    hands: list[str], trump: str | None, actions: str, options: Options
) -> None:
    _one_round("raspisnoy.com", hands, trump, actions, **options)


def _random_moment(rules: Rules, seed: int) -> tuple[Game, random.Random]:
    """A game of ``rules`` (of one of its player counts, by ``seed``) after up to 400
    random actions, stopped early when no round is being bid or played (then it is in
    another phase), and the random generator that played it."""
    players = rules.player_counts[seed % len(rules.player_counts)]
    game = Game(rules, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(400)):
        if game.phase is not Phase.BID and game.phase is not Phase.PLAY:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game, rng


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("variant", ["preset", "rotating_trumps", "two_jokers"])
def test_world_states_are_the_rebuilt_rounds(preset: str, variant: str) -> None:
    """``world_state`` of a sampled world is ``encode_game`` of the round ``round_game``
    rebuilds with the engine, and plays out to the same points as ``simulator.play_out``."""
    base = resolve_rules(preset)
    specials = ("no-trump", "blind", "misere", "golden", "forehead", "percent")
    rules = base.replace(special_rounds=specials, **VARIANTS[variant](base))
    for seed in range(12):
        game, rng = _random_moment(rules, seed)
        if game.phase is not Phase.BID and game.phase is not Phase.PLAY:
            continue
        view = game.view(game.to_act)
        knowledge = Knowledge.from_view(view)
        hands = knowledge.sample(rng)
        assert hands is not None
        trump_card = view.trump_card
        if view.trump_hidden:
            trump_card = knowledge.draw_trump_card(hands, rng)
        rebuilt = simulator.round_game(view, hands, trump_card)
        state = fs.world_state(view, hands, trump_card)
        assert state.tolist() == fs.encode_game(rebuilt).tolist()
        vector = fs.rules_vector(rules, view.kind)
        fs.play_out(state, vector)
        simulator.play_out(rebuilt, rng)
        score = fs.score_table(rules, view.kind, view.cards)
        assert _points(state, score) == list(rebuilt.totals)


def _every_action() -> list[Bid | Play]:
    plays: list[Bid | Play] = [Play(card) for card in ALL_CARDS[:52]]
    for joker in JOKERS:
        plays.append(Play(joker, JokerMode.TAKE))
        for suit in Suit:
            plays += [Play(joker, JokerMode.DISCARD, suit), Play(joker, JokerMode.HIGHEST, suit)]
    return plays + [Bid(amount) for amount in range(fs.MAX_ACTIONS)]


def test_action_codes_round_trip() -> None:
    actions = _every_action()
    codes = [fs.encode_action(action) for action in actions]
    assert len(set(codes)) == len(actions)
    assert all(
        code < fs.BID_BASE
        for code, action in zip(codes, actions, strict=True)
        if isinstance(action, Play)
    )
    assert [fs.decode_action(code) for code in codes] == actions


def test_the_policy_plays_a_whole_round_like_the_simulator() -> None:
    """From the opening deal of a round of the benchmark's ruleset, both play the same."""
    rules = resolve_rules("oh-hell", lowest_rank=6, custom_plan=("8",))
    for seed in range(20):
        game = Game(rules, 4, seed=seed)
        state, vector = fs.encode_game(game), fs.rules_vector(rules, game.round.kind)
        fs.play_out(state, vector)
        simulator.play_out(game, random.Random(seed))
        score = fs.score_table(rules, game.round.kind, 8)
        assert _points(state, score) == list(game.totals)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_play_out_tricks_names_the_tricks_the_seat_wins(preset: str) -> None:
    """From a random moment of a round of every kind, ``play_out_tricks`` plays out as
    ``play_out`` does, and its tricks are those the engine gives the seat when the
    simulator's policy plays the same round out."""
    specials = ("no-trump", "blind", "misere", "golden", "forehead", "percent")
    rules = resolve_rules(preset).replace(special_rounds=specials)
    for seed in range(12):
        game, rng = _random_moment(rules, seed)
        if game.phase is not Phase.BID and game.phase is not Phase.PLAY:
            continue
        seat, number = seed % game.players, game.round.number
        first = len([t for t in game.rounds()[-1].tricks if t.winner is not None])
        state, vector = fs.encode_game(game), fs.rules_vector(rules, game.round.kind)
        quiet = state.copy()
        won = fs.play_out_tricks(state, vector, seat)
        fs.play_out(quiet, vector)
        assert (state == quiet).all()
        while game.phase in (Phase.BID, Phase.PLAY) and game.round.number == number:
            game.apply(simulator.policy_action(game, rng))
        tricks = game.rounds()[number - 1].tricks
        assert won == sum(1 << t for t in range(first, len(tricks)) if tricks[t].winner == seat)


def _opening(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The state and rules vector of a freshly dealt 8-card round of four players."""
    rules = resolve_rules("oh-hell", lowest_rank=6, custom_plan=("8",))
    game = Game(rules, 4, seed=seed)
    return fs.encode_game(game), fs.rules_vector(rules, game.round.kind)


def test_a_noiseless_noisy_play_out_is_the_policys() -> None:
    for seed in range(20):
        state, vector = _opening(seed)
        quiet = state.copy()
        fs.noisy_play_out(state, vector, 0, 0.0, np.random.default_rng(seed))
        fs.play_out(quiet, vector)
        assert (state == quiet).all()


def test_noise_changes_only_the_others_card_play() -> None:
    """At full noise the others' cards are random (the outcomes vary with the generator),
    while the bids stay the policy's and the round is played to its end."""
    state, vector = _opening(3)
    quiet = state.copy()
    fs.play_out(quiet, vector)
    outcomes = set()
    for seed in range(30):
        noisy = state.copy()
        fs.noisy_play_out(noisy, vector, 0, 1.0, np.random.default_rng(seed))
        assert noisy[fs.S_PHASE] == fs.PHASE_OVER
        bids = slice(fs.BIDS, fs.BIDS + 4)
        assert (noisy[bids] == quiet[bids]).all()
        assert noisy[fs.TAKEN : fs.TAKEN + 4].sum() == 8
        outcomes.add(tuple(noisy[fs.TAKEN : fs.TAKEN + 4]))
    assert len(outcomes) > 1


def _noisy_reference(
    state: np.ndarray, rules: np.ndarray, seat: int, noise: float, seed: int
) -> None:
    """``noisy_play_out`` step by step from Python, drawing the same random numbers."""
    gen = np.random.default_rng(seed)
    actions = np.empty(fs.MAX_ACTIONS, dtype=np.int64)
    while state[fs.S_PHASE] != fs.PHASE_OVER:
        others_card = state[fs.S_PHASE] == fs.PHASE_PLAY and state[fs.S_TO_ACT] != seat
        if others_card and gen.random() < noise:
            count = fs.legal_actions(state, rules, actions)
            fs.apply_action(state, rules, int(actions[int(gen.random() * count)]))
        else:
            fs.apply_action(state, rules, fs.policy_action(state, rules))


def test_noisy_play_out_draws_only_for_the_others() -> None:
    """The same game as a step-by-step reference that never draws for the seat itself:
    the seat's own cards are never random."""
    for seed in range(20):
        state, vector = _opening(seed)
        seat = seed % 4
        reference = state.copy()
        fs.noisy_play_out(state, vector, seat, 0.5, np.random.default_rng(seed))
        _noisy_reference(reference, vector, seat, 0.5, seed)
        assert (state == reference).all()
