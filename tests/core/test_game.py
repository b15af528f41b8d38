"""The game state machine: deal, bids, play, the joker, trump, views, clones and errors.

Games are built without a seed and dealt explicitly (``game.deal``) so every situation is
exact; the trump-selection tests use seeded games because they test the engine's own deal.
"""

import dataclasses
import random
from collections.abc import Callable, Iterable
from typing import Any

import pytest
from helpers import cards, play_randomly, plays

from raspisnoy.core import (
    Bid,
    Card,
    Game,
    IllegalActionError,
    InvalidInputError,
    JokerMode,
    NotYourTurnError,
    Phase,
    Play,
    RaspisnoyError,
    Suit,
    parse_action,
    resolve_rules,
    trick_winner,
)

NAMES = ("Anna", "Boris", "Vera", "Gleb", "Dana")


def texts(actions: Iterable[object]) -> list[str]:
    return [str(action) for action in actions]


def new_game(
    players: int = 3, plan: tuple[str, ...] = ("1",), dealer: int = 0, **options: Any
) -> Game:
    rules = resolve_rules(custom_plan=plan, **options)
    return Game(rules, NAMES[:players], first_dealer=dealer)


def dealt(*hands: str, trump: str | None = "7C", dealer: int = 0, kind: str = "normal") -> Game:
    """A one-round game dealt these hands by seat (``"KD 9C"``) and this turned-up card."""
    game = new_game(len(hands), (f"{len(hands[0].split())}:{kind}",), dealer)
    game.deal([cards(hand) for hand in hands], None if trump is None else Card.parse(trump))
    return game


def deal_in_order(game: Game) -> None:
    """Deal the current round from the unshuffled deck, seat by seat; the next card is turned up."""
    size, deck = game.round.cards, game.deck
    hands = [deck[seat * size : (seat + 1) * size] for seat in range(game.players)]
    rest = deck[game.players * size :]
    trump = (rest[0] if rest else hands[game.dealer][-1]) if game.round.kind.has_trump else None
    game.deal(hands, trump)


def act(game: Game, *actions: str) -> None:
    for text in actions:
        game.apply(parse_action(text))


def message(call: Callable[..., object], *args: object) -> str:
    with pytest.raises(RaspisnoyError) as info:
        call(*args)
    return str(info.value)


# ----------------------------------------------------------------------------- bidding


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_bidding_starts_left_of_the_dealer_and_ends_with_the_dealer(dealer: int) -> None:
    game = new_game(4, ("2",), dealer)
    deal_in_order(game)
    assert game.phase is Phase.BID
    order = []
    for _ in range(4):
        order.append(game.to_act)
        game.bid(1 if game.to_act == dealer else 0)
    assert order == [(dealer + k) % 4 for k in (1, 2, 3, 4)]
    assert game.view(None).phase is Phase.PLAY
    assert game.to_act == (dealer + 1) % 4  # and the same player leads


def test_dealer_constraint_rules_example() -> None:
    game = new_game(3, ("5",), dealer=0)
    deal_in_order(game)
    game.bid(2)
    game.bid(1)
    assert game.to_act == game.dealer == 0
    assert texts(game.legal_actions()) == ["0", "1", "3", "4", "5"]
    assert not game.can_bid(2)
    assert message(game.bid, 2) == (
        "round 1: Anna (dealer) may not bid 2: the bids would sum to the 5 cards dealt"
    )
    game.bid(3)
    assert game.bids == (3, 2, 1)


def test_dealer_constraint_one_card() -> None:
    game = new_game(3, ("1",))
    deal_in_order(game)
    act(game, "1", "0")
    assert texts(game.legal_actions()) == ["1"]
    assert message(game.bid, 0) == (
        "round 1: Anna (dealer) may not bid 0: the bids would sum to the 1 card dealt"
    )


def test_no_constraint_when_the_bids_already_exceed_the_cards() -> None:
    game = new_game(3, ("2",))
    deal_in_order(game)
    act(game, "2", "2")
    assert texts(game.legal_actions()) == ["0", "1", "2"]


def test_dealer_constraint_can_be_switched_off() -> None:
    game = new_game(3, ("5",), dealer_constraint=False)
    deal_in_order(game)
    act(game, "2", "1")
    assert texts(game.legal_actions()) == ["0", "1", "2", "3", "4", "5"]


def test_earlier_bidders_are_not_constrained() -> None:
    game = new_game(3, ("2",))
    deal_in_order(game)
    assert texts(game.legal_actions()) == ["0", "1", "2"]
    game.bid(2)
    assert texts(game.legal_actions()) == ["0", "1", "2"]


@pytest.mark.parametrize("amount", [-1, 6, 99])
def test_bid_out_of_range(amount: int) -> None:
    game = new_game(3, ("5",))
    deal_in_order(game)
    assert not game.can_bid(amount)
    assert message(game.bid, amount) == f"round 1: Boris may not bid {amount}: bids are 0 to 5"
    assert game.bids == (None, None, None)


def test_bid_out_of_turn() -> None:
    game = new_game(3, ("2",))
    deal_in_order(game)
    assert game.can_bid(1, seat=1)
    assert not game.can_bid(1, seat=2)
    assert message(game.bid, 1, 2) == "round 1: it is Boris's turn, not Vera's (bid 1)"
    assert message(game.apply, Bid(1), 0) == "round 1: it is Boris's turn, not Anna's (bid 1)"
    game.bid(1, seat=1)
    assert game.to_act == 2


def test_acting_out_of_turn_is_its_own_error_whatever_the_action() -> None:
    """A seat that is not to act gets ``NotYourTurnError``, even with an action that is
    wrong for the phase too (a card while bidding); the right seat breaking a rule does not."""
    game = new_game(3, ("2",))
    deal_in_order(game)
    card = Play(game.hand(2)[0])
    for action, seat in ((Bid(1), 2), (card, 2), (Bid(1), 0)):
        with pytest.raises(NotYourTurnError, match="it is Boris's turn"):
            game.apply(action, seat)
    with pytest.raises(IllegalActionError) as wrong_phase:
        game.apply(Play(game.hand(1)[0]), 1)
    assert not isinstance(wrong_phase.value, NotYourTurnError)
    for _ in range(3):
        game.apply(Bid(0) if game.to_act != game.dealer else Bid(1))
    assert game.phase is Phase.PLAY
    with pytest.raises(NotYourTurnError, match="turn, not Vera's"):
        game.apply(Play(game.hand(2)[0]), 2)


@pytest.mark.parametrize("kind", ["misere", "golden"])
def test_rounds_without_bids_start_in_play(kind: str) -> None:
    game = new_game(3, (f"2:{kind}",))
    deal_in_order(game)
    assert game.phase is Phase.PLAY
    assert game.to_act == 1
    assert game.bids == (None, None, None)
    assert game.view(1).bids is None
    assert all(isinstance(action, Play) for action in game.legal_actions())
    assert not game.can_bid(0)
    assert message(game.bid, 0) == (
        f"round 1, trick 1: not a time to bid (bid 0): a {kind} round has no bids; "
        "waiting for Boris's card"
    )


@pytest.mark.parametrize(
    ("kind", "points"),
    [("misere", (-40, 100, 100)), ("golden", (40, -100, -100))],
)
def test_misere_and_golden_round_points(kind: str, points: tuple[int, ...]) -> None:
    game = dealt("AD AH", "6D 6H", "8D 8H", kind=kind)
    act(game, "6D", "8D", "AD", "AH", "6H", "8H")
    assert game.taken == (2, 0, 0)
    assert game.rounds()[0].points == points
    assert game.totals == points


# ----------------------------------------------------------------------------- play


def test_follow_suit_is_enforced() -> None:
    game = dealt("AS 6H", "KD 8C", "9D 9C")
    act(game, "0", "0", "0", "KD")
    assert texts(game.legal_actions()) == ["9D"]
    assert not game.can_play(Play.parse("9C"))
    assert message(game.play, Play.parse("9C")) == (
        "round 1, trick 1: Vera must follow ♦ and may not play 9C"
    )


def test_play_out_of_turn() -> None:
    game = dealt("AS 6H", "KD 8C", "9D 9C")
    act(game, "0", "0", "0", "KD")
    assert game.can_play(Play.parse("9D"), seat=2)
    assert not game.can_play(Play.parse("AS"), seat=0)
    assert message(game.play, Play.parse("AS"), 0) == (
        "round 1, trick 1: it is Vera's turn, not Anna's (AS)"
    )
    game.apply(Play.parse("9D"), seat=2)
    assert game.to_act == 0


def test_card_not_held() -> None:
    game = dealt("AS 6H", "KD 8C", "9D 9C")
    act(game, "0", "0", "0")
    assert message(game.play, Play.parse("AS")) == "round 1, trick 1: Boris does not hold AS"
    assert message(game.play, Play.parse("7S")) == "round 1, trick 1: Boris does not hold 7S"


def test_any_card_when_void_and_trumping_is_not_compulsory() -> None:
    game = dealt("AS 6H", "KD 8C", "9C TH")
    act(game, "0", "0", "0", "KD")
    assert texts(game.legal_actions()) == ["9C", "TH"]
    act(game, "TH", "AS")
    assert game.trick.plays == () and game.rounds()[0].tricks[0].winner == 1


def test_trump_beats_the_suit_led() -> None:
    game = dealt("AD 6H", "KD 8C", "6C TH")
    act(game, "0", "0", "0", "KD", "6C", "AD")
    assert game.rounds()[0].tricks[0].winner == 2
    assert game.taken == (0, 0, 1)
    assert game.to_act == 2  # the winner leads the next trick


def test_joker_may_be_played_instead_of_following() -> None:
    game = dealt("AS 6H", "KD 8C", "9D X")
    act(game, "0", "0", "0", "KD")
    discards = [f"X:discard:{suit}" for suit in "SCDH"]
    assert texts(game.legal_actions()) == ["9D", "X:take", *discards]


@pytest.mark.parametrize(
    ("joker", "last", "winner"),
    [
        ("X:take", "AC", 2),  # take beats even a trump played after it
        ("X:take", "6H", 2),
        ("X:discard:H", "AC", 0),
        ("X:discard:D", "6H", 1),  # discarded as a diamond it still loses to the ace
    ],
)
def test_joker_following(joker: str, last: str, winner: int) -> None:
    game = dealt("AC 6H", "AD 8C", "X 9H")
    act(game, "0", "0", "0", "AD", joker, last)
    assert game.rounds()[0].tricks[0].winner == winner


@pytest.mark.parametrize(
    ("trick", "leader", "trump", "winner"),
    [
        ("AD X:take AC", 1, Suit.CLUBS, 2),  # take beats a trump
        ("AD X:discard:D 6D", 1, Suit.CLUBS, 1),  # discard loses even to the six
        ("6D X:discard:H AH", 0, None, 0),
        ("KD QD AD", 2, Suit.CLUBS, 1),  # highest of the suit led
        ("KD 6C AD", 0, Suit.CLUBS, 1),  # trump beats the suit led
        ("KD 6C 8C", 0, Suit.CLUBS, 2),  # highest trump
        ("KD AH AS", 0, Suit.CLUBS, 0),  # other suits never win
        ("X:highest:D KD 6C", 1, Suit.CLUBS, 1),  # a demanded joker wins against trumps
        ("X:highest:C AC KC", 2, Suit.CLUBS, 2),  # "highest trumps"
        ("X:discard:D 6D AD", 0, Suit.CLUBS, 2),  # the joker as the lowest diamond
        ("X:discard:D 6D 6C", 0, Suit.CLUBS, 2),
        ("X:take AD KD QD", 3, None, 3),
        ("9S X:take AS KS", 1, Suit.HEARTS, 2),
    ],
)
def test_trick_winner(trick: str, leader: int, trump: Suit | None, winner: int) -> None:
    assert trick_winner(plays(trick), leader, trump, resolve_rules()) == winner


def test_joker_led_highest_forces_the_highest_card() -> None:
    game = dealt("AC 6H", "X 8S", "9D KD")
    act(game, "0", "0", "0", "X:highest:D")
    assert texts(game.legal_actions()) == ["KD"]
    assert message(game.play, Play.parse("9D")) == (
        "round 1, trick 1: Vera must play the highest ♦ (KD) and may not play 9D"
    )
    game.play(Play.parse("KD"))
    assert texts(game.legal_actions()) == ["AC", "6H"]  # no diamond: any card
    game.play(Play.parse("AC"))  # a trump
    assert game.rounds()[0].tricks[0].winner == 1
    assert game.to_act == 1


def test_joker_led_highest_trumps() -> None:
    game = dealt("AH 9C", "X 8S", "6C KC")
    act(game, "0", "0", "0", "X:highest:C")
    assert texts(game.legal_actions()) == ["KC"]
    act(game, "KC")
    assert texts(game.legal_actions()) == ["9C"]


def test_joker_led_discard_makes_its_suit_the_suit_led() -> None:
    game = dealt("AD 6H", "X 8S", "9D KD")
    act(game, "0", "0", "0", "X:discard:D")
    assert texts(game.legal_actions()) == ["9D", "KD"]
    act(game, "9D")
    assert texts(game.legal_actions()) == ["AD"]
    act(game, "AD")
    assert game.rounds()[0].tricks[0].winner == 0
    assert game.taken == (1, 0, 0)


@pytest.mark.parametrize(
    ("dealer", "hands", "trick", "winner"),
    [
        # The joker's player leads (left of the dealer); nobody has spades or trumps.
        pytest.param(0, ("AD KH", "X 8S", "6D 9H"), "X:discard:S 6D AD", 0),
        (1, ("6D 9H", "AD KH", "X 8S"), "X:discard:S 6D AD", 1),
        # The first card after the joker sets the suit: a higher heart does not count.
        (1, ("6D 9H", "AH KH", "X 8S"), "X:discard:S 6D AH", 0),
    ],
)  # fmt: skip
def test_joker_led_discard_nobody_follows(
    dealer: int, hands: tuple[str, ...], trick: str, winner: int
) -> None:
    """docs/rules.md 3.1: the highest card of the suit of the first card after the joker wins."""
    game = dealt(*hands, dealer=dealer)
    act(game, "0", "0", "1", *trick.split())
    assert game.rounds()[0].tricks[0].winner == winner


@pytest.mark.parametrize(
    ("trick", "leader", "winner"),
    [
        ("X:discard:S AD 6D", 0, 1),
        pytest.param("X:discard:S AD 6D", 1, 2),
        ("X:discard:S AD 6D", 2, 0),
        pytest.param("X:discard:S 6D AD", 0, 2),
        pytest.param("X:discard:S 6D AD", 1, 0),
        ("X:discard:S 6D AD", 2, 1),
        ("X:discard:S 6D AD 9D", 0, 2),
        pytest.param("X:discard:S 6D AD 9D", 1, 3),
        pytest.param("X:discard:S 6D AD 9D", 2, 0),
        ("X:discard:S 6D AD 9D", 3, 1),
        pytest.param("X:discard:S 6D 9D AD", 0, 3),
        ("X:discard:S 6D 9H AH", 3, 0),  # hearts do not count: diamonds came first
    ],
)
def test_rule_3_1_every_seat(trick: str, leader: int, winner: int) -> None:
    assert trick_winner(plays(trick), leader, Suit.CLUBS, resolve_rules()) == winner


@pytest.mark.parametrize(
    ("hands", "before", "joker", "expected"),
    [
        (("AD 6H", "X 8S", "9H KD"), (), "X:take",
         "Boris leads, so the joker must demand the highest or discard, not X:take"),
        (("AD 6H", "8S 9S", "X KD"), ("8S",), "X:highest:H",
         "Vera follows, so the joker may only take or discard, not X:highest:H"),
    ],
)  # fmt: skip
def test_illegal_joker_modes(
    hands: tuple[str, ...], before: tuple[str, ...], joker: str, expected: str
) -> None:
    game = dealt(*hands)
    act(game, "0", "0", "0", *before)
    assert not game.can_play(Play.parse(joker))
    assert message(game.play, Play.parse(joker)) == f"round 1, trick 1: {expected}"


def test_joker_lead_options() -> None:
    game = dealt("AD 6H", "X 8S", "9H KD")
    act(game, "0", "0", "0")
    modes = [f"X:{mode}:{suit}" for mode in ("highest", "discard") for suit in "SCDH"]
    assert texts(game.legal_actions()) == ["8S", *modes]


# ----------------------------------------------------------------------------- trump


def seeded(players: int, plan: tuple[str, ...], seed: int) -> Game:
    return Game(resolve_rules(custom_plan=plan), players, seed=seed)


def held(game: Game) -> set[Card]:
    return {card for seat in range(game.players) for card in game.hand(seat)}


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize(("players", "size"), [(3, 1), (4, 5), (5, 7), (3, 11)])
def test_trump_is_turned_up_from_the_rest(players: int, size: int, seed: int) -> None:
    game = seeded(players, (str(size),), seed)
    assert all(len(game.hand(seat)) == size for seat in range(players))
    assert len(held(game)) == players * size
    assert game.trump_card in game.deck
    assert game.trump_card not in held(game)
    assert game.trump == game.trump_card.suit
    if players * size == 35:  # one card left: it must be the one turned up
        assert set(game.deck) - held(game) == {game.trump_card}


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize(("players", "size"), [(4, 9), (3, 12)])
def test_trump_on_a_maximum_deal_is_in_the_dealers_hand(players: int, size: int, seed: int) -> None:
    game = seeded(players, (str(size),), seed)
    assert held(game) == set(game.deck)
    assert game.trump_card in game.hand(game.dealer)
    assert game.trump == game.trump_card.suit


@pytest.mark.parametrize("seed", range(4))
def test_no_trump_round_turns_up_nothing(seed: int) -> None:
    game = seeded(4, ("5:no-trump",), seed)
    assert game.trump_card is None
    assert game.trump is None
    assert len(held(game)) == 20


def first_seed(players: int, plan: tuple[str, ...], found: Callable[[Game], bool]) -> Game:
    for seed in range(5000):
        game = seeded(players, plan, seed)
        if found(game):
            return game
    raise AssertionError("no seed found")  # pragma: no cover


@pytest.mark.parametrize(("players", "plan"), [(4, ("1",)), (4, ("9",))])
def test_joker_turned_up_means_no_trump(players: int, plan: tuple[str, ...]) -> None:
    game = first_seed(players, plan, lambda g: g.trump_card is not None and g.trump_card.is_joker)
    assert game.trump is None
    assert game.view(0).trump is None


@pytest.mark.parametrize("full", [False, True])
def test_joker_as_trump_card_in_a_deal(full: bool) -> None:
    game = new_game(3, ("12",) if full else ("1",), dealer=2)
    hands = [game.deck[s * game.round.cards : (s + 1) * game.round.cards] for s in range(3)]
    joker = Card.parse("X")
    if full:
        assert joker in hands[2]  # the dealer's (Vera's) hand holds the joker
    else:
        assert all(joker not in hand for hand in hands)
    game.deal(hands, joker)
    assert game.trump_card is joker
    assert game.trump is None


# ----------------------------------------------------------------------------- deal validation

ONE_CARD = (["QD"], ["KD"], ["AH"])


@pytest.mark.parametrize(
    ("plan", "hands", "trump", "expected"),
    [
        (("1",), (["QD", "9D"], ["KD"], ["AH"]), "7C", "Anna's hand has 2 cards, expected 1"),
        (("1",), (["QD"], ["KD"], []), "7C", "Vera's hand has 0 cards, expected 1"),
        (("1",), (["QD"], ["KD"]), "7C", "2 hands dealt for 3 players"),
        (("1",), (["QD"], ["QD"], ["AH"]), "7C", "Boris's hand: QD is dealt twice"),
        (("1",), (["7S"], ["KD"], ["AH"]), "7C", "Anna's hand: 7S is not in this deck"),
        (("1",), (["QD"], ["5D"], ["AH"]), "7C", "Boris's hand: 5D is not in this deck"),
        (("1",), ONE_CARD, "7S", "trump card: 7S is not in this deck"),
        (("1",), ONE_CARD, "KD", "the trump card KD is also in a hand"),
        (("1",), ONE_CARD, None, "the trump card is missing"),
        (("1:no-trump",), ONE_CARD, "7C", "a no-trump round turns up no card, not 7C"),
        (("12",), None, "TC", "every card is dealt, so the trump card must be one the dealer "
                              "Anna shows from their hand, not TC"),
    ],
)  # fmt: skip
def test_deal_validation(
    plan: tuple[str, ...],
    hands: tuple[list[str], ...] | None,
    trump: str | None,
    expected: str,
) -> None:
    game = new_game(3, plan)
    if hands is None:  # the whole deck, in order
        hands = tuple([str(c) for c in game.deck[s * 12 : (s + 1) * 12]] for s in range(3))
        assert "TC" in hands[1]
    dealt = [[Card.parse(text) for text in hand] for hand in hands]
    trump_card = None if trump is None else Card.parse(trump)
    assert not game.can_deal(dealt, trump_card)
    text = message(game.deal, dealt, trump_card)
    assert text.startswith(f"round 1: {expected}")
    assert game.phase is Phase.DEAL
    assert game.events == ()


@pytest.mark.parametrize("trump", [False, True])
def test_seven_of_spades_is_named_as_the_joker(trump: bool) -> None:
    game = new_game(3, ("1",))
    hands = [cards("QD"), cards("KD"), cards("AH" if trump else "7S")]
    text = message(game.deal, hands, Card.parse("7S" if trump else "7C"))
    assert "7S is not in this deck" in text
    assert "joker X" in text


def test_deal_twice_is_illegal() -> None:
    game = new_game(3, ("1",))
    game.deal([cards("QD"), cards("KD"), cards("AH")], Card.parse("7C"))
    with pytest.raises(IllegalActionError, match="not a time to deal: waiting for Boris's bid"):
        game.deal([cards("QD"), cards("KD"), cards("AH")], Card.parse("7C"))


def test_deal_sorts_hands_and_logs_the_deal() -> None:
    game = new_game(3, ("2",))
    hands = [cards("AD 6S"), cards("KD 9C"), cards("X AH")]
    assert game.can_deal(hands, Card.parse("TH"))
    event = game.deal(hands, Card.parse("TH"))
    assert event.seat is None and event.round == 1
    assert game.events == (event,)
    assert game.hand(0) == tuple(cards("6S AD"))
    assert game.hand(2) == tuple(cards("AH X"))
    assert (game.trump_card, game.trump) == (Card.parse("TH"), Suit.HEARTS)


# ----------------------------------------------------------------------------- views


def cards_seen(value: object) -> set[Card]:
    """Every card anywhere inside a view (its fields, tuples, tricks, plays)."""
    if isinstance(value, Card):
        return {value}
    if isinstance(value, Play):
        return {value.card}
    if isinstance(value, tuple | list):
        return set().union(*map(cards_seen, value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return cards_seen([getattr(value, f.name) for f in dataclasses.fields(value)])
    return set()


def public_cards(game: Game) -> set[Card]:
    played = {p.card for r in game.rounds()[-1:] for t in r.tricks for p in t.plays}
    return played | ({game.trump_card} if game.trump_card else set())


@pytest.mark.parametrize("steps", [0, 3, 4, 9, 17, 40])
def test_a_view_never_shows_another_seats_hand(steps: int) -> None:
    game = Game(resolve_rules(custom_plan=("9", "5:no-trump")), NAMES[:4], seed=11)
    play_randomly(game, steps)
    public = public_cards(game)
    for seat in range(4):
        view = game.view(seat)
        assert view.hand == game.hand(seat)
        assert cards_seen(view) <= public | set(game.hand(seat))
        assert view.hand_sizes == tuple(len(game.hand(s)) for s in range(4))
    spectator = game.view(None)
    assert spectator.hand is None
    assert spectator.legal_actions == ()
    assert cards_seen(spectator) <= public


def test_legal_actions_only_in_the_view_of_the_seat_to_act() -> None:
    game = Game(resolve_rules(custom_plan=("3",)), NAMES[:3], seed=4)
    play_randomly(game, 5)
    for seat in range(3):
        view = game.view(seat)
        assert view.my_turn == (seat == game.to_act)
        expected = tuple(game.legal_actions()) if seat == game.to_act else ()
        assert view.legal_actions == expected
    assert game.view(game.to_act).legal_actions  # not empty for the seat to act


def test_blind_round_hides_hand_and_trump_until_the_last_bid() -> None:
    game = new_game(3, ("2:blind",))
    game.deal([cards("AD 6S"), cards("KD 9C"), cards("X AH")], Card.parse("TH"))
    for bid in ("0", "1", None):
        for seat in (0, 1, 2, None):
            view = game.view(seat)
            assert view.hand is None
            assert (view.trump, view.trump_card, view.trump_hidden) == (None, None, True)
            assert cards_seen(view) == set()
        if bid is not None:
            act(game, bid)
    assert game.view(0).legal_actions == (Bid(0), Bid(2))  # the dealer constraint still holds
    act(game, "0")
    for seat in range(3):
        view = game.view(seat)
        assert view.hand == game.hand(seat)
        assert (view.trump, view.trump_hidden) == (Suit.HEARTS, False)
        assert view.trump_card == Card.parse("TH")


def test_view_contents() -> None:
    game = dealt("AD 6H", "KD 8C", "9D 9C", dealer=0)
    act(game, "1", "0", "0", "KD")
    view = game.view(2)
    assert (view.seat, view.names, view.players) == (2, NAMES[:3], 3)
    assert (view.phase, view.round, view.cards) == (Phase.PLAY, 1, 2)
    assert (view.dealer, view.to_act) == (0, 2)
    assert view.bids == (0, 1, 0)
    assert view.trick.leader == 1 and texts(view.trick.plays) == ["KD"]
    assert view.hand_sizes == (2, 1, 2)


@pytest.mark.parametrize("seat", [-1, 3, 10])
def test_view_of_a_seat_that_does_not_exist(seat: int) -> None:
    game = new_game(3)
    with pytest.raises(InvalidInputError, match=f"{seat} is not a seat"):
        game.view(seat)
    with pytest.raises(InvalidInputError, match=f"{seat} is not a seat"):
        game.own_view(seat)


# ----------------------------------------------------------------------------- clone


def snapshot(game: Game) -> tuple[object, ...]:
    return (
        game.events,
        tuple(game.hand(seat) for seat in range(game.players)),
        game.bids,
        game.taken,
        game.totals,
        game.to_act,
        game.phase,
        game.trick,
        game.rounds(),
        game.legal_actions(),
    )


@pytest.mark.parametrize("steps", [0, 2, 5, 12])
def test_clone_is_independent(steps: int) -> None:
    game = Game(resolve_rules(custom_plan=("3", "2")), NAMES[:3], seed=7)
    play_randomly(game, steps)
    before = snapshot(game)
    copy = game.clone()
    assert snapshot(copy) == before
    play_randomly(copy, 6, seed=1)
    assert snapshot(copy) != before
    assert snapshot(game) == before
    after_copy = snapshot(copy)
    play_randomly(game, 6, seed=2)
    assert snapshot(copy) == after_copy


# ----------------------------------------------------------------------------- can_x == verify_x


def every_play(game: Game) -> list[Play]:
    result = []
    for card in game.deck:
        if card.is_joker:
            result.append(Play(card, JokerMode.TAKE))
            result += [
                Play(card, m, s) for m in (JokerMode.DISCARD, JokerMode.HIGHEST) for s in Suit
            ]
        else:
            result.append(Play.of(card))
    return result


def verifies(verify: Callable[..., None], *args: object) -> bool:
    try:
        verify(*args)
    except IllegalActionError:
        return False
    return True


@pytest.mark.parametrize("seed", range(3))
def test_can_agrees_with_verify_and_legal_actions(seed: int) -> None:
    game = Game(resolve_rules(custom_plan=("3", "2:blind", "2:misere")), NAMES[:3], seed=seed)
    candidates = every_play(game)
    rng = random.Random(seed)
    while not game.is_over:
        legal = set(game.legal_actions())
        bids = range(-1, game.round.cards + 2)
        for seat in (None, *range(3)):
            for amount in bids:
                can = game.can_bid(amount, seat)
                assert can == verifies(game.verify_bid, amount, seat)
                assert can == (Bid(amount) in legal and seat in (None, game.to_act))
            for play in candidates:
                can = game.can_play(play, seat)
                assert can == verifies(game.verify_play, play, seat)
                assert can == (play in legal and seat in (None, game.to_act))
        game.apply(rng.choice(sorted(legal, key=str)))


# ----------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    "bids_before",
    [
        pytest.param(None, id="before-the-deal"),
        pytest.param(("0",), id="during-bidding"),
    ],
)
def test_a_refused_play_leaves_no_trace(bids_before: tuple[str, ...] | None) -> None:
    game = new_game(3, ("2",))
    hands = [cards("AD 6H"), cards("KD 8C"), cards("9D 9C")]
    if bids_before is not None:
        game.deal(hands, Card.parse("7C"))
        act(game, *bids_before)
    with pytest.raises(IllegalActionError, match="not a time to play a card"):
        game.play(Play.parse("9D"))
    if bids_before is None:
        game.deal(hands, Card.parse("7C"))
    while game.phase is Phase.BID:
        act(game, "0" if game.to_act != game.dealer else "1")
    assert texts(game.legal_actions()) == ["8C", "KD"]  # Boris leads his own cards
    game.play(Play.parse("KD"))


def test_wrong_timing_is_an_illegal_action() -> None:
    game = new_game(3, ("1",))
    assert message(game.bid, 0) == "round 1: not a time to bid (bid 0): the cards are not dealt yet"
    with pytest.raises(IllegalActionError, match="not a time to play a card"):
        game.play(Play.parse("QD"))
    game.deal([cards("QD"), cards("KD"), cards("AH")], Card.parse("7C"))
    assert message(game.play, Play.parse("KD")) == (
        "round 1: not a time to play a card (KD): waiting for Boris's bid"
    )
    act(game, "0", "0", "0")
    with pytest.raises(IllegalActionError, match="not a time to bid"):
        game.bid(0)


@pytest.mark.parametrize(
    "build",
    [
        lambda: new_game(3).apply("KD"),  # type: ignore[arg-type]
        lambda: new_game(3).view(5),
        lambda: Game(resolve_rules(), NAMES[:2]),
        lambda: Game(resolve_rules(), NAMES[:3], first_dealer=3),
        lambda: Game("no-such-preset", 3),
    ],
)
def test_bad_input_is_invalid_input(build: Callable[[], object]) -> None:
    with pytest.raises(InvalidInputError) as info:
        build()
    assert not isinstance(info.value, IllegalActionError)


def test_error_classes() -> None:
    for error in (IllegalActionError, InvalidInputError):
        assert issubclass(error, RaspisnoyError)
        assert issubclass(error, ValueError)


# ----------------------------------------------------------------------------- a whole game


@pytest.mark.parametrize(
    ("misere_hands", "round_two", "winners"),
    [
        (("6H", "8H", "7H"), (100, -20, 100), (0, 2)),  # Boris takes: Anna and Vera tie
        (("6H", "7H", "8H"), (100, 100, -20), (0,)),  # Vera takes: Anna alone
    ],
)
def test_final_totals_and_winners(
    misere_hands: tuple[str, ...], round_two: tuple[int, ...], winners: tuple[int, ...]
) -> None:
    game = new_game(3, ("1", "1:misere"), dealer=0)
    game.deal([cards("QD"), cards("KD"), cards("AH")], Card.parse("7C"))
    act(game, "0", "0", "0", "KD", "AH", "QD")  # Boris takes it with a bid of 0
    assert game.totals == (5, 1, 5)
    assert game.winners() == ()
    assert (game.phase, game.dealer, game.round.number) == (Phase.DEAL, 1, 2)
    game.deal([cards(hand) for hand in misere_hands], Card.parse("9S"))
    assert game.to_act == 2  # left of the new dealer, Boris
    act(game, misere_hands[2], misere_hands[0], misere_hands[1])
    assert game.is_over and game.phase is Phase.OVER
    assert [r.points for r in game.rounds()] == [(5, 1, 5), round_two]
    assert game.totals == tuple(a + b for a, b in zip((5, 1, 5), round_two, strict=True))
    assert game.winners() == winners
    assert game.view(None).to_act is None and game.legal_actions() == ()
    assert message(game.bid, 0) == "not a time to bid (bid 0): the game is over"


def test_a_seeded_game_plays_to_the_end_of_the_plan() -> None:
    game = Game(resolve_rules(), NAMES[:4], seed=3)
    play_randomly(game, 10_000)
    assert game.is_over
    rounds = game.rounds()
    assert len(rounds) == 28
    assert [r.dealer for r in rounds] == [(rounds[0].dealer + k) % 4 for k in range(28)]
    assert all(sum(r.taken) == r.cards for r in rounds)
    points = [r.points for r in rounds if r.points is not None]
    assert len(points) == 28
    assert game.totals == tuple(sum(p[s] for p in points) for s in range(4))
    assert game.winners() == tuple(s for s in range(4) if game.totals[s] == max(game.totals))
