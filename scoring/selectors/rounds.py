"""Rounds as plain values: what a settle, an export or a page reads of the saved
rounds, without building model instances."""

from __future__ import annotations

from dataclasses import dataclass, field
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
    # Stored nets of players who sat the round out (a next_round_winner dhoos).
    outside: dict[str, int] = field(default_factory=dict)
    pending_after: list[list[int]] | None = None  # as stored (Round.pending_after)


def saved_rounds(session: GameSession) -> list[SavedRound]:
    """Every saved round of the session in order, in two queries (three when a
    round holds the nets of players who sat it out)."""
    rows = Round.objects.filter(session=session).order_by("number")
    names: dict[str, str] | None = None
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
    for pk, winner, win_type, mark, better, outside, pending_after in rows.values_list(
        "id", "winner__name", "win_type", "better_mark", "better", "outside_nets", "pending_after"
    ):
        mine = entries.get(pk, [])
        if outside and names is None:
            names = {str(i): n for i, n in session.players.values_list("id", "name")}
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
                outside={(names or {})[i]: net for i, net in (outside or {}).items()},
                pending_after=pending_after,
            )
        )
    return saved
