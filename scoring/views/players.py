"""A session's players: adding one, renaming one, removing one.

Every view fetches through `access`, so another user's session or player is a 404.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import services
from ..forms import refused_status
from ..forms.players import PlayerForm
from ..models import Player
from ..selectors.players import latest_draw, removal_problem
from ..selectors.saves import AlreadySaved, posted_save_key, saved_player
from ..services.players import PlayerNotAdded
from ..templatetags.maal import card_label
from .access import player_for_user, saved_key_for_user, session_for_user


@login_required
def player_add(request: HttpRequest, session_id: int) -> HttpResponse:
    session = session_for_user(request, session_id)
    earlier = saved_key_for_user(request, kind="player", session_id=session.pk)
    if earlier is not None:
        # A repeat (a double tap, a retry), answered as the first: before the
        # form, which would find the name taken by the first save.
        return _player_added(request, lambda: saved_player(earlier, session=session))
    form = PlayerForm(request.POST or None, session=session)
    if request.method == "POST" and form.is_valid():
        try:
            return _player_added(
                request,
                lambda: services.add_player(
                    session=session,
                    name=form.cleaned_data["name"],
                    user=request.user,
                    save_key=posted_save_key(request),
                ),
            )
        except IntegrityError:  # added by another phone a moment ago
            form.add_error("name", _("%(name)s already plays in this session") % form.cleaned_data)
        except PlayerNotAdded as full:  # the last seat taken by another phone a moment ago
            form.add_error("name", str(full))
    return render(
        request,
        "scoring/players/add.html",
        {"session": session, "form": form, "players": list(session.players.all())},
        status=refused_status(form),
    )


def _player_added(request: HttpRequest, save: Callable[[], Player]) -> HttpResponse:
    try:
        player = save()
    except AlreadySaved as saved:  # a repeat, and its player removed since
        messages.info(request, _("This player was added already."))
        return redirect("session_detail", session_id=saved.session_id)
    messages.success(request, _("%(name)s joins from the next round.") % {"name": player.name})
    return redirect("session_detail", session_id=player.session_id)


@login_required
def player_edit(request: HttpRequest, session_id: int, player_id: int) -> HttpResponse:
    session = session_for_user(request, session_id)
    player = player_for_user(request, session, player_id)
    form = PlayerForm(
        request.POST or None, session=session, player=player, initial={"name": player.name}
    )
    if request.method == "POST" and form.is_valid():
        old, new = player.name, form.cleaned_data["name"]
        if new == old:
            messages.info(request, _("The name is unchanged."))
            return redirect("player_add", session_id=session.pk)
        try:
            services.rename_player(player=player, name=new)
        except IntegrityError:  # the same name saved by another phone a moment ago
            player.name = old
            form.add_error("name", _("%(name)s already plays in this session") % {"name": new})
        except services.PlayerGone as gone:  # removed by another phone a moment ago
            context = {"problem": str(gone), "session_id": session.pk}
            return render(request, "scoring/refused.html", context, status=409)
        else:
            messages.success(
                request, _("%(old)s is now called %(new)s.") % {"old": old, "new": new}
            )
            return redirect("player_add", session_id=session.pk)
    return render(
        request,
        "scoring/players/edit.html",
        {
            "session": session,
            "player": player,
            "form": form,
            "problem": removal_problem(player),
        },
        status=refused_status(form),
    )


@login_required
@require_POST
def player_delete(request: HttpRequest, session_id: int, player_id: int) -> HttpResponse:
    session = session_for_user(request, session_id)
    player = player_for_user(request, session, player_id)
    try:
        services.remove_player(player=player)
    except services.PlayerNotRemoved as problem:
        messages.error(request, _("Not removed: %(problem)s.") % {"problem": problem})
        return redirect("player_edit", session_id=session.pk, player_id=player.pk)
    messages.success(request, _("%(name)s removed from the session.") % {"name": player.name})
    return redirect("player_add", session_id=session.pk)


@login_required
@require_POST
def player_move(request: HttpRequest, session_id: int, player_id: int) -> HttpResponse:
    """One seat earlier (or later) in the seat order, which decides who deals."""
    session = session_for_user(request, session_id)
    player = player_for_user(request, session, player_id)
    services.move_player(player=player, earlier=request.POST.get("to") != "later")
    return redirect("player_add", session_id=session.pk)


@login_required
def seats_draw(request: HttpRequest, session_id: int) -> HttpResponse:
    """Draw seats before round 1: a card each, the highest deals first and the
    others sit in the order of their cards. POST draws (again), or with
    `undo` puts the seating back as it was."""
    session = session_for_user(request, session_id)
    if request.method == "POST":
        try:
            if request.POST.get("undo"):
                services.undo_seat_draw(session=session, user=request.user)
                messages.success(request, _("Draw undone: everyone sits as before."))
            else:
                drawn = services.draw_seats(session=session, user=request.user)
                messages.success(
                    request,
                    _("Seats drawn: %(name)s deals round 1.") % {"name": drawn.dealer},
                )
        except services.SeatsNotDrawn as refused:
            messages.error(request, str(refused))
        return redirect("seats_draw", session_id=session.pk)
    cards = latest_draw(session) or []
    return render(
        request,
        "scoring/players/draw.html",
        {
            "session": session,
            "drawn": [(name, card_label(card), card[-1] in "HD") for name, card in cards],
            "has_rounds": session.rounds.exists(),
        },
    )
