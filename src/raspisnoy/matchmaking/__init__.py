"""The matchmaking pool's pairing (docs/pool.md): who waits, what each accepts, and which
tables to open now. Pure: no I/O, no clock (the caller says what time it is), so the same
code pairs in the server, in the property tests and in ``benchmarks/pool.py``."""

from raspisnoy.matchmaking.pairing import (
    BOT_WAITS,
    GAP,
    SPEEDS,
    Gap,
    Match,
    Seek,
    pair,
    preset_counts,
)

__all__ = ["BOT_WAITS", "GAP", "SPEEDS", "Gap", "Match", "Seek", "pair", "preset_counts"]
