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

from .limits import MAX_CURRENCY_LENGTH, MAX_NAME_LENGTH, MAX_PLAYER_NAME_LENGTH
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


def _normal(value: str) -> str:
    return " ".join(unicodedata.normalize("NFC", value).split())


def _check_shown(name: str, *, max_length: int, only_invisible: str) -> str:
    """`name` (already normalised) if it draws something, holds no invisible
    character and is at most `max_length` long; else the error saying which.
    Every bound is checked on the text as it will be stored."""
    if not any(_visible(char) for char in name):
        raise PlayerNameError(message(only_invisible))
    at = _invisible_at(name)
    if at is not None:
        raise PlayerNameError(
            message(
                gettext_noop(
                    "%(name)s contains an invisible character (U+%(code)s, a zero-width "
                    "or text-direction control); type the name again without it"
                ),
                name=(name[:at] + name[at + 1 :]).strip()[:max_length],
                code=f"{ord(name[at]):04X}",
            )
        )
    if len(name) > max_length:
        raise PlayerNameError(
            message(
                gettext_noop("%(name)s…: a name may be at most %(max)s characters"),
                name=name[:20],
                max=max_length,
            )
        )
    return name


def clean_player_name(value: str) -> str:
    """The name as stored (NFC, whitespace collapsed); PlayerNameError if it is
    empty, invisible, holds an invisible character or is too long."""
    name = _normal(value)
    if not name:
        raise PlayerNameError(message(gettext_noop("a player name must not be empty")))
    return _check_shown(
        name,
        max_length=MAX_PLAYER_NAME_LENGTH,
        only_invisible=gettext_noop(
            "a player name must have a visible letter or digit, not only invisible characters"
        ),
    )


def clean_session_name(value: str) -> str:
    """A session's name as stored, by the rule of player names (NFC, whitespace
    collapsed, nothing invisible), at most MAX_NAME_LENGTH long once normalised;
    PlayerNameError saying what is wrong."""
    name = _normal(value)
    if not name:
        raise PlayerNameError(message(gettext_noop("a session name must not be empty")))
    return _check_shown(
        name,
        max_length=MAX_NAME_LENGTH,
        only_invisible=gettext_noop(
            "a session name must have a visible letter or digit, not only invisible characters"
        ),
    )


def clean_currency(value: str) -> str:
    """A currency code as stored: upper-cased, then bounded (an upper-cased "ß"
    is "SS": eight of them make 16 characters), 1 to MAX_CURRENCY_LENGTH
    visible characters; PlayerNameError saying what is wrong."""
    code = unicodedata.normalize("NFC", value.strip().upper())
    if not code or not any(_visible(char) for char in code) or _invisible_at(code) is not None:
        raise PlayerNameError(
            message(
                gettext_noop("a currency must be a short code such as NPR, got %(value)s"),
                value=repr(value[:20]),
            )
        )
    if len(code) > MAX_CURRENCY_LENGTH:
        raise PlayerNameError(
            message(
                gettext_noop(
                    "a currency may be at most %(max)s characters once in capitals, "
                    "got %(value)s (%(count)s)"
                ),
                max=MAX_CURRENCY_LENGTH,
                value=code[:20],
                count=len(code),
            )
        )
    return code


def player_key(name: str) -> str:
    """The same player: NFC, case folded, whitespace collapsed, joiners dropped.
    Folding can undo NFC ("ǰ" folds to j and a combining caron), hence NFC twice."""
    folded = unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())
    return " ".join("".join(c for c in folded if c not in JOINERS).split())
