"""Card, suit and action notation (docs/record.md "Card notation")."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from raspisnoy.core import Bid, Card, InvalidInputError, JokerMode, Play, Suit, parse_action
from raspisnoy.core.fast import ALL_CARDS, JOKERS, cards_in_mask, mask_of

JOKER_MODES_WITH_SUIT = (JokerMode.DISCARD, JokerMode.HIGHEST)


def joker_plays() -> st.SearchStrategy[Play]:
    """Every play of a joker a player may announce: take, or discard/highest naming a suit."""
    take = st.builds(Play, st.sampled_from(JOKERS), st.just(JokerMode.TAKE))
    named = st.builds(
        Play,
        st.sampled_from(JOKERS),
        st.sampled_from(JOKER_MODES_WITH_SUIT),
        st.sampled_from(list(Suit)),
    )
    return take | named


def plays() -> st.SearchStrategy[Play]:
    plain = st.sampled_from([card for card in ALL_CARDS if not card.is_joker]).map(Play.of)
    return plain | joker_plays()


# ----------------------------------------------------------------------------- cards


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("TD", "TD"),
        ("10d", "TD"),
        ("10D", "TD"),
        ("Q♦", "QD"),
        ("♦Q", "QD"),
        ("♥10", "TH"),
        ("T♥", "TH"),
        ("Q♢", "QD"),
        ("qd", "QD"),
        ("as", "AS"),
        (" 6c ", "6C"),
        ("2h", "2H"),
        ("X", "X"),
        ("x", "X"),
        ("X1", "X1"),
        ("x2", "X2"),
    ],
)
def test_card_parse_accepts_notation(text: str, canonical: str) -> None:
    assert str(Card.parse(text)) == canonical


def test_card_fields() -> None:
    ten = Card.parse("10d")
    assert (ten.rank, ten.suit, ten.is_joker) == (10, Suit.DIAMONDS, False)
    joker = Card.parse("X")
    assert (joker.suit, joker.is_joker) == (None, True)


def test_card_pretty() -> None:
    assert [Card.parse(t).pretty() for t in ("TD", "AS", "X")] == ["10♦", "A♠", "X"]


@pytest.mark.parametrize("text", ["TD", "6S", "AH", "X", "X1", "X2"])
def test_card_repr_round_trips_via_eval(text: str) -> None:
    card = Card.parse(text)
    assert repr(card) == f"Card.parse({text!r})"
    assert eval(repr(card), {"Card": Card}) is card


@pytest.mark.parametrize(
    "text", ["", " ", "ZZ", "1D", "11D", "TDX", "T", "D", "10", "♦", "X3", "XD", "7", None, 10]
)
def test_card_parse_rejects(text: object) -> None:
    with pytest.raises(InvalidInputError, match="is not a card") as info:
        Card.parse(text)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("text", "suit"),
    [("S", Suit.SPADES), ("c", Suit.CLUBS), ("♦", Suit.DIAMONDS), ("♡", Suit.HEARTS)],
)
def test_suit_parse(text: str, suit: Suit) -> None:
    assert Suit.parse(text) is suit


@pytest.mark.parametrize("text", ["", "X", "spades", "♠♠"])
def test_suit_parse_rejects(text: str) -> None:
    with pytest.raises(InvalidInputError, match="is not a suit"):
        Suit.parse(text)


@given(st.sampled_from(ALL_CARDS))
def test_card_text_round_trip(card: Card) -> None:
    assert Card.parse(str(card)) is card
    assert Card.parse(str(card).lower()) is card


def _display_order(card: Card) -> tuple[bool, int, int, int]:
    """Suit then rank, jokers last: the order ``cards_in_mask`` promises."""
    return (card.is_joker, -1 if card.suit is None else int(card.suit), card.rank, card.index)


@given(st.lists(st.sampled_from(ALL_CARDS)))
def test_cards_in_mask_returns_the_cards_sorted(cards: list[Card]) -> None:
    assert cards_in_mask(mask_of(cards)) == tuple(sorted(set(cards), key=_display_order))


# ----------------------------------------------------------------------------- plays


@pytest.mark.parametrize(
    ("text", "play"),
    [
        ("KD", Play(Card.parse("KD"))),
        ("X:take", Play(Card.parse("X"), JokerMode.TAKE)),
        ("x:TAKE", Play(Card.parse("X"), JokerMode.TAKE)),
        ("X:discard:D", Play(Card.parse("X"), JokerMode.DISCARD, Suit.DIAMONDS)),
        ("X:highest:H", Play(Card.parse("X"), JokerMode.HIGHEST, Suit.HEARTS)),
        ("X:highest:♠", Play(Card.parse("X"), JokerMode.HIGHEST, Suit.SPADES)),
        ("X2:discard:c", Play(Card.parse("X2"), JokerMode.DISCARD, Suit.CLUBS)),
    ],
)
def test_play_parse(text: str, play: Play) -> None:
    assert Play.parse(text) == play


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("X", "a joker play needs a mode"),
        ("KD:take", "only a joker announces a mode"),
        ("X:take:D", "'take' names no suit"),
        ("X:discard", "'discard' needs a suit"),
        ("X:highest", "'highest' needs a suit"),
        ("X:grab", "unknown joker mode 'grab'"),
        ("X:discard:Z", "is not a suit"),
        ("ZZ:take", "is not a card"),
    ],
)
def test_play_parse_rejects(text: str, message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        Play.parse(text)


@pytest.mark.parametrize(
    ("card", "mode", "suit"),
    [
        ("X", None, None),
        ("X", JokerMode.TAKE, Suit.HEARTS),
        ("X", JokerMode.DISCARD, None),
        ("KD", JokerMode.TAKE, None),
        ("KD", None, Suit.DIAMONDS),
    ],
)
def test_play_constructor_rejects_bad_modes(
    card: str, mode: JokerMode | None, suit: Suit | None
) -> None:
    with pytest.raises(InvalidInputError):
        Play(Card.parse(card), mode, suit)


@given(plays())
def test_play_text_round_trip(play: Play) -> None:
    assert Play.parse(str(play)) == play
    assert parse_action(str(play)) == play
    assert eval(repr(play), {"Play": Play}) == play


# ----------------------------------------------------------------------------- actions


@pytest.mark.parametrize(("text", "amount"), [("3", 3), ("0", 0), (" 12 ", 12)])
def test_parse_action_bid(text: str, amount: int) -> None:
    action = parse_action(text)
    assert action == Bid(amount)
    assert str(action) == str(amount)
    assert repr(action) == f"Bid({amount})"


def test_parse_action_play() -> None:
    assert parse_action("X:discard:S") == Play(Card.parse("X"), JokerMode.DISCARD, Suit.SPADES)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "-1",
        "3.5",
        "three",
        "²",
    ],
)
def test_parse_action_rejects(text: str) -> None:
    with pytest.raises(InvalidInputError):
        parse_action(text)
