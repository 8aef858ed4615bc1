"""Every bound on a `pot-session/1` document, each checked before the work it
bounds (callbreak/engine/limits.py holds the kind's `Limits` and the JSON
reader both documents share). docs/callbreak.md lists them for users."""

from __future__ import annotations

from callbreak.engine.limits import (
    MAX_DOCUMENT_BYTES,
    MAX_JSON_DEPTH,
    MAX_NAME_LENGTH,
    MAX_REFUSALS,
    Limits,
)
from callbreak.engine.money import MAX_MONEY

MIN_PLAYERS = 2
MAX_PLAYERS = 10  # §9: 2 to 10 at one table
# An all-night session is a few hundred pots; over this the document is refused
# before any hand is read.
MAX_HANDS = 1_000

LIMITS = Limits(
    document_bytes=MAX_DOCUMENT_BYTES,
    json_depth=MAX_JSON_DEPTH,
    players_low=MIN_PLAYERS,
    players_high=MAX_PLAYERS,
    name_length=MAX_NAME_LENGTH,
    items=MAX_HANDS,
    money=MAX_MONEY,
    refusals=MAX_REFUSALS,
)
