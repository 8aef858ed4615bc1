"""Every name Call Break's web side takes from `scoring`, in one place, so the
seams between the apps can be moved without looking through the rest: the
one-time keys, the live channel and its streams, the engine's words in the
reader's language, names and numbers as the Marriage forms read them, and
one snapshot for a read of several queries."""

from scoring.engine.names import player_key
from scoring.engine.numbers import NotANumber, TooManyDigits, parse_whole
from scoring.forms.files import FileForm
from scoring.forms.players import clean_player
from scoring.selectors.saves import (
    REUSED,
    SaveKeyRefused,
    repeated_save,
)
from scoring.selectors.snapshot import read_snapshot
from scoring.services.savekeys import once, remember_save
from scoring.web.live import live_etag
from scoring.web.push import announce
from scoring.web.streams import follow
from scoring.web.uploads import too_large
from scoring.words.i18n import translate

__all__ = [
    "REUSED",
    "FileForm",
    "NotANumber",
    "SaveKeyRefused",
    "TooManyDigits",
    "announce",
    "clean_player",
    "follow",
    "live_etag",
    "once",
    "parse_whole",
    "player_key",
    "read_snapshot",
    "remember_save",
    "repeated_save",
    "too_large",
    "translate",
]
