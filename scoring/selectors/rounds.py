"""Rounds as plain values: what a settle, an export or a page reads of the saved
rounds, without building model instances."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from ..engine import Entry, RoundInput
from ..engine.settlement import WinType
from ..models import GameSession, Round, RoundEntry


@dataclass(frozen=True, slots=True)
class SavedRound:
    """A saved round read as plain values: building a thousand Round instances
    with their entries costs more than settling them."""

    pk: int
    better: bool  # as it settled
    input: RoundInput  # better as the table marked it (None: its default)
    entries: dict[str, tuple[int, int]]  # player name -> (entry id, stored net)


def saved_rounds(session: GameSession) -> list[SavedRound]:
    """Every saved round of the session in order, in two queries."""
    rows = Round.objects.filter(session=session).order_by("number")
    entries: dict[int, list[tuple]] = {}
    for row in (
        RoundEntry.objects.filter(round__session=session)
        .order_by("player__position", "player_id")
        .values_list(
            "round_id", "id", "player__name", "status", "maal", "tunnel", "dhoos", "dublees", "net"
        )
    ):
        entries.setdefault(row[0], []).append(row[1:])
    saved = []
    for pk, winner, win_type, mark, better in rows.values_list(
        "id", "winner__name", "win_type", "better_mark", "better"
    ):
        mine = entries.get(pk, [])
        saved.append(
            SavedRound(
                pk=pk,
                better=better,
                input=RoundInput(
                    entries=tuple(
                        Entry(name, status, maal, tunnel, dhoos, dublees)
                        for _id, name, status, maal, tunnel, dhoos, dublees, _net in mine
                    ),
                    winner=winner,
                    win_type=cast("WinType", win_type),  # a stored choice
                    better=mark,
                ),
                entries={name: (entry_id, net) for entry_id, name, *_rest, net in mine},
            )
        )
    return saved
