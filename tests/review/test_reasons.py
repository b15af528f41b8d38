"""Why a move lost points (docs/review.md, "Why"): every reason is true of the figures the
search measured from the seat's view, a planted blunder gets the reason expected, and the
screen leaves no mistake unexplained or unsearched."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from raspisnoy.bots import make_bot
from raspisnoy.bots.expert import Outcome, outcomes, root_values, searched_equivalent
from raspisnoy.core import Bid, Game, Phase, Play, View, loads_record, resolve_rules
from raspisnoy.core.record import Record, game_to_record, replay
from raspisnoy.review import FLAG_SHARE, Budget, Moment, Severity, hint, review_game
from raspisnoy.review.engine import CONFIRM_FACTOR, CONFIRM_SHARE
from raspisnoy.review.reasons import MADE_GAP, OUTCOME_DEALS, TRICK_GAP, TRICKS_GAP

#: A screened review with small budgets: the screen, the deep search and the reasons.
SCREENED = Budget(iterations=1500, screen=200)
EXPLAINED = {Severity.INACCURACY, Severity.MISTAKE, Severity.BLUNDER}


def bot_record(seed: int, plan: tuple[str, ...], players: int = 4) -> Record:
    """A game of heuristic bots, as a record."""
    game = Game(resolve_rules(custom_plan=plan), players, seed=seed)
    bots = [make_bot("heuristic", seed=seat) for seat in range(players)]
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].act(game.view(seat)), seat)
    return game_to_record(game)


def views_of(record: Record) -> Iterator[View]:
    """Each seat's view before each of its bids and cards that was a choice, in order."""
    game = replay(record)
    again = Game(record.rules, record.players, first_dealer=record.rounds[0].dealer)
    for event in game.events:
        if isinstance(event.action, Bid | Play):
            view = again.view(event.seat)
            if len(view.legal_actions) > 1:
                yield view
        again.apply_event(event)


@pytest.fixture(scope="module")
def reviewed() -> list[tuple[View, Moment]]:
    record = bot_record(4, ("5", "6", "5:blind", "4:misere", "6"))
    review = review_game(record, None, SCREENED)
    return list(zip(views_of(record), review.moments, strict=True))


def test_every_reason_is_true_of_the_searchs_figures(
    reviewed: list[tuple[View, Moment]],
) -> None:
    explained = [(view, m) for view, m in reviewed if m.reason is not None]
    assert {m.severity for _, m in reviewed if m.reason is not None} <= EXPLAINED
    assert all(m.reason is not None for _, m in reviewed if m.severity in EXPLAINED)
    codes = {m.reason.code for _, m in explained if m.reason}
    assert len(codes) >= 2 and codes & {"trick_lost", "trick_taken"}
    for view, moment in explained:
        reason = moment.reason
        assert reason is not None
        params = reason.params
        stand_in = searched_equivalent(view, moment.played)
        assert params["played"] == str(stand_in) and params["best"] == str(moment.best)
        mine, better = outcomes(view, (stand_in, moment.best), deals=OUTCOME_DEALS)
        if reason.code in ("bid", "joker", "points"):
            assert params["points"] == round(moment.played_points, 2)
            assert params["best_points"] == round(moment.best_points, 2)
            assert params["best_points"] > params["points"]
        if reason.code == "bid":
            assert moment.is_bid and params["tricks"] == round(better.tricks, 1)
        elif reason.code == "joker":
            values = {str(c.action): round(c.points, 2) for c in moment.choices}
            listed = [(mode["move"], mode["points"]) for mode in params["modes"]]
            assert listed and all(values[move] == points for move, points in listed)
            assert [p for _, p in listed] == sorted((p for _, p in listed), reverse=True)
        elif reason.code in ("trick_lost", "trick_taken"):
            _check_turned_trick(view, reason.code, params, mine, better)
        elif reason.code == "made":
            assert mine.made is not None and better.made is not None
            assert (params["made"], params["best_made"]) == (
                round(100 * mine.made),
                round(100 * better.made),
            )
            assert better.made - mine.made >= MADE_GAP
        elif reason.code == "tricks":
            assert (params["tricks"], params["best_tricks"]) == (
                round(mine.tricks, 1),
                round(better.tricks, 1),
            )
            assert abs(better.tricks - mine.tricks) >= TRICKS_GAP
            bid = params["bid"]
            assert bid is None or abs(better.tricks - bid) < abs(mine.tricks - bid)
        else:
            assert reason.code == "points"


def _check_turned_trick(
    view: View, code: str, params: dict[str, object], mine: Outcome, better: Outcome
) -> None:
    """A ``trick_lost`` (``trick_taken``) reason: the move made wins fewer (more) tricks
    than the better move, nearer the bid; the trick it names is one of the round's from
    this one on, turned against the seat in the share of the deals it says, deal by
    deal, and that more often by ``TRICK_GAP`` than the other way and than any other."""
    fewer = code == "trick_taken"
    assert (better.tricks < mine.tricks) is fewer
    assert abs(better.tricks - mine.tricks) >= TRICKS_GAP
    bid = view.bids[view.seat] if view.bids is not None and view.seat is not None else None
    assert bid is None or abs(better.tricks - bid) < abs(mine.tricks - bid)
    deals = list(zip(mine.won, better.won, strict=True))

    def turned(trick: int) -> tuple[int, int]:
        """Deals in which the trick turns against the seat, and the other way."""
        bit = 1 << (trick - 1)
        lost = sum(bool(b & bit and not a & bit) for a, b in deals)
        taken = sum(bool(a & bit and not b & bit) for a, b in deals)
        return (taken, lost) if fewer else (lost, taken)

    trick = params["trick"]
    assert isinstance(trick, int) and len(view.tricks) < trick <= view.cards
    against, back = turned(trick)
    assert params["share"] == round(100 * against / len(deals))
    assert against - back >= TRICK_GAP * len(deals)
    assert all(
        a - b <= against - back for a, b in map(turned, range(len(view.tricks) + 1, view.cards + 1))
    )


def test_the_screen_decides_only_moves_it_sees_as_fine(
    reviewed: list[tuple[View, Moment]],
) -> None:
    """A move the screen let stand lost less than its flag; every inaccuracy or worse was
    judged by the deep search, with its whole budget (or, near the threshold of a mistake
    or a blunder, with ``CONFIRM_FACTOR`` times it)."""
    flag = 2.0 * FLAG_SHARE  # raspisnoy.com: an inaccuracy is 2 points
    assert any(not m.deep for _, m in reviewed) and any(m.deep for _, m in reviewed)
    for _, moment in reviewed:
        if not moment.deep:
            assert moment.loss < flag and moment.severity in (Severity.BEST, Severity.GOOD)
            assert sum(c.visits for c in moment.choices) == SCREENED.screen
        else:
            searched = sum(c.visits for c in moment.choices)
            assert searched in (SCREENED.iterations, SCREENED.iterations * CONFIRM_FACTOR)
            if searched == SCREENED.iterations:  # not confirmed: not near a threshold
                assert all(abs(moment.loss - limit) >= 20 * CONFIRM_SHARE for limit in (5, 10))
    assert all(m.deep for _, m in reviewed if m.severity in EXPLAINED)


def test_a_far_fetched_bid_is_explained_by_the_tricks_of_the_hand() -> None:
    """The seat bids the number of tricks farthest from the search's own: the reason is
    the hand's expected tricks, nearer the better bid than the bid made."""
    plan = ("5",)
    game = Game(resolve_rules(custom_plan=plan), 4, seed=11)
    bots = [make_bot("heuristic", seed=seat) for seat in range(4)]
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        action = bots[seat].act(view)
        if seat == 0 and view.phase is Phase.BID:
            action = _farthest_bid(view)
        game.apply(action, seat)
    review = review_game(game_to_record(game), 0, SCREENED)
    (moment,) = (m for m in review.moments if m.is_bid)
    assert moment.severity in (Severity.MISTAKE, Severity.BLUNDER)
    assert moment.reason is not None and moment.reason.code == "bid"
    params = moment.reason.params
    bid, best = int(params["played"]), int(params["best"])
    assert abs(params["tricks"] - best) < abs(params["tricks"] - bid)


def _farthest_bid(view: View) -> Bid:
    """The legal bid farthest from the search's own."""
    best = root_values(view, 2000)[0].action
    assert isinstance(best, Bid)
    bids = [a for a in view.legal_actions if isinstance(a, Bid)]
    return max(bids, key=lambda bid: abs(bid.amount - best.amount))


def three_cards(
    dealer: int, hands: list[list[str]], bids: list[int], tricks: list[list[str]]
) -> dict[str, Any]:
    """A record of one round of three cards for Anna, Boris and Vera, hearts trumps."""
    deal = {"dealer": dealer, "hands": hands, "trump_card": "9H", "bids": bids}
    return {
        "format": "raspisnoy-record/1",
        "rules": {"preset": "raspisnoy.com", "custom_plan": ["3"]},
        "players": ["Anna", "Boris", "Vera"],
        "rounds": [{**deal, "tricks": tricks}],
    }


#: Seat 0 bid 1 with the joker and two cards that can take nothing, then throws the
#: joker away under Boris's ace: the planted blunder.
PLANTED = three_cards(
    0,
    [["X", "6D", "6C"], ["AS", "KS", "QS"], ["AD", "KD", "QD"]],
    [1, 1, 0],
    [["AS", "AD", "X:discard:D"]],
)


def test_a_planted_joker_blunder_is_explained_by_the_jokers_modes() -> None:
    record = loads_record(json.dumps(PLANTED))
    review = review_game(record, 0, SCREENED)
    (lead,) = (m for m in review.moments if not m.is_bid)
    assert str(lead.played).startswith("X:discard") and lead.severity is Severity.BLUNDER
    assert lead.reason is not None and lead.reason.code == "joker"
    params = lead.reason.params
    assert str(lead.best) == "X:take" and params["best_points"] - params["points"] >= 10
    assert params["modes"][0]["move"] == "X:take"


def test_a_hint_gives_the_reason_its_suggestion_beats_the_runner_up() -> None:
    """Seat 0's turn in the planted deal, before its card: take with the joker, and why."""
    before = json.loads(json.dumps(PLANTED))
    before["rounds"][0]["tricks"] = [["AS", "AD"]]
    view = replay(loads_record(json.dumps(before))).view(0)
    given = hint(view, Budget(iterations=2000))
    assert given.reason is not None and len(given.choices) > 1
    assert given.reason.params["best"] == str(given.suggested)
    assert given.reason.params["played"] == str(given.choices[1].action)
    assert str(given.suggested) == "X:take" and given.reason.code == "joker"
    assert given.to_json()["reason"] == given.reason.to_json()


#: Anna bid 2 with the two top spades and leads her diamond, which anyone can win, before
#: cashing them: whoever wins it may lead a suit she lacks, and she has to throw a spade
#: away. The planted blunder: the reason names the trick given away, the 1st.
GIVEN_AWAY = ([["AS", "KS", "6D"], ["QH", "7C", "8D"], ["JH", "9C", "TC"]], [2, 0, 0])


def test_a_planted_lead_that_gives_a_trick_away_names_the_trick() -> None:
    hands, bids = GIVEN_AWAY
    record = loads_record(json.dumps(three_cards(2, hands, bids, [["6D", "8D", "JH"]])))
    review = review_game(record, 0, SCREENED)
    (lead,) = (m for m in review.moments if not m.is_bid)
    assert str(lead.played) == "6D" and lead.severity is Severity.BLUNDER
    assert lead.reason is not None and lead.reason.code == "trick_lost"
    assert str(lead.best) in ("AS", "KS") and lead.reason.params["trick"] == 1
    view = replay(loads_record(json.dumps(three_cards(2, hands, bids, [])))).view(0)
    mine, better = outcomes(view, (lead.played, lead.best), deals=OUTCOME_DEALS)
    _check_turned_trick(view, "trick_lost", lead.reason.params, mine, better)
    assert lead.reason.params["share"] >= 50
