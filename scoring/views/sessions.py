"""A session: the list of them, a new one, its page, its settle-up, its details
and deleting it.

Plain function views. Every view taking an id fetches through `access`, so
another user's session is a 404. Writes go through `services`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Page, Paginator
from django.db.models import Count, Sum
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from .. import plugins, services
from ..engine.rules import DEFAULT_PRESET, closest_preset, preset_of
from ..forms import refused_status
from ..forms.rules import preset_options
from ..forms.sessions import SessionDetailsForm, SessionForm
from ..models import GameSession, Player, Round, RoundEntry
from ..selectors.ledger_table import ledger_context
from ..selectors.reports import (
    LATEST_ROUNDS,
    Ledger,
    chain_rounds,
    new_round_setting,
    session_ledger,
)
from ..selectors.saves import AlreadySaved, posted_save_key, saved_session
from ..selectors.snapshot import read_snapshot
from ..selectors.versions import owner_version, remember
from ..web.live import follow_context
from ..web.pagecache import render_page
from .access import (
    is_owner,
    saved_key_for_user,
    session_for_scorer,
    session_for_user,
    session_version_for_scorer,
    session_version_for_user,
)


def _leaders(sessions: list[GameSession]) -> dict[int, list[str]]:
    """Each session's leader(s) by total points, in two queries (three when a
    player who sat a round out paid a dhoos in it)."""
    best: dict[int, tuple[int, list[str]]] = {}
    summed: dict[tuple[int, str], int] = {
        (session_id, name): total
        for session_id, name, total in RoundEntry.objects.filter(round__session__in=sessions)
        .values_list("round__session_id", "player__name")
        .annotate(total=Sum("net"))
    }
    outside = list(
        Round.objects.filter(session__in=sessions)
        .exclude(outside_nets={})
        .values_list("session_id", "outside_nets")
    )
    if outside:
        seat = dict(Player.objects.filter(session__in=sessions).values_list("id", "name"))
        for session_id, nets in outside:
            for player_id, net in nets.items():
                key = (session_id, seat[int(player_id)])
                summed[key] = summed.get(key, 0) + net
    for (session_id, name), total in summed.items():
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
    user = request.user
    # What other apps list here (scoring.plugins: the sessions the reader
    # co-scores, their groups) is part of the page's version, so that accepting
    # an invite or making a group shows at once.
    parts = plugins.home(user.pk)
    owned = owner_version(user.pk)
    listed = hashlib.sha256(repr(sorted(parts.items())).encode()).hexdigest()[:16]
    version = f"{owned}-co{listed}" if any(parts.values()) else owned
    number = request.GET.get("page", "1")
    return render_page(
        request,
        "home.html",
        lambda: {
            "page": remember(
                f"home-{number[:8]}", owned, lambda: _sessions_with_leaders(user, number)
            ),
            **parts,
        },
        version=version,
    )


# The sessions list shows this many a page (newest first): a family with a
# thousand evenings opens it at once.
SESSIONS_PAGE_SIZE = 30


@read_snapshot()
def _sessions_with_leaders(owner, number: str = "1") -> Page:
    sessions = (
        GameSession.objects.filter(owner=owner)
        .annotate(round_count=Count("rounds"))
        .order_by("-played_on", "-id")
    )
    page = Paginator(sessions, SESSIONS_PAGE_SIZE).get_page(number)
    shown: list[GameSession] = list(page.object_list)
    leaders = _leaders(shown)
    for session in shown:
        session.leaders = leaders.get(session.pk, [])
    return Page(shown, page.number, page.paginator)


@login_required
def session_new(request: HttpRequest) -> HttpResponse:
    earlier = saved_key_for_user(request, kind="session")
    if earlier is not None:  # a repeat (a double tap, a retry): answered as the first
        return _session_created(request, lambda: saved_session(earlier, owner=request.user))
    suggested, why = suggested_preset(request)
    form = SessionForm(request.POST or None, suggested=suggested)
    if request.method == "POST" and form.is_valid() and form.rules is not None:
        data, rules = form.cleaned_data, form.rules
        return _session_created(
            request,
            lambda: services.create_session(
                owner=request.user,
                name=data["name"],
                played_on=data["played_on"],
                currency=data["currency"],
                stake_per_point=data["stake_per_point"],
                rules=rules,
                players=data["players"],
                save_key=posted_save_key(request),
            ),
        )
    if not form.is_bound:
        form.initial["played_on"] = timezone.localdate()
    past_players = list(
        Player.objects.filter(session__owner_id=request.user.pk)
        .values_list("name", flat=True)
        .distinct()
        .order_by("name")[:40]
    )
    return render(
        request,
        "scoring/sessions/new.html",
        {
            "form": form,
            "past_players": past_players,
            "presets": preset_options(),
            "suggested": suggested,
            "suggested_why": why,
            "preset_who": PRESET_WHO,
        },
        status=refused_status(form),
    )


# Who plays each preset, one line each, under the new session's preset (RULES.md
# section 4 on where each comes from).
PRESET_WHO = {
    "pagat": gettext_lazy(
        "pagat: the rules as pagat.com (the card-game encyclopaedia) writes them; "
        "unseen maal counts."
    ),
    "kidnap": gettext_lazy("kidnap: families where the winner takes an unseen loser's maal."),
    "murder": gettext_lazy("murder: families where an unseen loser's maal is simply lost."),
    "wikipedia": gettext_lazy("wikipedia: the rules as the Wikipedia article gives them."),
    "nepal": gettext_lazy(
        "nepal: what most families in Nepal play, and the Nepali scorekeeper apps' default."
    ),
}


def suggested_preset(request: HttpRequest) -> tuple[str, str]:
    """The preset a new session opens on, and why: the one the family played
    last (its rules, or the preset closest to their house rules), else `nepal`
    for a reader in Nepali, else the default."""
    last = (
        GameSession.objects.filter(owner_id=request.user.pk)
        .order_by("-played_on", "-id")
        .only("rules")
        .first()
    )
    if last is not None:
        rules = last.get_rules()
        exact = preset_of(rules)
        return (exact, "last") if exact else (closest_preset(rules), "closest")
    if (get_language() or "").startswith("ne"):
        return "nepal", "language"
    return DEFAULT_PRESET, ""


def session_saved(
    request: HttpRequest, save: Callable[[], GameSession], said: Callable[[GameSession], str]
) -> HttpResponse:
    """The answer to a save that makes a session (the new-session form, an import):
    its page with `said(session)`, or, for a repeat whose session was deleted since,
    the sessions list saying so."""
    try:
        session = save()
    except AlreadySaved:
        messages.info(request, _("This session was saved already."))
        return redirect("home")
    messages.success(request, said(session))
    return redirect("session_detail", session_id=session.pk)


def _session_created(request: HttpRequest, save: Callable[[], GameSession]) -> HttpResponse:
    return session_saved(
        request, save, lambda _session: _("Session created. Enter the first round when it ends.")
    )


@login_required
def session_detail(request: HttpRequest, session_id: int) -> HttpResponse:
    version = session_version_for_scorer(request, session_id)
    latest = None if request.GET.get("all") else LATEST_ROUNDS

    def context() -> dict[str, object]:
        session = session_for_scorer(request, session_id)
        rules = session.get_rules()
        ledger = ledger_context(session, latest=latest, can_edit=True, chart=True)
        return {
            "session": session,
            **ledger,
            "can_edit": True,
            # A co-scorer's page: rounds only, no links to the owner's pages.
            "is_owner": is_owner(request, session),
            # Followed live: views/live.session_live answers 304 while this holds.
            **follow_context(session),
            "preset": preset_of(rules),
            "closest": closest_preset(rules),
            "saved": _saved_round(request, ledger["ledger"]),  # type: ignore[arg-type]
            # What other apps show here (scoring.plugins: an evening's group).
            **plugins.session_page(session, request.user.pk),
            # The next round's line follows the rounds kept on the phone (next-round.js).
            "chain": chain_rounds(session),
            "chain_rules": rules,
            "chain_next": new_round_setting(session),  # with the dhoos pending before it
        }

    return render_page(request, "scoring/sessions/detail.html", context, version=version)


SAVED_TAG = "round-saved-"


def saved_round_tag(round_pk: int) -> str:
    """The tag of a "Round 4 saved." message that makes the page after it open
    on the standings (_saved_round)."""
    return f"{SAVED_TAG}{round_pk}"


def _saved_round(request: HttpRequest, ledger: Ledger) -> dict[str, object] | None:
    """Right after a round is saved (its message tagged saved_round_tag): every
    player's total and what that round changed, for the top of the page. A page
    with a message waiting is rendered for its request alone (pagecache)."""
    saved = None
    for message in messages.get_messages(request):
        for tag in message.extra_tags.split():
            if tag.startswith(SAVED_TAG) and tag[len(SAVED_TAG) :].isdigit():
                saved = int(tag[len(SAVED_TAG) :])
    if saved is None:
        return None
    ids = [round_[0] for round_ in ledger.rows.rounds]
    if saved not in ids:
        return None
    index = ids.index(saved)
    column = {p.id: i for i, p in enumerate(ledger.players)}
    rows = [
        {
            "standing": s,
            "change": ledger.rows.nets_by_player[column[s.player.id]][index],
            "leads": s.rank == 1 and s.points > 0,
        }
        for s in ledger.standings
    ]
    return {"position": index + 1, "round_id": saved, "rows": rows}


@login_required
def settle_up(request: HttpRequest, session_id: int) -> HttpResponse:
    # What other apps show here (an evening's purse) is in its version too.
    version = _settle_up_version(request, session_id)

    def context() -> dict[str, object]:
        session = session_for_user(request, session_id)
        return {
            "session": session,
            "ledger": session_ledger(session),
            "can_edit": True,
            **plugins.settle_up(session),
            **follow_context(session),
        }

    return render_page(request, "scoring/sessions/settle_up.html", context, version=version)


def _settle_up_version(request: HttpRequest, session_id: int) -> str:
    """The settle-up page's version: each plugin's that shows there (with the
    session's own in it, one query each), else the session's own; another
    user's session is a 404."""
    versions = plugins.settle_up_versions(session_id, request.user.pk)
    if not versions:
        return session_version_for_user(request, session_id)
    if None in versions:
        raise Http404
    return "+".join(dict.fromkeys(v for v in versions if v is not None))


@login_required
def session_edit(request: HttpRequest, session_id: int) -> HttpResponse:
    session = session_for_user(request, session_id)
    initial = {name: getattr(session, name) for name in SessionDetailsForm.base_fields}
    form = SessionDetailsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        if not form.has_changed():
            messages.info(request, _("Nothing changed."))
            return redirect("session_detail", session_id=session.pk)
        services.edit_session(session=session, **form.cleaned_data)
        messages.success(request, _("Session details saved."))
        return redirect("session_detail", session_id=session.pk)
    return render(
        request,
        "scoring/sessions/edit.html",
        # The first round that changed the stake, if one did: the session's
        # stake holds only until it.
        {"session": session, "form": form, "stake_steps": session_ledger(session).stake_steps},
        status=refused_status(form),
    )


@login_required
def session_delete(request: HttpRequest, session_id: int) -> HttpResponse:
    session = session_for_user(request, session_id)
    if request.method == "POST":
        name = session.name
        services.delete_session(session=session)
        messages.success(request, _("Session “%(name)s” deleted.") % {"name": name})
        return redirect("home")
    return render(
        request,
        "scoring/sessions/confirm_delete.html",
        {
            "session": session,
            "round_count": session.rounds.count(),
            "players": list(session.players.all()),
        },
    )
