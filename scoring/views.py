"""The owner's screens: sessions, rounds, players, rules and settle-up.

Plain function views. Every view taking an id fetches through the owner, so
another user's session or round is a 404. Writes go through `services`.
"""

from __future__ import annotations

import dataclasses

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.db import IntegrityError, transaction
from django.db.models import Count, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import services
from .engine import RoundError, RoundInput, Rules, better_by_default, settle_round
from .engine.rules import OPTION_HELP, OPTION_LABELS, OPTION_NAMES, closest_preset, preset_of
from .engine_text import engine_error
from .forms import PlayerForm, RoundForm, RulesForm, SessionForm, preset_options
from .models import GameSession, Player, Round, RoundEntry
from .pagecache import cached_page, owned_version, owner_version, page_key
from .reports import LATEST_ROUNDS, build_ledger


def _own_session(request: HttpRequest, session_id: int) -> GameSession:
    return get_object_or_404(GameSession, pk=session_id, owner=request.user)


def _own_round(session: GameSession, round_id: int) -> Round:
    return get_object_or_404(services.rounds_with_entries(session), pk=round_id)


def _position(round_: Round) -> int:
    """The round's place as the ledger shows it (numbers may have gaps after a delete)."""
    return Round.objects.filter(session_id=round_.session_id, number__lte=round_.number).count()


def _leaders(sessions: list[GameSession]) -> dict[int, list[str]]:
    """Each session's leader(s) by total points, in one query."""
    best: dict[int, tuple[int, list[str]]] = {}
    totals = (
        RoundEntry.objects.filter(round__session__in=sessions)
        .values_list("round__session_id", "player__name")
        .annotate(total=Sum("net"))
    )
    for session_id, name, total in totals:
        top, names = best.get(session_id, (0, []))
        if total > top:
            best[session_id] = (total, [name])
        elif total == top and total > 0:
            names.append(name)
            best[session_id] = (top, names)
    return {session_id: sorted(names) for session_id, (_top, names) in best.items()}


def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "home.html")

    def context() -> dict[str, object]:
        sessions = list(
            GameSession.objects.filter(owner=request.user).annotate(round_count=Count("rounds"))
        )
        leaders = _leaders(sessions)
        for session in sessions:
            session.leaders = leaders.get(session.pk, [])  # type: ignore[attr-defined]
        return {"sessions": sessions}

    key = page_key(request, "home", owner_version(request))
    return cached_page(request, key, "home.html", context)


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        messages.success(request, _("Welcome, %(name)s.") % {"name": user.get_username()})
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


# --- Sessions ---------------------------------------------------------------------------------


@login_required
def session_new(request: HttpRequest) -> HttpResponse:
    form = SessionForm(request.POST or None)
    if request.method == "POST" and form.is_valid() and form.rules is not None:
        data = form.cleaned_data
        with transaction.atomic():
            session = GameSession.objects.create(
                owner=request.user,
                name=data["name"],
                played_on=data["played_on"],
                currency=data["currency"],
                stake_per_point=data["stake_per_point"],
                rules=form.rules.to_options(),
            )
            Player.objects.bulk_create(
                Player(session=session, name=name, position=index)
                for index, name in enumerate(data["players"])
            )
        messages.success(request, _("Session created. Enter the first round when it ends."))
        return redirect("session_detail", session_id=session.pk)
    if not form.is_bound:
        form.initial["played_on"] = timezone.localdate()
    past_players = list(
        Player.objects.filter(session__owner=request.user)
        .values_list("name", flat=True)
        .distinct()
        .order_by("name")[:40]
    )
    return render(
        request,
        "scoring/session_form.html",
        {"form": form, "past_players": past_players, "presets": preset_options()},
    )


@login_required
def session_detail(request: HttpRequest, session_id: int) -> HttpResponse:
    show_all = bool(request.GET.get("all"))
    key = page_key(request, "session", owned_version(request, session_id), show_all)

    def context() -> dict[str, object]:
        session = _own_session(request, session_id)
        rules = session.get_rules()
        return {
            "session": session,
            # Built only when the template's cached fragment (keyed on the
            # session's updated_at) has to be rendered again.
            "ledger": SimpleLazyObject(
                lambda: build_ledger(session, latest=None if show_all else LATEST_ROUNDS)
            ),
            "round_count": Round.objects.filter(session=session).count(),
            "show_all": show_all,
            "can_edit": True,
            "preset": preset_of(rules),
            "closest": closest_preset(rules),
        }

    return cached_page(request, key, "scoring/session_detail.html", context)


@login_required
def settle_up(request: HttpRequest, session_id: int) -> HttpResponse:
    key = page_key(request, "settle-up", owned_version(request, session_id))

    def context() -> dict[str, object]:
        session = _own_session(request, session_id)
        return {"session": session, "ledger": build_ledger(session), "can_edit": True}

    return cached_page(request, key, "scoring/settle_up.html", context)


def _rules_table(rules: Rules) -> list[dict[str, object]]:
    options = rules.to_options()
    return [
        {"name": n, "label": _(OPTION_LABELS[n]), "help": _(OPTION_HELP[n]), "value": options[n]}
        for n in OPTION_NAMES
    ]


def _check_rounds(session: GameSession, rules: Rules) -> str | None:
    """The first round that cannot be settled under `rules`, as a message."""
    for position, round_ in enumerate(services.rounds_with_entries(session), start=1):
        try:
            settle_round(round_.to_input(), rules)
        except RoundError as error:
            return _("Round %(position)d, %(error)s") % {
                "position": position,
                "error": engine_error(error),
            }
    return None


@login_required
def session_rules(request: HttpRequest, session_id: int) -> HttpResponse:
    session = _own_session(request, session_id)
    rules = session.get_rules()
    has_rounds = session.rounds.exists()
    form = RulesForm(request.POST or None, rules=rules, has_rounds=has_rounds)
    if request.method == "POST" and form.is_valid() and form.rules is not None:
        new_rules = form.rules
        if hasattr(rules, "maal_points"):  # the house point table has its own editor
            new_rules = dataclasses.replace(new_rules, maal_points=rules.maal_points)
        if new_rules == rules:
            messages.info(request, _("The rules are unchanged."))
            return redirect("session_detail", session_id=session.pk)
        if not has_rounds:
            session.rules = new_rules.to_options()
            session.save(update_fields=["rules", "updated_at"])
            messages.success(request, _("Rules saved."))
            return redirect("session_detail", session_id=session.pk)
        problem = _check_rounds(session, new_rules)
        if problem is None:
            try:
                services.recompute_session(session, new_rules, user=request.user)
            except RoundError as error:  # a round changed meanwhile
                problem = engine_error(error)
        if problem is None:
            messages.success(request, _("Rules changed and every round settled again."))
            return redirect("session_detail", session_id=session.pk)
        form.add_error(
            None,
            _("Not changed: %(problem)s. Under these rules that round is impossible.")
            % {"problem": problem},
        )
    return render(
        request,
        "scoring/session_rules.html",
        {
            "session": session,
            "form": form,
            "rules_table": _rules_table(rules),
            "preset": preset_of(rules),
            "has_rounds": has_rounds,
            "presets": preset_options(),
        },
    )


@login_required
def player_add(request: HttpRequest, session_id: int) -> HttpResponse:
    session = _own_session(request, session_id)
    form = PlayerForm(request.POST or None, session=session)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                player = services.add_player(session, form.cleaned_data["name"])
        except IntegrityError:  # added by another phone a moment ago
            form.add_error("name", _("%(name)s already plays in this session") % form.cleaned_data)
        else:
            messages.success(
                request,
                _("%(name)s joins from the next round.") % {"name": player.name},
            )
            return redirect("session_detail", session_id=session.pk)
    return render(
        request,
        "scoring/player_form.html",
        {"session": session, "form": form, "players": list(session.players.all())},
    )


# --- Rounds -----------------------------------------------------------------------------------


def _round_page(
    request: HttpRequest,
    session: GameSession,
    form: RoundForm,
    round_: Round | None = None,
    status: int = 200,
) -> HttpResponse:
    return render(
        request,
        "scoring/round_form.html",
        {
            "session": session,
            "form": form,
            "round": round_,
            "position": _position(round_) if round_ else None,
        },
        status=status,
    )


def _previous_round(session: GameSession) -> RoundInput | None:
    last = Round.objects.filter(session=session).select_related("winner").order_by("-number")
    last_round = last.first()
    if last_round is None:
        return None
    winner = last_round.winner.name if last_round.winner else None
    return RoundInput(entries=(), winner=winner, win_type=last_round.win_type)  # type: ignore[arg-type]


@login_required
def round_new(request: HttpRequest, session_id: int) -> HttpResponse:
    if request.method != "POST":
        return _empty_round_page(request, session_id)
    session = _own_session(request, session_id)
    form = RoundForm(list(session.players.all()), session.get_rules(), data=request.POST)
    if form.is_valid() and form.round_input is not None:
        try:
            round_ = services.add_round(
                session,
                form.round_input,
                tiplu=form.tiplu,
                tallies=form.tallies,
                user=request.user,
            )
        except RoundError as error:  # the rules changed under our feet
            form._place(error)
        else:
            messages.success(
                request, _("Round %(position)d saved.") % {"position": _position(round_)}
            )
            return redirect("session_detail", session_id=session.pk)
    return _round_page(request, session, form)


def _empty_round_page(request: HttpRequest, session_id: int) -> HttpResponse:
    """The new-round form depends only on the session: rendered once per version."""

    def context() -> dict[str, object]:
        session = _own_session(request, session_id)
        rules = session.get_rules()
        better = better_by_default(_previous_round(session), rules)
        form = RoundForm(list(session.players.all()), rules, better_default=better)
        return {"session": session, "form": form, "round": None, "position": None}

    key = page_key(request, "round-new", owned_version(request, session_id))
    return cached_page(request, key, "scoring/round_form.html", context)


@login_required
@require_POST
def round_preview(request: HttpRequest, session_id: int) -> HttpResponse:
    session = _own_session(request, session_id)
    form = RoundForm(list(session.players.all()), session.get_rules(), data=request.POST)
    form.is_valid()
    if request.htmx:
        # The summary, plus (out of band) the messages beside each field.
        return render(request, "scoring/round_form.html#preview", {"form": form, "oob": True})
    return _round_page(request, session, form)


@login_required
def round_detail(request: HttpRequest, session_id: int, round_id: int) -> HttpResponse:
    # An unknown round is a 404 raised while rendering: nothing is cached.
    def context() -> dict[str, object]:
        session = _own_session(request, session_id)
        round_ = _own_round(session, round_id)
        result, problem = None, None
        try:
            result = settle_round(round_.to_input(), session.get_rules())
        except RoundError as error:
            problem = engine_error(error)
        played = {e.player_id for e in round_.entries.all()}
        return {
            "session": session,
            "round": round_,
            "position": _position(round_),
            "result": result,
            "problem": problem,
            "sat_out": [p for p in session.players.all() if p.pk not in played],
        }

    key = page_key(request, "round", owned_version(request, session_id), round_id)
    return cached_page(request, key, "scoring/round_detail.html", context)


def _opened_version(request: HttpRequest) -> int | None:
    """The round's version when the edit form was opened (its hidden field)."""
    version = request.POST.get("version", "")
    return int(version) if version.isdigit() else None


@login_required
def round_edit(request: HttpRequest, session_id: int, round_id: int) -> HttpResponse:
    session = _own_session(request, session_id)
    round_ = _own_round(session, round_id)
    players = list(session.players.all())
    rules = session.get_rules()
    if request.method == "POST":
        form = RoundForm(players, rules, data=request.POST)
        if form.is_valid() and form.round_input is not None:
            try:
                services.replace_round(
                    round_,
                    form.round_input,
                    tiplu=form.tiplu,
                    tallies=form.tallies,
                    user=request.user,
                    expected_version=_opened_version(request),
                )
            except RoundError as error:
                form._place(error)
            else:
                messages.success(
                    request, _("Round %(position)d changed.") % {"position": _position(round_)}
                )
                return redirect("session_detail", session_id=session.pk)
        return _round_page(request, session, form, round_)
    tallies = {e.player.name: e.maal_tally for e in round_.entries.all() if e.maal_tally}
    form = RoundForm(players, rules, initial=round_.to_input(), tiplu=round_.tiplu, tallies=tallies)
    return _round_page(request, session, form, round_)


def _confirm_delete(
    request: HttpRequest, session: GameSession, round_: Round, action: str
) -> HttpResponse:
    return render(
        request,
        "scoring/round_confirm_delete.html",
        {"session": session, "round": round_, "position": _position(round_), "action": action},
    )


@login_required
def round_delete(request: HttpRequest, session_id: int, round_id: int) -> HttpResponse:
    session = _own_session(request, session_id)
    round_ = _own_round(session, round_id)
    if request.method == "POST":
        position = _position(round_)
        services.delete_round(round_, user=request.user)
        messages.success(request, _("Round %(position)d deleted.") % {"position": position})
        return redirect("session_detail", session_id=session.pk)
    return _confirm_delete(request, session, round_, "delete")


@login_required
def round_undo(request: HttpRequest, session_id: int) -> HttpResponse:
    session = _own_session(request, session_id)
    round_ = services.rounds_with_entries(session).order_by("-number").first()
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
        position = _position(round_)
        services.delete_round(round_, user=request.user, action="undo")
        messages.success(request, _("Round %(position)d undone.") % {"position": position})
        return redirect("session_detail", session_id=session.pk)
    return _confirm_delete(request, session, round_, "undo")
