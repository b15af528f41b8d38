"""The operator's tools: ``/metrics``, the request id and JSON logs, ``raspisnoy backup``
and ``raspisnoy restore``. They drive the real server with the server suite's clients
(``tests/server/server_helpers.py``), put on the import path here as tests/cluster puts
deploy/ on it."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests" / "server")]
