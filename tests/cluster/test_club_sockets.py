"""A person's place in a club ends on one worker (2 workers on PostgreSQL and Redis, each
reached straight at its own port): their socket to the club's table, held by the other
worker, is closed at once with 4404 (docs/clubs.md, "Club tables")."""

from __future__ import annotations

import secrets

from test_workers import PASSWORD, Person, Running, close_code
from test_workers import running as running


def account(base: str, name: str) -> tuple[Person, str]:
    """A new account's session at ``base``, and its user id."""
    guest = Person.guest(base, name)
    username = f"{name}{secrets.token_hex(4)}"
    answer = guest.http.post("/api/account", json={"username": username, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    return Person(base, answer.json()["token"]), answer.json()["user"]["id"]


def test_a_ban_on_one_worker_closes_the_club_table_socket_on_the_other(
    running: Running,
) -> None:
    first, second = running.cluster.worker_urls
    owner, _ = account(first, "owner")
    member, member_id = account(first, "member")
    club = owner.http.post("/api/clubs", json={"name": f"Клуб {secrets.token_hex(4)}"}).json()
    assert member.http.post(f"/api/clubs/join/{club['invite']}").status_code == 200
    table = owner.http.post(f"/api/clubs/{club['id']}/tables", json={"players": 3}).json()
    watching = member.at(second).socket(table["id"])  # the second worker holds the table now
    banned = owner.http.post(f"/api/clubs/{club['id']}/members/{member_id}/ban")
    assert banned.status_code == 200, banned.text
    assert close_code(watching) == 4404
