"""The engine's exceptions.

Bad syntax and bad timing are different mistakes: ``InvalidInputError`` is input that
does not parse (``"ZZ"`` is no card), ``IllegalActionError`` is a well-formed action the
rules forbid now (a bid out of turn, a card that does not follow suit). Messages name the
round, the trick, the player and the input, so the CLI and server can show them as they are.
"""


class RaspisnoyError(Exception):
    """Base class of every error the engine raises on purpose."""


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
