"""Kept for branches that still import it here: the helpers live in
scoring/management/sessionfiles.py, the public name other apps import."""

from ..sessionfiles import (
    SessionFileCommand,
    read_limited,
    read_session_file,
    read_text,
    session_id,
    too_large,
)

__all__ = [
    "SessionFileCommand",
    "read_limited",
    "read_session_file",
    "read_text",
    "session_id",
    "too_large",
]
