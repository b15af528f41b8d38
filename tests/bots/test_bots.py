"""Every bot plays whole games of every preset legally, deterministically, from its view."""

from __future__ import annotations

import pytest

from raspisnoy.bots import BOTS, TABLE_BOTS, Bot, make_bot
from raspisnoy.bots.expert import ExpertBot, warm_up
from raspisnoy.bots.master import MASTER_ITERATIONS, MasterBot
from raspisnoy.core import (
    PRESETS,
    Bid,
    Card,
    ControlRound,
    Game,
    IllegalActionError,
    InvalidInputError,
    Phase,
)

ALL_KINDS = {"special_rounds": ("no-trump", "blind", "misere", "golden", "forehead", "percent")}


def _bot(name: str, seed: object) -> Bot:
    # A small search keeps the expert and the master quick in tests; their logic is the same.
    kind = BOTS[name]
    if issubclass(kind, ExpertBot):
        return kind(seed=str(seed), iterations=200)
    return make_bot(name, seed=str(seed))


def _play(game: Game, names: list[str], seed: object) -> list[str]:
    """Play ``game`` to the end; ``Bot.act`` itself rejects an illegal choice."""
    bots = [_bot(name, f"{seed}/{seat}") for seat, name in enumerate(names)]
    actions = []
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        action = bots[seat].act(game.view(seat))
        game.apply(action, seat)
        actions.append(str(action))
    return actions


def test_the_registry_lists_the_bots_weakest_first() -> None:
    assert list(BOTS) == ["random", "beginner", "heuristic", "expert", "master"]
    assert list(TABLE_BOTS) == ["random", "beginner", "heuristic", "expert"]
    assert isinstance(make_bot(" Expert ", seed=3), ExpertBot)
    master = make_bot("master", seed=3)
    assert isinstance(master, MasterBot) and master.iterations == MASTER_ITERATIONS
    assert master.iterations == 12 * ExpertBot.default_iterations
    with pytest.raises(InvalidInputError, match="unknown bot 'genius'"):
        make_bot("genius")
    with pytest.raises(InvalidInputError, match="time budget"):
        make_bot("expert", time_ms=0)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_all_bots_play_a_whole_game_of_every_preset(preset: str) -> None:
    rules = Game(preset, 4).rules
    players = 4 if 4 in rules.player_counts else rules.player_counts.start
    names = list(BOTS)[:players]
    game = Game(rules, players, seed=f"bots/{preset}")
    _play(game, names, preset)
    assert game.is_over
    assert len(game.rounds()) == len(game.plan)


@pytest.mark.parametrize("players", [3, 5])
def test_all_bots_play_every_round_kind(players: int) -> None:
    rules = Game("raspisnoy.com", players).rules.replace(**ALL_KINDS, descending=True)
    game = Game(rules, players, seed=players)
    _play(game, (list(BOTS) * 2)[:players], players)
    kinds = {result.kind.value for result in game.rounds()}
    assert kinds >= {"normal", *ALL_KINDS["special_rounds"]}


def _control_choice_game(chooser: int) -> Game:
    """A 3-player game of one 1-card round, with a control game, that ends with first place
    tied and ``chooser`` last, to choose the control round: everyone bids 0, and only
    ``chooser`` holds a trump (♣), so the other two score 5 and ``chooser`` 1."""
    rules = Game("raspisnoy.com", 3).rules.replace(custom_plan=("1",), control_game=True)
    game = Game(rules, 3, first_dealer=0)
    hands = [["AH"], ["KH"], ["QH"]]
    hands[chooser] = ["7C"]
    game.deal([[Card.parse(card) for card in hand] for hand in hands], Card.parse("6C"))
    while not game.is_over and game.phase is not Phase.CHOOSE:
        game.apply(game.legal_actions()[0] if game.phase is Phase.PLAY else Bid(0))
    assert game.phase is Phase.CHOOSE and game.to_act == chooser, game.totals
    return game


@pytest.mark.parametrize("chooser", [0, 1, 2])
@pytest.mark.parametrize("name", list(BOTS))
def test_every_bot_chooses_a_control_round_from_every_seat(name: str, chooser: int) -> None:
    """The last-placed seat — seat 0 included — chooses a legal control round, which the
    game then deals."""
    game = _control_choice_game(chooser)
    choice = _bot(name, chooser).act(game.view(chooser))
    assert isinstance(choice, ControlRound)
    assert choice in game.legal_actions()
    if name != "random":  # the others have the seat on their right deal, so they lead
        assert choice.dealer == (chooser - 1) % 3
    game.apply(choice, chooser)
    assert (game.round.number, game.round.kind, game.dealer) == (2, choice.kind, choice.dealer)
    assert game.phase is Phase.DEAL


@pytest.mark.parametrize(
    "options",
    [
        {"rotating_trumps": True, "joker_lead_take": True},
        {"trump_when_void": True, "joker_highest_beaten_by_trump": True, "extra_jokers": 1},
        {"trump_source": "dealer_last", "max_zero_bids_in_a_row": 1},
        {"joker_discard_lead_unfollowed": "joker_wins", "dealer_constraint": False},
    ],
)
def test_bots_play_under_rule_options(options: dict[str, object]) -> None:
    rules = Game("raspisnoy.com", 4).rules.replace(custom_plan=("3", "9", "9:blind"), **options)
    _play(Game(rules, 4, seed=7), list(BOTS), options)


@pytest.mark.parametrize("name", list(BOTS))
def test_a_bot_is_deterministic_for_its_seed(name: str) -> None:
    rules = Game("raspisnoy.com", 3).rules.replace(custom_plan=("4", "6", "6:misere"))
    first = _play(Game(rules, 3, seed=11), [name] * 3, "same")
    again = _play(Game(rules, 3, seed=11), [name] * 3, "same")
    assert first == again


@pytest.mark.parametrize("name", list(BOTS))
def test_a_decision_depends_only_on_the_view(name: str) -> None:
    """Two deals that differ only in the cards seat 0 cannot see give seat 0 the same
    view, and so the same decision."""
    rules = Game("raspisnoy.com", 3).rules.replace(custom_plan=("3",))
    mine = ["AH", "KS", "6D"]
    others = [["7C", "8C", "9C"], ["TC", "JC", "QC"]]
    decisions = set()
    for order in (others, others[::-1]):
        game = Game(rules, 3, first_dealer=2)
        game.deal([[Card.parse(c) for c in hand] for hand in [mine, *order]], Card.parse("6H"))
        view = game.view(0)
        decisions.add(str(_bot(name, "view").act(view)))
    assert len(decisions) == 1


def test_a_bot_refuses_to_act_out_of_turn() -> None:
    game = Game("raspisnoy.com", 3, seed=1)
    seat = game.to_act
    assert seat is not None
    idle = (seat + 1) % 3
    with pytest.raises(IllegalActionError, match="not seat"):
        make_bot("heuristic").act(game.view(idle))


def test_the_expert_warms_up_its_compiled_search() -> None:
    # One decision of one iteration, through every compiled function the search uses.
    assert warm_up() in (Bid(0), Bid(1), Bid(2))


def test_the_expert_needs_an_iteration() -> None:
    with pytest.raises(InvalidInputError, match="at least one search iteration, not 0"):
        ExpertBot(iterations=0)
    with pytest.raises(InvalidInputError, match="at least one search iteration, not 0"):
        ExpertBot(iterations=5, bid_iterations=0)


def test_the_expert_searches_its_bids_with_their_own_budget() -> None:
    # A bid is searched with ``bid_iterations``, a card with ``iterations``: the bot
    # with 1 and 400 bids as the bot with 400 does and plays as the bot with 1 does.
    game = Game("oh-hell", 4, seed=5)
    split = ExpertBot(seed=2, iterations=1, bid_iterations=400)
    moves = {"bid": 0, "card": 0}
    while not game.is_over and min(moves.values()) < 3:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        bidding = view.phase is Phase.BID
        like = ExpertBot(seed=2, iterations=400 if bidding else 1)
        assert split.act(view) == like.act(view)
        moves["bid" if bidding else "card"] += len(view.legal_actions) > 1
        game.apply(split.act(view), seat)
    assert min(moves.values()) == 3


def test_the_expert_searches_its_bids_with_their_own_noise() -> None:
    # With ``bid_noise`` set, a bid is searched with it and a card with ``noise``: the bot
    # bids as a bot whose noise is the bid noise, plays as the bot it was, and some of its
    # bids differ from that bot's (so the bid noise is not ignored).
    def expert(noise: float, bid_noise: float | None = None) -> ExpertBot:
        bot = ExpertBot(seed=2, iterations=300)
        bot.noise, bot.bid_noise = noise, bid_noise
        return bot

    game = Game("oh-hell", 4, seed=5)
    split, moves, changed = expert(ExpertBot.noise, bid_noise=0.0), {"bid": 0, "card": 0}, 0
    while not game.is_over and min(moves.values()) < 6:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        bidding = view.phase is Phase.BID
        action = split.act(view)
        assert action == expert(0.0 if bidding else ExpertBot.noise).act(view)
        changed += bidding and action != expert(ExpertBot.noise).act(view)
        moves["bid" if bidding else "card"] += len(view.legal_actions) > 1
        game.apply(action, seat)
    assert min(moves.values()) == 6 and changed > 0


def test_the_expert_solving_its_last_tricks_plays_a_whole_game() -> None:
    class SolvingExpert(ExpertBot):
        solve_tricks = 3

    rules = Game("raspisnoy.com", 4).rules.replace(custom_plan=("1", "5", "4:misere"))
    game = Game(rules, 4, seed=5)
    bots = [SolvingExpert(seed=seat, iterations=100) for seat in range(4)]
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        action = bots[seat].act(view)  # ``Bot.act`` rejects an illegal choice
        assert action == SolvingExpert(seed=seat, iterations=100).act(view)  # deterministic
        game.apply(action, seat)
    assert len(game.rounds()) == 3
