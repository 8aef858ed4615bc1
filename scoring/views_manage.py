"""Looking after a session once it exists: its details, its players, deleting it.

Every view fetches through the owner, so another user's session or player is a 404.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from .engine.rules import MIN_PLAYERS
from .forms import PlayerForm, SessionDetailsForm
from .models import GameSession, Player
from .views import _own_session

DETAIL_FIELDS = ("name", "played_on", "currency", "stake_per_point")


@login_required
def session_edit(request: HttpRequest, session_id: int) -> HttpResponse:
    session = _own_session(request, session_id)
    initial = {name: getattr(session, name) for name in DETAIL_FIELDS}
    form = SessionDetailsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        if not form.has_changed():
            messages.info(request, _("Nothing changed."))
            return redirect("session_detail", session_id=session.pk)
        # Points are kept per round; money is points × stake wherever it is shown,
        # so a new stake needs no recomputation.
        for name in DETAIL_FIELDS:
            setattr(session, name, form.cleaned_data[name])
        session.save(update_fields=[*DETAIL_FIELDS, "updated_at"])
        messages.success(request, _("Session details saved."))
        return redirect("session_detail", session_id=session.pk)
    return render(request, "scoring/session_edit.html", {"session": session, "form": form})


@login_required
def session_delete(request: HttpRequest, session_id: int) -> HttpResponse:
    session = _own_session(request, session_id)
    if request.method == "POST":
        name = session.name
        # Players are RESTRICTed by their rounds, which cascade from the session too.
        session.delete()
        messages.success(request, _("Session “%(name)s” deleted.") % {"name": name})
        return redirect("home")
    return render(
        request,
        "scoring/session_confirm_delete.html",
        {
            "session": session,
            "round_count": session.rounds.count(),
            "players": list(session.players.all()),
        },
    )


def _own_player(session: GameSession, player_id: int) -> Player:
    return get_object_or_404(Player, pk=player_id, session=session)


def _removal_problem(player: Player) -> str | None:
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


@login_required
def player_edit(request: HttpRequest, session_id: int, player_id: int) -> HttpResponse:
    session = _own_session(request, session_id)
    player = _own_player(session, player_id)
    form = PlayerForm(
        request.POST or None, session=session, player=player, initial={"name": player.name}
    )
    if request.method == "POST" and form.is_valid():
        old, new = player.name, form.cleaned_data["name"]
        if new == old:
            messages.info(request, _("The name is unchanged."))
            return redirect("player_add", session_id=session.pk)
        player.name = new
        try:
            with transaction.atomic():
                player.save(update_fields=["name"])
                session.save(update_fields=["updated_at"])  # the share page shows the new name
        except IntegrityError:  # the same name saved by another phone a moment ago
            player.name = old
            form.add_error("name", _("%(name)s already plays in this session") % {"name": new})
        else:
            messages.success(
                request, _("%(old)s is now called %(new)s.") % {"old": old, "new": new}
            )
            return redirect("player_add", session_id=session.pk)
    return render(
        request,
        "scoring/player_edit.html",
        {
            "session": session,
            "player": player,
            "form": form,
            "problem": _removal_problem(player),
        },
    )


@login_required
@require_POST
def player_delete(request: HttpRequest, session_id: int, player_id: int) -> HttpResponse:
    session = _own_session(request, session_id)
    with transaction.atomic():
        # Lock the session: a round saved at this moment waits, then finds the
        # player gone (or we find the round and refuse).
        GameSession.objects.select_for_update().get(pk=session.pk)
        player = _own_player(session, player_id)
        problem = _removal_problem(player)
        if problem is None:
            player.delete()
            session.save(update_fields=["updated_at"])
    if problem is not None:
        messages.error(request, _("Not removed: %(problem)s.") % {"problem": problem})
        return redirect("player_edit", session_id=session.pk, player_id=player.pk)
    messages.success(request, _("%(name)s removed from the session.") % {"name": player.name})
    return redirect("player_add", session_id=session.pk)
