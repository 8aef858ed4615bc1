"""Issue 24's "done when": a new boolean rule option whose default changes
nothing takes one declaration on `Rules` (CONTRIBUTING: "A new rule option").

tests/one_declaration/plugin.py adds such an option to the engine's source as it
is imported, in a fresh pytest run, and tests/one_declaration/pages.py then
renders the how-it-works guide (the option's example and the presets side by
side), the new-session form, the rules page (with the preset comparison),
the round form, the session page and the export, saves a session and its rules
with the option, and imports and refuses a file naming it: all without a 500,
in English and Nepali."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_new_boolean_option_needs_only_its_declaration():
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "tests.one_declaration.plugin",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
            "-q",
            str(ROOT / "tests" / "one_declaration" / "pages.py"),
        ],
        cwd=ROOT,
        # Always on its own SQLite file (settings_test names it by pid): under
        # scripts/with-postgres a second run on DATABASE_URL would clobber this
        # run's test database.
        env={
            **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SQLITE_PATH")},
            "DJANGO_ALLOW_ASYNC_UNSAFE": "true",
        },
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    assert "5 passed" in done.stdout, done.stdout[-3000:]
