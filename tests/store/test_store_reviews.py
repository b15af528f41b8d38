"""Review jobs in the store (docs/review.md): one job per seat, claimed once, its
progress and result tied to the claim, stale jobs queued again, and hints counted."""

from __future__ import annotations

import time

from store_helpers import people, table_of

from raspisnoy.store import Reviews, ReviewStatus, Store


def test_a_job_is_claimed_once_and_finished_by_its_claim(store: Store) -> None:
    (asker,) = people(store, "Asker")
    table = table_of(store, asker)
    reviews = Reviews(store)
    row = reviews.request(table.id, 1, asker.id, 64)
    found = reviews.get(table.id, 1)
    assert row.status is ReviewStatus.QUEUED and found is not None
    assert (found.status, found.requested_by, found.iterations) == (row.status, asker.id, 64)
    assert reviews.active_count() == reviews.active_count(asker.id) == 1
    assert reviews.queue_position(table.id, 1) == 0
    claims = [reviews.claim_next(f"worker {n}") for n in range(3)]
    (claim,) = [c for c in claims if c is not None]
    assert reviews.progress(claim, 3, 9)
    assert reviews.finish(claim, {"format": "raspisnoy-review/1"})
    done = reviews.get(table.id, 1)
    assert done is not None and done.status is ReviewStatus.DONE
    assert (done.done, done.total, done.result) == (3, 9, {"format": "raspisnoy-review/1"})
    assert reviews.active_count() == 0 and reviews.queue_position(table.id, 1) is None


def test_a_stale_job_goes_back_and_its_old_claim_is_void(store: Store) -> None:
    (asker,) = people(store, "Waiter")
    table = table_of(store, asker)
    reviews = Reviews(store)
    reviews.request(table.id, 0, asker.id, 64)
    old = reviews.claim_next("a worker that died")
    assert old is not None and reviews.requeue_stale(3600) == 0
    time.sleep(0.05)
    assert reviews.requeue_stale(0.01) == 1
    new = reviews.claim_next("another worker")
    assert new is not None and new.attempt > old.attempt
    assert not reviews.progress(old, 1, 9) and not reviews.finish(old, {"format": "stale"})
    assert reviews.fail(new, "ValueError: no")
    failed = reviews.get(table.id, 0)
    assert failed is not None and failed.status is ReviewStatus.FAILED


def test_a_worker_that_stops_gives_its_jobs_back(store: Store) -> None:
    (asker,) = people(store, "Stopper")
    table = table_of(store, asker)
    reviews = Reviews(store)
    reviews.request(table.id, 2, asker.id, 64)
    claim = reviews.claim_next("stopping")
    assert claim is not None and reviews.claims_of("stopping") == {claim}
    assert reviews.requeue_worker("stopping") == 1
    assert reviews.claims_of("stopping") == set() and reviews.claim_next("next") is not None


def test_hints_are_counted_per_seat(store: Store) -> None:
    (player,) = people(store, "Hinted")
    first, second = table_of(store, player), table_of(store, player)
    reviews = Reviews(store)
    for seat in (2, 0, 2):
        reviews.count_hint(first.id, seat)
    assert reviews.hint_seats([first.id, second.id]) == {first.id: (0, 2)}
    assert reviews.hint_seats([]) == {}


def test_one_address_flooding_the_queue_does_not_hold_up_another(store: Store) -> None:
    """Issue 27, defect 6: seventy guests of one address asked first, then one person
    from another address: that person's job is claimed within the first two, its
    position says so, and the flood's jobs keep their own order among themselves."""
    flood = people(store, *(f"Guest {n}" for n in range(70)))
    (other,) = people(store, "Other")
    tables = [table_of(store, flood[0]) for _ in range(18)]
    jobs = [(tables[n // 4].id, n % 4) for n in range(71)]
    reviews = Reviews(store)
    for (table_id, seat), guest in zip(jobs, flood, strict=False):
        reviews.request(table_id, seat, guest.id, 64, "10.0.0.7")
    late = reviews.request(*jobs[70], other.id, 64, "192.0.2.1")
    assert reviews.active_count(address="10.0.0.7") == 70
    assert reviews.active_count(address="192.0.2.1") == 1
    assert reviews.queue_position(late.table_id, late.seat) == 1
    assert reviews.queue_position(*jobs[1]) == 2
    first_two = [reviews.claim_next("worker") for _ in range(2)]
    assert [(c.table_id, c.seat) for c in first_two if c is not None] == [jobs[0], jobs[70]]
    rest = [reviews.claim_next("worker") for _ in range(69)]
    assert [(c.table_id, c.seat) for c in rest if c is not None] == jobs[1:70]
    assert reviews.claim_next("worker") is None


def test_an_address_with_a_job_running_waits_for_one_without(store: Store) -> None:
    """A running job counts in its address's turn: the next job of that address waits
    behind the first job of an address with none running."""
    busy, patient = people(store, "Busy", "Patient")
    table = table_of(store, busy)
    reviews = Reviews(store)
    reviews.request(table.id, 0, busy.id, 64, "10.0.0.1")
    first = reviews.claim_next("worker")
    assert first is not None and first.seat == 0
    reviews.request(table.id, 1, busy.id, 64, "10.0.0.1")
    reviews.request(table.id, 2, patient.id, 64, "10.0.0.2")
    assert reviews.queue_position(table.id, 2) == 0
    assert reviews.queue_position(table.id, 1) == 1
    claimed = [reviews.claim_next("worker") for _ in range(2)]
    assert [c.seat for c in claimed if c is not None] == [2, 1]


def test_a_running_jobs_partial_review_is_kept_until_it_is_claimed_again(store: Store) -> None:
    """The review of the moves done so far goes with the progress (the first mistakes show
    while the rest runs); a job queued again starts from nothing."""
    (asker,) = people(store, "Early")
    table = table_of(store, asker)
    reviews = Reviews(store)
    reviews.request(table.id, 0, asker.id, 64, "10.0.0.3")
    claim = reviews.claim_next("worker")
    assert claim is not None
    partial = {"format": "raspisnoy-review/1", "moments": [{"round": 1, "class": "blunder"}]}
    assert reviews.progress(claim, 1, 9, partial)
    assert reviews.progress(claim, 2, 9)  # a write without a review keeps the last one
    running = reviews.get(table.id, 0)
    assert running is not None and running.status is ReviewStatus.RUNNING
    assert (running.done, running.result) == (2, partial)
    assert reviews.requeue_worker("worker") == 1
    queued = reviews.get(table.id, 0)
    assert queued is not None and queued.result is None and queued.done == 0
