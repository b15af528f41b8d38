"""``Moderation``: the role given and taken by user name, reports filed and resolved,
and what a person's actions mean at any moment: their latest mute or unmute, and their
latest ban or unban, decide, and a timed one ends by itself."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from store_helpers import people, table_of

from raspisnoy.store import (
    ChatRow,
    Moderation,
    NewAction,
    NewReport,
    NotFoundError,
    Players,
    Store,
    Together,
)

#: An action as the property test draws it: its kind and its length in minutes.
Drawn = tuple[str, int | None]
ACTIONS = st.one_of(
    st.tuples(st.sampled_from(["warn", "unmute", "unban"]), st.none()),
    st.tuples(st.just("mute"), st.integers(1, 600)),
    st.tuples(st.just("ban"), st.one_of(st.none(), st.integers(1, 600))),
)


def expected(actions: list[tuple[str, datetime | None]], at: datetime) -> tuple[bool, bool]:
    """Muted and banned at ``at``, walking the actions in order (the model)."""
    muted = banned = False
    for kind, until in actions:
        if kind in ("mute", "unmute"):
            muted = kind == "mute" and until is not None and until > at
        if kind in ("ban", "unban"):
            banned = kind == "ban" and (until is None or until > at)
    return muted, banned


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(drawn=st.lists(ACTIONS, max_size=6), later=st.integers(0, 700))
def test_the_latest_action_of_each_sort_decides(
    store: Store, drawn: list[Drawn], later: int
) -> None:
    moderation = Moderation(store)
    mod, person = people(store, "Mod", "Person")
    stored = []
    for kind, minutes in drawn:
        until = None if minutes is None else datetime.now(UTC) + timedelta(minutes=minutes)
        row = moderation.act(NewAction(mod.id, person.id, kind, until, "spam", None, None))
        stored.append((row.kind, row.until))
    at = datetime.now(UTC) + timedelta(minutes=later)
    standing = moderation.standing(person.id, at)
    assert (standing.muted_until is not None, standing.banned) == expected(stored, at)
    if standing.muted_until is not None:
        assert standing.muted_until > at
    assert [a.kind for a in moderation.actions(person.id, 10)] == [k for k, _ in reversed(stored)]


def test_the_role_is_given_by_user_name_and_taken_again(store: Store) -> None:
    moderation = Moderation(store)
    (guest,) = people(store, "Guest")
    user = Players(store).register("Мария", "hash")
    with pytest.raises(NotFoundError):
        moderation.grant("Nobody")
    assert moderation.grant("  мария ") == user  # one normalization of user names
    assert moderation.grant("Мария") == user  # again: nothing changes
    assert [(row.username, row.user.id) for row in moderation.moderators()] == [("Мария", user.id)]
    assert moderation.is_moderator(user.id) and not moderation.is_moderator(guest.id)
    Players(store).delete_account(user.id)
    assert not moderation.is_moderator(user.id)  # a deleted account moderates no more
    other = Players(store).register("Ivan", "hash")
    moderation.grant("Ivan")
    assert moderation.revoke("ivan") is True and moderation.revoke("Ivan") is False
    assert not moderation.is_moderator(other.id)


def test_a_report_is_resolved_by_an_action_and_its_chat_read_around_its_line(
    store: Store,
) -> None:
    moderation, together = Moderation(store), Together(store)
    reporter, reported, mod = people(store, "Reporter", "Reported", "Mod")
    table = table_of(store, reporter)
    at = datetime(2026, 12, 1, 12, tzinfo=UTC)
    for seq in range(1, 21):
        writer = reported if seq == 10 else reporter
        together.add_chat(ChatRow(table.id, seq, writer.id, "x", 0, f"line {seq}", None, 1, 0, at))
    report = moderation.add_report(
        NewReport(reporter.id, reported.id, "chat", table.id, 10, "abuse", "rude")
    )
    assert (report.status, report.reporter, report.reported) == ("open", reporter, reported)
    assert moderation.reports("open", 10) == [report]
    assert [row.seq for row in moderation.chat_around(table.id, 10, 3)] == list(range(7, 14))
    assert [row.seq for row in moderation.chat_around(table.id, None, 3)] == list(range(14, 21))
    assert moderation.chat_message(table.id, 10) is not None
    assert moderation.chat_message(table.id, 99) is None
    moderation.act(NewAction(mod.id, reported.id, "warn", None, "abuse", None, report.id))
    assert moderation.reports("open", 10) == []
    [resolved] = moderation.reports("resolved", 10)
    assert (resolved.status, resolved.resolved_by) == ("resolved", mod.id)
    with pytest.raises(NotFoundError):
        moderation.resolve("no-such-report", mod.id)


def test_notices_are_shown_once_and_only_to_their_person(store: Store) -> None:
    moderation = Moderation(store)
    mod, person, other = people(store, "Mod", "Person", "Other")
    first = moderation.act(NewAction(mod.id, person.id, "warn", None, "spam", "stop", None))
    second = moderation.act(NewAction(mod.id, person.id, "warn", None, "name", None, None))
    assert [n.id for n in moderation.notices(person.id)] == [first.id, second.id]
    assert moderation.seen(other.id, [first.id]) == 0
    assert moderation.seen(person.id, [first.id]) == 1
    assert moderation.seen(person.id, [first.id]) == 0
    assert [n.id for n in moderation.notices(person.id)] == [second.id]


def test_a_ban_ends_every_session_of_its_person(store: Store) -> None:
    moderation = Moderation(store)
    mod, person = people(store, "Mod", "Person")
    expires = datetime.now(UTC) + timedelta(days=1)
    store.create_session(person.id, "a" * 64, expires)
    store.create_session(mod.id, "b" * 64, expires)
    moderation.act(NewAction(mod.id, person.id, "ban", None, "cheating", None, None))
    assert store.user_of_session("a" * 64) is None
    assert store.user_of_session("b" * 64) == mod
