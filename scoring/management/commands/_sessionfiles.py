"""Shared by the session-file commands: read a file (or stdin) into a SessionDoc."""

import sys
from pathlib import Path

from django.core.management.base import CommandError

from scoring.engine.sessionfile import SessionDoc, SessionFileError, loads


def read_session_file(path: str) -> SessionDoc:
    """Parse FILE (`-` for stdin); any problem is exit status 2 with a one-line message."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CommandError(f"{path}: cannot read: {error}", returncode=2) from None
    try:
        return loads(text)
    except SessionFileError as error:
        raise CommandError(str(error), returncode=2) from None
