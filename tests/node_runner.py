"""The project's JavaScript under Node, for the parity tests: each runner in
tests/js/ reads its cases as JSON on stdin and answers JSON on stdout."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest


def node() -> str:
    path = shutil.which("node")
    if path is None:
        pytest.fail("node is missing: the JavaScript parity tests need Node.js (Debian: nodejs)")
    return path


def run_node(runner: Path, cases: Any, *, timeout: int = 120) -> Any:
    """What `runner` answers for `cases`; its error output if it fails."""
    done = subprocess.run(
        [node(), str(runner)],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
