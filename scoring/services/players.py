"""A session's players: added, renamed, removed."""

from __future__ import annotations

import secrets

from django.db import transaction
from django.db.models import Count, Max
from django.utils.translation import gettext as _

from ..engine.limits import MAX_SESSION_PLAYERS
from ..engine.seating import Draw
from ..engine.seating import draw_seats as draw_cards
from ..models import GameSession, Player, Round, RoundChange
from ..selectors.players import removal_problem
from ..selectors.saves import saved_player
from .savekeys import once, remember_save


class PlayerNotRemoved(Exception):
    """The player cannot leave the session; the message says why."""


class PlayerNotAdded(Exception):
    """The session is full; the message names the limit."""


class PlayerGone(Exception):
    """The player was removed meanwhile; the message names them."""


def add_player(
    *, session: GameSession, name: str, user=None, save_key: str | None = None
) -> Player:
    """A new player, seated last; IntegrityError if the name is taken meanwhile.
    With `save_key` (the form's one-time key), a key saved before returns the
    player it added and saves nothing (see scoring/services/savekeys.py)."""
    return once(
        save=lambda: _add_player(session=session, name=name, user=user, save_key=save_key),
        user=user,
        key=save_key,
        replay=lambda saved: saved_player(saved, session=session),
        kind="player",
        session_id=session.pk,
    )


@transaction.atomic
def _add_player(*, session: GameSession, name: str, user, save_key: str | None) -> Player:
    # The form counted the players before this transaction: two phones adding at
    # once both passed it. Counted again with the session locked, one waits.
    GameSession.objects.select_for_update(no_key=True).get(pk=session.pk)
    seated = Player.objects.filter(session_id=session.pk).aggregate(
        count=Count("pk"), top=Max("position")
    )
    if seated["count"] >= MAX_SESSION_PLAYERS:
        raise PlayerNotAdded(
            _("at most %(max)d players in one session") % {"max": MAX_SESSION_PLAYERS}
        )
    position = (seated["top"] or 0) + 1
    player = Player.objects.create(session=session, name=name, position=position)
    remember_save(user=user, key=save_key, kind="player", session=session, object_pk=player.pk)
    return player


@transaction.atomic
def move_player(*, player: Player, earlier: bool) -> None:
    """Move a player one seat earlier or later in the seat order (which decides
    who deals each round), swapping with the neighbour."""
    session = GameSession.objects.select_for_update(no_key=True).get(pk=player.session_id)
    seats = list(session.players.order_by("position", "id"))
    index = next(i for i, p in enumerate(seats) if p.pk == player.pk)
    other = index - 1 if earlier else index + 1
    if not 0 <= other < len(seats):
        return
    seats[index], seats[other] = seats[other], seats[index]
    for position, seat in enumerate(seats, start=1):
        if seat.position != position:
            seat.position = position
            seat.save(update_fields=["position"])  # each save moves the session's version


@transaction.atomic
def rename_player(*, player: Player, name: str) -> None:
    """IntegrityError if another player of the session took the name meanwhile;
    PlayerGone if the player was removed meanwhile."""
    # The session first, as every write to its rows takes it (a round's save
    # holds it while its entries point at the players): never a deadlock.
    GameSession.objects.select_for_update(no_key=True).filter(pk=player.session_id).first()
    if not Player.objects.filter(pk=player.pk).exists():
        raise PlayerGone(
            _("%(name)s was removed from this session meanwhile") % {"name": player.name}
        )
    player.name = name
    player.save(update_fields=["name"])


@transaction.atomic
def remove_player(*, player: Player) -> None:
    """PlayerNotRemoved if they have played a round or the session would be too small."""
    # Lock the session: a round saved at this moment waits, then finds the
    # player gone (or we find the round and refuse).
    GameSession.objects.select_for_update(no_key=True).get(pk=player.session_id)
    problem = removal_problem(player)
    if problem is not None:
        raise PlayerNotRemoved(problem)
    player.delete()


def draw_card(*, deck: list[str]) -> str:
    """One card from what is left of the deck: `secrets`, never `random`."""
    return secrets.choice(deck)


class SeatsNotDrawn(Exception):
    """A draw refused (rounds are saved already, or nothing to undo); the message says why."""


def _before_round_one(session: GameSession) -> None:
    GameSession.objects.select_for_update().filter(pk=session.pk).first()
    if Round.objects.filter(session=session).exists():
        raise SeatsNotDrawn(_("Seats are drawn before round 1: this session has rounds already."))


def _seat(players: list[Player], order: list[int]) -> None:
    """Seat the players in `order` (their ids; anyone not in it after, as they sat)."""
    place = {pk: index for index, pk in enumerate(order)}
    ordered = sorted(players, key=lambda p: (place.get(p.pk, len(place)), p.position, p.pk))
    for position, player in enumerate(ordered):
        if player.position != position:
            player.position = position
            player.save(update_fields=["position"])  # moves the session's version


@transaction.atomic
def draw_seats(*, session: GameSession, user=None) -> Draw:
    """A random seating and first dealer for a session with no round yet: a
    card each (secrets.choice), the highest deals round 1 and sits first.
    Kept in the session's changes, so it can be undone before round 1."""
    _before_round_one(session)
    players = list(Player.objects.filter(session=session).order_by("position", "id"))
    drawn = draw_cards([p.name for p in players], lambda deck: draw_card(deck=deck))
    by_name = {p.name: p for p in players}
    _seat(players, [by_name[name].pk for name in drawn.seating])
    RoundChange.objects.create(
        session=session,
        round_pk=0,
        user=user if getattr(user, "pk", None) else None,
        action="seats",
        before={"seating": [[p.pk, p.name] for p in sorted(players, key=lambda p: p.pk)]},
        after={"seating": [[by_name[name].pk, name, card] for name, card in drawn.cards]},
    )
    return drawn


@transaction.atomic
def undo_seat_draw(*, session: GameSession, user=None) -> None:
    """The seating as it was before the latest draw, before round 1."""
    _before_round_one(session)
    last = (
        RoundChange.objects.select_for_update()
        .filter(session=session, action="seats", restored=False)
        .order_by("-at", "-id")
        .first()
    )
    if last is None:
        raise SeatsNotDrawn(_("There is no draw of seats to undo."))
    players = list(Player.objects.filter(session=session))
    _seat(players, [pk for pk, _name in (last.before or {}).get("seating", [])])
    last.restored = True
    last.save(update_fields=["restored"])
    RoundChange.objects.create(
        session=session,
        round_pk=0,
        user=user if getattr(user, "pk", None) else None,
        action="seats_undo",
        before=last.after,
        after=last.before,
    )
