"""An app server on 127.0.0.1 for the benchmarks and the tests that need a real
one (gunicorn, as a host runs it: docs/hosting.md): a free port, the server
started with the environment given, and a wait until it answers."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_gunicorn(port: int, env: dict[str, str], *, workers: int = 1) -> subprocess.Popen:
    """gunicorn serving the app on 127.0.0.1:`port`, under exactly `env`."""
    return subprocess.Popen(
        [
            str(Path(sys.executable).with_name("gunicorn")),
            "marriage_site.wsgi",
            *("--bind", f"127.0.0.1:{port}", "--workers", str(workers)),
            *("--no-control-socket", "--log-level", "warning"),
        ],
        cwd=ROOT,
        env=env,
    )


def wait_until_up(url: str, server: subprocess.Popen, seconds: float = 120) -> None:
    """Until `url` answers (a busy machine may take a while to start the server);
    SystemExit if the server stops or the time runs out first."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            urllib.request.urlopen(url, timeout=30).close()
            return
        except urllib.error.HTTPError:
            return  # it answered
        except OSError:  # refused while gunicorn boots
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit(f"gunicorn did not answer {url}") from None
            time.sleep(0.2)


def stop(server: subprocess.Popen) -> None:
    server.terminate()
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()
