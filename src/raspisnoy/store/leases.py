"""Leases: one worker at a time runs a background pass (the pool's pairing, the
tournaments' runner), whichever worker that is.

A lease is a row of ``pool_pairing`` (migration 0013) named for its pass: who holds it
and until when (epoch seconds). Taking it is a conditional update (held by nobody, or
expired, or by the same holder: renewed), so two workers never both hold one; a dead
holder's lease passes to another worker once it expires.
"""

from __future__ import annotations

from sqlalchemy import update
from sqlalchemy.orm import sessionmaker

from raspisnoy.store.models import PoolPairing
from raspisnoy.store.repository import Store, StoreError, transaction

__all__ = ["Leases"]


class Leases:
    """The named leases over a ``Store``'s database."""

    def __init__(self, store: Store) -> None:
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)

    def take(self, name: str, holder: str, now: float, seconds: float) -> bool:
        """Hold the lease ``name`` for ``seconds`` from ``now`` if nobody else holds it (or
        this holder does: renewed); whether this holder holds it now."""
        with transaction(self._sessions) as session:
            taken = session.execute(
                update(PoolPairing)
                .where(
                    PoolPairing.name == name,
                    (PoolPairing.holder == holder) | (PoolPairing.expires_at < now),
                )
                .values(holder=holder, expires_at=now + seconds)
            )
            if getattr(taken, "rowcount", 0) == 1:
                return True
            if session.get(PoolPairing, name) is not None:
                return False
        try:
            with transaction(self._sessions) as session:
                session.add(
                    PoolPairing(name=name, holder=holder, expires_at=now + seconds, counts={})
                )
        except StoreError:  # another worker made the row first: it holds the lease
            return False
        return True
