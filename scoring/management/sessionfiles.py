"""Shared by the session-file commands: read a file (or stdin) into a SessionDoc,
and report bad input as one plain line on stderr with exit status 2."""

import argparse
import os
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from localise.sessionfiles import load_session
from scoring.engine.limits import MAX_FILE_BYTES
from scoring.engine.numbers import NotANumber, parse_whole
from scoring.engine.sessionfile import SessionDoc, SessionFileError


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


def session_id(text: str) -> int:
    """A session id as typed: ASCII digits only (argparse's int() would read "٣"
    as 3 and "1_0" as 10, and so export or share another session)."""
    try:
        value = parse_whole(text)
    except NotANumber:
        raise argparse.ArgumentTypeError(f"not a session id: {text[:20]!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"not a session id: {text[:20]!r}")
    return value


def too_large(path: str) -> CommandError:
    return CommandError(
        f"{path}: larger than the limit of {MAX_FILE_BYTES:,} bytes for a session file",
        returncode=2,
    )


def read_limited(path: str) -> bytes:
    """The file's bytes, its size checked before it is read whole (stdin: never
    more than one byte past the limit is read)."""
    if path == "-":
        buffer = getattr(sys.stdin, "buffer", None)  # None when a test swaps in a StringIO
        data = (
            buffer.read(MAX_FILE_BYTES + 1)
            if buffer is not None
            else sys.stdin.read(MAX_FILE_BYTES + 1).encode()
        )
    else:
        with Path(path).open("rb") as file:
            if os.fstat(file.fileno()).st_size > MAX_FILE_BYTES:
                raise too_large(path)
            data = file.read(MAX_FILE_BYTES + 1)  # it may have grown meanwhile
    if len(data) > MAX_FILE_BYTES:
        raise too_large(path)
    return data


def read_text(path: str) -> str:
    """FILE (`-` for stdin) as text, bounded; unreadable is exit status 2 with one line."""
    try:
        return read_limited(path).decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise CommandError(f"{path}: cannot read: {reason}", returncode=2) from None


def read_session_file(path: str) -> SessionDoc:
    """Parse FILE (`-` for stdin); any problem is exit status 2 with a one-line message."""
    text = read_text(path)
    try:
        return load_session(text)
    except SessionFileError as error:
        raise CommandError(str(error), returncode=2) from None
