"""The local cluster's ports: nginx's and the workers' never the same one.

A port is free when it is chosen and is then given back, so the system may hand the same
one out again. Were nginx's port chosen again as a worker's, nginx would take it first,
the worker could not listen, and the cluster would never answer: the likeliest cause
found for a CI failure under load, workers not answering in 120 s."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import localcluster
import pytest

#: The system's own choice of a free port, whatever a test puts in its place.
_SYSTEMS_CHOICE = localcluster.free_port


def _offering(first: list[int]) -> Callable[[], int]:
    """A ``free_port`` that offers ``first``, then what the system chooses."""

    def offers() -> Iterator[int]:
        yield from first
        while True:
            yield _SYSTEMS_CHOICE()

    return offers().__next__


def test_the_workers_ports_avoid_the_ports_they_are_told_to(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The system offers a range starting at nginx's port, then one that ends on it: both
    are passed over."""
    nginx_port = _SYSTEMS_CHOICE()
    monkeypatch.setattr(localcluster, "free_port", _offering([nginx_port, nginx_port - 1]))
    first = localcluster.free_ports(2, avoid={nginx_port})
    assert first not in (nginx_port, nginx_port - 1)
    assert nginx_port not in range(first, first + 2)


def test_a_cluster_never_gives_a_worker_nginxs_port(monkeypatch: pytest.MonkeyPatch) -> None:
    """The system hands out the same free port twice in a row: the workers get others."""
    port = _SYSTEMS_CHOICE()
    monkeypatch.setattr(localcluster, "free_port", _offering([port, port]))
    cluster = localcluster.LocalCluster(2)
    assert cluster.port == port
    assert port not in range(cluster.first_worker_port, cluster.first_worker_port + 2)


def test_workers_that_fail_to_start_are_quoted_in_the_error(tmp_path: Path) -> None:
    """A quiet cluster's workers write to a file: when they end (or never answer), the
    error ends with what they wrote."""
    log = tmp_path / "workers.log"
    with log.open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-c", "print('cannot listen on 127.0.0.1'); raise SystemExit(3)"],
            stdout=output,
        )
    process.wait()
    url = f"http://127.0.0.1:{_SYSTEMS_CHOICE()}/healthz"  # nobody listens there
    with pytest.raises(RuntimeError) as raised:
        localcluster._wait_healthy(url, process, "the server workers", 5, log)
    assert str(raised.value) == (
        "the server workers ended with status 3; its last lines:\ncannot listen on 127.0.0.1"
    )
