"""Rounds as plain values: what a settle, an export or a page reads of the saved
rounds, without building model instances."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, cast

from django.db.models import Prefetch, QuerySet

from ..engine import Entry, RoundInput
from ..engine.settlement import WinType
from ..models import GameSession, Player, Round, RoundEntry, SavedKey
from .saves import saved_object


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
    # The maal calculator's: the tiplu's code and each counted player's tally.
    tiplu: str = ""
    tallies: dict[str, dict[str, int]] = field(default_factory=dict)
    stake: Decimal | None = None  # the stake from this round on, when it changed it


def saved_rounds(session: GameSession, after: int = 0) -> list[SavedRound]:
    """Every saved round of the session in order (those after the first `after`
    only), in two queries (three when a round holds the nets of players who sat
    it out)."""
    rows = Round.objects.filter(session=session).order_by("number")
    chosen = RoundEntry.objects.filter(round__session=session)
    if after:
        first = rows.values_list("number", flat=True)[after : after + 1]
        rows = rows.filter(number__gte=first)
        chosen = chosen.filter(round__number__gte=first)
    names: dict[str, str] | None = None
    entries: dict[int, list[tuple]] = {}
    for row in chosen.order_by("player__position", "player_id").values_list(
        "round_id",
        "id",
        "player__name",
        "status",
        "maal",
        "tunnel",
        "dhoos",
        "dublees",
        "net",
        "maal_tally",
    ):
        entries.setdefault(row[0], []).append(row[1:])
    saved = []
    for (
        pk,
        winner,
        win_type,
        mark,
        better,
        outside,
        pending_after,
        tiplu,
        stake,
    ) in rows.values_list(
        "id",
        "winner__name",
        "win_type",
        "better_mark",
        "better",
        "outside_nets",
        "pending_after",
        "tiplu",
        "stake_per_point",
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
                        for _id, name, status, maal, tunnel, dhoos, dublees, *_rest in mine
                    ),
                    winner=winner,
                    win_type=cast("WinType", win_type),  # a stored choice
                    better=mark,
                ),
                entries={name: (entry_id, net) for entry_id, name, *_rest, net, _tally in mine},
                outside={(names or {})[i]: net for i, net in (outside or {}).items()},
                pending_after=pending_after,
                tiplu=tiplu,
                tallies={name: tally for _id, name, *_rest, tally in mine if tally},
                stake=stake,
            )
        )
    return saved


def rounds_with_entries(session: GameSession) -> QuerySet[Round]:
    """A session's rounds with everything needed to rebuild them, in two queries."""
    return (
        Round.objects.filter(session=session)
        .select_related("winner")
        .prefetch_related(Prefetch("entries", queryset=RoundEntry.objects.select_related("player")))
        .order_by("number")
    )


def players_by_name(session: GameSession) -> dict[str, Player]:
    return {p.name: p for p in session.players.all()}


def position_of(round_: Round) -> int:
    """The round's place as the ledger shows it (numbers may have gaps after a
    delete). A save sets it on the round it returns, inside its transaction, so
    the answer to a save needs no query once the round is committed."""
    return Round.objects.filter(session_id=round_.session_id, number__lte=round_.number).count()


def saved_round(saved: SavedKey) -> Round:
    """The round a key saved (or edited); AlreadySaved if deleted since."""
    round_ = saved_object(saved, Round.objects.all(), "round", "edit", gone=saved.session_id)
    round_.position = position_of(round_)
    round_.replayed = True
    return round_


def round_snapshot(
    round_: Round,
    entries: list[RoundEntry] | None = None,
    sources: Mapping[str, Sequence[str]] | None = None,
) -> dict[str, Any]:
    """The round as the audit trail keeps it: input, nets and maal tallies, with
    players by id and name (a player may be renamed later). `entries`: the
    round's entries just written (with their players), when the caller has them.
    `sources`: by player, the values their own seat's phone sent (a plugin's
    round_sources), kept as `from_seat`: the scorer saved them, the seat counted."""
    sources = sources or {}
    if entries is None:
        entries = list(round_.entries.all())
    entries = sorted(entries, key=lambda e: (e.player.position, e.player_id))
    snapshot: dict[str, Any] = {
        "number": round_.number,
        "winner": round_.winner.name if round_.winner else None,
        "winner_id": round_.winner_id,
        "win_type": round_.win_type,
        "better": round_.better,
        "tiplu": round_.tiplu,
        "entries": [
            {
                "player": e.player.name,
                "player_id": e.player_id,
                "status": e.status,
                "maal": e.maal,
                "tunnel": e.tunnel,
                "dhoos": e.dhoos,
                "net": e.net,
                "maal_tally": e.maal_tally,
                # Only when set, so older snapshots read the same.
                **({"dublees": True} if e.dublees else {}),
                **({"from_seat": list(seat)} if (seat := sources.get(e.player.name)) else {}),
            }
            for e in entries
        ],
    }
    if round_.stake_per_point is not None:  # only when set, so older snapshots read the same
        snapshot["stake_per_point"] = str(round_.stake_per_point)
    if round_.better_mark != round_.better:  # the round takes its default (None)
        snapshot["better_mark"] = round_.better_mark
    return snapshot
