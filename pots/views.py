"""Pot sessions at the table: plain function views. A hand is recorded in a
few taps (the boot fills every player's amount; tick who took the pot), its
money and the running money appear on the phone as it is typed
(static/js/pots.js), and the page the server answers with replaces them."""

from __future__ import annotations

import json
from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from groups.selectors import groups_for, today
from scoring.forms import refused_status
from scoring.selectors.saves import posted_save_key
from scoring.web import streams
from scoring.web.htmx import HtmxHttpRequest
from scoring.web.uploads import too_large

from . import selectors, services
from .forms import HandForm, PotImportForm, PotSessionForm, initial_for
from .live import stream_id
from .models import PotHand, PotHandChange, PotSession


def session_for_user(request: HttpRequest, session_id: int) -> PotSession:
    """The reader's own pot session; anyone else's is a 404."""
    return get_object_or_404(
        PotSession.objects.select_related("group"), pk=session_id, owner=request.user
    )


def _hand_form(table: selectors.PotTable, data=None) -> HandForm:
    return HandForm(data, players=table.names, carry_in=table.open_pot)


def _detail(
    request: HtmxHttpRequest, session: PotSession, form: HandForm | None = None, status=200
):
    table = selectors.pot_table(session)
    form = form or _hand_form(table)
    context = {
        "session": session,
        "table": table,
        "form": form,
        "hands": list(reversed(table.lines)),
        "engine_players": json.dumps(table.names),
        "engine_hands": json.dumps(
            [
                {
                    "put_in": list(line.hand.put_in),
                    "winners": list(line.hand.winners or []),
                    "took": line.hand.took,
                    "carry_out": line.hand.carry_out,
                }
                for line in table.lines
            ]
        ),
    }
    if request.htmx:
        return render(request, "pots/detail.html#table", context, status=status)
    return render(request, "pots/detail.html", context, status=status)


@login_required
def pot_list(request: HttpRequest) -> HttpResponse:
    groups = list(groups_for(request.user.pk))
    form = PotSessionForm(request.POST or None, groups=groups, initial={"played_on": today()})
    if request.method == "POST" and form.is_valid():
        try:
            session = services.create_session(
                owner=request.user,
                name=form.cleaned_data["name"],
                players=form.cleaned_data["players"],
                played_on=form.cleaned_data["played_on"],
                group=form.cleaned_data["group"],
            )
        except services.PotError as error:
            form.add_error(None, str(error))
        else:
            return redirect("pot_detail", session.pk)
    sessions = selectors.sessions_for(request.user.pk or 0)[:30]
    status = refused_status(form)
    return render(request, "pots/list.html", {"form": form, "sessions": sessions}, status=status)


@login_required
def pot_detail(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    response = _detail(request, session_for_user(request, session_id))
    if not request.htmx:
        # Kept on the phone for opening offline, as a Marriage session's page
        # (scoring/web/offline.py): the service worker keeps what is marked so.
        response.headers["X-Offline-Cache"] = "1"
    return response


def wants_json(request: HttpRequest) -> bool:
    """A hand sent by the phone's script (static/js/pots.js, or the offline
    queue, static/js/offline-queue.js) is answered as JSON: the server's
    running money, which replaces the phone's."""
    return "application/json" in request.headers.get("Accept", "")


def _answer(session: PotSession) -> JsonResponse:
    table = selectors.pot_table(session)
    return JsonResponse(
        {
            "ok": True,
            "hands": len(table.lines),
            "totals": list(table.totals),
            "open_pot": table.open_pot,
            "version": PotSession.objects.values_list("version", flat=True).get(pk=session.pk),
        }
    )


@login_required
@require_POST
def hand_add(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    session = session_for_user(request, session_id)
    table = selectors.pot_table(session)
    form = _hand_form(table, request.POST)
    key = posted_save_key(request)
    if key and selectors.hand_saved(request.user, key):
        # A repeat (a double tap, the queue sending again): answered as the first.
        if wants_json(request):
            return _answer(session)
        return redirect("pot_detail", session.pk)
    if form.is_valid():
        try:
            services.record_hand(
                session=session,
                user=request.user,
                save_key=key,
                **form.cleaned_data["hand"],
            )
        except services.PotError as error:
            form.add_error(None, str(error))
        else:
            if wants_json(request):
                return _answer(session)
            if request.htmx:
                return _detail(request, session)
            return redirect("pot_detail", session.pk)
    if wants_json(request):
        problems = [str(e) for e in form.non_field_errors()] + [
            f"{form.fields[name].label}: {error}"
            for name, errors in form.errors.items()
            if name != "__all__"
            for error in errors
        ]
        return JsonResponse({"ok": False, "messages": problems}, status=422)
    return _detail(request, session, form, status=422)


def _hand(request: HttpRequest, session_id: int, hand_id: int) -> tuple[PotSession, PotHand]:
    session = session_for_user(request, session_id)
    return session, get_object_or_404(PotHand, pk=hand_id, session=session)


@login_required
def hand_edit(request: HttpRequest, session_id: int, hand_id: int) -> HttpResponse:
    session, hand = _hand(request, session_id, hand_id)
    table = selectors.pot_table(session)
    earlier = [line for line in table.lines if line.hand.pk < hand.pk]
    carry_in = earlier[-1].hand.carry_out if earlier else 0
    line = next(line for line in table.lines if line.hand.pk == hand.pk)
    if request.method == "POST":
        form = HandForm(request.POST, players=table.names, carry_in=carry_in)
        if form.is_valid():
            try:
                services.edit_hand(
                    hand=hand,
                    user=request.user,
                    version=int(request.POST.get("version") or 0),
                    **form.cleaned_data["hand"],
                )
            except services.PotError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, _("Hand %(number)s saved.") % {"number": line.number})
                return redirect("pot_detail", session.pk)
        status = 422
    else:
        form = HandForm(
            initial=initial_for(table.names, hand), players=table.names, carry_in=carry_in
        )
        status = 200
    context = {"session": session, "hand": hand, "line": line, "form": form}
    return render(request, "pots/hand_edit.html", context, status=status)


@login_required
@require_POST
def hand_delete(request: HttpRequest, session_id: int, hand_id: int) -> HttpResponse:
    session, hand = _hand(request, session_id, hand_id)
    try:
        services.delete_hand(hand=hand, user=request.user)
    except services.PotError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Hand deleted. It can be restored from the history."))
    return redirect("pot_detail", session.pk)


@login_required
def pot_history(request: HttpRequest, session_id: int) -> HttpResponse:
    session = session_for_user(request, session_id)
    changes = list(selectors.changes_of(session))
    here = set(PotHand.objects.filter(session=session).values_list("pk", flat=True))
    restorable = {
        c.pk for c in changes if c.action == "delete" and not c.restored and c.hand_pk not in here
    }
    names = [p.name for p in session.players.all()]
    rows = []
    for change in changes:
        shown = change.after or change.before or {}
        put = shown.get("put_in") or []
        rows.append(
            (
                change,
                [
                    (names[seat], f"{amount / 100:.2f}")
                    for seat, amount in enumerate(put)
                    if seat < len(names) and amount
                ],
                [names[seat] for seat in shown.get("winners") or [] if seat < len(names)],
            )
        )
    context = {"session": session, "rows": rows, "restorable": restorable}
    return render(request, "pots/history.html", context)


@login_required
@require_POST
def hand_restore(request: HttpRequest, session_id: int, change_id: int) -> HttpResponse:
    session = session_for_user(request, session_id)
    change = get_object_or_404(PotHandChange, pk=change_id, session=session)
    try:
        services.restore_hand(change=change, user=request.user)
    except services.PotError as error:
        messages.error(request, str(error))
        return redirect("pot_history", session.pk)
    messages.success(request, _("Hand restored."))
    return redirect("pot_detail", session.pk)


@login_required
def pot_export(request: HttpRequest, session_id: int) -> HttpResponse:
    session = session_for_user(request, session_id)
    document = selectors.document_of(session)
    response = HttpResponse(
        json.dumps(document, indent=2, ensure_ascii=False) + "\n",
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="pot-session-{session.pk}.json"'
    return response


@login_required
def pot_import(request: HttpRequest) -> HttpResponse:
    groups = list(groups_for(request.user.pk))
    if request.method == "POST":
        form = PotImportForm(
            request.POST, request.FILES, too_large=too_large(request), groups=groups
        )
        if form.is_valid() and form.document is not None:
            session = services.import_session(
                owner=request.user,
                document=form.document,
                name=form.cleaned_data["name"],
                played_on=form.cleaned_data["played_on"],
                group=form.cleaned_data["group"],
                save_key=posted_save_key(request),
            )
            messages.success(request, _("Imported “%(name)s”.") % {"name": session.name})
            return redirect("pot_detail", session.pk)
        status = 422
    else:
        form = PotImportForm(initial={"played_on": today()}, groups=groups)
        status = 200
    return render(request, "pots/import.html", {"form": form}, status=status)


@login_required
def pot_live(request: HttpRequest, session_id: int) -> JsonResponse:
    """The session's version, polled by other phones following it (static/js/pots.js)."""
    session = session_for_user(request, session_id)
    return JsonResponse({"version": session.version})


def _pot_followed(request: HttpRequest, session_id: int) -> streams.Followed | None:
    """The stream's check, as the page's own: the reader's session, its version."""
    if not streams.signed_in(request):
        return None
    version = (
        PotSession.objects.filter(pk=session_id, owner_id=request.user.pk)
        .values_list("version", flat=True)
        .first()
    )
    return None if version is None else (stream_id(session_id), str(version))


async def pot_stream(request: HttpRequest, session_id: int) -> HttpResponseBase:
    """The session page's stream (scoring/web/streams.py): told by push the
    moment a hand is saved, changed, deleted or put back; a log-out ends it."""
    return await streams.follow(request, partial(_pot_followed, request, session_id), log_in=True)
