"""Session files as the app reads them: the engine's `loads`, with the file's
`played_on` read as the app's date fields read a typed date (localise's
`parse_date`), so "2083-07-26" is 26 Kartik 2083 BS in a file as on the form,
and "2026-10-02" the Gregorian date. The engine itself stays free of calendars
other than the Gregorian one."""

from __future__ import annotations

import datetime

from scoring.engine.groupfile import GroupDoc
from scoring.engine.groupfile import loads as loads_group
from scoring.engine.sessionfile import SessionDoc, loads

from .bikram_sambat import parse_date


def read_played_on(text: str) -> datetime.date:
    """A file's evening date, in either calendar (BikramSambatError is a ValueError)."""
    return parse_date(text)


def load_session(text: str) -> SessionDoc:
    return loads(text, read_played_on)


def load_group(text: str) -> GroupDoc:
    """A group file, its evenings' dates read as a session file's."""
    return loads_group(text, read_played_on)
