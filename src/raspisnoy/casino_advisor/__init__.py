"""The casino's strategy advisor (docs/casino.md, *The advisor*): the expected net of every
option at a decision point, the hints built on a player's view, and the strategy table
that plays like it.

It sits beside the rules (``raspisnoy.casino``) as ``raspisnoy.bots`` sits beside core:
it imports the rules, never the other way, and may use NumPy and Numba, which compile its
loops (``fast``) where they are installed. ``warm_up`` loads or compiles those loops
ahead of the first advice (the server calls it as it starts).
"""

from raspisnoy.casino_advisor.advisor import Advice, OptionValue, advise, advise_purchase, warm_up
from raspisnoy.casino_advisor.hint import advice_for

__all__ = ["Advice", "OptionValue", "advice_for", "advise", "advise_purchase", "warm_up"]
