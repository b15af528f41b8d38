"""Finished games' reports kept as they were sent (``/score``, ``/record``): a finished
game's report is the same for everyone and never changes, so it is kept, as its JSON
bytes, rather than rebuilt from every stored action at each request, until the names in
it change (an account deleted: ``Accounts.delete``, told to every worker).

A report read before such a change and kept after it would name someone by a name they
no longer have until it left the cache: the deletion's ``forget`` came while it was being
built, found nothing to drop, and the report was kept after. So each report is kept only
if its table's names have not changed since its data was read (``reading``)."""

from __future__ import annotations

from collections.abc import Iterable

from cachetools import LRUCache

__all__ = ["KeptReports"]


class KeptReports:
    """At most ``size`` reports by table and kind (the answer's model), in this process;
    ``size`` 0 keeps none."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._kept: LRUCache[tuple[str, str], bytes] = LRUCache(maxsize=max(1, size))
        #: How many changes of names this process was told of: the clock of ``reading``.
        self._changes = 0
        #: The change that last renamed each table, for the tables renamed most recently:
        #: a report takes seconds to build, not a thousand changes.
        self._renamed: LRUCache[str, int] = LRUCache(maxsize=max(1000, size))
        self._kinds: set[str] = set()

    def get(self, table_id: str, kind: str) -> bytes | None:
        """The kept report, if any."""
        return self._kept.get((table_id, kind))

    def reading(self) -> int:
        """The moment to note before reading a report's data, for ``keep``."""
        return self._changes

    def keep(self, table_id: str, kind: str, report: bytes, read_at: int) -> None:
        """Keep ``report``, whose data was read from ``read_at`` on (``reading``), unless
        its table's names changed since."""
        if self._size == 0 or self._renamed.get(table_id, -1) > read_at:
            return
        self._kinds.add(kind)
        self._kept[table_id, kind] = report

    def forget(self, table_ids: Iterable[str]) -> None:
        """The names at these tables changed: drop their reports, and keep none read
        before now."""
        self._changes += 1
        for table_id in table_ids:
            self._renamed[table_id] = self._changes
            for kind in self._kinds:
                self._kept.pop((table_id, kind), None)
