"""The sheet's checks: every problem names the round, the player and what is wrong."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from raspisnoy.core import RoundKind
from raspisnoy.scorekeeper import EntryKind, Sheet, SheetError, sheet_from_json, sheet_to_json

from .helpers import fill

PLAYERS = ("Anna", "Boris", "Vera")


def problem(error: pytest.ExceptionInfo[SheetError]) -> tuple[Any, ...]:
    e = error.value
    return e.round, e.player, e.code, str(e)


def test_a_round_is_entered_and_scored_by_the_rules() -> None:
    sheet = Sheet.start("raspisnoy.com", PLAYERS, first_dealer=0)
    # docs/record.md's round 1: Boris and Vera bid 1 and 0; the dealer Anna may only bid 1.
    sheet = sheet.bid(1, 1).bid(2, 0)
    entry = sheet.next_entry
    assert entry is not None
    assert (entry.kind, entry.seat, entry.choices, entry.forbidden) == (EntryKind.BID, 0, (1,), 0)
    sheet = sheet.bid(0, 1).take(1, 1)
    assert sheet.next_entry.choices == (0,)  # type: ignore[union-attr]
    sheet = sheet.take(2, 0).take(0, 0)
    assert sheet.scored[0].points == (-10, 10, 5)
    assert sheet.totals == (-10, 10, 5)
    assert not sheet.complete and sheet.winners == ()


def test_bids_are_made_in_order_from_the_dealers_left() -> None:
    sheet = Sheet.start("raspisnoy.com", PLAYERS, first_dealer=0)
    with pytest.raises(SheetError) as error:
        sheet.bid(0, 1)
    assert problem(error) == (
        1,
        "Anna",
        "bid_turn",
        "round 1, Anna: may not bid before Boris, who bids first",
    )


def test_a_bid_is_in_range() -> None:
    with pytest.raises(SheetError) as error:
        Sheet.start("raspisnoy.com", PLAYERS).bid(1, 2)
    assert problem(error) == (1, "Boris", "bid_range", "round 1, Boris: a bid is 0 to 1, not 2")


def test_the_dealer_may_not_make_the_bids_add_up_to_the_cards() -> None:
    sheet = fill(Sheet.start("raspisnoy.com", PLAYERS, first_dealer=0), 4)
    assert sheet.next_entry.cards == 5 and sheet.next_entry.dealer == 1  # type: ignore[union-attr]
    sheet = sheet.bid(2, 2).bid(0, 1)
    with pytest.raises(SheetError) as error:
        sheet.bid(1, 2)
    assert problem(error) == (
        5,
        "Boris",
        "dealer_bid",
        "round 5, Boris: the dealer may not bid 2: the bids would add up to the number of "
        "cards dealt (5)",
    )
    assert sheet.next_entry.choices == (0, 1, 3, 4, 5)  # type: ignore[union-attr]
    without = Sheet.start({"preset": "raspisnoy.com", "dealer_constraint": False}, PLAYERS)
    assert fill(without, 4).bid(2, 2).bid(0, 1).bid(1, 2).scored[-1].bids == (1, 2, 2)


def test_the_zero_bid_limit() -> None:
    rules = {"preset": "raspisnoy.com", "max_zero_bids_in_a_row": 1}
    sheet = Sheet.start(rules, PLAYERS, first_dealer=0)
    sheet = sheet.bid(1, 0).bid(2, 1).bid(0, 1).take(1, 0).take(2, 1).take(0, 0)
    # Round 2 (dealer Boris): Vera and Anna bid, then Boris, who bid 0 in round 1.
    sheet = sheet.bid(2, 1).bid(0, 0)
    entry = sheet.next_entry
    assert entry is not None and entry.zero_banned and entry.choices == (2,)
    with pytest.raises(SheetError) as error:
        sheet.bid(1, 0)
    assert problem(error) == (
        2,
        "Boris",
        "zero_streak",
        "round 2, Boris: may not bid 0 again: the limit of zero bids in a row is 1",
    )


def test_misere_and_golden_rounds_have_no_bids() -> None:
    rules = {"preset": "raspisnoy.com", "custom_plan": ["2:misere", "2:golden"]}
    sheet = Sheet.start(rules, PLAYERS, first_dealer=2)
    entry = sheet.next_entry
    assert entry is not None and (entry.kind, entry.seat) == (EntryKind.TAKEN, 0)
    with pytest.raises(SheetError) as error:
        sheet.bid(0, 0)
    assert problem(error) == (
        1,
        "Anna",
        "bid_not_expected",
        "round 1, Anna: no bid is expected now",
    )
    sheet = sheet.take(0, 0).take(1, 2).take(2, 0)
    assert sheet.scored[0].points == (100, -40, 100)
    data = sheet_to_json(sheet)
    data["rounds"][0]["bids"] = [0, 0, 0]
    with pytest.raises(SheetError) as error:
        sheet_from_json(data)
    assert problem(error) == (1, None, "no_bids", "round 1: a misere round has no bids")


@pytest.mark.parametrize(
    ("taken", "expected"),
    [
        (
            [4, None, 2],
            (
                5,
                "Anna",
                "taken_sum",
                "round 5, Anna: the tricks taken would add up to 6, "
                "not the number of cards dealt (5)",
            ),
        ),
        (
            [1, 1, 1],
            (
                5,
                "Boris",
                "taken_sum",
                "round 5, Boris: the tricks taken would add up to 3, "
                "not the number of cards dealt (5)",
            ),
        ),
        (
            [0, 6, None],
            (5, "Boris", "taken_range", "round 5, Boris: may take 0 to 5 tricks, not 6"),
        ),
        (
            [-1, None, None],
            (5, "Anna", "taken_range", "round 5, Anna: may take 0 to 5 tricks, not -1"),
        ),
    ],
)
def test_tricks_taken_add_up_to_the_cards_dealt(
    taken: list[int | None], expected: tuple[Any, ...]
) -> None:
    sheet = fill(Sheet.start("raspisnoy.com", PLAYERS, first_dealer=0), 4)
    sheet = sheet.bid(2, 2).bid(0, 1).bid(1, 1)
    data = sheet_to_json(sheet)
    data["rounds"][-1]["taken"] = taken
    with pytest.raises(SheetError) as error:
        sheet_from_json(data)
    assert problem(error) == expected


def test_tricks_wait_for_every_bid() -> None:
    sheet = Sheet.start("raspisnoy.com", PLAYERS, first_dealer=0).bid(1, 0)
    with pytest.raises(SheetError) as error:
        sheet.take(1, 1)
    assert problem(error) == (
        1,
        "Boris",
        "taken_early",
        "round 1, Boris: tricks are entered before Vera has bid",
    )


def test_editing_a_past_round_recomputes_the_totals() -> None:
    sheet = fill(Sheet.start("raspisnoy.com", PLAYERS, first_dealer=0), 3)
    before = sheet.totals
    first = sheet.scored[0]
    assert (first.bids, first.taken, first.points) == ((0, 0, 0), (0, 1, 0), (5, 1, 5))
    edited = sheet.edit_round(1, (0, 0, 0), (1, 0, 0))  # Anna, not Boris, took the trick
    assert edited.scored[0].points == (1, 5, 5)
    assert edited.totals == (before[0] - 4, before[1] + 4, before[2])
    assert sheet.totals == before  # the old sheet is a value: unchanged


def test_an_edit_that_breaks_a_later_round_is_refused() -> None:
    rules = {"preset": "raspisnoy.com", "max_zero_bids_in_a_row": 1}
    sheet = Sheet.start(rules, PLAYERS, first_dealer=0)
    sheet = sheet.bid(1, 1).bid(2, 0).bid(0, 1).take(1, 1).take(2, 0).take(0, 0)
    sheet = sheet.bid(2, 1).bid(0, 0).bid(1, 0).take(2, 0).take(0, 0).take(1, 2)
    assert sheet.scored[0].bids == (1, 1, 0)
    # Had Anna rather than Boris taken the trick in round 1, only the totals change.
    assert sheet.edit_round(1, (1, 1, 0), (1, 0, 0)).totals != sheet.totals
    # Had Boris bid 0 in round 1, his 0 in round 2 would break the limit.
    with pytest.raises(SheetError) as error:
        sheet.edit_round(1, (1, 0, 1), (0, 1, 0))
    assert problem(error)[:3] == (2, "Boris", "zero_streak")
    with pytest.raises(SheetError) as error:
        sheet.edit_round(3, (None, None, None), (None, None, None))
    assert problem(error) == (3, None, "no_round", "round 3: there is no round 3 yet")


def test_undo_takes_back_the_last_entry() -> None:
    sheet = Sheet.start("raspisnoy.com", PLAYERS, first_dealer=0)
    steps = [sheet]
    bids: list[Callable[[Sheet], Sheet]] = [
        lambda s: s.bid(1, 1),
        lambda s: s.bid(2, 0),
        lambda s: s.bid(0, 1),
    ]
    for action in bids:
        steps.append(action(steps[-1]))
    steps.append(steps[-1].take(1, 1))  # tricks in bidding order, as the CLI asks for them
    steps.append(steps[-1].take(2, 0))
    for before, after in zip(reversed(steps[:-1]), reversed(steps[1:]), strict=True):
        assert after.undo() == before
    with pytest.raises(SheetError) as error:
        sheet.undo()
    assert problem(error) == (None, None, "nothing_to_undo", "the sheet is empty")


def test_the_last_round_is_edited_and_undone_like_the_others() -> None:
    """Round 3 of three can be edited, and undoing its six entries one by one leaves the
    first two rounds as they were, then removes it."""
    two = fill(Sheet.start("raspisnoy.com", PLAYERS, first_dealer=0), 2)
    three = fill(two, 1)
    last = three.rounds[2]
    assert three.edit_round(3, last.bids, last.taken) == three
    sheet = three
    for _ in range(5):
        sheet = sheet.undo()
        assert sheet.rounds[:2] == two.rounds and len(sheet.rounds) == 3
    assert sheet.undo() == two


def test_rounds_follow_each_other_and_end_with_the_plan() -> None:
    sheet = fill(Sheet.start({"preset": "raspisnoy.com", "custom_plan": ["1", "2"]}, PLAYERS), 1)
    data = sheet_to_json(sheet)
    data["rounds"].append({"bids": [None, None, 1], "taken": None})
    data["rounds"].append({"bids": None, "taken": None})
    with pytest.raises(SheetError) as error:
        sheet_from_json(data)
    assert problem(error) == (3, None, "unfinished", "round 3: round 2 is not finished")
    done = fill(sheet, 1)
    assert done.complete and done.next_entry is None
    data = sheet_to_json(done)
    data["rounds"].append({"bids": None, "taken": None})
    with pytest.raises(SheetError) as error:
        sheet_from_json(data)
    assert problem(error) == (3, None, "game_over", "round 3: the game is over (rounds played: 2)")
    with pytest.raises(SheetError) as error:
        done.bid(0, 0)
    assert problem(error)[2] == "game_over"


def _tied(rules: dict[str, Any]) -> Sheet:
    """One one-card round in which Boris takes the trick that nobody bid: Anna and Vera
    tie for first with 5, Boris is last with 1."""
    sheet = Sheet.start({"preset": "raspisnoy.com", "custom_plan": ["1"], **rules}, PLAYERS)
    return sheet.bid(1, 0).bid(2, 0).bid(0, 0).take(1, 1).take(2, 0).take(0, 0)


def test_control_rounds_break_a_tie_for_first() -> None:
    assert _tied({}).complete and _tied({}).winners == (0, 2)
    sheet = _tied({"control_game": True})
    entry = sheet.next_entry
    assert entry is not None and (entry.kind, entry.seat, entry.round) == (EntryKind.CONTROL, 1, 2)
    assert RoundKind.BLIND in entry.kinds and RoundKind.FOREHEAD not in entry.kinds
    with pytest.raises(SheetError) as error:
        sheet.choose_control("forehead", 0)
    assert problem(error)[:3] == (2, None, "control_kind")
    with pytest.raises(SheetError) as error:
        sheet.bid(1, 0)
    assert problem(error)[2] == "bid_not_expected"
    control = sheet.choose_control(RoundKind.MISERE, 2)
    entry = control.next_entry
    # Misère, dealt by Vera with the maximum deal (12 cards for 3 players): Anna starts.
    assert entry is not None and (entry.kind, entry.seat, entry.cards) == (EntryKind.TAKEN, 0, 12)
    done = control.take(0, 0).take(1, 12).take(2, 0)
    assert done.scored[-1].control and done.scored[-1].points == (100, -240, 100)
    # Still tied: another control round.
    assert done.next_entry is not None and done.next_entry.kind is EntryKind.CONTROL
    assert control.undo() == sheet
    assert done.choose_control(RoundKind.GOLDEN, 0).undo() == done
    # An edited control round keeps its kind and dealer.
    assert done.edit_round(2, None, (0, 12, 0)) == done
    with pytest.raises(SheetError) as error:
        _tied({}).choose_control("blind", 0)
    assert problem(error)[2] == "game_over"
    with pytest.raises(SheetError) as error:
        Sheet.start("raspisnoy.com", PLAYERS).choose_control("blind", 0)
    assert problem(error) == (
        1,
        None,
        "control_not_expected",
        "round 1: no control round is due now",
    )


def test_control_rounds_in_a_file_give_their_kind_and_dealer() -> None:
    data = sheet_to_json(_tied({"control_game": True}))
    data["rounds"].append({"bids": None, "taken": None})
    with pytest.raises(SheetError) as error:
        sheet_from_json(data)
    assert problem(error)[:3] == (2, None, "control_needed")
    data["rounds"][-1] = {"kind": "blind", "dealer": 5, "bids": None, "taken": None}
    with pytest.raises(SheetError) as error:
        sheet_from_json(data)
    assert problem(error) == (2, None, "not_seat", "round 2: 5 is not a seat from 0 to 2")
    data["rounds"][-1]["dealer"] = 1
    sheet = sheet_from_json(data)
    assert sheet.next_entry.seat == 2 and sheet.scored[-1].kind is RoundKind.BLIND  # type: ignore[union-attr]
    data["rounds"][0]["kind"] = "blind"
    with pytest.raises(SheetError) as error:
        sheet_from_json(data)
    assert problem(error) == (
        1,
        None,
        "plan_kind",
        "round 1: the plan makes it a normal round, not blind",
    )
    data["rounds"][0] = {"dealer": 1, "bids": None, "taken": None}
    with pytest.raises(SheetError) as error:
        sheet_from_json(data)
    assert problem(error) == (
        1,
        None,
        "plan_dealer",
        "round 1: the deal passes clockwise, so the dealer is Anna (seat 0)",
    )


@pytest.mark.parametrize(("zero_total_second", "winners"), [(False, (0,)), (True, (1,))])
def test_a_total_of_zero_is_second_with_zero_total_second(
    zero_total_second: bool, winners: tuple[int, ...]
) -> None:
    rules = {"custom_plan": ["1", "1"], "zero_total_second": zero_total_second}
    sheet = Sheet.start({"preset": "raspisnoy.com", **rules}, PLAYERS, first_dealer=0)
    sheet = sheet.bid(1, 0).bid(2, 1).bid(0, 1).take(1, 1).take(2, 0).take(0, 0)
    sheet = sheet.bid(2, 1).bid(0, 1).bid(1, 1).take(2, 0).take(0, 1).take(1, 0)
    assert sheet.totals == (0, -9, -20)
    assert sheet.complete and sheet.winners == winners


def test_errors_are_structured_values() -> None:
    with pytest.raises(SheetError) as error:
        Sheet.start("raspisnoy.com", PLAYERS).bid(1, 7)
    assert error.value.to_json() == {
        "round": 1,
        "seat": 1,
        "player": "Boris",
        "problem": "bid_range",
        "params": {"cards": 1, "bid": 7},
        "message": "round 1, Boris: a bid is 0 to 1, not 7",
    }
    assert error.value.problem == "a bid is 0 to 1, not 7"
    assert "cause" not in error.value.to_json()  # the sheet's own problem, not the engine's


@pytest.mark.parametrize(
    ("rules", "cause"),
    [
        (  # 13 cards each to three players: a 36-card deck gives at most 12
            {"preset": "raspisnoy.com", "custom_plan": ["1", "13"]},
            {
                "code": "plan_cards",
                "params": {"number": 2, "entry": "13", "players": 3, "count": 12},
            },
        ),
        (
            {"preset": "raspisnoy.com", "lowest_rank": 9},
            {
                "code": "option_range",
                "params": {"option": "lowest_rank", "low": 2, "high": 6, "value": "9"},
            },
        ),
    ],
)
def test_a_format_problem_the_engine_found_carries_its_code(
    rules: dict[str, Any], cause: dict[str, Any]
) -> None:
    """So a page can word it in its reader's language, as the terminal does."""
    data = {"format": "raspisnoy-sheet/1", "rules": rules, "players": list(PLAYERS),
            "first_dealer": 0, "rounds": []}  # fmt: skip
    with pytest.raises(SheetError) as error:
        sheet_from_json(data)
    assert error.value.to_json()["problem"] == "format"
    assert error.value.to_json()["cause"] == cause


@pytest.mark.parametrize(
    ("players", "first_dealer", "message"),
    [
        (("Anna", "Boris"), 0, "raspisnoy.com is played by 3 to 5 players, not 2"),
        (("Anna", "Anna", "Vera"), 0, "players: names must be different"),
        (PLAYERS, 3, "3 is not a seat from 0 to 2"),
    ],
)
def test_the_table_itself_is_checked(
    players: tuple[str, ...], first_dealer: int, message: str
) -> None:
    with pytest.raises(SheetError, match=message):
        Sheet.start("raspisnoy.com", players, first_dealer)


def test_the_next_entry_as_json() -> None:
    sheet = fill(Sheet.start("raspisnoy.com", PLAYERS, first_dealer=0), 4).bid(2, 2).bid(0, 1)
    assert sheet.next_entry is not None
    assert sheet.next_entry.to_json() == {
        "entry": "bid",
        "round": 5,
        "seat": 1,
        "cards": 5,
        "kind": "normal",
        "dealer": 1,
        "choices": [0, 1, 3, 4, 5],
        "forbidden": 2,
        "zero_banned": False,
        "kinds": [],
    }


def test_entries_for_a_seat_that_is_not_at_the_table() -> None:
    sheet = Sheet.start("raspisnoy.com", PLAYERS)
    with pytest.raises(SheetError) as error:
        sheet.bid(3, 0)
    assert problem(error) == (1, None, "not_seat", "round 1: 3 is not a seat from 0 to 2")
