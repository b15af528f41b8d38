"""The server loads (or compiles) the casino advisor's compiled loops as it starts, so no
player's first hint waits for Numba (issue 27, item 12): ``Services.start`` runs the
warm-up, and nothing else does (the casino itself warms nothing up on first use)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from raspisnoy.casino_advisor.fast import compiled

#: In a fresh interpreter: the number of compiled signatures of the advisor's kernels
#: after the services are made (``made``) and after they start (``started``), once every
#: warm-up thread has ended.
PROBE = """
import asyncio, json, tempfile, threading
from pathlib import Path
from raspisnoy.casino_advisor.fast import compiled
from raspisnoy.server.config import ServerSettings
from raspisnoy.server.services.container import Services
from raspisnoy.store import Store

def signatures():
    jit = compiled()
    return sum(len(k.signatures) for name, k in vars(jit).items() if name != "arrays")

async def main():
    folder = Path(tempfile.mkdtemp())
    store = Store.open(f"sqlite:///{folder}/db.sqlite")
    services = Services.create(store, ServerSettings(data_dir=folder))
    made = signatures()
    await services.start()
    for thread in threading.enumerate():
        if thread.name.endswith("warm-up"):
            thread.join()
    started = signatures()
    await services.stop()
    store.close()
    print(json.dumps({"made": made, "started": started}))

asyncio.run(main())
"""


def test_the_server_start_warms_the_casino_advisor_up() -> None:
    if compiled() is None:
        pytest.skip("Numba is not installed")
    probe = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=600
    )
    counts = json.loads(probe.stdout.splitlines()[-1])
    assert counts["made"] == 0
    assert counts["started"] > 0
