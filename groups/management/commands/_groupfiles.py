"""Shared by the group-file commands: read a file (or stdin) into a GroupDoc;
bad input is one plain line on stderr with exit status 2."""

from django.core.management.base import CommandError

from localise.sessionfiles import load_group
from scoring.engine.groupfile import GroupDoc, GroupFileError
from scoring.management.commands._sessionfiles import SessionFileCommand, read_limited

__all__ = ["GroupFileCommand", "read_group_file"]
GroupFileCommand = SessionFileCommand


def read_group_file(path: str) -> GroupDoc:
    try:
        text = read_limited(path).decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise CommandError(f"{path}: cannot read: {reason}", returncode=2) from None
    try:
        return load_group(text)
    except GroupFileError as error:
        raise CommandError(str(error), returncode=2) from None
