"""The database settings: DATABASE_URL selects PostgreSQL through psycopg 3, and
SQLite runs in WAL mode with a busy timeout. The whole suite runs on both
(`make test`: once plain, once under scripts/with-postgres)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """manage.py with the real (not test) settings and a controlled environment."""
    base = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SQLITE_PATH")}
    base["DJANGO_SETTINGS_MODULE"] = "marriage_site.settings"
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


SHOW_DB = """
import json
from django.conf import settings
from django.db import connection
db = settings.DATABASES["default"]
out = {"engine": db["ENGINE"], "name": str(db["NAME"]), "host": db.get("HOST", "")}
if connection.vendor == "sqlite":
    with connection.cursor() as cursor:
        out["journal_mode"] = cursor.execute("PRAGMA journal_mode").fetchone()[0]
        out["busy_timeout"] = cursor.execute("PRAGMA busy_timeout").fetchone()[0]
        out["synchronous"] = cursor.execute("PRAGMA synchronous").fetchone()[0]
print(json.dumps(out))
"""


def test_sqlite_file_database_runs_in_wal_mode_with_a_busy_timeout(tmp_path):
    result = run_manage("shell", "-v", "0", "-c", SHOW_DB, SQLITE_PATH=str(tmp_path / "db.sqlite3"))
    assert result.returncode == 0, result.stderr
    shown = json.loads(result.stdout.splitlines()[-1])
    assert shown["engine"] == "django.db.backends.sqlite3"
    assert shown["name"] == str(tmp_path / "db.sqlite3")
    assert shown["journal_mode"] == "wal"
    assert shown["busy_timeout"] == 20_000  # milliseconds: a second writer waits 20 s
    assert shown["synchronous"] == 1  # NORMAL, safe with WAL
    # WAL is a property of the file: any later connection finds it on.
    with closing(sqlite3.connect(tmp_path / "db.sqlite3")) as plain:
        assert plain.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_database_url_selects_postgresql():
    result = run_manage(
        "shell",
        "-c",
        "from django.conf import settings; import json; "
        "db = settings.DATABASES['default']; "
        "print(json.dumps([db['ENGINE'], db['NAME'], db['HOST'], db['PORT'], db['USER']]))",
        DATABASE_URL="postgres://card:secret@127.0.0.1:5433/marriage",
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.splitlines()[-1]) == [
        "django.db.backends.postgresql",
        "marriage",
        "127.0.0.1",
        5433,
        "card",
    ]


def test_postgresql_driver_is_psycopg_3():
    import psycopg

    assert psycopg.__version__.startswith("3.")
    from django.db.backends.postgresql import base

    assert base.is_psycopg3


@pytest.mark.django_db
def test_suite_runs_on_the_database_it_was_given():
    """Under scripts/with-postgres the tests really run on PostgreSQL, not SQLite."""
    expected = "postgresql" if os.environ.get("DATABASE_URL", "").startswith("postg") else "sqlite"
    assert connection.vendor == expected
    if expected == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SHOW server_version")
            assert int(cursor.fetchone()[0].split(".")[0]) >= 13
