"""How often a seat may send its count: SEAT_SEND_LIMIT sends a
SEAT_SEND_WINDOW seconds per seat link (30 a minute: a player corrects a count
a few times a round, never thirty), counted where the failed log-ins are
(accounts/ratelimit.py: Redis with REDIS_URL, else the database), so across
every worker and host, each send counted in one atomic step before it is read."""

from __future__ import annotations

from django.conf import settings

from accounts.ratelimit import count_attempt, counter_key


def send_wait(token: str) -> int:
    """Count a send from the seat link `token`: seconds until it may send
    again if this send is one too many, else 0."""
    limit = getattr(settings, "SEAT_SEND_LIMIT", 30)
    window = getattr(settings, "SEAT_SEND_WINDOW", 60)
    return count_attempt([(counter_key(token, kind="seat-sends"), limit)], window=window)
