"""``raspisnoy play``: a game of raspisnoy in the terminal, the person against bots.

``command`` reads the options and starts or resumes a game, ``session`` runs it and
keeps its record, ``screen`` draws it with Rich and reads the person's choices, and
``layout`` fits tables to narrow terminals.

``play_command`` is imported when first used: the other terminal commands borrow
``layout`` (``raspisnoy score`` draws its sheet with it) without loading the game and
its bots.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from raspisnoy.play.command import play_command

__all__ = ["play_command"]


def __getattr__(name: str) -> object:
    """``play_command``, imported from ``raspisnoy.play.command`` on first use."""
    if name == "play_command":
        from raspisnoy.play.command import play_command

        return play_command
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
