"""Ended sessions as a message every worker understands: which table sockets to close.

Logging out, ending a session from the profile, changing the password and deleting the
account end sessions in the database; the table sockets opened with those sessions must
stop playing at once, on whichever worker they are. ``EndedSessions`` names them in
plain data (session hashes, a user), so it travels between workers as JSON
(``raspisnoy.server.broadcast``), where a predicate could not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from raspisnoy.server.connection import Connection

__all__ = ["CHANNEL", "EndedSessions"]

#: The broadcast channel ended sessions are published on.
CHANNEL = "sessions-ended"


@dataclass(frozen=True, slots=True)
class EndedSessions:
    """The sessions whose hashes are in ``sessions``; and, if ``user`` is given, every
    session of that user except the one whose hash is ``keep``."""

    sessions: tuple[str, ...] = ()
    user: str | None = None
    keep: str | None = None

    def matches(self, connection: Connection) -> bool:
        """Whether ``connection`` was opened with one of these sessions."""
        if connection.session is not None and connection.session in self.sessions:
            return True
        user = connection.user
        return (
            self.user is not None
            and user is not None
            and user.id == self.user
            and (self.keep is None or connection.session != self.keep)
        )

    def to_json(self) -> dict[str, Any]:
        return {"sessions": list(self.sessions), "user": self.user, "keep": self.keep}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> EndedSessions:
        """The message ``to_json`` made (``ValueError`` if it is not one)."""
        sessions, user, keep = data.get("sessions"), data.get("user"), data.get("keep")
        if not isinstance(sessions, list) or not all(isinstance(s, str) for s in sessions):
            raise ValueError(f"not a list of session hashes: {sessions!r}")
        if not (user is None or isinstance(user, str)) or not (
            keep is None or isinstance(keep, str)
        ):
            raise ValueError(f"not a user and a kept session: {user!r}, {keep!r}")
        return cls(tuple(sessions), user, keep)
