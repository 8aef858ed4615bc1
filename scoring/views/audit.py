"""The audit trail: who changed which round, when, from what to what; and
restoring a deleted round from it (services.restore_round)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import services
from ..engine import RoundError
from ..models import Round, RoundChange
from .access import change_for_user, session_for_user

SHOWN = 200  # a session's page lists this many latest changes


def _entry_text(entry: dict[str, Any] | None) -> str:
    if entry is None:
        return "—"
    parts = [_(entry["status"]), _("maal %(maal)d") % {"maal": entry["maal"]}]
    if entry["tunnel"]:
        parts.append(_("tunnel %(tunnel)d") % {"tunnel": entry["tunnel"]})
    if entry["dhoos"]:
        parts.append(_("dhoos"))
    parts.append(_("net %(net)+d") % {"net": entry["net"]})
    return " · ".join(parts)


def _round_text(snap: dict[str, Any] | None) -> str:
    if snap is None:
        return "—"
    parts = [_("%(winner)s won") % {"winner": snap["winner"]} if snap["winner"] else _("No winner")]
    if snap["win_type"] == "dublee":
        parts.append(_("dublee"))
    if snap["better"]:
        parts.append(_("better"))
    return " · ".join(parts)


def describe(change: RoundChange) -> dict[str, Any]:
    """What the page shows of one change: the round line and one row per player,
    before and after, marking the rows that differ."""
    before = {e["player"]: e for e in (change.before or {}).get("entries", [])}
    after = {e["player"]: e for e in (change.after or {}).get("entries", [])}
    names = list(before) + [name for name in after if name not in before]
    rows = []
    for name in names:
        old, new = _entry_text(before.get(name)), _entry_text(after.get(name))
        rows.append({"player": name, "before": old, "after": new, "changed": old != new})
    old_round, new_round = _round_text(change.before), _round_text(change.after)
    return {
        "change": change,
        "round_before": old_round,
        "round_after": new_round,
        "round_changed": old_round != new_round,
        "rows": rows,
        "number": (change.after or change.before or {}).get("number"),
        "can_restore": change.action in ("delete", "undo") and not change.restored,
    }


def _page(request, session, changes, round_pk=None) -> HttpResponse:
    live = set(
        Round.objects.filter(session=session, pk__in={c.round_pk for c in changes}).values_list(
            "pk", flat=True
        )
    )
    return render(
        request,
        "scoring/audit/changes.html",
        {
            "session": session,
            "changes": [describe(c) for c in changes],
            "live_rounds": live,
            "round_pk": round_pk,
            "limit": SHOWN,
        },
    )


@login_required
def session_changes(request: HttpRequest, session_id: int) -> HttpResponse:
    session = session_for_user(request, session_id)
    changes = list(RoundChange.objects.filter(session=session).select_related("user")[:SHOWN])
    return _page(request, session, changes)


@login_required
def round_changes(request: HttpRequest, session_id: int, round_id: int) -> HttpResponse:
    """One round's history; still there after the round was deleted."""
    session = session_for_user(request, session_id)
    changes = list(
        RoundChange.objects.filter(session=session, round_pk=round_id).select_related("user")
    )
    if not changes and not Round.objects.filter(session=session, pk=round_id).exists():
        raise Http404
    return _page(request, session, changes, round_pk=round_id)


@login_required
@require_POST
def round_restore(request: HttpRequest, session_id: int, change_id: int) -> HttpResponse:
    session = session_for_user(request, session_id)
    change = change_for_user(request, session, change_id)
    try:
        round_ = services.restore_round(change, user=request.user)
    except RoundError as error:
        messages.error(request, str(error))
        return redirect("session_changes", session_id=session.pk)
    # The position came back with the round, counted inside the save's transaction.
    messages.success(
        request, _("Round restored as round %(position)d.") % {"position": round_.position}
    )
    return redirect("session_detail", session_id=session.pk)
