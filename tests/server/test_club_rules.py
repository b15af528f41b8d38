"""Club permissions as a state machine (Hypothesis): three people join, ask, leave, act on
one another and mute one another in random order, and after every step each one's page
says exactly what the rules of docs/clubs.md say — who is in, who asked, who is banned,
who is an admin, who is muted (to the admins only) — and every refused act was refused
with the rule's code and changed nothing."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test
from server_helpers import Api, Server
from test_clubs import account, new_club, page

PEOPLE = 3  # the owner is person 0: few people, so acts meet one another often
ACTS = ["accept", "decline", "admin", "unadmin", "remove", "ban", "unban"]
#: The state an act needs its target in (None: any), and the role and state it leaves.
EFFECT = {
    "accept": ("requested", ("member", "member")),
    "decline": ("requested", ("member", "left")),
    "admin": ("member", ("admin", "member")),
    "unadmin": ("member", ("member", "member")),
    "remove": ("member", ("member", "left")),
    "ban": (None, ("member", "banned")),
    "unban": ("banned", ("member", "left")),
}


@dataclass
class Model:
    """What the rules say each person's place is: (role, state), or absent."""

    places: dict[int, tuple[str, str]] = field(default_factory=lambda: {0: ("owner", "member")})
    #: Who is muted in the chat of the club's tables (a mute outlives leaving and bans).
    muted: set[int] = field(default_factory=set)

    def state(self, person: int) -> str:
        return self.places[person][1] if person in self.places else "none"

    def join(self, person: int) -> tuple[int, str | None]:
        if self.state(person) == "banned":
            return 403, "club_banned"
        if self.state(person) != "member":
            self.places[person] = ("member", "member")
        return 200, None

    def ask(self, person: int) -> tuple[int, str | None]:
        if self.state(person) == "banned":
            return 403, "club_banned"
        if self.state(person) in {"none", "left"}:
            self.places[person] = ("member", "requested")
        return 200, None

    def leave(self, person: int) -> tuple[int, str | None]:
        if person == 0:
            return 409, "club_owner_stays"
        if self.state(person) in {"member", "requested"}:
            self.places[person] = ("member", "left")
        return 200, None

    def refused(self, actor: int, target: int, owners_only: bool) -> tuple[int, str] | None:
        """Why ``actor`` may not act on ``target``'s place, if they may not."""
        role, state = self.places.get(actor, ("", "none"))
        if state != "member" or role not in {"owner", "admin"}:
            return 403, "club_admins_only"
        if target not in self.places:
            return 404, "not_found"
        if target == 0:
            return 409, "club_owner_stays"
        if (owners_only or self.places[target][0] == "admin") and actor != 0:
            return 403, "club_owner_only"
        return None

    def mute(self, actor: int, target: int, on: bool) -> tuple[int, str | None]:
        refused = self.refused(actor, target, owners_only=False)
        if refused is not None:
            return refused
        if on and self.places[target][1] != "member":
            return 409, "conflict"
        (self.muted.add if on else self.muted.discard)(target)
        return 200, None

    def act(self, actor: int, target: int, what: str) -> tuple[int, str | None]:
        refused = self.refused(actor, target, owners_only=what in {"admin", "unadmin"})
        if refused is not None:
            return refused
        needed, result = EFFECT[what]
        if needed is not None and self.places[target][1] != needed:
            return 409, "conflict"
        self.places[target] = result
        return 200, None


class ClubRules(RuleBasedStateMachine):
    def __init__(self, people: list[Api]) -> None:
        super().__init__()
        self.people = people
        self.club = new_club(people[0])
        self.model = Model()

    def _call(
        self, person: int, path: str, expected: tuple[int, str | None], method: str = "POST"
    ) -> None:
        body = {"minutes": 60} if method == "POST" and path.endswith("/mute") else {}
        answer = self.people[person].http.request(method, f"/api/clubs{path}", json=body)
        code = answer.json().get("code") if answer.status_code != 200 else None
        assert (answer.status_code, code) == expected, (path, answer.text)

    @rule(person=st.integers(1, PEOPLE - 1))
    def join(self, person: int) -> None:
        self._call(person, f"/join/{self.club['invite']}", self.model.join(person))

    @rule(person=st.integers(1, PEOPLE - 1))
    def ask(self, person: int) -> None:
        self._call(person, f"/{self.club['id']}/request", self.model.ask(person))

    @rule(person=st.integers(0, PEOPLE - 1))
    def leave(self, person: int) -> None:
        self._call(person, f"/{self.club['id']}/leave", self.model.leave(person))

    @rule(
        actor=st.integers(0, PEOPLE - 1),
        other=st.integers(0, PEOPLE - 1),
        what=st.sampled_from(ACTS),
    )
    def act(self, actor: int, other: int, what: str) -> None:
        other_id = self.people[other].user["id"]
        path = f"/{self.club['id']}/members/{other_id}/{what}"
        self._call(actor, path, self.model.act(actor, other, what))

    @rule(actor=st.integers(0, PEOPLE - 1), other=st.integers(0, PEOPLE - 1), on=st.booleans())
    def mute(self, actor: int, other: int, on: bool) -> None:
        path = f"/{self.club['id']}/members/{self.people[other].user['id']}/mute"
        expected = self.model.mute(actor, other, on)
        self._call(actor, path, expected, "POST" if on else "DELETE")

    @rule(other=st.integers(1, PEOPLE - 1), what=st.sampled_from(ACTS))
    def owner_acts(self, other: int, what: str) -> None:
        """The owner acts far more often than chance would have them: bans, admins and
        requests need someone with the right to make them."""
        self.act(0, other, what)

    @rule(other=st.integers(1, PEOPLE - 1))
    def owner_bans(self, other: int) -> None:
        """A ban, often enough that the banned try to come back within a run."""
        self.act(0, other, "ban")

    @invariant()
    def pages_say_what_the_rules_say(self) -> None:
        owner = page(self.people[0], self.club["id"]).json()
        assert {r["user_id"] for r in owner["requests"]} == self._ids("requested")
        assert {b["user_id"] for b in owner["banned"]} == self._ids("banned")
        roles = {m["user_id"]: m["role"] for m in owner["members"]}
        expected = {
            self.people[p].user["id"]: role
            for p, (role, state) in self.model.places.items()
            if state == "member"
        }
        assert roles == expected
        assert owner["member_count"] == len(expected)
        muted = {self.people[p].user["id"] for p in self.model.muted} & set(expected)
        assert {m["user_id"] for m in owner["muted"]} == muted
        for person in range(1, PEOPLE):
            seen = page(self.people[person], self.club["id"]).json()
            assert seen["state"] == self.model.state(person)
            admin = self.model.places.get(person, ("", ""))[0] == "admin"
            assert (seen["invite"] is not None) == (admin and seen["state"] == "member")
            assert (seen["muted"] is not None) == (seen["invite"] is not None)

    def _ids(self, state: str) -> set[str]:
        return {self.people[p].user["id"] for p, (_, s) in self.model.places.items() if s == state}


@pytest.fixture(scope="module")
def people(server: Server) -> list[Api]:
    """The accounts, made once: each example runs on a club of its own."""
    return [account(server, f"p{index}_") for index in range(PEOPLE)]


def test_club_permissions_follow_the_rules(people: list[Api]) -> None:
    class OnTheseAccounts(ClubRules):
        def __init__(self) -> None:
            super().__init__(people)

    run_state_machine_as_test(
        OnTheseAccounts,
        settings=settings(max_examples=30, stateful_step_count=20, deadline=None),
    )
