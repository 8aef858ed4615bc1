"""Shared by the group-file commands: read a file (or stdin) into a GroupDoc;
bad input is one plain line on stderr with exit status 2."""

from django.core.management.base import CommandError

from localise.sessionfiles import load_group
from scoring.engine.groupfile import GroupDoc, GroupFileError
from scoring.management.sessionfiles import SessionFileCommand, read_text

__all__ = ["GroupFileCommand", "read_group_file"]
GroupFileCommand = SessionFileCommand


def read_group_file(path: str) -> GroupDoc:
    text = read_text(path)
    try:
        return load_group(text)
    except GroupFileError as error:
        raise CommandError(str(error), returncode=2) from None
