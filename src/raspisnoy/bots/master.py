"""``master``: the expert's search with twelve times its budget, for analysis.

The same information-set search as ``expert`` (``raspisnoy.bots.expert``), given
``MASTER_ITERATIONS`` iterations a decision instead of the expert's 5,000: the deep
level the review's reference and the puzzles' deepest verification search with
(docs/review.md), and a sparring partner the arena and the command line can name. A
decision costs about eleven times the expert's CPU (a quarter of a second on one core of
the development machine, docs/bots.md): too much to seat at a server's tables, which
offer ``TABLE_BOTS`` only.
"""

from __future__ import annotations

from raspisnoy.bots.expert import ExpertBot

__all__ = ["MASTER_ITERATIONS", "MasterBot"]

#: Search iterations of a master's decision: ten times the review's deep budget
#: (``raspisnoy.review.DEFAULT_ITERATIONS``), its reference.
MASTER_ITERATIONS = 60_000


class MasterBot(ExpertBot):
    """The expert with ``MASTER_ITERATIONS`` a decision (the module's docstring)."""

    name = "master"
    #: Time enough for the whole budget on a loaded machine, so that iterations alone
    #: bound a decision (and it stays deterministic) unless a caller asks for less.
    default_time_ms = 20_000.0
    default_iterations = MASTER_ITERATIONS
