"""How long Swiss seating takes for a 1,000-player event (target: well under 1 s a round).

Two rounds per table size: the easy one (round two after a plain round one, the table
winners first: no repeats in the plain cut, so no search) and the worst one (the standing
has not moved, every plain table is a repeat, and the exchanges are searched at every
boundary). Prints the median of ``--repeats`` runs in milliseconds.

    .venv/bin/python benchmarks/swiss_seating.py [--players 1000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import statistics
import time

from raspisnoy.tournament import Meetings, seat_round


def _median_ms(standing: list[str], size: int, meetings: Meetings, repeats: int) -> float:
    """The median time of seating ``standing`` once, in milliseconds."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        seat_round(standing, size, meetings)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    """Seat the easy and the worst round at tables of 3, 4 and 5 and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=5)
    options = parser.parse_args()
    players = [f"p{index:05}" for index in range(options.players)]
    for size in (3, 4, 5):
        first = [tuple(players[start : start + size]) for start in range(0, len(players), size)]
        meetings = Meetings(first)
        winners_first = [t[place] for place in range(size) for t in first if place < len(t)]
        easy = _median_ms(winners_first, size, meetings, options.repeats)
        worst = _median_ms(players, size, meetings, options.repeats)
        print(f"tables of {size}: easy round {easy:7.1f} ms, worst round {worst:7.1f} ms")


if __name__ == "__main__":
    main()
