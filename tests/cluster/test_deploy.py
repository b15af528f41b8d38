"""The deployment files (deploy/): the Compose file wires the parts with settings the
server knows, and nginx accepts the configuration rendered both ways (``scripts/cluster``
and the nginx image's ``nginx-start``)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import yaml
from localcluster import render_nginx

from raspisnoy.server.config import ENV_PREFIX, ServerSettings

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def test_the_compose_file_wires_the_parts_with_known_settings() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text(encoding="utf-8"))
    services = compose["services"]
    assert set(services) == {"postgres", "redis", "worker", "nginx"}
    worker = services["worker"]
    settings = {name for name in worker["environment"] if name.startswith(ENV_PREFIX)}
    unknown = {
        n for n in settings if n.removeprefix(ENV_PREFIX).lower() not in ServerSettings.model_fields
    }
    assert not unknown, f"not settings of the server: {unknown}"
    assert {"RASPISNOY_DATABASE_URL", "RASPISNOY_REDIS_URL", "RASPISNOY_SECRET_KEY"} <= settings
    assert worker["environment"]["RASPISNOY_DATABASE_URL"].startswith("postgresql+psycopg://")
    command = worker["command"]
    workers = int(command[command.index("--workers") + 1])
    port = int(command[command.index("--port") + 1])
    servers = services["nginx"]["environment"]["NGINX_SERVERS"].split()
    assert servers == [f"worker:{port + i}" for i in range(workers)]
    for name in ("Dockerfile", "nginx.Dockerfile"):
        assert (DEPLOY / name).is_file()


def test_nginx_accepts_the_rendered_configuration(nginx: str, tmp_path: Path) -> None:
    config = tmp_path / "nginx.conf"
    config.write_text(render_nginx(tmp_path, "127.0.0.1:9", ["127.0.0.1:1", "127.0.0.1:2"]))
    checked = subprocess.run(
        [nginx, "-t", "-p", str(tmp_path), "-c", str(config), "-e", str(tmp_path / "error.log")],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert checked.returncode == 0, checked.stderr
    assert "hash $table_key consistent" in config.read_text()


def test_the_nginx_image_renders_a_configuration_nginx_accepts(nginx: str, tmp_path: Path) -> None:
    environment = {
        **os.environ,
        "PATH": f"{Path(nginx).parent}:{os.environ['PATH']}",
        "NGINX_SERVERS": "127.0.0.1:1 127.0.0.1:2",
        "NGINX_PREFIX": str(tmp_path),
        "NGINX_LISTEN": "127.0.0.1:9",
        "NGINX_TEMPLATE": str(DEPLOY / "nginx.conf"),
    }
    checked = subprocess.run(
        [str(DEPLOY / "nginx-start"), "-t"],
        env=environment,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert checked.returncode == 0, checked.stderr
    rendered = (tmp_path / "nginx.conf").read_text()
    assert "server 127.0.0.1:2 max_fails=0;" in rendered
    assert re.search("@[A-Z]+@", rendered) is None  # every placeholder filled in
