"""Reads of the table of phones: its own pages' and what it adds to scoring's."""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Count, Max

from groups.models import MemberLink
from scoring.engine import RoundInput
from scoring.models import GameSession, Player, Round, RoundEntry
from scoring.selectors.rounds import rounds_with_entries
from scoring.selectors.versions import owned_version, version_of

from .entry import CREDITED
from .models import CoScorer, Invite, Seat, SeatEntry


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
        same = [name for name in CREDITED if getattr(seat, name) == getattr(entry, name)]
        if same:
            found[entry.player] = same
    return found


# --- what the table's pages read (table/views.py makes no query itself) ------------------------


def players_and_seats(session: GameSession) -> list[tuple[Player, Seat | None]]:
    """Each player in seat order, with their seat (None: no link made yet)."""
    seats = {s.player_id: s for s in Seat.objects.filter(session=session)}
    return [(player, seats.get(player.pk)) for player in session.players.all()]


def seat_of(session: GameSession, seat_id: int) -> Seat | None:
    return Seat.objects.select_related("player").filter(pk=seat_id, session=session).first()


def seat_by_token(token: str) -> Seat | None:
    return Seat.objects.select_related("player", "session").filter(token=token).first()


def invites_of(session: GameSession) -> list[Invite]:
    return list(Invite.objects.filter(session=session))


def invite_of(session: GameSession, invite_id: int) -> Invite | None:
    return Invite.objects.filter(pk=invite_id, session=session).first()


def invite_by_token(token: str) -> Invite | None:
    return Invite.objects.select_related("session__owner").filter(token=token).first()


def co_scorers_of(session: GameSession) -> list[CoScorer]:
    return list(CoScorer.objects.filter(session=session).select_related("user"))


def co_scorer_of(session: GameSession, co_scorer_id: int) -> CoScorer | None:
    return CoScorer.objects.select_related("user").filter(pk=co_scorer_id, session=session).first()


def other_tallies(seat: Seat, position: int) -> dict[str, dict[str, int]]:
    """The maal calculator's counts the other seats sent for round `position`."""
    entries = (
        SeatEntry.objects.filter(session_id=seat.session_id, position=position)
        .exclude(player_id=seat.player_id)
        .filter(maal_tally__isnull=False)
        .select_related("player")
    )
    return {e.player.name: e.maal_tally for e in entries if isinstance(e.maal_tally, dict)}


def round_tiplu(seat: Seat, position: int) -> str:
    """The tiplu another seat picked for this round, to start this one's calculator."""
    return (
        SeatEntry.objects.filter(session_id=seat.session_id, position=position)
        .exclude(tiplu="")
        .order_by("updated_at")
        .values_list("tiplu", flat=True)
        .first()
        or ""
    )


def seat_entry(seat: Seat, position: int) -> SeatEntry | None:
    return SeatEntry.objects.filter(player_id=seat.player_id, position=position).first()


def round_count(session_id: int) -> int:
    return Round.objects.filter(session_id=session_id).count()


def last_round(session: GameSession) -> tuple[int, Round | None]:
    """How many rounds the session has, and the last with its entries."""
    last = rounds_with_entries(session).order_by("-number").first()
    return round_count(session.pk), last


def entries_in_seat_order(round_: Round | None) -> list[RoundEntry]:
    """A round's entries (read with it, rounds_with_entries) in seat order."""
    if round_ is None:
        return []
    return sorted(round_.entries.all(), key=lambda e: (e.player.position, e.player_id))


def seat_session_version(token: str) -> tuple[int, str] | None:
    """The seat's session and its version (its owner's counter included); None
    for a made-up or revoked link."""
    row = Seat.objects.filter(token=token).values_list("session_id", "session__owner_id").first()
    if row is None:
        return None
    version: str | None
    if row[1] is None:  # a session nobody owns (imported from the command line)
        session = GameSession.objects.filter(pk=row[0]).first()
        version = None if session is None else version_of(session)
    else:
        version = owned_version(row[0], row[1])
    return None if version is None else (row[0], version)


def member_link_by_token(token: str) -> MemberLink | None:
    return MemberLink.objects.select_related("member__group").filter(token=token).first()


def player_named(session: GameSession, name_key: str) -> Player | None:
    return Player.objects.filter(session=session, name_key=name_key).first()


def feed_state(session_id: int, position: int) -> tuple[int, float]:
    """How many seats sent something for round `position`, and when the last did."""
    found = SeatEntry.objects.filter(session_id=session_id, position=position).aggregate(
        n=Count("id"), latest=Max("updated_at")
    )
    return found["n"], found["latest"].timestamp() if found["latest"] else 0


def feed_entries(session: GameSession, position: int) -> list[SeatEntry]:
    return list(
        SeatEntry.objects.filter(session=session, position=position).select_related("player")
    )
