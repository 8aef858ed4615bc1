"""Every bound on a game document, in one place, each checked before the work it
bounds: a file's size before it is read, a list's length before its items are
looked at, a name's length before it is compared. Pot sessions (pots/engine/)
read their documents through the same `loads`.

docs/callbreak.md lists them for users.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from scoring.engine.limits import (
    MAX_FILE_BYTES,
    MAX_JSON_DEPTH,
    MAX_PLAYER_NAME_LENGTH,
    check_depth,
    first_duplicate,
    object_pairs,
)
from scoring.engine.messages import EngineError, gettext_noop, message
from scoring.engine.sessionfile import JSON_PROBLEMS

from .money import MAX_MONEY

PLAYERS = 4  # Call Break is four players, 13 cards each (§10: no other count)
TRICKS = 13
# A target game can run long; a family's evening is 5 deals, a long festival
# night a few dozen. Over this the document is refused before any deal is read.
MAX_DEALS = 1_000
# A game file is read like a session file: the same size limit and nesting.
MAX_DOCUMENT_BYTES = MAX_FILE_BYTES
MAX_NAME_LENGTH = MAX_PLAYER_NAME_LENGTH  # a player is a group member in the purse (§12)
# A document with more problems than this says so once, and is not read further.
MAX_REFUSALS = 100


@dataclass(frozen=True, slots=True)
class Limits:
    """A document kind's bounds, as one value (what a form or page shows)."""

    document_bytes: int
    json_depth: int
    players_low: int
    players_high: int
    name_length: int
    items: int  # deals of a game, hands of a pot session
    money: Decimal
    refusals: int


LIMITS = Limits(
    document_bytes=MAX_DOCUMENT_BYTES,
    json_depth=MAX_JSON_DEPTH,
    players_low=PLAYERS,
    players_high=PLAYERS,
    name_length=MAX_NAME_LENGTH,
    items=MAX_DEALS,
    money=MAX_MONEY,
    refusals=MAX_REFUSALS,
)


TOO_DEEP = message(gettext_noop("lists or objects nested too deep"))
TOO_LONG = message(gettext_noop("a number with too many digits"))


class DocumentError(EngineError):
    """Text that is no document at all: too large, not JSON, nested too deep, or
    a key given twice in one object. The message is one line."""


def loads(text: str, max_chars: int = MAX_DOCUMENT_BYTES) -> Any:
    """A document's JSON text, decoded with its bounds checked first. A number
    with a fraction is read as a Decimal, never a float (and then refused where
    a whole number or a money string belongs); a key given twice is refused,
    not read as its last value."""
    if len(text) > max_chars:
        raise DocumentError(
            message(gettext_noop("larger than the limit of %(max)s bytes"), max=f"{max_chars:,}")
        )
    try:
        data = json.loads(
            text.removeprefix("\ufeff"), object_pairs_hook=object_pairs, parse_float=Decimal
        )
    except json.JSONDecodeError as error:
        raise DocumentError(
            message(
                gettext_noop("not JSON: %(problem)s at line %(line)s, column %(column)s"),
                problem=JSON_PROBLEMS.get(error.msg, error.msg),
                line=error.lineno,
                column=error.colno,
            )
        ) from None
    except RecursionError:
        raise DocumentError(
            message(gettext_noop("not JSON: %(problem)s"), problem=TOO_DEEP)
        ) from None
    except ValueError as error:  # e.g. a number of more than 4,300 digits
        problem = TOO_LONG if str(error).startswith("Exceeds the limit") else str(error)[:80]
        raise DocumentError(
            message(gettext_noop("not JSON: %(problem)s"), problem=problem)
        ) from None
    if not check_depth(data, MAX_JSON_DEPTH):
        raise DocumentError(
            message(gettext_noop("nested more than %(max)s deep"), max=MAX_JSON_DEPTH)
        )
    duplicate = first_duplicate(data)
    if duplicate is not None:
        path, key = duplicate
        raise DocumentError(
            message(
                gettext_noop("%(where)s: given twice"),
                where=", ".join([*path, key]),
            )
        )
    return data
