"""The bots' tests: the benchmarks that read the bots' match logs
(``benchmarks/vs_openspiel_logs.py``) importable, for the tests of their figures."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
