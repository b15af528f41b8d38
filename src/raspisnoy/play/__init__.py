"""``raspisnoy play``: a game of raspisnoy in the terminal, the person against bots.

``command`` reads the options and starts or resumes a game, ``session`` runs it and
keeps its record, ``screen`` draws it with Rich and reads the person's choices.
"""

from raspisnoy.play.command import play_command

__all__ = ["play_command"]
