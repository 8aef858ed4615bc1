"""A pot session's place on the live channel (scoring/web/push.py), which
carries only a number: a Marriage session's id, or a pot session's id beyond
LIVE_OFFSET, so the two never wake each other's streams."""

from __future__ import annotations

# Far beyond any Marriage session's id, and under push's 20 digits.
LIVE_OFFSET = 10**15


def stream_id(session_id: int) -> int:
    return LIVE_OFFSET + session_id
