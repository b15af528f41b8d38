"""CPU per message through a connection's outbox (``server.connection.Connection``): the
actor's ``send`` of four seats' messages after an action, and each client's writer task
taking them and writing them to a socket that costs nothing, under uvloop as served.

``--baseline OTHER/src`` measures another tree's ``Connection`` the same way in the same
run, alternating passes of the two (each a fresh subprocess), and gives the least CPU
time per message of each, and their ratio:

    .venv/bin/python benchmarks/outbox.py --baseline /tmp/base/src [--passes 5]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path
from typing import Any, cast

from trees import output_in_tree, publish

#: Seats of a table, each with a connection; messages per seat per pass.
_SEATS, _MESSAGES = 4, 20_000


class _Socket:
    """A WebSocket whose writes cost nothing but the await."""

    async def send_text(self, text: str) -> None:
        return None

    async def close(self, code: int, reason: str) -> None:
        return None


async def _pass() -> float:
    """CPU seconds per message: every message queued to the four seats, as after an
    action, and the writers given the loop between actions."""
    from starlette.websockets import WebSocket

    from raspisnoy.server.connection import Connection

    connections = [Connection(cast(WebSocket, _Socket()), None, 2048) for _ in range(_SEATS)]
    pumps = [asyncio.create_task(connection.pump()) for connection in connections]
    text = '{"type":"event","version":1,"game":{}}'
    started = time.process_time()
    for _ in range(_MESSAGES):
        for connection in connections:
            connection.send(text)
        await asyncio.sleep(0)
    await asyncio.sleep(0)
    used = time.process_time() - started
    for connection in connections:
        connection.close(1000, "done")
    await asyncio.gather(*pumps)
    return used / (_MESSAGES * _SEATS)


def _measure(source: Path | None) -> float:
    """One pass in a fresh process, of the tree whose ``src`` is ``source`` (this tree's
    if ``None``): microseconds per message."""
    return float(output_in_tree(source, __file__, ["--pass"])) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, default=None, help="another tree's src")
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--pass", dest="one_pass", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one_pass:
        import uvloop

        print(uvloop.run(_pass()))
        return
    trees: dict[str, Path | None] = {"this tree": None}
    if args.baseline is not None:
        trees = {"baseline": args.baseline, **trees}
    passes: dict[str, list[float]] = {name: [] for name in trees}
    for _ in range(args.passes):
        for name, source in trees.items():
            passes[name].append(_measure(source))
    figures: dict[str, Any] = {
        "command": " ".join(["benchmarks/outbox.py", *sys.argv[1:]]),
        "load_average_1min": os.getloadavg()[0],
        "us_per_message_least": {name: min(values) for name, values in passes.items()},
        "us_per_message_passes": passes,
    }
    if args.baseline is not None:
        least = figures["us_per_message_least"]
        figures["ratio_this_to_baseline"] = least["this tree"] / least["baseline"]
    publish(figures, args.json)


if __name__ == "__main__":
    main()
