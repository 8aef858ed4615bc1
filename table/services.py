"""Every write of the table app, with keyword-only arguments, each in one
transaction. Seats and invites are revoked by deleting them: an old link is
then a 404, exactly like one never made."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from scoring.models import GameSession, Player
from scoring.web.push import announce

from .entry import NAMES, SeatValues
from .models import CoScorer, Invite, Seat, SeatEntry, new_token


def make_seats(*, session: GameSession) -> list[Seat]:
    """A seat for every player of the session who has none yet; all of them, in seat order."""
    with transaction.atomic():
        have = set(Seat.objects.filter(session=session).values_list("player_id", flat=True))
        Seat.objects.bulk_create(
            Seat(session=session, player=player)
            for player in session.players.all()
            if player.pk not in have
        )
    return list(Seat.objects.filter(session=session).select_related("player"))


def seat_for_player(*, session: GameSession, player: Player) -> Seat:
    """The player's seat in the session, made if it has none (a member's link
    opening a new evening): two phones at once make one."""
    try:
        with transaction.atomic():
            seat, _made = Seat.objects.get_or_create(player=player, defaults={"session": session})
    except IntegrityError:  # made by the other request a moment ago
        seat = Seat.objects.get(player=player)
    return seat


def renew_seat(*, seat: Seat) -> Seat:
    """A new link for the seat: the old one stops working at once."""
    with transaction.atomic():
        seat.token = new_token()
        seat.save(update_fields=["token"])
        announce(seat.session_id)  # the old link's stream ends
    return seat


def revoke_seat(*, seat: Seat) -> None:
    """The link stops working, and what it sent leaves the scorer's feed: a
    count from a link turned off is no longer the player's word."""
    with transaction.atomic():
        SeatEntry.objects.filter(player_id=seat.player_id).delete()
        seat.delete()
        announce(seat.session_id)  # its stream ends


def send_entry(*, seat: Seat, position: int, values: SeatValues) -> SeatEntry:
    """Keep the seat's entry for round `position` (the one being entered),
    replacing what it sent before for that round; older rounds' entries go."""
    with transaction.atomic():
        SeatEntry.objects.filter(player_id=seat.player_id, position__lt=position).delete()
        entry, _created = SeatEntry.objects.update_or_create(
            player_id=seat.player_id,
            position=position,
            defaults={
                "session_id": seat.session_id,
                **{name: getattr(values, name) for name in NAMES},
            },
        )
        announce(seat.session_id)  # the scorer's open round form takes it in
    return entry


def create_invite(*, session: GameSession) -> Invite:
    return Invite.objects.create(session=session)


def revoke_invite(*, invite: Invite) -> None:
    invite.delete()


def accept_invite(*, invite: Invite, user) -> CoScorer | None:
    """The invite used up, the user made a co-scorer (once: accepting again, or
    an invite of a session they already score, changes nothing). None for the
    owner, who needs no invite; the invite then stays."""
    session = invite.session
    if session.owner_id == user.pk:
        return None
    with transaction.atomic():
        # Deleting first makes the invite one-time even for two taps at once:
        # only one delete finds the row.
        deleted, _rows = Invite.objects.filter(pk=invite.pk).delete()
        if not deleted:
            return None
        try:
            with transaction.atomic():
                return CoScorer.objects.create(session=session, user=user)
        except IntegrityError:  # a co-scorer already
            return CoScorer.objects.get(session=session, user=user)


def remove_co_scorer(*, co_scorer: CoScorer) -> None:
    with transaction.atomic():
        co_scorer.delete()
        announce(co_scorer.session_id)  # their pages' streams end
