"""Player names: one rule for forms, session files and the database.

A name is stored in Unicode NFC with runs of whitespace collapsed, so a composed
and a decomposed "René" are one name. Invisible characters are refused, not
silently removed: zero-width and text-direction controls (and every other
format character) can make two names look alike, or a name look like nothing.
The one exception is a zero-width joiner or non-joiner after a Devanagari
letter, which Nepali writing uses to choose a conjunct's shape.

Two names are the same player when their keys are equal: NFC, case folded, with
those joiners dropped (`player_key`). Sessions are unique by key, and the stats
match people across sessions by it.
"""

from __future__ import annotations

import unicodedata

from .limits import MAX_PLAYER_NAME_LENGTH
from .messages import EngineError, gettext_noop, message

JOINERS = frozenset("\u200c\u200d")  # zero-width non-joiner and joiner
# Characters that draw nothing although Unicode calls them letters or symbols.
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")


class PlayerNameError(EngineError):
    """A name that cannot be a player's; the message says why."""


def _devanagari(char: str) -> bool:
    return "\u0900" <= char <= "\u097f" or "\ua8e0" <= char <= "\ua8ff"


def _invisible_at(text: str) -> int | None:
    """The index of the first refused invisible character, or None."""
    for index, char in enumerate(text):
        if char in BLANKS or unicodedata.category(char) in ("Cf", "Cc", "Co", "Cs", "Zl", "Zp"):
            if char in JOINERS and index and _devanagari(text[index - 1]):
                continue
            return index
    return None


def _visible(char: str) -> bool:
    return char not in BLANKS and unicodedata.category(char)[0] in "LNPS"


def clean_player_name(value: str) -> str:
    """The name as stored (NFC, whitespace collapsed); PlayerNameError if it is
    empty, invisible, holds an invisible character or is too long."""
    name = " ".join(unicodedata.normalize("NFC", value).split())
    if not name:
        raise PlayerNameError(message(gettext_noop("a player name must not be empty")))
    if not any(_visible(char) for char in name):
        raise PlayerNameError(
            message(
                gettext_noop(
                    "a player name must have a visible letter or digit, not only "
                    "invisible characters"
                )
            )
        )
    at = _invisible_at(name)
    if at is not None:
        raise PlayerNameError(
            message(
                gettext_noop(
                    "%(name)s contains an invisible character (U+%(code)s, a zero-width "
                    "or text-direction control); type the name again without it"
                ),
                name=(name[:at] + name[at + 1 :]).strip()[:MAX_PLAYER_NAME_LENGTH],
                code=f"{ord(name[at]):04X}",
            )
        )
    if len(name) > MAX_PLAYER_NAME_LENGTH:
        raise PlayerNameError(
            message(
                gettext_noop("%(name)s…: a name may be at most %(max)s characters"),
                name=name[:20],
                max=MAX_PLAYER_NAME_LENGTH,
            )
        )
    return name


def player_key(name: str) -> str:
    """The same player: NFC, case folded, whitespace collapsed, joiners dropped.
    Folding can undo NFC ("ǰ" folds to j and a combining caron), hence NFC twice."""
    folded = unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())
    return " ".join("".join(c for c in folded if c not in JOINERS).split())
