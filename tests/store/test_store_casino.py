"""The casino's wallets and hands in the store (docs/casino.md, "On the server"): a wallet
made once, hands numbered and started once per seed, decisions stored optimistically, the
settlement and the balance in one write, refills only when the chips are gone."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime

import pytest
from sqlalchemy import update
from sqlalchemy.orm import Session
from store_helpers import answer_behind, people

from raspisnoy.store import CasinoStore, NotFoundError, StaleWriteError, Store
from raspisnoy.store.casino import CasinoHandRow, CasinoWallet

SEEDS = (f"seed-{n}" for n in itertools.count())


def test_a_wallet_is_made_once(store: Store) -> None:
    (player,) = people(store, "Gambler")
    casino = CasinoStore(store)
    made = casino.wallet(player.id, 1000, lambda: next(SEEDS))
    assert (made.balance, made.hands, made.refills) == (1000, 0, 0)
    assert casino.wallet(player.id, 5, lambda: "other") == made


def test_a_hand_is_started_once_and_its_decisions_never_overwritten(store: Store) -> None:
    player, other = people(store, "Player", "Other")
    casino = CasinoStore(store)
    wallet = casino.wallet(player.id, 1000, lambda: "first")
    hand = casino.start_hand(wallet, [10, 10], "commitment", "second")
    assert (hand.number, hand.seed, hand.status, hand.antes) == (1, "first", "playing", (10, 10))
    with pytest.raises(StaleWriteError):  # the same wallet read twice: one hand only
        casino.start_hand(wallet, [10], "commitment", "third")
    open_hand = casino.open_hand(player.id)
    assert open_hand is not None and open_hand.id == hand.id and open_hand.actions == ()
    assert casino.open_hand(other.id) is None
    moved = casino.save_decisions(hand, [{"box": 1, "action": "bet"}])
    assert moved.actions == ({"box": 1, "action": "bet"},)
    with pytest.raises(StaleWriteError):  # decided from the old read again
        casino.save_decisions(hand, [{"box": 1, "action": "fold"}])
    over = casino.save_decisions(moved, list(moved.actions), record={"r": 1}, final_balance=1030)
    assert (over.status, over.net, over.record) == ("over", 30, {"r": 1})
    assert casino.wallet(player.id, 0, lambda: "x").balance == 1030
    assert casino.open_hand(player.id) is None
    assert [row.id for row in casino.history(player.id, 10)] == [hand.id]
    assert casino.hand(player.id, hand.id).status == "over"
    with pytest.raises(NotFoundError):
        casino.hand(other.id, hand.id)  # not theirs


def test_a_hand_is_not_started_from_a_balance_a_settlement_has_changed(store: Store) -> None:
    """A deal read the wallet; the last hand was settled (on another worker) before the
    new one was stored: it is refused, else the new hand would start from the balance
    before the settlement and write it back when it ends, undoing the last hand's net."""
    (player,) = people(store, "Player")
    casino = CasinoStore(store)
    first = casino.start_hand(casino.wallet(player.id, 1000, lambda: "s1"), [100], "c", "s2")
    read = casino.wallet(player.id, 0, lambda: "x")  # the deal's read, hand 1 still open
    casino.save_decisions(first, [], record={"r": 1}, final_balance=900)  # folded elsewhere
    with pytest.raises(StaleWriteError):
        casino.start_hand(read, [1], "c", "s3")
    again = casino.wallet(player.id, 0, lambda: "x")
    assert (again.balance, again.hands) == (900, 1)
    second = casino.start_hand(again, [1], "c", "s3")  # read again: from 900
    assert (second.number, second.balance) == (2, 900)


def test_a_refill_only_when_the_chips_are_gone(store: Store) -> None:
    (player,) = people(store, "Broke")
    casino = CasinoStore(store)
    wallet = casino.wallet(player.id, 1000, lambda: "s1")
    with pytest.raises(StaleWriteError):
        casino.refill(player.id, below=10, balance=1000)
    hand = casino.start_hand(wallet, [995], "c", "s2")
    with pytest.raises(StaleWriteError):  # a hand is on
        casino.refill(player.id, below=10, balance=1000)
    casino.save_decisions(hand, [], record={"r": 1}, final_balance=5)
    refilled = casino.refill(player.id, below=10, balance=1000)
    assert (refilled.balance, refilled.refills) == (1000, 1)


def test_no_refill_while_a_deal_is_being_stored(store: Store) -> None:
    """A deal from 2 chips is being stored on one worker (not yet committed) as the
    player asks for a refill on another: the refill waits for it and, finding the hand
    on, is refused (granted, the hand's settlement would write its balance back over it)."""
    if store.engine.dialect.name != "postgresql":
        pytest.skip("SQLite has one writer at a time: nothing runs between a read and a write")
    (player,) = people(store, "Broke")
    casino = CasinoStore(store)
    wallet = casino.wallet(player.id, 2, lambda: "s1")

    def dealing(session: Session) -> None:
        hand = CasinoHandRow(
            id="hand-1", user_id=player.id, number=1, status="playing", seed="s1",
            commitment="c", balance=2, antes=[1], actions=[], moves=0,
            created_at=datetime.now(UTC),
        )  # fmt: skip
        session.add(hand)
        moved = update(CasinoWallet).where(CasinoWallet.user_id == player.id)
        session.execute(moved.values(balance=1, hands=1, next_seed="s2"))

    def refill() -> str:
        try:
            casino.refill(player.id, below=10, balance=1000)
        except StaleWriteError:
            return "refused"
        return "granted"

    assert answer_behind(store, dealing, refill) == "refused"
    after = casino.wallet(player.id, 0, lambda: "x")
    assert (after.balance, after.refills, wallet.refills) == (1, 0, 0)
