"""A session's players: added, renamed, removed."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Count, Max
from django.utils.translation import gettext as _

from ..engine.limits import MAX_SESSION_PLAYERS
from ..models import GameSession, Player
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
        lambda: _add_player(session=session, name=name, user=user, save_key=save_key),
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
