"""``TournamentStore``: a tournament and its entrants (a person once, never past the
places or the start), a round paired once whatever happens, its tables opened with their
seats (club tables in a club's event), results recorded once, and the runner's lease."""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping, Sequence

import pytest
from sqlalchemy import update
from sqlalchemy.orm import Session
from store_helpers import answer_behind, people, table_of, until_blocked_by

from raspisnoy.store import (
    ALL_SCOPE,
    ROUND_COUNTS,
    ClubSettings,
    ClubStore,
    GameEnd,
    GameEnds,
    NewTournament,
    Players,
    RatedSeat,
    RegistrationError,
    RoundTable,
    SeatedTable,
    Store,
    StoredRating,
    TableRating,
    TournamentStore,
)
from raspisnoy.store.models import Tournament, TournamentEntry, TournamentRound


def new_tournament(
    store: Store, director_id: str, *, club_id: str | None = None, places: int = 8
) -> str:
    tournaments = TournamentStore(store)
    row = tournaments.create(
        NewTournament(
            name="Пятничный турнир",
            club_id=club_id,
            director_id=director_id,
            starts_at=time.time() + 60,
            rules={"preset": "classic"},
            table_size=3,
            rounds=2,
            turn_seconds=30,
            scoring="duplicate",
            fill="bots",
            max_players=places,
            rated=False,
            bot_delay_ms=0,
            seed="event-seed",
        )
    )
    return row.id


HOW = RoundTable(
    rules={"preset": "classic"},
    turn_seconds=30,
    bot_delay_ms=0,
    stand_in="random",
    seed="event-seed/round 1",
    rated=False,
    public=False,
)


def test_a_tournament_is_stored_with_its_options(store: Store) -> None:
    (director,) = people(store, "Director")
    tournaments = TournamentStore(store)
    tournament_id = new_tournament(store, director.id)
    row = tournaments.get(tournament_id)
    assert (row.state, row.current_round, row.director_name) == ("registering", 0, "Director")
    assert (row.options.table_size, row.options.rounds, row.options.scoring) == (3, 2, "duplicate")
    assert [t.id for t in tournaments.listing(None)] == [tournament_id]
    assert tournaments.due(time.time()) == []  # not started yet
    assert [t.id for t in tournaments.due(time.time() + 61)] == [tournament_id]


def test_a_person_registers_once_and_never_past_the_places_or_the_start(store: Store) -> None:
    director, anna, boris = people(store, "Director", "Anna", "Boris")
    tournaments = TournamentStore(store)
    tournament_id = new_tournament(store, director.id, places=2)
    now = time.time()
    tournaments.register(tournament_id, user_id=anna.id, bot=None, name="", now=now)
    with pytest.raises(RegistrationError) as twice:
        tournaments.register(tournament_id, user_id=anna.id, bot=None, name="", now=now)
    assert twice.value.reason == "twice"
    tournaments.register(tournament_id, user_id=None, bot="random", name="Бот 1", now=now + 1)
    with pytest.raises(RegistrationError) as full:
        tournaments.register(tournament_id, user_id=boris.id, bot=None, name="", now=now)
    assert full.value.reason == "full"
    entries = tournaments.entries(tournament_id)
    assert [(e.name, e.bot) for e in entries] == [("Anna", None), ("Бот 1", "random")]
    assert tournaments.counts([tournament_id]) == {tournament_id: 2}
    assert tournaments.unregister(tournament_id, anna.id)
    assert not tournaments.unregister(tournament_id, anna.id)
    assert tournaments.set_state(tournament_id, "running", {"registering"})
    assert not tournaments.set_state(tournament_id, "running", {"registering"})
    with pytest.raises(RegistrationError) as closed:
        tournaments.register(tournament_id, user_id=boris.id, bot=None, name="", now=now)
    assert closed.value.reason == "closed"
    with pytest.raises(RegistrationError):
        tournaments.unregister(tournament_id, anna.id)
    assert [e.name for e in tournaments.entries(tournament_id)] == ["Бот 1"]


def test_an_entry_taken_back_as_the_tournament_starts_waits_for_the_start(store: Store) -> None:
    """Vera takes her entry back on one worker while the runner on another starts the
    tournament (its move to running not yet committed): her request waits for the start
    and is refused, so round 1 never seats an entry that is gone."""
    if store.engine.dialect.name != "postgresql":
        pytest.skip("SQLite has one writer at a time: nothing runs between a read and a write")
    director, vera = people(store, "Director", "Vera")
    tournaments = TournamentStore(store)
    tournament_id = new_tournament(store, director.id)
    tournaments.register(tournament_id, user_id=vera.id, bot=None, name="", now=time.time())
    answers: list[object] = []

    def take_back() -> None:
        try:
            answers.append(tournaments.unregister(tournament_id, vera.id))
        except RegistrationError as error:
            answers.append(error.reason)

    with store.engine.connect() as starting:
        starting.execute(
            update(Tournament).where(Tournament.id == tournament_id).values(state="running")
        )
        asking = threading.Thread(target=take_back)
        asking.start()
        until_blocked_by(starting, store, asking)
        starting.commit()
    asking.join()
    assert answers == ["closed"]
    assert [e.user_id for e in tournaments.entries(tournament_id)] == [vera.id]


def _anna_and_vera_entered(store: Store) -> tuple[str, str, SeatedTable]:
    """A running event that Anna and Vera entered; a table seating them both."""
    director, anna, vera = people(store, "Director", "Anna", "Vera")
    tournaments = TournamentStore(store)
    tournament_id = new_tournament(store, director.id)
    a, v = (
        tournaments.register(tournament_id, user_id=p.id, bot=None, name="", now=time.time())
        for p in (anna, vera)
    )
    tournaments.set_state(tournament_id, "running", {"registering"})
    return (
        tournament_id,
        v.entry_id,
        SeatedTable((a.entry_id, v.entry_id, None), {0: anna.id, 1: vera.id}, ("random",) * 3),
    )


def test_an_entrant_withdrawn_after_the_seating_was_made_is_not_seated(store: Store) -> None:
    """The runner seated the round from the entries it read; Vera was withdrawn before
    the pairing's transaction: nothing is paired, and the next pass seats it anew."""
    tournament_id, vera, table = _anna_and_vera_entered(store)
    tournaments = TournamentStore(store)
    assert tournaments.withdraw(tournament_id, [vera]) == 1
    assert tournaments.pair_round(tournament_id, 1, [], HOW, [table], time.time()) is None
    assert tournaments.round(tournament_id, 1) is None
    assert tournaments.get(tournament_id).current_round == 0
    anna_only = SeatedTable((table.entries[0], None, None), {0: table.people[0]}, table.bots)
    assert tournaments.pair_round(tournament_id, 1, [], HOW, [anna_only], time.time())


def test_an_entrant_withdrawn_as_the_round_is_paired_waits_for_it_or_is_not_seated(
    store: Store,
) -> None:
    """The director withdraws Vera on one worker (not yet committed) as the runner on
    another pairs a seating with her: the pairing waits on her row and, finding her
    withdrawn, pairs nothing."""
    if store.engine.dialect.name != "postgresql":
        pytest.skip("SQLite has one writer at a time: nothing runs between a read and a write")
    tournament_id, vera, table = _anna_and_vera_entered(store)
    tournaments = TournamentStore(store)

    def withdraw(session: Session) -> None:
        entry = TournamentEntry.entry_id == vera
        session.execute(update(TournamentEntry).where(entry).values(state="withdrawn"))

    def pair() -> list[str] | None:
        return tournaments.pair_round(tournament_id, 1, [], HOW, [table], time.time())

    assert answer_behind(store, withdraw, pair) is None
    assert tournaments.round(tournament_id, 1) is None


def test_a_round_is_paired_once_with_its_tables_in_the_club(store: Store) -> None:
    director, anna, boris = people(store, "Director", "Anna", "Boris")
    club = ClubStore(store).create(
        director.id, ClubSettings("Клуб", "", "ru", {"preset": "classic"}, private=True)
    )
    tournaments = TournamentStore(store)
    tournament_id = new_tournament(store, director.id, club_id=club.id)
    table = SeatedTable(("a", "b", None), {0: anna.id, 1: boris.id}, ("random",) * 3)
    now = time.time()
    assert tournaments.pair_round(tournament_id, 1, [], HOW, [table], now) is None  # not running
    tournaments.set_state(tournament_id, "running", {"registering"})
    assert tournaments.pair_round(tournament_id, 2, [], HOW, [table], now) is None  # not next
    table_ids = tournaments.pair_round(tournament_id, 1, ["c"], HOW, [table, table], now)
    assert table_ids is not None and len(table_ids) == 2
    assert tournaments.pair_round(tournament_id, 1, [], HOW, [table], now) is None  # twice
    assert tournaments.get(tournament_id).current_round == 1
    (paired,) = tournaments.rounds(tournament_id)
    assert (paired.number, paired.seed, paired.byes, paired.finished_at) == (
        1,
        HOW.seed,
        ("c",),
        None,
    )
    rows = tournaments.tables(tournament_id, 1)
    assert [(r.table_id, r.position, r.entries, r.status) for r in rows] == [
        (table_ids[0], 0, ("a", "b", None), "open"),
        (table_ids[1], 1, ("a", "b", None), "open"),
    ]
    game = store.get_table(table_ids[0])
    assert [s.user_id for s in game.seats] == [anna.id, boris.id, None]
    assert (game.seed, game.public, game.host_id) == (HOW.seed, False, director.id)
    assert ClubStore(store).table_place(table_ids[0], None)[0] == club.id
    assert tournaments.tournament_of_table(table_ids[1]) == tournament_id
    assert tournaments.tournament_of_table("elsewhere") is None


def test_a_result_is_recorded_once_and_a_round_ended_once(store: Store) -> None:
    director, anna = people(store, "Director", "Anna")
    tournaments = TournamentStore(store)
    tournament_id = new_tournament(store, director.id)
    tournaments.set_state(tournament_id, "running", {"registering"})
    table = SeatedTable(("a", None, None), {0: anna.id}, ("random",) * 3)
    (table_id,) = tournaments.pair_round(tournament_id, 1, [], HOW, [table], time.time()) or []
    assert tournaments.record_result(table_id, {"deals": [1], "absent": []})
    assert not tournaments.record_result(table_id, {"deals": [2], "absent": []})
    (row,) = tournaments.tables(tournament_id)
    assert row.result == {"deals": [1], "absent": []}
    assert tournaments.end_round(tournament_id, 1, 5.0)
    assert not tournaments.end_round(tournament_id, 1, 6.0)
    assert tournaments.rounds(tournament_id)[0].finished_at == 5.0
    assert tournaments.withdraw(tournament_id, ["nobody"]) == 0
    assert tournaments.set_state(tournament_id, "finished", {"running"}, now=9.0)
    assert tournaments.get(tournament_id).finished_at == 9.0


def test_a_result_withdraws_who_did_not_show_with_it_once(store: Store) -> None:
    director, anna, boris = people(store, "Director", "Anna", "Boris")
    tournaments = TournamentStore(store)
    tournament_id = new_tournament(store, director.id)
    for person in (anna, boris):
        tournaments.register(tournament_id, user_id=person.id, bot=None, name="", now=time.time())
    tournaments.set_state(tournament_id, "running", {"registering"})
    a, b = (entry.entry_id for entry in tournaments.entries(tournament_id))
    table = SeatedTable((a, b, None), {0: anna.id, 1: boris.id}, ("random",) * 3)
    (table_id,) = tournaments.pair_round(tournament_id, 1, [], HOW, [table], time.time()) or []
    assert tournaments.record_result(table_id, {"deals": [], "absent": [1]})
    # A second recording (another worker's, say) changes nothing, whoever it names.
    assert not tournaments.record_result(table_id, {"deals": [], "absent": [0]})
    states = {e.entry_id: e.state for e in tournaments.entries(tournament_id)}
    assert states == {a: "registered", b: "withdrawn"}


def test_one_worker_holds_the_runners_lease(store: Store) -> None:
    tournaments = TournamentStore(store)
    assert tournaments.take_lease("one", 100.0, 5.0)
    assert not tournaments.take_lease("two", 101.0, 5.0)
    assert tournaments.take_lease("one", 102.0, 5.0)  # renewed
    assert tournaments.take_lease("two", 108.0, 5.0)  # expired: taken over


def test_a_deleted_account_leaves_the_tournaments_not_yet_finished(store: Store) -> None:
    """Unregistered from one still registering, withdrawn from a running one (its entry
    stays, under the name the account left), untouched in a finished one."""
    director, anna, boris = people(store, "Director", "Anna", "Boris")
    tournaments = TournamentStore(store)
    events = [new_tournament(store, director.id) for _ in range(3)]
    for event in events:
        for person in (anna, boris):
            tournaments.register(event, user_id=person.id, bot=None, name="", now=time.time())
    registering, running, finished = events
    assert tournaments.set_state(running, "running", {"registering"})
    assert tournaments.set_state(finished, "finished", {"registering"})
    Players(store).delete_account(anna.id)
    assert [e.user_id for e in tournaments.entries(registering)] == [boris.id]
    states = {e.name: e.state for e in tournaments.entries(running)}
    assert states == {"Anonymous": "withdrawn", "Boris": "registered"}
    assert {e.name: e.state for e in tournaments.entries(finished)} == {
        "Anonymous": "registered",
        "Boris": "registered",
    }


def _ten_up(
    ranks: Sequence[int], seats: Sequence[RatedSeat], before: Mapping[str, StoredRating]
) -> Mapping[str, StoredRating]:
    """A rated game's arithmetic for these tests: everyone's rating goes up by 10."""
    return {who: StoredRating(r.mu + 1, r.sigma, r.display + 10) for who, r in before.items()}


#: How these tests' rated games move ratings: up by 10 from 1500.
TEN_UP = TableRating(_ten_up, StoredRating(25.0, 8.0, 1500))


def _rated_end(seats: int) -> GameEnd:
    """A rated game's end: the first seat first, the others after it."""
    nothing = dict.fromkeys(ROUND_COUNTS, 0)
    figures = tuple(nothing | {"points": 10 - seat, "place": seat + 1} for seat in range(seats))
    return GameEnd(figures, "classic", TEN_UP, tuple(10 - seat for seat in range(seats)))


def _rated_round(store: Store, director: str, *players: str) -> tuple[str, list[str]]:
    """A running event whose first round seats each of ``players`` at a table of its
    own (the other seats bots); the event and its tables."""
    tournaments = TournamentStore(store, TEN_UP)
    tournament_id = new_tournament(store, director)
    tournaments.set_state(tournament_id, "running", {"registering"})
    tables = [
        SeatedTable((f"e{n}", None, None), {0: player}, ("random",) * 3)
        for n, player in enumerate(players)
    ]
    table_ids = tournaments.pair_round(tournament_id, 1, [], HOW, tables, time.time())
    return tournament_id, list(table_ids or [])


def _overall(store: Store, user_id: str) -> tuple[int, int, int] | None:
    """The person's overall rating as the leaderboard lists it (rating, games) and the
    points of their rating chart, ``None`` off the board."""
    board = Players(store).leaderboard(ALL_SCOPE, since=None, limit=10, viewer=None)
    line = next((line for line in board.lines if line.user_id == user_id), None)
    history = Players(store).profile(user_id, viewer=user_id).history
    return None if line is None else (line.display, line.games, len(history))


def test_a_game_of_a_round_being_played_counts_only_for_its_player(store: Store) -> None:
    """Every table of a round holds the same hands: until the round ends, Anna's game
    there counts in her profile's figures for her alone, and in nobody's ratings."""
    director, anna, other = people(store, "Director", "Anna", "Other")
    players, ends = Players(store), GameEnds(store)
    earlier = table_of(store, anna)
    store.start_table(earlier.id, ["Anna", "Bot 2", "Bot 3", "Bot 4"], 0)
    ends.finish(earlier.id, _rated_end(4))
    tournament_id, (table_id,) = _rated_round(store, director.id, anna.id)
    ends.finish(table_id, _rated_end(3))

    def seen_by(viewer: str | None) -> tuple[int, list[tuple[str, int, int]], int]:
        profile = players.profile(anna.id, viewer=viewer)
        ratings = [(line.scope, line.display, line.games) for line in profile.ratings]
        return profile.figures.games, ratings, len(profile.history)

    before = (1, [("all", 1510, 1), ("classic", 1510, 1)], 1)
    assert seen_by(other.id) == seen_by(None) == seen_by(director.id) == before
    assert seen_by(anna.id) == (2, *before[1:])
    assert TournamentStore(store, TEN_UP).end_round(tournament_id, 1, time.time())
    after = (2, [("all", 1520, 2), ("classic", 1520, 2)], 2)
    assert seen_by(other.id) == seen_by(anna.id) == after


def test_a_rated_game_of_a_round_being_played_moves_ratings_at_the_rounds_end_once(
    store: Store,
) -> None:
    """The leaderboard tells nothing of a round's games while it is played: their
    ratings move, in the order the games ended, in the transaction that ends it."""
    director, anna, boris = people(store, "Director", "Anna", "Boris")
    tournaments, ends = TournamentStore(store, TEN_UP), GameEnds(store)
    tournament_id, (first, second) = _rated_round(store, director.id, anna.id, boris.id)
    ends.finish(first, _rated_end(3))
    assert _overall(store, anna.id) is None
    ends.finish(second, _rated_end(3))
    assert _overall(store, boris.id) is None
    assert tournaments.end_round(tournament_id, 1, time.time())
    assert _overall(store, anna.id) == _overall(store, boris.id) == (1510, 1, 1)
    assert not tournaments.end_round(tournament_id, 1, time.time())
    assert tournaments.set_state(tournament_id, "finished", {"running"})
    assert _overall(store, anna.id) == (1510, 1, 1)  # rated once


def test_a_round_cut_short_by_the_director_moves_its_waiting_ratings(store: Store) -> None:
    """The director ends the event mid-round: the games that ended move their ratings
    then; one that ends later, of an event that hides nothing any more, at its end."""
    director, anna, boris = people(store, "Director", "Anna", "Boris")
    tournaments, ends = TournamentStore(store, TEN_UP), GameEnds(store)
    tournament_id, (first, second) = _rated_round(store, director.id, anna.id, boris.id)
    ends.finish(first, _rated_end(3))
    assert tournaments.set_state(tournament_id, "finished", {"running"})
    assert _overall(store, anna.id) == (1510, 1, 1)
    ends.finish(second, _rated_end(3))
    assert _overall(store, boris.id) == (1510, 1, 1)


def test_a_store_without_the_arithmetic_never_drops_waiting_ratings(store: Store) -> None:
    director, anna = people(store, "Director", "Anna")
    tournament_id, (table_id,) = _rated_round(store, director.id, anna.id)
    GameEnds(store).finish(table_id, _rated_end(3))
    with pytest.raises(AssertionError, match="rated games wait"):
        TournamentStore(store).end_round(tournament_id, 1, time.time())
    assert TournamentStore(store, TEN_UP).end_round(tournament_id, 1, time.time())
    assert _overall(store, anna.id) == (1510, 1, 1)


def test_a_game_ending_as_its_round_ends_is_rated_once_either_way(store: Store) -> None:
    """Anna's game ends on one worker while the runner on another ends its round (the
    round's end not yet committed): the game's end waits for it and, finding the round
    over, rates at once, instead of leaving a rating to wait for an end already past."""
    if store.engine.dialect.name != "postgresql":
        pytest.skip("SQLite has one writer at a time: nothing runs between a read and a write")
    director, anna = people(store, "Director", "Anna")
    tournament_id, (table_id,) = _rated_round(store, director.id, anna.id)
    ending = (TournamentRound.tournament_id == tournament_id) & (TournamentRound.number == 1)

    def end_the_round(session: Session) -> None:
        session.execute(update(TournamentRound).where(ending).values(finished_at=time.time()))

    assert answer_behind(
        store, end_the_round, lambda: GameEnds(store).finish(table_id, _rated_end(3))
    )
    assert _overall(store, anna.id) == (1510, 1, 1)
