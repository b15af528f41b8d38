"""``scripts/serve``, the README's main job, answers at once on a fresh data directory:
the puzzle set it builds there at the first start (two to three minutes of CPU) is built
beside the server, which loads it when it is done (tests/server/test_puzzle_routes.py),
not before the server starts."""

from __future__ import annotations

import os
import signal
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

from server_process import free_port

ROOT = Path(__file__).resolve().parents[1]
#: How long the script may take to answer: its set-up finds everything installed (the
#: suite's own ``scripts/bootstrap dev`` ran first), and a server starts in seconds; the
#: puzzle set alone took about 150 s of CPU on the 2-core CI machine.
ANSWER_SECONDS = 60.0
_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def answers(url: str) -> bool:
    try:
        with _DIRECT.open(url, timeout=2) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def test_the_main_job_answers_while_its_puzzle_set_is_built(tmp_path: Path) -> None:
    port = free_port()
    data, log = tmp_path / "data", tmp_path / "serve.log"
    env = {**os.environ, "RASPISNOY_DATA_DIR": str(data)}
    with log.open("w") as out:
        script = subprocess.Popen(
            [str(ROOT / "scripts" / "serve"), "--port", str(port)],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: the build goes with it below
        )
    try:
        deadline = time.monotonic() + ANSWER_SECONDS
        while not answers(f"http://127.0.0.1:{port}/healthz"):
            assert script.poll() is None, "scripts/serve ended"
            assert time.monotonic() < deadline, f"no answer in {ANSWER_SECONDS:.0f} s"
            time.sleep(0.5)
        assert answers(f"http://127.0.0.1:{port}/api/rules")
        while not (data / "puzzles-build.log").exists():  # the build is under way
            assert time.monotonic() < deadline, "the puzzle set is not being built"
            time.sleep(0.2)
    finally:
        os.killpg(script.pid, signal.SIGTERM)  # the server and the build beside it
        script.wait(timeout=60)
    output = log.read_text()
    assert "Building the puzzle set (500 puzzles)" in output, output
    assert not (data / "puzzles.json").exists()  # stopped before its end: not there
