"""A club's keys: its invite code and what its name is told apart by (``ClubStore``, and
``leaving.leave_clubs``, which closes a club its last member left)."""

from __future__ import annotations

import secrets

__all__ = ["club_name_key", "new_invite_code"]


def new_invite_code() -> str:
    """A club's invite code: its join link's secret, unguessable."""
    return secrets.token_urlsafe(12)


def club_name_key(club_id: str, name: str, private: bool) -> str:
    """What clubs are told apart by (``clubs.name_key``, unique): for a club that is not
    private, its name folded, so that no two such clubs differ by case only; for a
    private one, a key of its own that no name folds to (a name is trimmed, so none
    begins with a line break). A private club's name is hidden information, as the club
    is: it claims nothing, since refusing the name to another club would tell that the
    private club exists."""
    return "\n" + club_id if private else name.casefold()
