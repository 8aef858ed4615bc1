"""The game-file commands run as a user runs them: a file written to disk, and
`manage.py` in a process of its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def write(tmp_path: Path, data: object, name: str = "game.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def manage(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """`manage.py` in its own process, with the tests' settings (it touches no database)."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=os.environ | {"PYTHONIOENCODING": "utf-8"},
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )
