"""Password checks (issue 27, defects 2, 4 and 7): hashes and checks run on their own
bounded pool, never the default executor the store uses; every route that checks a
password is limited per address and per account; a user name is counted, looked up and
registered under one normalization, so no respelling escapes the log-in limit; an
unknown user name is checked against a dummy hash."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from argon2 import PasswordHasher
from server_helpers import FAST, Api, Server, at_most
from test_accounts import PASSWORD, log_in, register
from test_limits import assert_too_many

from raspisnoy.server.config import ServerSettings
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.services.passwords import THREAD_PREFIX, Passwords
from raspisnoy.server.services.threads import in_thread

Start = Callable[[ServerSettings], Server]


@pytest.fixture
def hasher_threads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The names of the threads every argon2 hash and check ran on, in order."""
    threads: list[str] = []
    hash_, verify = PasswordHasher.hash, PasswordHasher.verify

    def recorded_hash(self: PasswordHasher, password: str | bytes, **kwargs: object) -> str:
        threads.append(threading.current_thread().name)
        return hash_(self, password)

    def recorded_verify(self: PasswordHasher, hashed: str | bytes, password: str | bytes) -> bool:
        threads.append(threading.current_thread().name)
        return verify(self, hashed, password)

    monkeypatch.setattr(PasswordHasher, "hash", recorded_hash)
    monkeypatch.setattr(PasswordHasher, "verify", recorded_verify)
    yield threads


def test_password_work_never_runs_in_the_default_executor(
    server: Server, hasher_threads: list[str]
) -> None:
    client = register(server, "Pooled")
    assert log_in(server, "Pooled").status_code == 200
    assert log_in(server, "No such pooled").status_code == 401
    changed = client.http.put(
        "/api/account/password", json={"password": PASSWORD, "new_password": "pooled again"}
    )
    assert changed.status_code == 200
    assert client.http.request(
        "DELETE", "/api/account", json={"password": "pooled again"}
    ).is_success
    # register, log-in, the unknown name's check, the check and hash of the change, the
    # deletion's check
    assert len(hasher_threads) >= 6
    assert all(name.startswith(THREAD_PREFIX) for name in hasher_threads), hasher_threads


def test_an_unknown_user_name_is_checked_against_a_dummy(
    server: Server, hasher_threads: list[str]
) -> None:
    log_in(server, "Nobody at all")  # the dummy hash is made on first need
    hasher_threads.clear()
    answer = log_in(server, "Nobody at all again")
    assert answer.status_code == 401 and answer.json()["detail"] == "wrong user name or password"
    assert len(hasher_threads) == 1  # one check, as for a name that exists


def test_a_full_pool_refuses_and_never_holds_up_a_store_call() -> None:
    """Two checks fill a pool of one thread and one place; a third is refused at once;
    a store call on a default executor of one thread runs while they are stuck."""

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        loop.set_default_executor(ThreadPoolExecutor(max_workers=1))
        release, started = threading.Event(), threading.Event()
        passwords = Passwords(workers=1, waiting=1)

        def stuck_verify(hashed: str, password: str) -> bool:
            started.set()
            release.wait()
            return True

        passwords._verify = stuck_verify  # type: ignore[method-assign]
        checks = [asyncio.create_task(passwords.check("hash", "pw")) for _ in range(2)]
        await in_thread(started.wait)
        with pytest.raises(RequestError) as refused:
            await passwords.check("hash", "pw")
        assert refused.value.code is Refusal.BUSY and refused.value.retry_after == 1
        # Before the fix the checks ran in the default executor: this call waited behind
        # them forever (the guard below only turns that into a failure).
        stored = await asyncio.wait_for(in_thread(lambda: "stored"), 60)
        assert stored == "stored" and not any(check.done() for check in checks)
        release.set()
        assert await asyncio.gather(*checks) == [True, True]
        passwords.close()

    asyncio.run(scenario())


def test_changing_or_deleting_is_limited_per_account(start_server: Start) -> None:
    strict = start_server(FAST.model_copy(update={"password_checks_per_account": at_most(3)}))
    client = register(strict, "Checked")
    wrong = {"password": "not it at all", "new_password": "whatever new"}
    for _ in range(2):
        assert client.http.put("/api/account/password", json=wrong).status_code == 403
    deleting = client.http.request("DELETE", "/api/account", json={"password": "not it either"})
    assert deleting.status_code == 403
    right = {"password": PASSWORD, "new_password": "whatever new"}
    assert_too_many(
        client.http.put("/api/account/password", json=right), "password checks of this account"
    )
    other = register(strict, "Unchecked")  # another account has its own count
    assert other.http.put("/api/account/password", json=wrong).status_code == 403


def test_password_checks_are_limited_per_address(start_server: Start) -> None:
    strict = start_server(FAST.model_copy(update={"password_checks_per_address": at_most(2)}))
    wrong = {"password": "not it at all", "new_password": "whatever new"}
    for name in ("First checker", "Second checker"):
        client = register(strict, name)
        assert client.http.put("/api/account/password", json=wrong).status_code == 403
    third = register(strict, "Third checker")
    assert_too_many(
        third.http.put("/api/account/password", json=wrong), "password checks from this address"
    )


def test_respellings_of_a_user_name_do_not_escape_the_log_in_limit(start_server: Start) -> None:
    strict = start_server(FAST.model_copy(update={"logins_per_account": at_most(3)}))
    register(strict, "Big Fish")
    assert log_in(strict, "  big   FISH\t").status_code == 200  # one look-up for every spelling
    for _ in range(2):
        assert log_in(strict, "Big Fish", "wrong password").status_code == 401
    for spelling in ("Big Fish", " Big Fish", "Big Fish ", "\tbig fish", "BIG  FISH", "Big\tFish"):
        assert_too_many(log_in(strict, spelling), "log-in attempts for this user name")


def test_a_respelt_user_name_is_taken(server: Server) -> None:
    register(server, "Spelt Name")
    again = Api(server.base).post("/api/account", username="  spelt\t NAME ", password=PASSWORD)
    assert again.status_code == 409
