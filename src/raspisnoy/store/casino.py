"""Play money and hands of casino Russian poker (docs/casino.md, "On the server").

A player's ``CasinoWallet`` holds the chips off the table, the count of free refills and
the secret seed of the next hand, whose hash the player is shown before choosing antes
(so the deal cannot depend on them). A ``CasinoHandRow`` is one hand: its seed, its
commitment, the antes and balance it started from and the decisions taken so far; the
engine deals itself from the seed, so replaying the decisions rebuilds the hand in
progress after a restart. A finished hand keeps its record (``russian-poker-hand/1``,
which ``raspisnoy casino verify`` checks) and its net.

Writes are optimistic: a decision is stored only if the hand still has the number of
decisions it was read with, and a hand is started only if the wallet has the count of
hands it was read with, so two workers (or two taps) never both apply a decision.
``CasinoStore`` works on the ``Store``'s engine like ``Players`` does; its models share
the schema's ``Base`` (migration 0006).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, UniqueConstraint, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker

from raspisnoy.store.models import Base
from raspisnoy.store.repository import (
    NotFoundError,
    StaleWriteError,
    Store,
    new_id,
    transaction,
)

__all__ = ["CasinoHandRow", "CasinoStore", "CasinoWallet", "HandRow", "WalletRow"]


class CasinoWallet(Base):
    """A player's play money for the casino game (made on their first visit)."""

    __tablename__ = "casino_wallets"

    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), primary_key=True)
    #: Chips off the table: while a hand is played, the balance it started from.
    balance: Mapped[int] = mapped_column(Integer)
    refills: Mapped[int] = mapped_column(Integer)
    #: Hands started so far; the next hand's number is one more.
    hands: Mapped[int] = mapped_column(Integer)
    #: The seed the next hand is shuffled from; only its SHA-256 ever leaves the server.
    next_seed: Mapped[str] = mapped_column(String(64))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class CasinoHandRow(Base):
    """One hand of a player: from its seed and decisions the engine rebuilds it."""

    __tablename__ = "casino_hands"
    __table_args__ = (UniqueConstraint("user_id", "number"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    #: Counts the player's hands from 1.
    number: Mapped[int] = mapped_column(Integer)
    #: ``playing`` or ``over``.
    status: Mapped[str] = mapped_column(String(16))
    seed: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    #: The balance the hand started from, and one ante per box.
    balance: Mapped[int] = mapped_column(Integer)
    antes: Mapped[list[int]] = mapped_column(JSON)
    #: The decisions in order, as the record writes them: ``{"box": 1, "action": "bet"}``.
    actions: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    moves: Mapped[int] = mapped_column(Integer)
    #: Once over: the hand's record (``CasinoHand.to_record()``) and its net in chips.
    record: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    net: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


@dataclass(frozen=True, slots=True)
class WalletRow:
    user_id: str
    balance: int
    refills: int
    hands: int
    next_seed: str


@dataclass(frozen=True, slots=True)
class HandRow:
    id: str
    user_id: str
    number: int
    status: str
    seed: str
    commitment: str
    balance: int
    antes: tuple[int, ...]
    actions: tuple[dict[str, Any], ...]
    record: dict[str, Any] | None
    net: int | None
    created_at: datetime
    finished_at: datetime | None


def _wallet(row: CasinoWallet) -> WalletRow:
    return WalletRow(row.user_id, row.balance, row.refills, row.hands, row.next_seed)


def _hand(row: CasinoHandRow) -> HandRow:
    return HandRow(
        row.id,
        row.user_id,
        row.number,
        row.status,
        row.seed,
        row.commitment,
        row.balance,
        tuple(row.antes),
        tuple(row.actions),
        row.record,
        row.net,
        row.created_at,
        row.finished_at,
    )


class CasinoStore:
    """Wallets and hands of the casino game over a ``Store``'s database."""

    def __init__(self, store: Store) -> None:
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)

    def _session(self) -> AbstractContextManager[Session]:
        return transaction(self._sessions)

    def wallet(self, user_id: str, start_balance: int, new_seed: Callable[[], str]) -> WalletRow:
        """The player's wallet, made with ``start_balance`` chips on their first visit."""
        try:
            return self._wallet(user_id, start_balance, new_seed)
        except StaleWriteError:
            return self._wallet(user_id, start_balance, new_seed)

    def _wallet(self, user_id: str, start_balance: int, new_seed: Callable[[], str]) -> WalletRow:
        with self._session() as session:
            row = session.get(CasinoWallet, user_id)
            if row is None:
                row = CasinoWallet(
                    user_id=user_id,
                    balance=start_balance,
                    refills=0,
                    hands=0,
                    next_seed=new_seed(),
                    updated_at=datetime.now(UTC),
                )
                session.add(row)
                try:
                    session.flush()
                except IntegrityError:  # made meanwhile by another request: that one
                    raise StaleWriteError("the wallet was made meanwhile") from None
            return _wallet(row)

    def open_hand(self, user_id: str) -> HandRow | None:
        """The player's hand in progress, if any."""
        with self._session() as session:
            row = session.scalar(
                select(CasinoHandRow).where(
                    CasinoHandRow.user_id == user_id, CasinoHandRow.status == "playing"
                )
            )
            return None if row is None else _hand(row)

    def start_hand(
        self, wallet: WalletRow, antes: list[int], commitment: str, next_seed: str
    ) -> HandRow:
        """A new hand dealt from the wallet's next seed (its ``commitment``); the wallet
        gets ``next_seed`` for the hand after. ``StaleWriteError`` if the wallet changed
        since it was read: another hand was started meanwhile, or the last one was settled
        (on another worker: the new hand would start from the balance before it, and its
        own settlement would write that balance back, undoing the last hand's)."""
        now = datetime.now(UTC)
        row = CasinoHandRow(
            id=new_id(),
            user_id=wallet.user_id,
            number=wallet.hands + 1,
            status="playing",
            seed=wallet.next_seed,
            commitment=commitment,
            balance=wallet.balance,
            antes=list(antes),
            actions=[],
            moves=0,
            created_at=now,
        )
        with self._session() as session:
            changed = session.execute(
                update(CasinoWallet)
                .where(
                    CasinoWallet.user_id == wallet.user_id,
                    CasinoWallet.hands == wallet.hands,
                    CasinoWallet.next_seed == wallet.next_seed,
                    CasinoWallet.balance == wallet.balance,
                )
                .values(hands=wallet.hands + 1, next_seed=next_seed, updated_at=now)
            )
            if changed.rowcount != 1:  # type: ignore[attr-defined]
                raise StaleWriteError("the wallet changed meanwhile; read it again")
            session.add(row)
            try:
                session.flush()
            except IntegrityError:  # the same hand number, written by another worker
                raise StaleWriteError("another hand was started meanwhile") from None
        return _hand(row)

    def save_decisions(
        self,
        hand: HandRow,
        actions: list[dict[str, Any]],
        *,
        record: dict[str, Any] | None = None,
        final_balance: int | None = None,
    ) -> HandRow:
        """Store the hand's decisions (``hand.actions`` and those after); with ``record``
        the hand is over: the record, its net and the wallet's new balance are stored in
        the same transaction. ``StaleWriteError`` if another decision was stored since
        ``hand`` was read."""
        now = datetime.now(UTC)
        values: dict[str, Any] = {"actions": actions, "moves": len(actions)}
        if record is not None:
            assert final_balance is not None
            values |= {
                "status": "over",
                "record": record,
                "net": final_balance - hand.balance,
                "finished_at": now,
            }
        with self._session() as session:
            changed = session.execute(
                update(CasinoHandRow)
                .where(
                    CasinoHandRow.id == hand.id,
                    CasinoHandRow.status == "playing",
                    CasinoHandRow.moves == len(hand.actions),
                )
                .values(**values)
            )
            if changed.rowcount != 1:  # type: ignore[attr-defined]
                raise StaleWriteError("the hand changed meanwhile; read it again")
            if record is not None:
                session.execute(
                    update(CasinoWallet)
                    .where(CasinoWallet.user_id == hand.user_id)
                    .values(balance=final_balance, updated_at=now)
                )
            row = session.get(CasinoHandRow, hand.id)
            assert row is not None
            session.refresh(row)
            return _hand(row)

    def refill(self, user_id: str, below: int, balance: int) -> WalletRow:
        """Give the player ``balance`` chips for free if they hold fewer than ``below``
        and have no hand in progress; ``StaleWriteError`` otherwise. The wallet is written
        first, so its row is held before the hands are looked at: a deal stored at the same
        moment (``start_hand`` writes that row too, on whatever worker) comes wholly
        before, and its hand is seen here, or wholly after, and is refused for the
        balance it read; never a refill during a hand, which its settlement would undo."""
        with self._session() as session:
            changed = session.execute(
                update(CasinoWallet)
                .where(CasinoWallet.user_id == user_id, CasinoWallet.balance < below)
                .values(
                    balance=balance,
                    refills=CasinoWallet.refills + 1,
                    updated_at=datetime.now(UTC),
                )
            )
            playing = session.scalar(
                select(CasinoHandRow.id).where(
                    CasinoHandRow.user_id == user_id, CasinoHandRow.status == "playing"
                )
            )
            if playing is not None or changed.rowcount != 1:  # type: ignore[attr-defined]
                raise StaleWriteError("no refill: the wallet is not empty or a hand is on")
            row = session.get(CasinoWallet, user_id)
            assert row is not None
            session.refresh(row)
            return _wallet(row)

    def history(self, user_id: str, limit: int) -> list[HandRow]:
        """The player's finished hands, newest first."""
        with self._session() as session:
            rows = session.scalars(
                select(CasinoHandRow)
                .where(CasinoHandRow.user_id == user_id, CasinoHandRow.status == "over")
                .order_by(CasinoHandRow.number.desc())
                .limit(limit)
            )
            return [_hand(row) for row in rows]

    def hand(self, user_id: str, hand_id: str) -> HandRow:
        """One of the player's hands; ``NotFoundError`` if it is not theirs."""
        with self._session() as session:
            row = session.get(CasinoHandRow, hand_id)
            if row is None or row.user_id != user_id:
                raise NotFoundError(f"no hand {hand_id!r}")
            return _hand(row)
