"""Shared by the game-file commands (`settle_callbreak`, pots' `settle_pot`):
read a file (or stdin) as the session-file commands do, bounded before it is
read, and settle it; bad input is plain lines on stderr with exit status 2."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from django.core.management.base import CommandError, CommandParser

from callbreak.engine.limits import DocumentError, loads
from callbreak.engine.refusals import Refusal
from scoring.management.sessionfiles import SessionFileCommand, read_text

__all__ = ["GameFileCommand", "add_arguments", "settle_file"]
GameFileCommand = SessionFileCommand


def add_arguments(parser: CommandParser) -> None:
    parser.add_argument("file", help="the document to settle, or - to read stdin")
    parser.add_argument(
        "--all",
        action="store_true",
        help=(
            "when the document is refused, print every refusal, one a line, in the "
            "order they were found (without it, only the first)"
        ),
    )


def settle_file(
    path: str,
    *,
    refusals: Callable[[object], Sequence[Refusal]],
    settle: Callable[[object], dict[str, Any]],
    every: bool = False,
) -> str:
    """FILE (`-` for stdin) settled, as the result's JSON text. Unreadable, too
    large or not JSON: CommandError (exit status 2) with one line naming the
    file; refused: CommandError with its first refusal (every one with `every`),
    `CODE: where: problem`."""
    text = read_text(path)
    try:
        data = loads(text)
    except DocumentError as error:
        raise CommandError(f"{path}: {error}", returncode=2) from None
    found = refusals(data)
    if found:
        shown = found if every else found[:1]
        raise CommandError("\n".join(str(item) for item in shown), returncode=2)
    return json.dumps(settle(data), indent=2, ensure_ascii=False) + "\n"
