"""Shared by the group-file commands: read a file (or stdin) into a PurseFile
(the group and its other_games); bad input is one plain line on stderr with
exit status 2."""

from django.core.management.base import CommandError

from groups.groupfile import PurseFile, load_purse
from scoring.engine.groupfile import GroupFileError
from scoring.management.sessionfiles import SessionFileCommand, read_text

__all__ = ["GroupFileCommand", "read_group_file"]
GroupFileCommand = SessionFileCommand


def read_group_file(path: str) -> PurseFile:
    text = read_text(path)
    try:
        return load_purse(text)
    except GroupFileError as error:
        raise CommandError(str(error), returncode=2) from None
