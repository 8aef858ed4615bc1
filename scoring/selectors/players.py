"""Reads of a session's players."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..engine.rules import MIN_PLAYERS
from ..models import Player


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
