"""Reads of the table of phones that other apps' views need."""

from __future__ import annotations

from collections.abc import Sequence

from scoring.engine import RoundInput
from scoring.models import GameSession

from .models import SeatEntry

# A seat's values, by the name a round's entry gives them.
SEAT_FIELDS = ("status", "maal", "tunnel", "dhoos", "dublees")


def seat_sources(
    session: GameSession, position: int, round_: RoundInput, players: Sequence[str]
) -> dict[str, list[str]]:
    """For round `position` as it is saved: by player, the values that are the
    ones their own seat's phone sent (SeatEntry), for the round's history.
    `players`: those whose lines the form says came from their seats (no query
    when none did). A value the scorer changed after it came is theirs; nothing
    is credited to a seat that sent nothing."""
    if not players:
        return {}
    sent = {
        entry.player.name: entry
        for entry in SeatEntry.objects.filter(
            session=session, position=position, player__name__in=list(players)
        ).select_related("player")
    }
    if not sent:
        return {}
    found = {}
    for entry in round_.entries:
        seat = sent.get(entry.player)
        if seat is None:
            continue
        same = [name for name in SEAT_FIELDS if getattr(seat, name) == getattr(entry, name)]
        if same:
            found[entry.player] = same
    return found
