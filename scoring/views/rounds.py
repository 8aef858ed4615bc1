"""A session's rounds: a new one (with its live preview), one round's page,
changing, deleting and undoing one.

Every view fetches through `access`, so another user's session or round is a 404.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_POST

from .. import plugins, services
from ..engine import RoundError, RoundResult, settle_round, settle_session
from ..engine.messages import Message, message
from ..engine.numbers import NotANumber, parse_whole
from ..forms.rounds import RoundForm
from ..models import GameSession, Round, RoundChange, SavedKey
from ..selectors.reports import (
    NextRound,
    chain_rounds,
    new_round_setting,
    round_setting,
    session_ledger,
    session_players,
)
from ..selectors.rounds import position_of, rounds_with_entries, saved_round, saved_rounds
from ..selectors.saves import AlreadySaved, posted_save_key, repeated_save
from ..selectors.snapshot import read_snapshot
from ..services.rounds import RoundConflict
from ..templatetags.message_actions import restore_tag
from ..templatetags.offline import chain_data
from ..web.htmx import HtmxHttpRequest
from ..web.live import follow_context
from ..web.pagecache import render_page
from ..words.i18n import translate
from .access import round_for_user, session_for_scorer, session_version_for_scorer
from .sessions import saved_round_tag


def _round_page(
    request: HttpRequest,
    session: GameSession,
    form: RoundForm,
    setting: NextRound,
    round_: Round | None = None,
    status: int = 200,
    conflict: bool = False,
) -> HttpResponse:
    context = _round_context(session, form, setting, round_, conflict)
    return render(request, "scoring/rounds/form.html", context, status=status)


def _round_context(
    session: GameSession,
    form: RoundForm,
    setting: NextRound,
    round_: Round | None = None,
    conflict: bool = False,
) -> dict[str, object]:
    return {
        "session": session,
        "form": form,
        "round": round_,
        "position": position_of(round_) if round_ else None,
        "setting": setting,
        "conflict": conflict,  # a newer version to reload, linked from the message
        # A new round's form follows the edits of saved rounds waiting on the phone.
        "chain": None if round_ else chain_rounds(session),
    }


def _form(session: GameSession, setting: NextRound, data=None, **initial: Any) -> RoundForm:
    """The round form for the round `setting` describes (its number, better
    default and the dhoos pending before it), with the stake in force before it."""
    return RoundForm(
        session_players(session),
        session.get_rules(),
        data=data,
        better_default=setting.better.better,
        number=setting.number,
        pending=setting.pending,
        version=session.updated_at,
        stake_before=session_ledger(session).stake_before(setting.number),
        **initial,
    )


@login_required
def round_new(request: HttpRequest, session_id: int) -> HttpResponse:
    if request.method != "POST":
        return _empty_round_page(request, session_id)
    session = session_for_scorer(request, session_id)
    # A repeat (a double tap, a retry) is answered as the first save was, before
    # the form is read: the session may be full since, or its rules changed.
    earlier = repeated_save(request, kind="round", session_id=session.pk)
    if earlier is not None:
        try:
            return _round_saved(request, saved_round(earlier))
        except AlreadySaved:  # a repeat, and its round deleted since
            return _saved_already(request, session.pk)
    setting = new_round_setting(session)
    form = _form(session, setting, data=request.POST)
    if form.is_valid() and form.prepared is not None:
        try:
            round_ = services.add_round(
                session=session,
                round_input=form.prepared,
                players=session_players(session),
                setting=setting,
                stake_per_point=form.stake_per_point,
                user=request.user,
                save_key=posted_save_key(request),
                sources=plugins.round_sources(
                    session, form.number, form.prepared.round_input, form.from_seats
                ),
            )
        except RoundError as error:  # the rules changed under our feet
            form.place(error)
        except AlreadySaved as saved:  # a repeat, and its round deleted since
            return _saved_already(request, saved.session_id or session.pk)
        else:
            return _round_saved(request, round_)
    if wants_json(request):
        return _refused(form, status=422)
    return _round_page(request, session, form, setting, status=422)


def wants_json(request: HttpRequest) -> bool:
    """A save sent by the phone's own script (static/js/offline-queue.js) asks
    for its answer as JSON: the round's figures, the standings and the next
    round in one trip, where a form's POST is answered by a redirect and the
    page after it (two more round trips)."""
    return "application/json" in request.headers.get("Accept", "")


def _round_saved(request: HttpRequest, round_: Round) -> HttpResponse:
    """A new round saved, and its repeat (a retry, a double tap) alike. Nothing
    after the commit may fail the save: the position came back with the round,
    and the redirect needs no query."""
    said = _("Round %(position)d saved.") % {"position": round_.position}
    if wants_json(request):
        return _answer(request, round_.session_id, said, round_)
    messages.success(request, said, extra_tags=saved_round_tag(round_.pk))
    return redirect("session_detail", session_id=round_.session_id)


def _saved_already(request: HttpRequest, session_id: int) -> HttpResponse:
    """The repeat of a save whose round was deleted since: nothing of it was lost."""
    said = _("This round was saved already.")
    if wants_json(request):
        return _answer(request, session_id, said)
    messages.info(request, said)
    return redirect("session_detail", session_id=session_id)


def _answer(
    request: HttpRequest, session_id: int, said: str, round_: Round | None = None
) -> JsonResponse:
    """A save answered in place (wants_json): what the page says, the round as
    the ledger now has it (its place and each player's net, None for who sat
    it out) and the next round as the server will settle it, with the
    standings (chain_data): the phone checks the figures it showed against
    these, and follows them from now on. Read after the commit, in one
    snapshot."""
    with read_snapshot():
        session = session_for_scorer(request, session_id)  # its version as the save left it
        ledger = session_ledger(session)
        setting = new_round_setting(session)
        chain = chain_data(setting, session, chain_rounds(session), ledger.players)
    answer: dict[str, object] = {"ok": True, "message": said, "chain": chain}
    ids = [row[0] for row in ledger.rows.rounds]
    if round_ is not None and round_.pk in ids:
        index = ids.index(round_.pk)
        answer |= {
            "position": index + 1,
            "round_id": round_.pk,
            "round_url": reverse("round_detail", args=[session.pk, round_.pk]),
            "version": round_.version,
            "nets": {
                player.name: ledger.rows.nets_by_player[column][index]
                for column, player in enumerate(ledger.players)
            },
        }
    return JsonResponse(answer, json_dumps_params={"ensure_ascii": False})


def _refused(form: RoundForm, *, status: int, conflict: str = "") -> JsonResponse:
    """A refused save answered to the phone's script: every problem, as the
    form's summary lists them (and, for an edit over someone else's, where
    their version is)."""
    return JsonResponse(
        {"ok": False, "messages": form.summary_lines(), "reload_url": conflict},
        status=status,
        json_dumps_params={"ensure_ascii": False},
    )


def _empty_round_page(request: HttpRequest, session_id: int) -> HttpResponse:
    version = session_version_for_scorer(request, session_id)

    def context() -> dict[str, object]:
        # Read in one snapshot (render_page): the last round and the players as of one moment.
        session = session_for_scorer(request, session_id)
        setting = new_round_setting(session)
        return _round_context(session, _form(session, setting), setting)

    return render_page(request, "scoring/rounds/form.html", context, version=version)


@login_required
@require_POST
def round_preview(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    session = session_for_scorer(request, session_id)
    number = _posted_whole(request, "number")
    setting = round_setting(session, number) if number is not None else new_round_setting(session)
    form = _form(session, setting, data=request.POST)
    form.is_valid()
    if request.htmx:
        # The summary, plus (out of band) the messages beside each field.
        return render(request, "scoring/rounds/form.html#preview", {"form": form, "oob": True})
    return _round_page(request, session, form, setting)


@login_required
def round_detail(request: HttpRequest, session_id: int, round_id: int) -> HttpResponse:
    with read_snapshot():  # the round and its entries as of one moment
        session = session_for_scorer(request, session_id)
        try:
            round_ = round_for_user(request, session, round_id)
        except Http404:  # deleted (while the page followed it live, say): said so
            return _round_gone(request, session, round_id)
        played = {e.player_id for e in round_.entries.all()}
        sat_out = [p for p in session.players.all() if p.pk not in played]
        position = position_of(round_)
        # Settled in its place: with the next-winner dhoos pending before it.
        pending = round_setting(session, position).pending
    result, problem = None, None
    paid: list[dict[str, object]] = []
    try:
        result = settle_round(
            round_.to_input(), session.get_rules(), number=position, pending=pending
        )
    except RoundError as error:
        problem = translate(error.msg)
    if result is not None and result.dhoos_deferred:
        result, paid = _dhoos_paid_later(session, position, result)
    context = {
        "session": session,
        "round": round_,
        "position": position,
        "result": result,
        "problem": problem,
        "sat_out": sat_out,
        "paid": paid,  # the rounds that paid (or lapsed) this round's next-winner dhoos
        **follow_context(session),
    }
    return render(request, "scoring/rounds/detail.html", context)


OWES = "dhoos: owes %(amount)s to the next winner"  # the engine's note, settlement.py


def _dhoos_paid_later(
    session: GameSession, position: int, result: RoundResult
) -> tuple[RoundResult, list[dict[str, object]]]:
    """A next-winner dhoos given in this round, once a later round has booked it,
    is said as paid (to whom, in which round) or as lapsed, not as still owed.
    The session settled in order, as its ledger is."""
    with read_snapshot():  # the rounds and their ids as of one moment
        rounds = [r.input for r in saved_rounds(session)]
        ids = list(
            Round.objects.filter(session=session).order_by("number").values_list("pk", flat=True)
        )
    try:
        settled = settle_session(rounds, session.get_rules())
    except RoundError:
        return result, []
    fates: dict[str, Message] = {}
    paid: list[dict[str, object]] = []
    for later, later_result in enumerate(settled.rounds[position:], start=position + 1):
        for booked in later_result.dhoos_booked:
            if booked.round == position and booked.player not in fates:
                fates[booked.player] = message(
                    gettext_noop("dhoos: %(amount)s, paid to %(name)s in round %(round)s"),
                    amount=booked.amount,
                    name=booked.payee,
                    round=later,
                )
                paid.append({"note": fates[booked.player], "round_id": ids[later - 1]})
        for lapsed in later_result.dhoos_lapsed:
            if lapsed.round == position and lapsed.player not in fates:
                fates[lapsed.player] = message(
                    gettext_noop(
                        "dhoos: %(amount)s, not paid: %(name)s won round %(round)s themselves"
                    ),
                    amount=lapsed.amount,
                    name=lapsed.player,
                    round=later,
                )
                paid.append({"note": fates[lapsed.player], "round_id": ids[later - 1]})
    if not fates:
        return result, []
    players = tuple(
        replace(
            p,
            notes=tuple(
                fates[p.player] if note.id == OWES and p.player in fates else note
                for note in p.notes
            ),
        )
        for p in result.players
    )
    return replace(result, players=players), paid


def _posted_whole(request: HttpRequest, name: str) -> int | None:
    """A hidden field's whole number (ASCII digits, below a billion), else None."""
    try:
        value = parse_whole(request.POST.get(name, ""), max_digits=9)
    except NotANumber:
        return None
    return value if value >= 0 else None


def _opened_version(request: HttpRequest) -> int | None:
    """The round's version when the edit form was opened (its hidden field)."""
    return _posted_whole(request, "version")


def _round_gone(request: HttpRequest, session: GameSession, round_id: int) -> HttpResponse:
    """A round that is not there (any more): said plainly, with where to look.
    For a save (POST) 409: the round was there when the form was opened."""
    deleted = (
        RoundChange.objects.filter(
            session=session, round_pk=round_id, action__in=("delete", "undo")
        )
        .order_by("-at", "-id")
        .first()
    )
    saving = request.method == "POST"
    if saving and wants_json(request):
        said = [
            _("Round not found"),
            _("This round was deleted by someone else since you opened it.")
            if deleted
            else _("This session has no such round."),
            _("Your changes were not saved."),
        ]
        return JsonResponse(
            {"ok": False, "messages": said, "reload_url": ""},
            status=409,
            json_dumps_params={"ensure_ascii": False},
        )
    return render(
        request,
        "scoring/rounds/gone.html",
        {"session": session, "deleted": deleted, "saving": saving},
        status=409 if saving else 404,
    )


def _saved_edit(request: HttpRequest, session: GameSession, round_id: int) -> SavedKey | None:
    """The edit of this round saved before under the POST's one-time key, if this
    POST repeats it; a key kept with any other save is refused as reused."""
    if request.method != "POST":
        return None
    return repeated_save(request, kind="edit", session_id=session.pk, object_pk=round_id)


def _round_changed(
    request: HttpRequest, session: GameSession, position: int, round_: Round
) -> HttpResponse:
    """An edit saved, and its repeat (a retry, a phone sending it again) alike."""
    said = _("Round %(position)d changed.") % {"position": position}
    if wants_json(request):
        return _answer(request, session.pk, said, round_)
    messages.success(request, said, extra_tags=saved_round_tag(round_.pk))
    return redirect("session_detail", session_id=session.pk)


@login_required
def round_edit(request: HttpRequest, session_id: int, round_id: int) -> HttpResponse:
    session = session_for_scorer(request, session_id)
    # Looked at before anything else: a repeat is answered as its first save was.
    repeat = _saved_edit(request, session, round_id)
    try:
        round_ = round_for_user(request, session, round_id)
    except Http404:
        if repeat is not None:
            # The repeat of an edit saved before the round was deleted: answered
            # as a new round's repeat is, since nothing of it was lost.
            return _saved_already(request, session.pk)
        return _round_gone(request, session, round_id)
    if repeat is not None:
        # Answered before the form is read: the round may no longer fit what was sent.
        return _round_changed(request, session, position_of(round_), round_)
    opened = _opened_version(request)
    setting = round_setting(session, position_of(round_))
    if request.method == "POST":
        form = _form(session, setting, data=request.POST)
        if opened is None:
            # Without the version it was opened at, a save could silently undo
            # another phone's edit: refused, the values kept for a second try.
            form.add_error(
                "",
                _(
                    "This form does not say which version of the round it changes; "
                    "reload the round and make your change again."
                ),
            )
            if wants_json(request):
                return _refused(form, status=400)
            return _round_page(request, session, form, setting, round_, status=400)
        if form.is_valid() and form.prepared is not None:
            try:
                round_ = services.replace_round(
                    round_=round_,
                    given=form.prepared,
                    stake_per_point=form.stake_per_point,
                    user=request.user,
                    expected_version=opened,
                    save_key=posted_save_key(request),
                    read_players=form.players,
                )
            except RoundConflict as error:
                if not Round.objects.filter(pk=round_.pk).exists():
                    return _round_gone(request, session, round_.pk)
                form.place(error)
                if wants_json(request):
                    reload = reverse("round_edit", args=[session.pk, round_.pk])
                    return _refused(form, status=409, conflict=reload)
                return _round_page(
                    request, session, form, setting, round_, status=409, conflict=True
                )
            except RoundError as error:
                form.place(error)
            else:
                if round_.unchanged:
                    said = _("Nothing changed in round %(position)d.") % {
                        "position": round_.position
                    }
                    if wants_json(request):
                        return _answer(request, session.pk, said, round_)
                    messages.info(request, said)
                    return redirect("session_detail", session_id=session.pk)
                return _round_changed(request, session, round_.position, round_)
        if wants_json(request):
            return _refused(form, status=422)
        return _round_page(request, session, form, setting, round_, status=422)
    tallies = {e.player.name: e.maal_tally for e in round_.entries.all() if e.maal_tally}
    form = _form(
        session,
        setting,
        initial=round_.to_input(),
        tiplu=round_.tiplu,
        tallies=tallies,
        stake=round_.stake_per_point,
    )
    return _round_page(request, session, form, setting, round_)


def _confirm_delete(
    request: HttpRequest, session: GameSession, round_: Round, action: str
) -> HttpResponse:
    return render(
        request,
        "scoring/rounds/confirm_delete.html",
        {"session": session, "round": round_, "position": position_of(round_), "action": action},
    )


def _deleted_message(
    request: HttpRequest, session: GameSession, round_pk: int, action: str, position: int
) -> None:
    """ "Round 9 deleted." (or undone) with its Restore button: the audit trail's
    record of this delete, restored in one tap (templatetags/message_actions.py)."""
    change = (
        RoundChange.objects.filter(session=session, round_pk=round_pk, action=action)
        .order_by("-at", "-id")
        .first()
    )
    text = (
        _("Round %(position)d deleted.") if action == "delete" else _("Round %(position)d undone.")
    ) % {"position": position}
    tags = restore_tag(session.pk, change.pk) if change and not change.restored else ""
    messages.success(request, text, extra_tags=tags)


@login_required
def round_delete(request: HttpRequest, session_id: int, round_id: int) -> HttpResponse:
    session = session_for_scorer(request, session_id)
    round_ = round_for_user(request, session, round_id)
    if request.method == "POST":
        position = position_of(round_)
        services.delete_round(round_=round_, user=request.user)
        _deleted_message(request, session, round_.pk, "delete", position)
        return redirect("session_detail", session_id=session.pk)
    return _confirm_delete(request, session, round_, "delete")


@login_required
def round_undo(request: HttpRequest, session_id: int) -> HttpResponse:
    session = session_for_scorer(request, session_id)
    round_ = rounds_with_entries(session).order_by("-number").first()
    if round_ is None:
        messages.info(request, _("There is no round to undo."))
        return redirect("session_detail", session_id=session.pk)
    if request.method == "POST":
        # The confirm page names the round it showed; if another phone added a
        # round since, undoing "the last round" would delete one nobody saw.
        shown = request.POST.get("round")
        if shown and shown != str(round_.pk):
            messages.error(request, _("A round was added meanwhile; nothing was undone."))
            return redirect("session_detail", session_id=session.pk)
        position = position_of(round_)
        services.delete_round(round_=round_, user=request.user, action="undo")
        _deleted_message(request, session, round_.pk, "undo", position)
        return redirect("session_detail", session_id=session.pk)
    return _confirm_delete(request, session, round_, "undo")
