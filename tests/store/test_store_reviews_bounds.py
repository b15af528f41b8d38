"""The review queue's bounds hold for requests made at the same moment (docs/review.md,
"Bounded"): the asker's, the address's and everyone's jobs are counted in the
transaction that stores the new one, which holds the queue first, so of several
requests racing for the last place one is queued and the others are refused."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from queue import SimpleQueue

import pytest
from racing import at_the_same_moment
from store_helpers import people, table_of

from raspisnoy.store import Reviews, Store
from raspisnoy.store.reviews import Bound, ReviewBoundError, ReviewBounds

#: Requests made at once in each test.
AT_ONCE = 6
#: No bound is reached but the one a test sets to 1.
LOOSE = ReviewBounds(per_user=100, per_address=100, in_all=100)

#: Who asks each request and from where (the nth person, the nth address), for each
#: bound set to 1: one person from one address, people of one address, everyone.
ASKERS: dict[Bound, Callable[[int], tuple[int, str]]] = {
    "user": lambda n: (0, "10.0.0.1"),
    "address": lambda n: (n, "10.0.0.1"),
    "all": lambda n: (n, f"10.0.0.{n + 1}"),
}


def one_at_most(bound: Bound) -> ReviewBounds:
    return ReviewBounds(
        per_user=1 if bound == "user" else LOOSE.per_user,
        per_address=1 if bound == "address" else LOOSE.per_address,
        in_all=1 if bound == "all" else LOOSE.in_all,
    )


@pytest.mark.parametrize("bound", list(ASKERS))
def test_requests_at_the_same_moment_stay_within_each_bound(store: Store, bound: Bound) -> None:
    askers = people(store, *(f"Asker {n}" for n in range(AT_ONCE)))
    tables = [table_of(store, askers[0]) for _ in range(2)]
    reviews = Reviews(store)
    requests: SimpleQueue[tuple[str, int, str, str]] = SimpleQueue()
    for n in range(AT_ONCE):
        person, address = ASKERS[bound](n)
        requests.put((tables[n // 4].id, n % 4, askers[person].id, address))

    def ask() -> Bound | None:
        """The bound that refused the next request, ``None`` if it was queued."""
        table_id, seat, user_id, address = requests.get()
        try:
            reviews.request(table_id, seat, user_id, 64, address, one_at_most(bound))
        except ReviewBoundError as error:
            assert (error.count, error.limit) == (1, 1)
            return error.bound
        return None

    answers = at_the_same_moment(AT_ONCE, ask)
    assert Counter(answers) == {None: 1, bound: AT_ONCE - 1}
    assert reviews.active_count() == 1


def test_a_review_asked_for_before_is_answered_beyond_the_bounds(store: Store) -> None:
    """It costs nothing: no new job, so no bound is counted; a failed one asked again is
    a new job, and is counted (and left as it was when refused)."""
    (asker,) = people(store, "Asker")
    table = table_of(store, asker)
    reviews = Reviews(store)
    full = ReviewBounds(per_user=1, per_address=1, in_all=1)
    queued = reviews.request(table.id, 0, asker.id, 64, "10.0.0.1", full)
    assert reviews.request(table.id, 0, asker.id, 64, "10.0.0.1", full) == queued
    with pytest.raises(ReviewBoundError) as refused:
        reviews.request(table.id, 1, asker.id, 64, "10.0.0.1", full)
    assert (refused.value.bound, refused.value.count, refused.value.limit) == ("user", 1, 1)
    assert reviews.get(table.id, 1) is None
    claim = reviews.claim_next("worker")
    assert claim is not None and reviews.fail(claim, "ValueError: no")
    reviews.request(table.id, 1, asker.id, 64, "10.0.0.1", full)
    with pytest.raises(ReviewBoundError):
        reviews.request(table.id, 0, asker.id, 64, "10.0.0.1", full)
    failed = reviews.get(table.id, 0)
    assert failed is not None and failed.status == "failed"
