"""The pot hands engine (CALLBREAK.md §9): pure Python, no Django. A decoded
`pot-session/1` document or a `PotSession` in; refusals, or each player's money
per hand and in all, and who pays whom, out. Money is whole paisa; never a
float."""

from .hands import Hand, PotResult, PotSession, split
from .limits import LIMITS
from .potfile import (
    FORMAT,
    read_session,
    refusals,
    result_document,
    session_document,
    session_money,
    settle_document,
    settle_session,
)

__all__ = [
    "FORMAT",
    "LIMITS",
    "Hand",
    "PotResult",
    "PotSession",
    "read_session",
    "refusals",
    "result_document",
    "session_document",
    "session_money",
    "settle_document",
    "settle_session",
    "split",
]
