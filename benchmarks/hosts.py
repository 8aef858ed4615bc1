"""An app host on 127.0.0.1 for the benchmarks and the tests that need a real
one (scripts/host, as a host runs it: docs/hosting.md): a free port, the host
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


def start_host(
    port: int,
    env: dict[str, str],
    *,
    workers: int | None = None,
    threads: int | None = None,
    options: tuple[str, ...] = ("--log-level", "warning"),
) -> subprocess.Popen:
    """scripts/host serving the app on 127.0.0.1:`port`, under exactly `env`
    (with this Python's gunicorn), and `workers` processes, `threads` threads
    each if given (by default, the host's: one process on SQLite). A stopping
    host lets its requests run 5 s at most."""
    env = {
        "GRACEFUL_TIMEOUT": "5",
        **env,
        "GUNICORN": str(Path(sys.executable).with_name("gunicorn")),
    }
    if workers is not None:
        env["WORKERS"] = str(workers)
    if threads is not None:
        env["THREADS"] = str(threads)
    command = [str(ROOT / "scripts" / "host"), str(port), *options]
    return subprocess.Popen(command, cwd=ROOT, env=env)


def wait_until_up(url: str, server: subprocess.Popen, seconds: float = 120) -> None:
    # `server` is any process that should answer there: a host, or a proxy.
    """Until `url` answers (a busy machine may take a while to start the server);
    RuntimeError if the server stops or the time runs out first."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            urllib.request.urlopen(url, timeout=30).close()
            return
        except urllib.error.HTTPError:
            return  # it answered
        except OSError:  # refused while the host boots
            if time.monotonic() > deadline or server.poll() is not None:
                raise RuntimeError(f"{url} did not answer") from None
            time.sleep(0.2)


def stop(server: subprocess.Popen) -> None:
    server.terminate()
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()
