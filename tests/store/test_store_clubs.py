"""``ClubStore``: clubs with unique names whatever the case, members' places kept through
every change of state, the directory without private clubs, and club tables (a club
table's rematch is the club's too)."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update
from sqlalchemy.orm import Session
from store_helpers import answer_behind, in_club, people, table_of, until_blocked_by
from test_store_tournaments import new_tournament

from raspisnoy.store import (
    ClubChange,
    ClubNameTakenError,
    ClubSettings,
    ClubStore,
    DirectoryKey,
    NotAMemberError,
    NotFoundError,
    Players,
    StaleWriteError,
    Store,
    StoreError,
    Together,
    TournamentStore,
    UserRow,
    repository,
)
from raspisnoy.store.models import Club, ClubMember


def new_club(clubs: ClubStore, owner_id: str, name: str, *, private: bool = False) -> str:
    settings = ClubSettings(name, "по пятницам", "ru", {"preset": "raspisnoy.com"}, private)
    club = clubs.create(owner_id, settings)
    return club.id


def test_a_club_has_a_unique_name_and_its_owner(store: Store) -> None:
    owner, other = people(store, "Owner", "Other")
    clubs = ClubStore(store)
    club_id = new_club(clubs, owner.id, "Пятничный клуб")
    club, place = clubs.club_and_place(club_id, owner.id)
    assert place is not None and place.role == "owner"
    assert clubs.club_and_place(club_id, other.id)[1] is None
    assert clubs.club_and_place(club_id, None)[1] is None
    assert (club.name, club.owner_id, club.private) == ("Пятничный клуб", owner.id, False)
    assert clubs.by_invite(club.invite_code).id == club_id
    with pytest.raises(ClubNameTakenError):
        new_club(clubs, other.id, "пятничный КЛУБ")
    with pytest.raises(NotFoundError):
        clubs.club_and_place("nope", owner.id)
    with pytest.raises(NotFoundError):
        clubs.by_invite("nope")
    (place,) = clubs.members(club_id)
    assert (place.user_id, place.nickname, place.role, place.state) == (
        owner.id,
        "Owner",
        "owner",
        "member",
    )


def test_members_keep_their_place_through_every_state(store: Store) -> None:
    owner, anna = people(store, "Owner", "Anna")
    clubs = ClubStore(store)
    club_id = new_club(clubs, owner.id, "Club")
    assert clubs.member(club_id, anna.id) is None
    was: tuple[str, str] | None = None
    for role, state in [("member", "requested"), ("member", "member"), ("admin", "member")]:
        clubs.set_member(club_id, anna.id, role=role, state=state, was=was)
        found = clubs.member(club_id, anna.id)
        assert found is not None and (found.role, found.state) == (role, state)
        was = (role, state)
    clubs.set_member(club_id, anna.id, role="member", state="banned", was=was)
    assert [m.state for m in clubs.members(club_id)] == ["member", "banned"]


def test_a_place_changes_only_from_the_place_the_write_was_decided_on(store: Store) -> None:
    """A leave or a join decided on the place as it was read is refused once an admin's
    ban has been stored meanwhile (on another worker): the ban stays; so does a place made
    meanwhile by another request."""
    owner, anna, boris = people(store, "Owner", "Anna", "Boris")
    clubs = ClubStore(store)
    club_id = new_club(clubs, owner.id, "Club")
    clubs.set_member(club_id, anna.id, role="member", state="member", was=None)
    read = ("member", "member")  # what Anna's leave read
    clubs.set_member(club_id, anna.id, role="member", state="banned", was=read)  # the ban
    for state in ("left", "member"):
        with pytest.raises(StaleWriteError):
            clubs.set_member(club_id, anna.id, role="member", state=state, was=read)
    found = clubs.member(club_id, anna.id)
    assert found is not None and found.state == "banned"
    clubs.set_member(club_id, boris.id, role="member", state="requested", was=None)
    with pytest.raises(StaleWriteError):  # a join that read no place, after the request
        clubs.set_member(club_id, boris.id, role="member", state="member", was=None)
    joined = clubs.member(club_id, boris.id)
    assert joined is not None and joined.state == "requested"


def test_the_directory_lists_clubs_that_are_not_private(store: Store) -> None:
    owner, anna = people(store, "Owner", "Anna")
    clubs = ClubStore(store)
    small = new_club(clubs, owner.id, "Small")
    big = new_club(clubs, owner.id, "Big")
    new_club(clubs, owner.id, "Hidden", private=True)
    clubs.set_member(big, anna.id, role="member", state="member", was=None)
    assert [(club.id, count) for club, count in clubs.directory()] == [(big, 2), (small, 1)]
    assert [club.id for club, _ in clubs.directory("SMA")] == [small]
    assert [club.id for club, _ in clubs.directory("_")] == []  # no wildcard
    assert [club.id for club, _ in clubs.directory(limit=1)] == [big]
    assert [club.id for club, _ in clubs.directory(after=DirectoryKey(2, "big"))] == [small]
    assert [club.id for club, _ in clubs.directory(after=DirectoryKey(1, "small"))] == []


def test_club_tables(store: Store) -> None:
    owner, stranger = people(store, "Owner", "Stranger")
    clubs = ClubStore(store)
    club_id = new_club(clubs, owner.id, "Club")
    table = table_of(store, owner, public=False)
    other = table_of(store, owner)
    in_club(store, club_id, table.id)
    assert clubs.table_place(table.id, owner.id) == (club_id, "member")
    assert clubs.table_place(table.id, stranger.id) == (club_id, None)
    assert clubs.table_place(table.id, None) == (club_id, None)
    assert clubs.table_place(other.id, owner.id) == (None, None)
    clubs.set_member(club_id, stranger.id, role="member", state="banned", was=None)
    assert clubs.table_place(table.id, stranger.id) == (club_id, "banned")
    members, tables, results = clubs.page(club_id)
    assert [m.user_id for m in members] == [owner.id, stranger.id]
    assert [row.table_id for row in tables] == [table.id] and results == []


def test_a_club_table_is_the_clubs_from_the_transaction_that_makes_it(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table opened in a club is the club's in the same transaction: a worker killed
    in between cannot leave a private table outside its club (anyone with its link could
    reach it, and its club's page would not list it); if its club cannot be written,
    there is no table (the membership check, which would refuse it first, let past)."""
    monkeypatch.setattr(repository, "require_club_member", lambda *_: None)
    (owner,) = people(store, "Owner")
    clubs = ClubStore(store)
    club_id = new_club(clubs, owner.id, "Club")
    made = table_of(store, owner, public=False, club_id=club_id)
    assert clubs.table_place(made.id, owner.id) == (club_id, "member")
    before = store.list_tables(status="open")
    with pytest.raises(StoreError):
        table_of(store, owner, public=False, club_id="no-such-club")
    assert store.list_tables(status="open") == before


def test_the_rematch_of_a_club_table_is_the_clubs(store: Store) -> None:
    owner, stranger = people(store, "Owner", "Stranger")
    clubs, together = ClubStore(store), Together(store)
    club_id = new_club(clubs, owner.id, "Club")
    table = table_of(store, owner, public=False)
    in_club(store, club_id, table.id)
    rematch = together.open_rematch(table, {0: owner.id}, owner.id, 1, "seed")
    assert clubs.table_place(rematch.id, stranger.id) == (club_id, None)
    assert clubs.table_place(rematch.id, owner.id) == (club_id, "member")
    elsewhere = together.open_rematch(table_of(store, owner), {0: owner.id}, owner.id, 1, "seed")
    assert clubs.table_place(elsewhere.id, owner.id) == (None, None)


def test_a_mute_holds_at_the_club_tables_until_it_ends(store: Store) -> None:
    owner, anna = people(store, "Owner", "Anna")
    clubs = ClubStore(store)
    club_id = new_club(clubs, owner.id, "Club")
    other_club = new_club(clubs, anna.id, "Other")
    clubs.set_member(club_id, anna.id, role="member", state="member", was=None)
    table, elsewhere, plain = (table_of(store, owner, public=False) for _ in range(3))
    in_club(store, club_id, table.id)
    in_club(store, other_club, elsewhere.id)
    assert clubs.table_mute(table.id, anna.id) is None
    until = datetime.now(UTC) + timedelta(hours=1)
    clubs.mute(club_id, anna.id, until)
    assert clubs.table_mute(table.id, anna.id) == until
    assert clubs.table_mute(table.id, owner.id) is None
    assert clubs.table_mute(elsewhere.id, anna.id) is None  # her own club did not mute her
    assert clubs.table_mute(plain.id, anna.id) is None
    assert clubs.table_mute(table.id, anna.id, now=until) is None  # over at its end
    assert [m.muted_until for m in clubs.members(club_id)] == [None, until]
    clubs.mute(club_id, anna.id, None)
    assert clubs.table_mute(table.id, anna.id) is None
    assert clubs.member(club_id, anna.id) == clubs.members(club_id)[1]
    clubs.mute(club_id, anna.id, datetime.now(UTC) - timedelta(seconds=1))
    assert clubs.members(club_id)[1].muted_until is None  # a past mute is shown as none
    with pytest.raises(NotFoundError):
        clubs.mute(club_id, "nobody", until)


def test_a_name_whose_folding_is_longer_is_kept_and_compared(store: Store) -> None:
    """Folding can make three characters of one (``ß`` two): a 64-character name's key
    is kept whole, on PostgreSQL too, and another spelling of it is the same name."""
    owner, other = people(store, "Owner", "Other")
    clubs = ClubStore(store)
    new_club(clubs, owner.id, "ß" * 64)
    with pytest.raises(ClubNameTakenError):
        new_club(clubs, other.id, "ẞ" * 64)  # the capital sharp s folds alike
    assert Players(store).register("ﬃ" * 24, "h").nickname == "ﬃ" * 24
    assert Players(store).credentials("ﬃ" * 24) is not None


def test_a_private_clubs_name_claims_nothing(store: Store) -> None:
    """Another club may take it (a refusal would tell that the private club exists);
    made public, the club needs a name no public club has."""
    owner, other = people(store, "Owner", "Other")
    clubs = ClubStore(store)
    secret = new_club(clubs, owner.id, "Тайный клуб", private=True)
    twin = new_club(clubs, other.id, "тайный КЛУБ", private=True)
    public = new_club(clubs, other.id, "ТАЙНЫЙ клуб")
    with pytest.raises(ClubNameTakenError):
        new_club(clubs, owner.id, "Тайный клуб")  # a public club has it now
    shown = ClubChange(private=False)
    with pytest.raises(ClubNameTakenError):
        clubs.update(secret, shown)
    assert clubs.club_and_place(secret, None)[0].private  # nothing changed
    clubs.update(public, ClubChange(name="Явный клуб"))
    assert clubs.update(secret, shown).private is False  # the name is free: it is its own
    with pytest.raises(ClubNameTakenError) as taken:
        clubs.update(twin, shown)
    assert taken.value.name == "тайный КЛУБ"
    assert [club.id for club, _ in clubs.directory()] == [secret, public]  # by name


def test_a_club_changes_its_settings_but_not_into_another_name(store: Store) -> None:
    owner = people(store, "Owner")[0]
    clubs = ClubStore(store)
    club_id = new_club(clubs, owner.id, "Club")
    new_club(clubs, owner.id, "Other")
    changed = ClubChange("CLUB", "вторники", "uk", {"preset": "classic"}, True)
    assert clubs.update(club_id, changed).name == "CLUB"  # its own name, in another case
    club, _ = clubs.club_and_place(club_id, owner.id)
    assert (club.name, club.description, club.language, club.rules, club.private) == (
        "CLUB",
        "вторники",
        "uk",
        {"preset": "classic"},
        True,
    )
    with pytest.raises(ClubNameTakenError):
        clubs.update(club_id, ClubChange(name="oTHER", private=False))
    assert clubs.club_and_place(club_id, None)[0] == club  # nothing changed
    with pytest.raises(NotFoundError):
        clubs.update("nope", ClubChange(name="Nowhere"))


def test_a_deleted_account_leaves_its_clubs_and_its_clubs_pass_on(store: Store) -> None:
    """The owner's clubs pass to the longest-standing admin, else member; its other
    places end (a ban stays); a club left empty is closed: private, its link dead, its
    name free for a new club."""
    olga, anna, boris, vera = people(store, "Olga", "Anna", "Boris", "Vera")
    clubs = ClubStore(store)
    with_admin, members_only, alone = (new_club(clubs, olga.id, n) for n in "ABC")
    invite = clubs.club_and_place(alone, None)[0].invite_code
    clubs.set_member(with_admin, anna.id, role="member", state="member", was=None)
    clubs.set_member(
        with_admin, boris.id, role="admin", state="member", was=None
    )  # later, but admin
    clubs.set_member(members_only, vera.id, role="member", state="member", was=None)
    clubs.set_member(members_only, anna.id, role="member", state="member", was=None)
    annas, veras, barred = (
        new_club(clubs, owner.id, n) for owner, n in ((anna, "D"), (vera, "E"), (vera, "F"))
    )
    clubs.set_member(annas, olga.id, role="admin", state="member", was=None)
    clubs.set_member(veras, olga.id, role="member", state="requested", was=None)
    clubs.set_member(barred, olga.id, role="member", state="banned", was=None)
    Players(store).delete_account(olga.id)
    for club_id, heir in ((with_admin, boris), (members_only, vera)):
        club, place = clubs.club_and_place(club_id, heir.id)
        assert club.owner_id == heir.id and place is not None and place.role == "owner"
    states = {
        club_id: (place.role, place.state)
        for club_id in (with_admin, members_only, alone, annas, veras, barred)
        if (place := clubs.member(club_id, olga.id)) is not None
    }
    assert set(states.values()) == {("member", "left"), ("member", "banned")}
    assert states[barred] == ("member", "banned")
    closed = clubs.club_and_place(alone, None)[0]  # nobody to pass it to: closed
    assert (closed.owner_id, closed.name, closed.private) == (olga.id, "C", True)
    with pytest.raises(NotFoundError):
        clubs.by_invite(invite)
    reopened = new_club(clubs, anna.id, "c")  # its name is free again, whatever the case
    with pytest.raises(ClubNameTakenError):
        new_club(clubs, vera.id, "C")
    listed = {club.id: count for club, count in clubs.directory()}
    assert alone not in listed and listed[with_admin] == 2 and listed[members_only] == 2
    assert listed[reopened] == 1


def test_a_place_that_ends_leaves_the_clubs_tables_and_tournaments(store: Store) -> None:
    """A member who leaves (or is removed, or banned) is taken out of the club's tables
    not started (a table they hosted passes on) and out of its tournaments not finished,
    in the write that ends the place: a seat or an entry kept would go on showing them
    the club's table and who sits at it. A game started, another club's table or one
    outside any club, and a tournament outside the club keep them."""
    owner, anna, boris = people(store, "Owner", "Anna", "Boris")
    clubs = ClubStore(store)
    club_id, other_club = new_club(clubs, owner.id, "Club"), new_club(clubs, owner.id, "Other")
    for club in (club_id, other_club):
        for person in (anna, boris):
            clubs.set_member(club, person.id, role="member", state="member", was=None)
    hosted = table_of(store, anna, club_id=club_id)
    store.set_seat(hosted.id, 1, boris.id)
    kept = {
        "started": table_of(store, owner, club_id=club_id),
        "other club": table_of(store, owner, club_id=other_club),
        "no club": table_of(store, owner),
    }
    seated = table_of(store, owner, club_id=club_id)
    for table in (seated, *kept.values()):
        store.set_seat(table.id, 2, anna.id)
    store.start_table(kept["started"].id, ["Owner", "Bot", "Anna", "Bot 4"], 0)
    tournaments = TournamentStore(store)
    registering, running = (new_tournament(store, owner.id, club_id=club_id) for _ in "ab")
    public = new_tournament(store, owner.id)
    for event in (registering, running, public):
        tournaments.register(event, user_id=anna.id, bot=None, name="", now=time.time())
    assert tournaments.set_state(running, "running", {"registering"})
    clubs.set_member(club_id, anna.id, role="member", state="left", was=("member", "member"))
    after = store.get_table(hosted.id)
    assert [s.user_id for s in after.seats][:2] == [None, boris.id] and after.host_id == boris.id
    assert anna.id not in {s.user_id for s in store.get_table(seated.id).seats}
    for name, table in kept.items():
        assert store.get_table(table.id).seats[2].user_id == anna.id, name
    assert tournaments.entries(registering) == []
    assert [e.state for e in tournaments.entries(running)] == ["withdrawn"]
    assert [e.state for e in tournaments.entries(public)] == ["registered"]


@pytest.mark.parametrize("state", ["banned", "left"])
def test_an_admins_place_that_ends_leaves_the_clubs_tables(store: Store, state: str) -> None:
    """A member named admin keeps their seat (their place goes on); an admin who leaves or
    is banned loses it."""
    owner, anna = people(store, "Owner", "Anna")
    clubs = ClubStore(store)
    club_id = new_club(clubs, owner.id, "Club")
    clubs.set_member(club_id, anna.id, role="member", state="member", was=None)
    table = table_of(store, owner, club_id=club_id)
    store.set_seat(table.id, 1, anna.id)
    clubs.set_member(club_id, anna.id, role="admin", state="member", was=("member", "member"))
    assert store.get_table(table.id).seats[1].user_id == anna.id
    clubs.set_member(club_id, anna.id, role="admin", state=state, was=("admin", "member"))
    assert store.get_table(table.id).seats[1].user_id is None


def test_a_change_keeps_what_another_change_stored_meanwhile(store: Store) -> None:
    """An admin's new description, decided while the club was public, is stored after the
    owner made it private: the club stays private (only what a change names is written,
    over the club as stored then, its row held: ``ClubStore.update``)."""
    (owner,) = people(store, "Owner")
    clubs = ClubStore(store)
    club_id = new_club(clubs, owner.id, "Club")
    description = ClubChange(description="по средам")  # decided on the public club
    if store.engine.dialect.name == "postgresql":

        def making_private(session: Session) -> None:
            session.execute(select(Club).where(Club.id == club_id).with_for_update())
            session.execute(update(Club).where(Club.id == club_id).values(private=True))

        answer_behind(store, making_private, lambda: clubs.update(club_id, description))
    else:
        clubs.update(club_id, ClubChange(private=True))
        clubs.update(club_id, description)
    club, _ = clubs.club_and_place(club_id, None)
    assert (club.private, club.description) == (True, "по средам")
    assert club_id not in [found.id for found, _ in clubs.directory()]


def test_only_a_member_opens_or_takes_a_seat_at_a_club_table(store: Store) -> None:
    """The store holds the line the clubs service draws: someone who is not a member now
    (never was, left) neither opens a club table nor sits at one."""
    owner, anna, stranger = people(store, "Owner", "Anna", "Stranger")
    clubs = ClubStore(store)
    club_id = new_club(clubs, owner.id, "Club")
    clubs.set_member(club_id, anna.id, role="member", state="member", was=None)
    table = table_of(store, owner, club_id=club_id)
    with pytest.raises(NotAMemberError):
        table_of(store, stranger, club_id=club_id)
    with pytest.raises(NotAMemberError):
        store.set_seat(table.id, 1, stranger.id)
    store.set_seat(table.id, 1, anna.id)
    clubs.set_member(club_id, anna.id, role="member", state="left", was=("member", "member"))
    with pytest.raises(NotAMemberError):
        store.set_seat(table.id, 2, anna.id)
    assert {seat.user_id for seat in store.get_table(table.id).seats} == {owner.id, None}


def anna_in_a_club_on_postgresql(store: Store) -> tuple[ClubStore, str, UserRow]:
    """A club of an owner where Anna is a member, for a race of two transactions (on
    PostgreSQL only: SQLite has one writer at a time)."""
    if store.engine.dialect.name != "postgresql":
        pytest.skip("SQLite has one writer at a time: nothing runs between a read and a write")
    owner, anna = people(store, "Owner", "Anna")
    clubs = ClubStore(store)
    club_id = new_club(clubs, owner.id, "Club")
    clubs.set_member(club_id, anna.id, role="member", state="member", was=None)
    return clubs, club_id, anna


def test_a_club_table_opened_as_its_opener_is_removed_is_refused(store: Store) -> None:
    """Anna's new club table was on its way when an admin removed her (the removal's
    transaction not yet committed): the table waits for it, then is refused, so no table
    is left hosted by someone who can no longer reach it."""
    clubs, club_id, anna = anna_in_a_club_on_postgresql(store)

    def removing(session: Session) -> None:
        place = ClubMember.club_id == club_id, ClubMember.user_id == anna.id
        session.execute(update(ClubMember).where(*place).values(state="left"))

    def opening() -> str:
        try:
            table_of(store, anna, club_id=club_id)
        except NotAMemberError:
            return "refused"
        return "opened"

    assert answer_behind(store, removing, opening) == "refused"
    _, tables, _ = clubs.page(club_id)
    assert tables == []


def test_only_a_member_enters_a_club_tournament(store: Store) -> None:
    """The store holds the line here too: one who left the club (or never joined) is not
    entered in its tournament, whatever the request read before; a bot is."""
    owner, anna, stranger = people(store, "Owner", "Anna", "Stranger")
    clubs = ClubStore(store)
    club_id = new_club(clubs, owner.id, "Club")
    clubs.set_member(club_id, anna.id, role="member", state="member", was=None)
    event = new_tournament(store, owner.id, club_id=club_id)
    clubs.set_member(club_id, anna.id, role="member", state="left", was=("member", "member"))
    tournaments = TournamentStore(store)
    for person in (anna, stranger):
        with pytest.raises(NotAMemberError):
            tournaments.register(event, user_id=person.id, bot=None, name="", now=time.time())
    tournaments.register(event, user_id=None, bot="random", name="Бот", now=time.time())
    assert [entry.name for entry in tournaments.entries(event)] == ["Бот"]


def test_an_admin_made_a_member_meanwhile_acts_no_more(store: Store) -> None:
    """Boris's ban of Anna was decided while he was an admin; the owner made him a member
    before it was stored: the ban is refused, and Anna stays."""
    owner, anna, boris = people(store, "Owner", "Anna", "Boris")
    clubs = ClubStore(store)
    club_id = new_club(clubs, owner.id, "Club")
    clubs.set_member(club_id, anna.id, role="member", state="member", was=None)
    clubs.set_member(club_id, boris.id, role="admin", state="member", was=None)
    as_read = (boris.id, ("admin", "member"))
    clubs.set_member(club_id, boris.id, role="member", state="member", was=("admin", "member"))
    with pytest.raises(StaleWriteError):
        clubs.set_member(
            club_id, anna.id, role="member", state="banned", was=("member", "member"), by=as_read
        )
    found = clubs.member(club_id, anna.id)
    assert found is not None and found.state == "member"
    owner_acts = (owner.id, ("owner", "member"))
    clubs.set_member(
        club_id, anna.id, role="member", state="banned", was=("member", "member"), by=owner_acts
    )
    banned = clubs.member(club_id, anna.id)
    assert banned is not None and banned.state == "banned"


def test_a_start_and_a_ban_of_its_host_at_the_same_moment_both_go_through(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Anna starts her club table while an admin bans her: the start holds the table's
    row, then its seats; the ban's freeing of her seats takes the tables' rows first too,
    so it waits for the start instead of holding a seat the start waits for (a deadlock,
    before). The game is started; she keeps its seat, as a player of a started game."""
    clubs, club_id, anna = anna_in_a_club_on_postgresql(store)
    table = table_of(store, anna, club_id=club_id)
    fence = store.claim_table(table.id)
    checked = repository._refuse_reseated
    outcome: dict[str, str] = {}

    def banning() -> None:
        try:
            was = ("member", "member")
            clubs.set_member(club_id, anna.id, role="member", state="banned", was=was)
            outcome["ban"] = "stored"
        except StoreError as error:
            outcome["ban"] = str(error)

    def ban_meanwhile(session: Session, table_id: str, seated: Sequence[str | None]) -> None:
        ban = threading.Thread(target=banning)
        ban.start()
        until_blocked_by(session.connection(), store, ban)
        checked(session, table_id, seated)
        outcome["thread"] = "waited"
        threads.append(ban)

    threads: list[threading.Thread] = []
    monkeypatch.setattr(repository, "_refuse_reseated", ban_meanwhile)
    seated = (anna.id, None, None, None)
    store.start_table(table.id, ["Anna", "b", "c", "d"], 0, fence=fence, seated=seated)
    threads[0].join(20)
    assert outcome == {"thread": "waited", "ban": "stored"}
    started = store.get_table(table.id)
    assert started.status == "playing" and started.seats[0].user_id == anna.id


def test_a_membership_checked_for_a_write_holds_the_place_until_the_write_ends(
    store: Store,
) -> None:
    """On either backend (on SQLite, whose ``FOR UPDATE`` is nothing, by its write lock:
    ``hold_rows``): while a write checked Anna's membership and has not ended, her
    removal waits for it, and is stored once it ends."""
    owner, anna = people(store, "Owner", "Anna")
    clubs = ClubStore(store)
    club_id = new_club(clubs, owner.id, "Club")
    clubs.set_member(club_id, anna.id, role="member", state="member", was=None)

    def removing() -> None:
        clubs.set_member(club_id, anna.id, role="member", state="left", was=("member", "member"))

    removal = threading.Thread(target=removing)
    with Session(store.engine) as session, session.begin():
        repository.require_club_member(session, club_id, anna.id)
        removal.start()
        removal.join(0.5)
        assert removal.is_alive(), "the removal did not wait for the write"
        found = clubs.member(club_id, anna.id)
        assert found is not None and found.state == "member"
    removal.join(20)
    left = clubs.member(club_id, anna.id)
    assert left is not None and left.state == "left"
