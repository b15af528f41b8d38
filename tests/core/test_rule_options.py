"""Every play-affecting rules option (docs/rules.md 2) shown by its effect: the same situation
is legal, illegal or won differently under each value."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from helpers import cards, plays
from hypothesis import given, settings
from hypothesis import strategies as st

from raspisnoy.core import (
    Card,
    ControlRound,
    Game,
    IllegalActionError,
    InvalidInputError,
    Play,
    RoundSpec,
    Suit,
    deck_cards,
    dumps_record,
    game_to_record,
    loads_record,
    parse_record,
    replay,
    replay_report,
    resolve_rules,
    trick_winner,
    zero_bid_banned,
)
from raspisnoy.core.fast import NO_TRUMP, rotated_trump

NAMES = ("Anna", "Boris", "Vera")


def dealt_game(hands: str, trump: str | None, **options: Any) -> Game:
    """A 3-player game of one round of as many cards as each hand, Anna dealing, bid 0 all
    round (Boris bids first, then Vera, then Anna)."""
    hand_list = [cards(hand) for hand in hands.split("|")]
    size = len(hand_list[0])
    rules = resolve_rules(custom_plan=(str(size),), dealer_constraint=False, **options)
    game = Game(rules, NAMES, first_dealer=0)
    game.deal(hand_list, None if trump is None else Card.parse(trump))
    for _ in NAMES:
        game.bid(0)
    return game


def legal_texts(game: Game) -> list[str]:
    return [str(action) for action in game.legal_actions()]


# Boris leads K♦; Vera has no ♦ but holds the trump 9♣ (the turned-up 7♣ makes ♣ trump).
VOID_HANDS = "AS 6D | KD 8S | 9C 6H"


def test_trumping_is_optional_by_default() -> None:
    game = dealt_game(VOID_HANDS, "7C")
    game.play(Play.parse("KD"))
    assert legal_texts(game) == ["9C", "6H"]


def test_trump_when_void_forces_a_trump() -> None:
    game = dealt_game(VOID_HANDS, "7C", trump_when_void=True)
    game.play(Play.parse("KD"))
    assert legal_texts(game) == ["9C"]
    with pytest.raises(IllegalActionError, match="Vera has no ♦, so must trump \\(♣\\)"):
        game.play(Play.parse("6H"))


def test_trump_when_void_without_a_trump_allows_anything() -> None:
    game = dealt_game("AS 6D | KD 8S | 9H 6H", "7C", trump_when_void=True)
    game.play(Play.parse("KD"))
    assert legal_texts(game) == ["6H", "9H"]


def test_maximum_deal_trump_dealer_shows_or_none() -> None:
    shows = Game(resolve_rules(custom_plan=("9",)), 4, seed=3)
    none = Game(resolve_rules(custom_plan=("9",), max_deal_trump="none"), 4, seed=3)
    assert shows.trump_card in shows.hand(shows.dealer)
    assert shows.trump is not None or shows.trump_card == Card.parse("X")
    assert (none.trump_card, none.trump) == (None, None)


def test_maximum_deal_without_trump_refuses_a_shown_card() -> None:
    rules = resolve_rules(custom_plan=("12",), max_deal_trump="none")
    game = Game(rules, NAMES, first_dealer=0)
    deck = list(deck_cards(rules))
    hands = [deck[0:12], deck[12:24], deck[24:36]]
    with pytest.raises(IllegalActionError, match="every card is dealt, so no trump card"):
        game.deal(hands, deck[0])
    game.deal(hands, None)
    assert game.trump is None


LEAD_HANDS = "AD 6S | X 8S | 9C 6H"  # Boris (left of Anna) leads the joker


def test_joker_lead_take_is_not_offered_by_default() -> None:
    game = dealt_game(LEAD_HANDS, "7H")
    assert "X:take" not in legal_texts(game)
    with pytest.raises(IllegalActionError, match="must demand the highest or discard"):
        game.play(Play.parse("X:take"))


@pytest.mark.parametrize("trump_when_void", [False, True])
def test_joker_lead_take_wins_and_demands_no_suit(trump_when_void: bool) -> None:
    """No suit is asked for, so not even compulsory trumping binds Vera to her trump."""
    game = dealt_game(LEAD_HANDS, "7H", joker_lead_take=True, trump_when_void=trump_when_void)
    game.play(Play.parse("X:take"))
    assert legal_texts(game) == ["9C", "6H"]
    game.play(Play.parse("6H"))  # a trump, and still the joker wins
    game.play(Play.parse("AD"))
    assert game.rounds()[0].tricks[0].winner == 1


HIGHEST_HANDS = "6H AS | X 8S | 9C 6D"  # trump ♥ (7H turned up); the joker asks for ♦


def test_joker_highest_wins_over_trumps_by_default() -> None:
    game = dealt_game(HIGHEST_HANDS, "7H")
    game.play(Play.parse("X:highest:D"))
    game.play(Play.parse("6D"))
    assert legal_texts(game) == ["AS", "6H"]  # Anna has no ♦: any card
    game.play(Play.parse("6H"))
    assert game.rounds()[0].tricks[0].winner == 1


def test_joker_highest_beaten_by_trump() -> None:
    game = dealt_game(HIGHEST_HANDS, "7H", joker_highest_beaten_by_trump=True)
    game.play(Play.parse("X:highest:D"))
    game.play(Play.parse("6D"))
    assert legal_texts(game) == ["6H"]  # void in ♦: must trump
    game.play(Play.parse("6H"))
    assert game.rounds()[0].tricks[0].winner == 0


@pytest.mark.parametrize(("option", "winner"), [("first_follower_suit", 1), ("joker_wins", 2)])
def test_joker_discard_lead_unfollowed(option: str, winner: int) -> None:
    rules = resolve_rules(joker_discard_lead_unfollowed=option)
    trick = plays("X:discard:S 6D AD")  # Vera (2) leads; Boris (1) plays A♦ last
    assert trick_winner(trick, 2, Suit.CLUBS, rules) == winner


FIFTY_FOUR: dict[str, Any] = {"lowest_rank": 2, "jokers": (), "extra_jokers": 2}


def test_the_54_card_deck_has_two_jokers() -> None:
    deck = deck_cards(resolve_rules(**FIFTY_FOUR))
    assert len(deck) == 54
    assert [str(card) for card in deck[-2:]] == ["X1", "X2"]


def test_two_jokers_taking_the_later_wins() -> None:
    rules = resolve_rules(**FIFTY_FOUR)
    assert trick_winner(plays("KD X1:take X2:take AD"), 0, Suit.HEARTS, rules) == 2
    assert trick_winner(plays("X1:highest:D X2:take AD 2D"), 0, None, rules) == 1


@pytest.mark.parametrize(("last", "winner"), [("X2:take", 0), ("X2:discard:S", 2)])
def test_two_jokers_following_in_a_game(last: str, winner: int) -> None:
    """Boris leads K♦, Vera takes with X1, then Anna takes with X2 (the later wins) or
    discards it (Vera's take stands)."""
    game = dealt_game("X2 2C | KD 3C | X1 4C", "7H", **FIFTY_FOUR)
    for text in ("KD", "X1:take", last):
        game.play(Play.parse(text))
    assert game.rounds()[0].tricks[0].winner == winner


def test_georgian_jokers_replace_two_sixes() -> None:
    deck = deck_cards(resolve_rules(jokers=("6S", "6C")))
    assert len(deck) == 36
    assert Card.parse("6S") not in deck and Card.parse("7S") in deck


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("max_deal_trump", "sometimes", "must be one of dealer_shows, none"),
        ("joker_discard_lead_unfollowed", "x", "must be one of first_follower_suit"),
        ("extra_jokers", 3, "between 0 and 2"),
        ("trump_when_void", "yes", "true or false"),
    ],
)
def test_option_values_are_validated(option: str, value: object, message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        resolve_rules(None, **{option: value})


def test_too_many_jokers_are_refused() -> None:
    with pytest.raises(InvalidInputError, match="at most two jokers"):
        resolve_rules(jokers=("7S",), extra_jokers=2)


option_sets = st.fixed_dictionaries(
    {
        "trump_when_void": st.booleans(),
        "joker_lead_take": st.booleans(),
        "joker_highest_beaten_by_trump": st.booleans(),
        "joker_discard_lead_unfollowed": st.sampled_from(["first_follower_suit", "joker_wins"]),
        "max_deal_trump": st.sampled_from(["dealer_shows", "none"]),
        "dealer_constraint": st.booleans(),
        "rotating_trumps": st.booleans(),
        "trump_source": st.sampled_from(["undealt", "dealer_last"]),
        "max_zero_bids_in_a_row": st.integers(0, 2),
        "deck": st.sampled_from([{}, {"jokers": ("6S", "6C")}, FIFTY_FOUR]),
    }
)


@settings(max_examples=40, deadline=None)
@given(options=option_sets, players=st.integers(3, 5), seed=st.integers(0, 10**6))
def test_random_games_under_any_options_stay_consistent(
    options: dict[str, Any], players: int, seed: int
) -> None:
    """Whole short games with every option mixed: legal play never stalls, every trick has
    one winner, points add up, and the record replays to the same report."""
    deck = options.pop("deck")
    top = len(deck_cards(resolve_rules(**deck))) // players
    plan: tuple[str, ...] = (f"{top}", f"{top}:blind", f"{top}:misere", f"{top}:no-trump")
    plan += ("2:golden", "1:forehead", "4:percent", "3")
    rules = resolve_rules(custom_plan=plan, **deck, **options)
    game = Game(rules, players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    for result in game.rounds():
        assert len(result.tricks) == result.cards == sum(result.taken)
        assert all(trick.winner is not None for trick in result.tricks)
    assert list(game.totals) == [
        sum(col) for col in zip(*(r.points for r in game.rounds()), strict=True)
    ]
    again = replay(loads_record(dumps_record(game_to_record(game))))
    assert replay_report(again) == replay_report(game)


def test_rotating_trumps_make_the_next_suit_trump() -> None:
    # Boris leads 8♠: ♣ is trump for this trick, so Vera's 6♣ beats Anna's A♠.
    game = dealt_game("AS 9D | 8S 9H | 6C 7H", None, rotating_trumps=True)
    assert (game.trump_card, game.trump) == (None, None)
    for text in ("8S", "6C", "AS"):
        game.play(Play.parse(text))
    assert game.rounds()[0].tricks[0].winner == 2
    # Vera leads 7♥: ♠ is trump, which nobody holds; Boris's 9♥ wins.
    for text in ("7H", "9D", "9H"):
        game.play(Play.parse(text))
    assert game.rounds()[0].tricks[1].winner == 1


def test_rotating_trumps_leave_a_no_trump_round_without_trump() -> None:
    # Boris leads 8♠ in a no-trump round: ♣ is no trump, so Anna's A♠ beats Vera's 6♣.
    rules = resolve_rules(
        custom_plan=("2:no-trump",), dealer_constraint=False, rotating_trumps=True
    )
    game = Game(rules, NAMES, first_dealer=0)
    game.deal([cards("AS 9D"), cards("8S 9H"), cards("6C 7H")], None)
    for bid in (0, 0, 1):  # Boris, Vera, then Anna, the dealer
        game.bid(bid)
    for text in ("8S", "6C", "AS"):
        game.play(Play.parse(text))
    assert game.rounds()[0].tricks[0].winner == 0
    assert rotated_trump(-1, True) == NO_TRUMP  # after a joker led "take": no trump


def test_rotating_trumps_turn_up_no_card() -> None:
    rules = resolve_rules(custom_plan=("1",), rotating_trumps=True)
    game = Game(rules, NAMES, first_dealer=0)
    with pytest.raises(IllegalActionError, match="with rotating trumps no card is turned up"):
        game.deal([cards("AS"), cards("KS"), cards("QS")], Card.parse("7C"))


def test_trump_source_dealer_last_shows_a_dealer_card_never_a_joker() -> None:
    rules = resolve_rules(custom_plan=("3",) * 12, trump_source="dealer_last")
    game = Game(rules, 4, seed=5)
    rng = random.Random(5)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    for result in game.rounds():
        assert result.trump_card in result.hands[result.dealer]
        assert result.trump_card is not None and not result.trump_card.is_joker


def test_trump_source_dealer_last_refuses_a_shown_joker() -> None:
    rules = resolve_rules(custom_plan=("1",), trump_source="dealer_last")
    game = Game(rules, NAMES, first_dealer=0)
    with pytest.raises(IllegalActionError, match="shows a joker: the cards must be dealt again"):
        game.deal([cards("X"), cards("KS"), cards("QS")], Card.parse("X"))
    game.deal([cards("AS"), cards("KS"), cards("QS")], Card.parse("AS"))
    assert game.trump is Suit.SPADES


def test_forehead_round_shows_the_others_cards_but_not_your_own() -> None:
    rules = resolve_rules(special_rounds=("forehead",), custom_plan=())
    plan = [spec for spec in Game(rules, 3, seed=1).plan if spec.kind.value == "forehead"]
    assert [spec.cards for spec in plan] == [1, 1, 1]
    game = Game(resolve_rules(custom_plan=("1:forehead",)), NAMES, first_dealer=0)
    game.deal([cards("AS"), cards("KS"), cards("QS")], Card.parse("7C"))
    view = game.view(1)
    assert view.hand is None
    assert view.shown_hands == (tuple(cards("AS")), None, tuple(cards("QS")))
    assert game.view(None).shown_hands == (None, None, None)
    for bid in (1, 0, 1):
        game.bid(bid)
    assert game.view(1).hand == tuple(cards("KS"))
    assert game.view(1).shown_hands == (None, None, None)


def test_forehead_and_percent_scoring() -> None:
    forehead = Game(resolve_rules(custom_plan=("1:forehead",)), NAMES, first_dealer=0)
    forehead.deal([cards("AS"), cards("KS"), cards("QS")], Card.parse("7C"))
    for bid in (1, 0, 1):  # Boris 1, Vera 0, Anna 1
        forehead.bid(bid)
    for text in ("KS", "QS", "AS"):
        forehead.play(Play.parse(text))
    assert forehead.rounds()[0].points == (50, -50, 50)
    assert [s.cards for s in round_plan_of(special_rounds=("percent",))[-3:]] == [4, 4, 4]
    percent = Game(resolve_rules(custom_plan=("1:percent",)), NAMES, first_dealer=0)
    percent.deal([cards("AS"), cards("KS"), cards("QS")], Card.parse("7C"))
    for bid in (1, 0, 1):
        percent.bid(bid)
    for text in ("KS", "QS", "AS"):
        percent.play(Play.parse(text))
    assert percent.rounds()[0].points == (30, -30, 15)


def round_plan_of(**options: Any) -> tuple[RoundSpec, ...]:
    return Game(resolve_rules(**options), 3, seed=1).plan


def test_zero_bids_in_a_row_are_limited() -> None:
    rules = resolve_rules(custom_plan=("2",) * 3, max_zero_bids_in_a_row=2, dealer_constraint=False)
    game = Game(rules, NAMES, first_dealer=2)
    deck = list(game.deck)
    for _ in range(2):  # Anna bids 0 in rounds 1 and 2
        game.deal([deck[0:2], deck[2:4], deck[4:6]], deck[6])
        while game.phase.value == "bid":
            game.bid(0 if game.to_act == 0 else 1)
        while game.phase.value == "play":
            game.apply(game.legal_actions()[0])
    game.deal([deck[0:2], deck[2:4], deck[4:6]], deck[6])
    game.bid(1)  # round 3: Boris deals, Vera bids first, then Anna
    assert game.to_act == 0
    assert [str(bid) for bid in game.legal_actions()] == ["1", "2"]
    with pytest.raises(IllegalActionError, match="Anna may not bid 0: at most 2 rounds"):
        game.bid(0)


def test_the_dealer_rule_wins_over_the_zero_bid_limit() -> None:
    rules = resolve_rules(custom_plan=("1",) * 2, max_zero_bids_in_a_row=1)
    game = Game(rules, NAMES, first_dealer=2)
    deck = list(game.deck)
    game.deal([deck[0:1], deck[1:2], deck[2:3]], deck[3])
    for bid in (0, 1, 1):  # Anna 0, Boris 1, Vera (dealer) 1
        game.bid(bid)
    for _ in NAMES:
        game.apply(game.legal_actions()[0])
    game.deal([deck[0:1], deck[1:2], deck[2:3]], deck[3])
    game.bid(0)  # Boris
    game.bid(0)  # Vera
    # Anna deals: 1 is forbidden (the bids would sum to 1), and she passed last round, but
    # the dealer's rule wins: 0 is her only bid.
    assert [str(bid) for bid in game.legal_actions()] == ["0"]
    game.bid(0)


def test_zero_stays_banned_while_another_bid_is_left() -> None:
    """Two cards, the dealer forbidden 2: 1 is left, so 0 stays banned; with one card and 1
    forbidden, 0 is the only bid left and allowed (docs/rules.md 2.4)."""
    rules = resolve_rules(max_zero_bids_in_a_row=1)
    assert zero_bid_banned(rules, 2, 2, 1)
    assert zero_bid_banned(rules, 2, None, 1)
    assert not zero_bid_banned(rules, 1, 1, 1)
    assert not zero_bid_banned(rules, 2, 2, 0)


def test_zero_total_counts_as_second_place() -> None:
    def winners(**options: Any) -> tuple[int, ...]:
        rules = resolve_rules(
            custom_plan=("1",),
            exact_zero=0,
            overtrick_per_trick=-5,
            dealer_constraint=False,
            **options,
        )
        game = Game(rules, NAMES, first_dealer=0)
        game.deal([cards("AS"), cards("KS"), cards("QS")], Card.parse("7C"))
        for bid in (0, 1, 0):  # Boris 0, Vera 1, Anna 0
            game.bid(bid)
        for text in ("KS", "QS", "AS"):  # Anna takes the trick
            game.play(Play.parse(text))
        assert game.totals == (-5, 0, -10)
        return game.winners()

    assert winners() == (1,)
    assert winners(zero_total_second=True) == (0,)


def tied_one_round_game(**options: Any) -> Game:
    """One 1-card round ending Anna 1, Boris 5, Vera 5: first place tied, Anna last."""
    rules = resolve_rules(custom_plan=("1",), dealer_constraint=False, **options)
    game = Game(rules, NAMES, first_dealer=0)
    game.deal([cards("AS"), cards("KS"), cards("QS")], Card.parse("7C"))
    for _ in NAMES:
        game.bid(0)
    for text in ("KS", "QS", "AS"):
        game.play(Play.parse(text))
    assert game.totals == (1, 5, 5)
    return game


def test_without_control_game_a_tie_ends_the_game() -> None:
    game = tied_one_round_game()
    assert game.is_over and game.winners() == (1, 2)


def test_control_game_lets_the_last_placed_player_choose() -> None:
    game = tied_one_round_game(control_game=True)
    assert (game.phase.value, game.to_act, game.winners()) == ("choose", 0, ())
    assert len(game.legal_actions()) == 5 * 3
    with pytest.raises(IllegalActionError, match="it is Anna's turn"):
        game.choose_control(ControlRound.parse("control:blind:2"), seat=1)
    game.apply(ControlRound.parse("control:blind:2"))
    assert (game.round.number, game.round.cards, game.round.kind.value) == (2, 12, "blind")
    assert (game.dealer, game.phase.value) == (2, "deal")


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_control_rounds_repeat_while_first_place_is_tied(seed: int) -> None:
    rules = resolve_rules(custom_plan=("1",), control_game=True)
    game = Game(rules, 3, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    assert len(game.winners()) == 1
    controls = [e.action for e in game.events if isinstance(e.action, ControlRound)]
    assert len(game.rounds()) == 1 + len(controls)
    again = replay(loads_record(dumps_record(game_to_record(game))))
    assert replay_report(again) == replay_report(game)


def test_a_control_round_in_a_record_must_give_its_kind() -> None:
    game = tied_one_round_game(control_game=True)
    game.apply(ControlRound.parse("control:normal:1"))
    game.deal([game.deck[0:12], game.deck[12:24], game.deck[24:36]], game.deck[12])
    data = json.loads(dumps_record(game_to_record(game)))
    assert replay_report(replay(parse_record(data)))["rounds"][1]["dealer"] == 1
    del data["rounds"][1]["kind"]
    with pytest.raises(InvalidInputError, match="round 2: a control round must give its kind"):
        replay(parse_record(data))
