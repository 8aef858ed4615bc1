"""Reads of a session's players."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..engine.rules import MIN_PLAYERS
from ..models import GameSession, Player, Round, RoundChange


def removal_problem(player: Player) -> str | None:
    """Why `player` cannot be removed from their session, or None if they can."""
    rounds = player.entries.count()
    if rounds:
        return ngettext(
            "%(name)s has played %(count)d round; a player with rounds cannot be removed",
            "%(name)s has played %(count)d rounds; a player with rounds cannot be removed",
            rounds,
        ) % {"name": player.name, "count": rounds}
    if Player.objects.filter(session_id=player.session_id).count() <= MIN_PLAYERS:
        return _("a session needs at least %(min)d players") % {"min": MIN_PLAYERS}
    return None


def latest_draw(session: GameSession) -> list[tuple[str, str]] | None:
    """The seats drawn for the session, as (player, card) in the seating they
    gave (the first dealt round 1), while no round is saved and the draw is
    not undone; None otherwise."""
    if Round.objects.filter(session=session).exists():
        return None
    last = (
        RoundChange.objects.filter(session=session, action__in=("seats", "seats_undo"))
        .order_by("-at", "-id")
        .first()
    )
    if last is None or last.action != "seats" or last.restored:
        return None
    names = dict(Player.objects.filter(session=session).values_list("id", "name"))
    return [
        (names.get(pk, name), card)
        for pk, name, card in (last.after or {}).get("seating", [])
        if pk in names
    ]
