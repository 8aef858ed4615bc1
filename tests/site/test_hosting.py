"""The hosted install recipe (docs/hosting.md, deploy/): its production
environment passes `check --deploy` with no issue, the Caddyfile and the
systemd units are valid, and a backup restores (the restore drill)."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import sys
import urllib.parse
from pathlib import Path

import pytest

from benchmarks.hosts import free_port, start_host, stop, wait_until_up

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def documented_env() -> dict[str, str]:
    """deploy/env.example as systemd reads it, with a real SECRET_KEY."""
    env = {}
    for line in (DEPLOY / "env.example").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            env[name.strip()] = value.strip()
    assert env["SECRET_KEY"].startswith("replace-with")
    env["SECRET_KEY"] = secrets.token_urlsafe(50)
    return env


def test_the_documented_environment_passes_check_deploy(tmp_path):
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path)} | documented_env()
    assert env["DATABASE_URL"].startswith("postgres://") and env["REDIS_URL"]
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "DEBUG"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_hosting_md_shows_every_variable_of_the_environment():
    text = (ROOT / "docs" / "hosting.md").read_text()
    for name in documented_env():
        assert f"`{name}`" in text, name


@pytest.mark.skipif(shutil.which("caddy") is None, reason="caddy is not installed")
def test_the_caddyfile_is_valid(tmp_path):
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path)}
    env |= {"XDG_CONFIG_HOME": str(tmp_path), "APP_UPSTREAMS": "10.0.0.11:8000 10.0.0.12:8000"}
    result = subprocess.run(
        ["caddy", "validate", "--adapter", "caddyfile", "--config", str(DEPLOY / "Caddyfile")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "Valid configuration" in result.stdout + result.stderr
    fmt = subprocess.run(
        ["caddy", "fmt", str(DEPLOY / "Caddyfile")], capture_output=True, text=True, timeout=60
    )
    assert fmt.stdout == (DEPLOY / "Caddyfile").read_text()  # as caddy fmt writes it


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_the_systemd_units_are_valid(tmp_path):
    # As installed, with /srv/marriage standing for this checkout.
    for name in ("marriage.service", "marriage-backup.service", "marriage-backup.timer"):
        text = (DEPLOY / name).read_text().replace("/srv/marriage", str(ROOT))
        (tmp_path / name).write_text(text)
    result = subprocess.run(
        ["systemd-analyze", "verify", *(str(p) for p in sorted(tmp_path.iterdir()))],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    problems = [
        line
        for line in (result.stdout + result.stderr).splitlines()
        # A build machine may have no such user, nor the database's units.
        if line.strip() and "marriage" in line.split(":")[0]
    ]
    assert result.returncode == 0 and not problems, result.stdout + result.stderr


def run(command: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


EVENING = {
    "format": "marriage-session/1",
    "name": "Dashain 2026",
    "played_on": "2026-10-02",
    "currency": "NPR",
    "stake_per_point": "2.50",
    "rules": {"preset": "nepal"},
    "players": ["Aama", "Buwa", "Didi"],
    "rounds": [
        {
            "winner": "Didi",
            "entries": [
                {"player": "Aama", "status": "seen", "maal": 4},
                {"player": "Buwa", "status": "unseen", "maal": 0},
                {"player": "Didi", "status": "seen", "maal": 7},
            ],
        }
    ]
    * 3,
}


def live_install(tmp_path: Path, **env_vars: str) -> dict[str, str]:
    """A migrated database holding the same evening twice; the env to reach it."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env |= {
        "DJANGO_SETTINGS_MODULE": "marriage_site.settings",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "SQLITE_PATH": str(tmp_path / "live.sqlite3"),
        "BACKUP_DIR": str(tmp_path / "backups"),
        "PYTHON": sys.executable,
    } | env_vars
    env.pop("CACHE_DIR", None)
    migrated = run([sys.executable, "manage.py", "migrate", "-v0"], env)
    assert migrated.returncode == 0, migrated.stderr
    source = tmp_path / "evening.json"
    source.write_text(json.dumps(EVENING))
    for _ in range(2):
        imported = run(
            [sys.executable, "manage.py", "import_session", str(source), "--second-copy"], env
        )
        assert imported.returncode == 0, imported.stderr
    return env


def test_a_backup_restores_in_the_drill(tmp_path):
    env = live_install(tmp_path)

    backup = run([str(DEPLOY / "backup")], env)
    assert backup.returncode == 0, backup.stderr
    assert "(2 sessions)" in backup.stdout
    [made] = (tmp_path / "backups").iterdir()
    assert sorted(p.name for p in (made / "sessions").iterdir()) == [
        "session-1.json",
        "session-2.json",
    ]

    drill = run([str(DEPLOY / "restore-drill")], env)  # the newest backup
    assert drill.returncode == 0, drill.stderr
    assert "2 sessions, 6 rounds" in drill.stdout
    assert "each imports and exports again byte for byte" in drill.stdout

    # A backup that does not restore as saved fails the drill, naming the file.
    spoiled = made / "sessions" / "session-2.json"
    doc = json.loads(spoiled.read_text())
    doc["totals"]["Aama"] += 1
    spoiled.write_text(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
    drill = run([str(DEPLOY / "restore-drill"), str(made)], env)
    assert drill.returncode == 1
    assert f"{spoiled} does not restore as it was saved" in drill.stderr


@pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="needs PostgreSQL: scripts/with-postgres",
)
def test_the_database_dump_restores_in_the_drill(tmp_path):
    import psycopg

    server = os.environ["DATABASE_URL"]
    names = {role: f"{role}_{secrets.token_hex(4)}" for role in ("live", "drill")}
    with psycopg.connect(server, autocommit=True) as connection:
        for name in names.values():
            connection.execute(f'CREATE DATABASE "{name}"')
    url = {
        role: urllib.parse.urlunsplit(urllib.parse.urlsplit(server)._replace(path=f"/{name}"))
        for role, name in names.items()
    }
    try:
        env = live_install(tmp_path, DATABASE_URL=url["live"])
        backup = run([str(DEPLOY / "backup")], env)
        assert backup.returncode == 0, backup.stderr
        [made] = (tmp_path / "backups").iterdir()
        assert (made / "database.dump").stat().st_size > 0
        drill = run(
            [str(DEPLOY / "restore-drill")], env | {"RESTORE_DRILL_DATABASE_URL": url["drill"]}
        )
        assert drill.returncode == 0, drill.stderr
        assert "2 sessions, 6 rounds" in drill.stdout
        assert "database.dump restored: 2 sessions (2 files), 0 users" in drill.stdout
    finally:
        with psycopg.connect(server, autocommit=True) as connection:
            for name in names.values():
                connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.skipif(shutil.which("caddy") is None, reason="caddy is not installed")
def test_caddy_spreads_the_requests_over_the_app_hosts(tmp_path):
    """deploy/Caddyfile in front of two app hosts (scripts/host): served through
    it, the pages come gzipped with the app's own headers, a live page's stream
    passes each event at once (nothing buffered), and when a host stops, the
    other answers every request. As in production but over plain HTTP
    on a free port (no certificate to get here): only its global options and
    the site's scheme differ."""
    import urllib.error
    import urllib.request

    caddyfile = (DEPLOY / "Caddyfile").read_text()
    site = caddyfile.index("{$SITE_ADDRESS")
    # Served over HTTP (http:// before the address), no admin endpoint.
    test_caddyfile = "{\n\tadmin off\n\tauto_https off\n}\n\nhttp://" + caddyfile[site:]
    (tmp_path / "Caddyfile").write_text(test_caddyfile)
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env |= {
        "DJANGO_SETTINGS_MODULE": "tests.twohost_settings",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SQLITE_PATH": str(tmp_path / "db.sqlite3"),
        "STATIC_ROOT": str(tmp_path),
        "BEHIND_PROXY": "1",
        "LOG_LEVEL": "ERROR",
    }
    env.pop("CACHE_DIR", None)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    assert run([sys.executable, "manage.py", "migrate", "-v0"], env).returncode == 0
    made = run(
        [
            sys.executable,
            *("manage.py", "shell", "-v", "0", "-c"),
            "from scoring.models import GameSession; from scoring import services; "
            "print(services.create_share_link(session=GameSession.objects.create(name='Live')))",
        ],
        env,
    )
    assert made.returncode == 0, made.stderr
    token = made.stdout.strip()
    ports = [free_port(), free_port()]
    hosts = [start_host(port, env) for port in ports]
    front = free_port()
    caddy_env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path)}
    caddy_env |= {"XDG_DATA_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path)}
    caddy_env |= {
        "SITE_ADDRESS": f"127.0.0.1:{front}",
        "APP_UPSTREAMS": " ".join(f"127.0.0.1:{port}" for port in ports),
    }
    caddy = subprocess.Popen(
        ["caddy", "run", "--adapter", "caddyfile", "--config", str(tmp_path / "Caddyfile")],
        cwd=tmp_path,
        env=caddy_env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{front}"
    try:
        for port, host in zip(ports, hosts, strict=True):
            wait_until_up(f"http://127.0.0.1:{port}/accounts/login/", host)
        wait_until_up(base + "/accounts/login/", caddy)
        request = urllib.request.Request(
            base + "/accounts/login/", headers={"Accept-Encoding": "gzip"}
        )
        with urllib.request.urlopen(request, timeout=30) as page:
            assert page.status == 200
            assert page.headers["Content-Encoding"] == "gzip"
            assert page.headers["Server"] is None  # neither Caddy's nor gunicorn's
            assert page.headers["Content-Security-Policy"]  # the app's own headers pass
        # A stream's first event comes through at once, though the stream goes on.
        stream = urllib.request.Request(
            f"{base}/s/{token}/stream/", headers={"Accept-Encoding": "gzip"}
        )
        with urllib.request.urlopen(stream, timeout=30) as events:
            assert events.headers["Content-Type"] == "text/event-stream"
            assert events.headers["Content-Encoding"] is None
            assert events.readline() == b"retry: 3000\n"
            assert events.readline() == b"event: version\n"
        # One host stops: every request is answered by the other.
        hosts[0].terminate()
        hosts[0].wait(timeout=30)
        for _ in range(6):
            with urllib.request.urlopen(base + "/accounts/login/", timeout=30) as page:
                assert page.status == 200
    finally:
        for process in (caddy, *hosts):
            stop(process)


def test_a_stopping_host_ends_its_streams_at_once(tmp_path):
    """A host told to stop (a deploy's reload, a restart) ends each stream with
    "bye", for its page to open another on a host still running, instead of
    holding it until its graceful time runs out (here a minute)."""
    import signal
    import socket

    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env |= {
        "DJANGO_SETTINGS_MODULE": "tests.twohost_settings",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SQLITE_PATH": str(tmp_path / "db.sqlite3"),
        "STATIC_ROOT": str(tmp_path),
        "LOG_LEVEL": "ERROR",
        "GRACEFUL_TIMEOUT": "60",
    }
    env.pop("CACHE_DIR", None)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    assert run([sys.executable, "manage.py", "migrate", "-v0"], env).returncode == 0
    made = run(
        [
            sys.executable,
            *("manage.py", "shell", "-v", "0", "-c"),
            "from scoring.models import GameSession; from scoring import services; "
            "print(services.create_share_link(session=GameSession.objects.create(name='Live')))",
        ],
        env,
    )
    token = made.stdout.strip()
    port = free_port()
    host = start_host(port, env)
    try:
        wait_until_up(f"http://127.0.0.1:{port}/accounts/login/", host)
        with socket.create_connection(("127.0.0.1", port), timeout=30) as stream:
            stream.sendall(f"GET /s/{token}/stream/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            received = b""
            while b"event: version" not in received:
                received += stream.recv(65536)
            host.send_signal(signal.SIGTERM)
            while data := stream.recv(65536):  # until the host closes it
                received += data
        assert b"event: bye\n" in received
        assert host.wait(timeout=30) == 0  # well before its graceful minute
    finally:
        stop(host)
