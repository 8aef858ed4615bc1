"""Every bound on input, in one place: the session-file format and every form use
these, so what a form allows a file allows, and the reverse. Each is checked
before the work it bounds (a file's size before it is read, a list's length
before its items are looked at), and every check is linear.

README.md lists them for users.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from .rules import MAX_PLAYERS_LIMIT

# A session the web lets grow must fit in its own backup: MAX_ROUNDS rounds of
# the largest kind (MAX_ROUND_ENTRIES players with 40-character names in 4-byte
# characters, every maal item counted, dhoos booked to the next winner) export
# to about 10.5 MB, so the file limit is above that (tests/site/test_limits.py).
MAX_FILE_BYTES = 12 * 1024 * 1024
MAX_SESSION_PLAYERS = 30  # far more than sit at one table; guards against a pasted essay
MAX_ROUNDS = 1_000  # a long festival of nights is a few hundred; the web stops here too
MAX_ROUND_ENTRIES = MAX_PLAYERS_LIMIT  # no round seats more than the rules' highest max_players
MAX_NAME_LENGTH = 100  # a session's name
MAX_PLAYER_NAME_LENGTH = 40
MAX_CURRENCY_LENGTH = 8  # once upper-cased: "ß" becomes "SS"
MAX_TALLY_CHARS = 4_000  # the maal calculator's count of one player, as JSON
MAX_JSON_DEPTH = 20  # a session file nests 5 deep; a tally 3


class InputTooLarge(ValueError):
    """Input over one of the limits above; the message names the limit."""


def check_depth(data: Any, limit: int = MAX_JSON_DEPTH) -> bool:
    """True if decoded JSON nests no deeper than `limit`; walks each value once,
    without recursion, so a hostile nesting cannot exhaust the stack."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        children: Iterable[Any]
        if isinstance(value, dict):
            children = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > limit:
            return False
        stack.extend((child, depth + 1) for child in children)
    return True


class KeyGivenTwice(ValueError):
    """A key given twice in one object: `path` leads to the object (keys and
    1-based list positions), `key` is the key; the message names both."""

    def __init__(self, path: list[str], key: str) -> None:
        super().__init__(", ".join([*path, f"{key}: given twice"]))
        self.path = tuple(path)
        self.key = key


class DuplicateKeys(dict[str, Any]):
    """A JSON object that remembers keys given more than once (json keeps the last),
    so `"winner": "A", "winner": "B"` is refused rather than silently read as B."""

    duplicate_keys: tuple[str, ...] = ()


def object_pairs(pairs: list[tuple[str, Any]]) -> DuplicateKeys:
    obj = DuplicateKeys(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        twice: dict[str, None] = {}
        for key, _value in pairs:
            if key in seen:
                twice[key] = None
            seen.add(key)
        obj.duplicate_keys = tuple(twice)
    return obj


def first_duplicate(data: Any) -> tuple[list[str], str] | None:
    """The path to the first object (in document order) that gives a key twice,
    and that key; None if none does. Paths are keys and 1-based list positions."""
    stack: list[tuple[Any, list[str]]] = [(data, [])]
    while stack:
        value, path = stack.pop()
        if isinstance(value, dict):
            duplicates = getattr(value, "duplicate_keys", ())
            if duplicates:
                return path, duplicates[0]
            items = [(child, [*path, str(key)]) for key, child in value.items()]
        elif isinstance(value, list):
            items = [(child, [*path, str(i)]) for i, child in enumerate(value, start=1)]
        else:
            continue
        stack.extend(reversed(items))
    return None


def loads_bounded(text: str, max_chars: int, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """JSON text decoded with its bounds checked: ValueError (a one-line message)
    if it is longer than `max_chars` or nested deeper than `max_depth`
    (InputTooLarge), not JSON, or gives a key twice in one object (KeyGivenTwice)."""
    if len(text) > max_chars:
        raise InputTooLarge(f"longer than {max_chars:,} characters")
    try:
        data = json.loads(text, object_pairs_hook=object_pairs)
    except RecursionError:
        raise InputTooLarge(f"nested more than {max_depth} deep") from None
    if not check_depth(data, max_depth):
        raise InputTooLarge(f"nested more than {max_depth} deep")
    duplicate = first_duplicate(data)
    if duplicate is not None:
        raise KeyGivenTwice(*duplicate)
    return data
