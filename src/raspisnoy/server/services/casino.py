"""Casino Russian poker on the server (docs/casino.md, "On the server"): one player
against the dealer, with play money kept in the database.

The server deals and settles; the client only sends decisions. Every request rebuilds
the player's hand from its stored seed and decisions (``replay_record``), applies at most
one decision, stores it (optimistically, so two workers or two taps cannot both apply
one) and answers with the hand's ``HandView`` as JSON: nothing the player may not know
yet leaves here. The seed of the next hand is drawn in advance and only its SHA-256 is
shown, before the antes are chosen; the seed is revealed with the settlement.

Hints run the advisor on the view alone (``advice_for``) in a small thread pool (its
compiled loops release the GIL), a bounded number at a time, so they never hold up the
event loop or one another's players for long. The advisor's compiled loops are loaded
(or compiled) once per process as the server starts (``Services.start``), not here.
"""

from __future__ import annotations

import asyncio
import random
import weakref
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

from cachetools import LRUCache

from raspisnoy.casino import (
    HAND_FORMAT,
    MIN_ANTE,
    Action,
    CasinoHand,
    commitment,
    new_seed,
)
from raspisnoy.casino.record import replay_record
from raspisnoy.casino_advisor.hint import advice_for
from raspisnoy.core import IllegalActionError, InvalidInputError
from raspisnoy.server.errors import Refusal, RequestError
from raspisnoy.server.services.threads import in_thread
from raspisnoy.server.wire import (
    CasinoHintOut,
    CasinoHistoryOut,
    HandOut,
    HistoryHandOut,
    StateOut,
    record_file,
)
from raspisnoy.store import CasinoStore, HandRow, NotFoundError, StaleWriteError, Store, WalletRow

__all__ = [
    "ADVISOR_POOL",
    "HINT_THREADS",
    "REFILL_BELOW",
    "START_BALANCE",
    "Casino",
]

#: A new player's chips, and what a free refill brings the balance back to.
START_BALANCE = 1000
#: A refill is free once the balance cannot pay the smallest ante and its bet.
REFILL_BELOW = 3 * MIN_ANTE
#: Threads that compute hints, and hints waiting or running at once in this process.
HINT_THREADS = 2
HINT_QUEUE = 8
#: Finished hands the history lists at most.
HISTORY_LIMIT = 100

#: The threads that compute hints (one pool per process, shared by its apps).
ADVISOR_POOL = ThreadPoolExecutor(max_workers=HINT_THREADS, thread_name_prefix="casino-advisor")


def _seed() -> str:
    return new_seed(random.SystemRandom())


def rebuild(row: HandRow) -> CasinoHand:
    """The hand of a stored row, dealt from its seed with its decisions applied."""
    data = {
        "format": HAND_FORMAT,
        "antes": list(row.antes),
        "balance": row.balance,
        "actions": list(row.actions),
    }
    return replay_record(data, row.seed)


@contextmanager
def _refusals() -> Iterator[None]:
    """The engine's and the store's refusals as the request's: bad input 422, a decision
    the rules do not allow now 409, a write that lost a race 409."""
    try:
        yield
    except InvalidInputError as error:
        raise RequestError(Refusal.INVALID, str(error)) from None
    except (IllegalActionError, StaleWriteError) as error:
        raise RequestError(Refusal.CONFLICT, str(error)) from None


class Casino:
    """The casino game of one app: players' wallets and hands, and the advisor's pool."""

    def __init__(self, store: Store) -> None:
        self._db = CasinoStore(store)
        #: One lock per player whose request is being served: their requests take turns.
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        #: Hints computed, by hand id and number of decisions (they do not change).
        self._hints: LRUCache[tuple[str, int], CasinoHintOut] = LRUCache(maxsize=512)
        self._hinting: set[str] = set()

    @property
    def hinting(self) -> frozenset[str]:
        """The players whose hint is being computed now."""
        return frozenset(self._hinting)

    def _lock(self, user_id: str) -> asyncio.Lock:
        lock = self._locks.get(user_id)
        if lock is None:
            lock = self._locks[user_id] = asyncio.Lock()
        return lock

    async def _wallet(self, user_id: str) -> WalletRow:
        return await in_thread(self._db.wallet, user_id, START_BALANCE, _seed)

    async def _open(self, user_id: str) -> tuple[HandRow, CasinoHand]:
        row = await in_thread(self._db.open_hand, user_id)
        if row is None:
            raise RequestError(Refusal.NO_HAND, "no hand in progress: deal one first")
        return row, await in_thread(rebuild, row)

    async def state(self, user_id: str) -> StateOut:
        """The player's balance, the commitment of their next shuffle, their hand in
        progress (or ``None``) and the table's limits."""
        wallet = await self._wallet(user_id)
        row = await in_thread(self._db.open_hand, user_id)
        hand = None if row is None else HandOut.of(row, (await in_thread(rebuild, row)).view())
        return StateOut.of(
            wallet,
            commitment(wallet.next_seed),
            hand,
            start_balance=START_BALANCE,
            refill_below=REFILL_BELOW,
        )

    async def deal(self, user_id: str, antes: list[int]) -> HandOut:
        """A new hand of ``antes`` (1-3 boxes) from the seed committed beforehand."""
        async with self._lock(user_id):
            wallet = await self._wallet(user_id)
            if await in_thread(self._db.open_hand, user_id) is not None:
                raise RequestError(
                    Refusal.HAND_IN_PROGRESS, "a hand is in progress: finish it first"
                )
            with _refusals():
                hand = CasinoHand(antes, wallet.balance, wallet.next_seed)
                row = await in_thread(
                    self._db.start_hand, wallet, list(hand.antes), hand.commitment, _seed()
                )
            return HandOut.of(row, hand.view())

    async def decide(self, user_id: str, box: int, action: Action) -> HandOut:
        """Apply ``action`` to box ``box`` (from 1), which must be the box to act, and
        store it; the settlement is stored with the decision that ends the hand."""
        async with self._lock(user_id):
            row, hand = await self._open(user_id)
            with _refusals():
                if hand.to_act is None or box != hand.to_act + 1:
                    raise IllegalActionError(
                        f"box {box} is not the box to act (box {(hand.to_act or 0) + 1} is)"
                    )
                hand.apply(action)
                actions = [*row.actions, {"box": box, "action": str(action)}]
                if hand.is_over:
                    row = await in_thread(
                        lambda: self._db.save_decisions(
                            row, actions, record=hand.to_record(), final_balance=hand.balance
                        )
                    )
                else:
                    row = await in_thread(self._db.save_decisions, row, actions)
            return HandOut.of(row, hand.view())

    async def hint(self, user_id: str) -> CasinoHintOut:
        """The advisor's values of every option of the decision awaited, from the view."""
        row, hand = await self._open(user_id)
        key = (row.id, len(row.actions))
        kept = self._hints.get(key)
        if kept is not None:
            return kept
        if user_id in self._hinting or len(self._hinting) >= HINT_QUEUE:
            raise RequestError(
                Refusal.TOO_MANY, "the advisor is busy: ask again in a moment", retry_after=2
            )
        view = hand.view()
        self._hinting.add(user_id)
        try:
            loop = asyncio.get_running_loop()
            with _refusals():
                advice = await loop.run_in_executor(ADVISOR_POOL, advice_for, view)
        finally:
            self._hinting.discard(user_id)
        answer = CasinoHintOut.of(view, advice)
        self._hints[key] = answer
        return answer

    async def refill(self, user_id: str) -> StateOut:
        """A free refill to the starting balance, once the chips have run out."""
        async with self._lock(user_id):
            await self._wallet(user_id)
            try:
                await in_thread(self._db.refill, user_id, REFILL_BELOW, START_BALANCE)
            except StaleWriteError:
                raise RequestError(
                    Refusal.REFILL_NOT_DUE,
                    f"a free refill is only for a balance under {REFILL_BELOW} chips "
                    "with no hand in progress",
                    params={"below": REFILL_BELOW},
                ) from None
        return await self.state(user_id)

    async def history(self, user_id: str, limit: int) -> CasinoHistoryOut:
        """The player's finished hands, newest first, each with its verification."""
        rows = await in_thread(self._db.history, user_id, min(limit, HISTORY_LIMIT))
        return CasinoHistoryOut(hands=[HistoryHandOut.of(row) for row in rows])

    async def record(self, user_id: str, hand_id: str) -> tuple[str, dict[str, Any]]:
        """A finished hand's record, which ``raspisnoy casino verify`` checks, and the
        name of its file."""
        try:
            row = await in_thread(self._db.hand, user_id, hand_id)
        except NotFoundError:
            raise RequestError(Refusal.NOT_FOUND, f"no hand {hand_id!r} of yours") from None
        if row.record is None:
            raise RequestError(
                Refusal.HAND_NOT_OVER, "the hand is not over: its seed is revealed at settlement"
            )
        return record_file(row.number), row.record
