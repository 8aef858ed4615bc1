"""Shared by the session-file commands: read a file (or stdin) into a SessionDoc,
and report bad input as one plain line on stderr with exit status 2."""

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scoring.engine.sessionfile import SessionDoc, SessionFileError, loads


class SessionFileCommand(BaseCommand):
    """A command whose errors print as just their message (Django would prefix
    "CommandError: "), so the line reads `round 2, player Buwa, maal: …`."""

    def execute(self, *args, **options):
        try:
            return super().execute(*args, **options)
        except CommandError as error:
            # call_command (tests, other code) gets the exception itself.
            if not getattr(self, "_called_from_command_line", False) or options.get("traceback"):
                raise
            self.stderr.write(str(error))
            sys.exit(error.returncode)


def read_session_file(path: str) -> SessionDoc:
    """Parse FILE (`-` for stdin); any problem is exit status 2 with a one-line message."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise CommandError(f"{path}: cannot read: {reason}", returncode=2) from None
    try:
        return loads(text)
    except SessionFileError as error:
        raise CommandError(str(error), returncode=2) from None
