"""The engine's exceptions.

Bad syntax and bad timing are different mistakes: ``InvalidInputError`` is input that
does not parse (``"ZZ"`` is no card), ``IllegalActionError`` is a well-formed action the
rules forbid now (a bid out of turn, a card that does not follow suit). Messages name the
round, the trick, the player and the input, so the CLI and server can show them as they are.

The errors a person can cause through a game's options (a preset, an option or its value,
a round plan, the number of players, their names) also carry a ``code`` and its ``params``,
so that a front end can word them in the person's language
(``raspisnoy.i18n.translate_error``); core itself knows no language, and the message stays
the English one that records, logs and the record contract show.
"""

from __future__ import annotations

from collections.abc import Mapping


class RaspisnoyError(Exception):
    """Base class of every error the engine raises on purpose.

    ``code`` names what went wrong (``None``: an error shown only in English) and
    ``params`` the values a wording of it needs; the English message is the exception's
    text, as always. Subclasses outside core may use codes of their own: a scorekeeper's
    ``SheetError`` carries the codes of its sheet problems.
    """

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        params: Mapping[str, str | int] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.params: Mapping[str, str | int] = dict(params or {})


class InvalidInputError(RaspisnoyError, ValueError):
    """Input that does not parse: unknown card, malformed record, unknown option."""


class IllegalActionError(RaspisnoyError, ValueError):
    """A well-formed action that the rules do not allow in the current state."""


class NotYourTurnError(IllegalActionError):
    """An action for a seat other than the one whose turn it is.

    Its own class because a server answers it differently from a rule broken by the
    right player (another seat acted first, or the client is behind)."""


def count(number: int, noun: str) -> str:
    """``1 card``, ``2 cards``: a number with its noun, for messages."""
    return f"{number} {noun}{'' if number == 1 else 's'}"
