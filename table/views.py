"""A table of phones: the owner's Seats and Co-scorers pages, a seat's own page
(no log-in: the seat link is the key), the feed of seat entries that the
scorer's open round form follows, the live checks every following page asks,
and the streams that say when to ask.

A live page keeps a stream open (scoring/web/streams.py), told of every change
to its session on any host; it asks its check with a conditional request keyed
on the session's version in the database (scoring/selectors/versions.py) when
the stream says so, and every second while it has no stream: an unchanged
session answers 304 from one indexed row (docs/lan.md, benchmarks/phones.py).
"""

from __future__ import annotations

import re
from functools import partial
from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import condition, require_POST

from groups.models import MemberLink
from groups.selectors import evening_in_progress, last_evening
from scoring.engine.numbers import NotANumber, parse_whole
from scoring.forms.maal import read_calculator
from scoring.forms.rounds import row_prefix
from scoring.models import GameSession, Player
from scoring.selectors.ledger_table import ledger_context
from scoring.selectors.reports import new_round_setting
from scoring.selectors.snapshot import read_snapshot
from scoring.selectors.versions import version_of
from scoring.templatetags.maal import card_label
from scoring.views.access import session_for_scorer, session_for_user, session_version_for_scorer
from scoring.web import streams
from scoring.web.live import POLL_SECONDS, follow_context, live_etag
from scoring.web.live import fresh as _fresh
from scoring.web.streams import Followed

from . import selectors, services
from .entry import entry_json, entry_text, field_kinds
from .forms import SeatForm
from .limits import send_wait
from .models import Seat

# A change shows on every following phone within this (plus one request):
# half of it on average. An unchanged session answers each poll with a bare
# 304, and a hidden page does not poll at all (static/js/follow.js).


def qr_svg(url: str, title: str) -> SafeString:
    """The link as an inline SVG QR code; segno writes only paths and numbers,
    and escapes the title."""
    svg = segno.make(url, error="m").svg_inline(
        scale=4, border=3, omitsize=True, light="#fff", title=title
    )
    return mark_safe(svg)


def _found[T](found: T | None) -> T:
    """What a selector found, or a 404: another user's, made up or gone."""
    if found is None:
        raise Http404
    return found


# --- The owner's pages: seats and co-scorers ---------------------------------------------------


@login_required
def seats_manage(request: HttpRequest, session_id: int) -> HttpResponse:
    session = session_for_user(request, session_id)
    rows = []
    for player, seat in selectors.players_and_seats(session):
        row: dict[str, Any] = {"player": player, "seat": seat}
        if seat is not None:
            url = request.build_absolute_uri(reverse("seat_page", args=[seat.token]))
            title = _("QR code of %(name)s's seat link") % {"name": player.name}
            row.update(url=url, qr=qr_svg(url, title))
        rows.append(row)
    missing = any(row["seat"] is None for row in rows)
    return render(
        request,
        "table/seats.html",
        {"session": session, "rows": rows, "missing": missing},
    )


@login_required
@require_POST
def seats_make(request: HttpRequest, session_id: int) -> HttpResponse:
    session = session_for_user(request, session_id)
    services.make_seats(session=session)
    messages.success(request, _("Seat links made. Each player scans their own code."))
    return redirect("seats_manage", session_id=session.pk)


def _owned_seat(request: HttpRequest, session_id: int, seat_id: int) -> tuple[GameSession, Seat]:
    session = session_for_user(request, session_id)
    return session, _found(selectors.seat_of(session, seat_id))


@login_required
@require_POST
def seat_renew(request: HttpRequest, session_id: int, seat_id: int) -> HttpResponse:
    session, seat = _owned_seat(request, session_id, seat_id)
    services.renew_seat(seat=seat)
    messages.success(
        request,
        _("New seat link for %(name)s. The old link no longer works.") % {"name": seat.player.name},
    )
    return redirect("seats_manage", session_id=session.pk)


@login_required
@require_POST
def seat_revoke(request: HttpRequest, session_id: int, seat_id: int) -> HttpResponse:
    session, seat = _owned_seat(request, session_id, seat_id)
    services.revoke_seat(seat=seat)
    messages.success(
        request,
        _("Seat link of %(name)s turned off. Nobody can open it any more.")
        % {"name": seat.player.name},
    )
    return redirect("seats_manage", session_id=session.pk)


@login_required
def scorers_manage(request: HttpRequest, session_id: int) -> HttpResponse:
    session = session_for_user(request, session_id)
    invites = []
    for invite in selectors.invites_of(session):
        url = request.build_absolute_uri(reverse("invite_accept", args=[invite.token]))
        invites.append(
            {"invite": invite, "url": url, "qr": qr_svg(url, _("QR code of the invite link"))}
        )
    co_scorers = selectors.co_scorers_of(session)
    return render(
        request,
        "table/scorers.html",
        {"session": session, "invites": invites, "co_scorers": co_scorers},
    )


@login_required
@require_POST
def invite_create(request: HttpRequest, session_id: int) -> HttpResponse:
    session = session_for_user(request, session_id)
    services.create_invite(session=session)
    messages.success(
        request, _("Invite link made. It works once, for the first person who accepts it.")
    )
    return redirect("scorers_manage", session_id=session.pk)


@login_required
@require_POST
def invite_revoke(request: HttpRequest, session_id: int, invite_id: int) -> HttpResponse:
    session = session_for_user(request, session_id)
    invite = _found(selectors.invite_of(session, invite_id))
    services.revoke_invite(invite=invite)
    messages.success(request, _("Invite link turned off. Nobody can accept it any more."))
    return redirect("scorers_manage", session_id=session.pk)


@login_required
@require_POST
def co_scorer_remove(request: HttpRequest, session_id: int, co_scorer_id: int) -> HttpResponse:
    session = session_for_user(request, session_id)
    co_scorer = _found(selectors.co_scorer_of(session, co_scorer_id))
    services.remove_co_scorer(co_scorer=co_scorer)
    messages.success(
        request,
        _("%(name)s can no longer enter rounds of this session.")
        % {"name": co_scorer.user.get_username()},
    )
    return redirect("scorers_manage", session_id=session.pk)


@login_required
def invite_accept(request: HttpRequest, token: str) -> HttpResponse:
    """An invite link: a logged-in user accepts it once (a POST, from the
    page's button); used, revoked or made up, it is a 404."""
    if len(token) > TOKEN_MAX:  # the URL allows a slug only: no NUL, nothing odd
        raise Http404
    invite = _found(selectors.invite_by_token(token))
    session = invite.session
    own = session.owner_id == request.user.pk
    if request.method == "POST" and not own:
        if services.accept_invite(invite=invite, user=request.user) is None:
            raise Http404  # accepted by someone else a moment ago
        messages.success(
            request,
            _("You can now enter and change the rounds of “%(name)s”.") % {"name": session.name},
        )
        return redirect("session_detail", session_id=session.pk)
    return render(request, "table/invite.html", {"invite": invite, "session": session, "own": own})


# --- A seat: one player's own page -------------------------------------------------------------


# A token is token_urlsafe(24): 32 of a slug's characters (the URLs take no
# other), and never longer than the column.
TOKEN_MAX = 64


def _seat(token: str) -> Seat:
    if not token or len(token) > TOKEN_MAX:
        raise Http404
    return _found(selectors.seat_by_token(token))


def _position(session: GameSession) -> int:
    """The round being entered: one past the last on the ledger."""
    return new_round_setting(session).number


def _seat_context(seat: Seat, form: SeatForm | None = None) -> dict[str, Any]:
    session = seat.session
    with read_snapshot():
        position = _position(session)
        entry = selectors.seat_entry(seat, position)
        count, last = selectors.last_round(session)
        tiplu = selectors.round_tiplu(seat, position)
        ledger = ledger_context(session, latest=0, can_edit=False)
    if form is None:
        initial: dict[str, Any] = {"tiplu": tiplu}
        if entry is not None:
            initial = entry_text(entry)
            initial["tiplu"] = initial["tiplu"] or tiplu
        form = SeatForm(seat.player, session.get_rules(), initial=initial)
    last_entries = selectors.entries_in_seat_order(last)
    return {
        "session": session,
        "seat": seat,
        "player": seat.player,
        "position": position,
        "entry": entry,
        "form": form,
        "row": form,  # the maal calculator's row partial reads row.player and row.maal_tally
        "last": last,
        "last_position": count,
        "last_entries": last_entries,
        "played_last": any(e.player_id == seat.player_id for e in last_entries),
        **ledger,
        "can_edit": False,
        "calc_url": reverse("seat_maal", args=[seat.token]),
        "follow_url": reverse("seat_live", args=[seat.token]),
        "stream_url": reverse("seat_stream", args=[seat.token]),
        **follow_context(session),
    }


def seat_page(request: HttpRequest, token: str) -> HttpResponse:
    """GET: the seat's page. POST: its entry for the round being entered, kept
    for the scorer's open form (nothing is saved to the ledger from here). A
    seat link sends at most SEAT_SEND_LIMIT a minute (table/limits.py): 429."""
    seat = _seat(token)
    return _seat_answer(request, seat, here=reverse("seat_page", args=[seat.token]))


def _seat_answer(
    request: HttpRequest, seat: Seat, *, here: str, extra: dict[str, Any] | None = None
) -> HttpResponse:
    """A seat's page at `here` (its own link, or a member's lasting link), or
    its count posted there."""
    extra = extra or {}
    wants_json = request.headers.get("X-Seat-Send") == "1"
    if request.method != "POST":
        context = _seat_context(seat)
        context.update(extra, here=here)
        return _fresh(render(request, "table/seat.html", context))
    wait = send_wait(seat.token)
    if wait:
        return _too_many_sends(request, seat, wait, wants_json, here=here, extra=extra)
    session = seat.session
    position = _position(session)
    form = SeatForm(seat.player, session.get_rules(), data=request.POST)
    try:
        posted = parse_whole(request.POST.get("position", ""), max_digits=7)
    except NotANumber:
        posted = None
    evening = request.POST.get("evening")
    if evening is not None and evening != str(session.pk):
        # Kept on the phone through the night, sent after the next evening began.
        form.add_error(
            "round",
            _(
                "A new evening began meanwhile, so this count was not sent. "
                "Enter your count for round %(next)d of “%(name)s”."
            )
            % {"next": position, "name": session.name},
        )
        status = 409
    elif posted is None:
        form.add_error(
            "round",
            _("This count does not say which round it is for; reload the page and send it again."),
        )
        status = 422
    elif posted != position:
        form.add_error(
            "round",
            _(
                "Round %(position)d was saved meanwhile, so this count was not sent. "
                "Enter your count for round %(next)d."
            )
            % {"position": position - 1, "next": position},
        )
        status = 409
    elif form.is_valid(others=selectors.other_tallies(seat, position)) and form.values is not None:
        services.send_entry(seat=seat, position=position, values=form.values)
        said = _("Sent to the scorer for round %(position)d.") % {"position": position}
        if wants_json:
            return _fresh(JsonResponse({"ok": True, "message": said, "position": position}))
        messages.success(request, said)
        return redirect(here)
    else:
        status = 422
    return _refused(request, seat, form, status, wants_json, here=here, extra=extra)


def _refused(
    request: HttpRequest,
    seat: Seat,
    form: SeatForm,
    status: int,
    wants_json: bool,
    *,
    here: str,
    extra: dict[str, Any],
) -> HttpResponse:
    if wants_json:
        errors = {
            name: [f"{_(name)}: {m}" if name != "round" else m for m in found]
            for name, found in form.errors.items()
        }
        return _fresh(JsonResponse({"ok": False, "errors": errors}, status=status))
    context = _seat_context(seat, form if status == 422 else None)
    context["refused"] = form.errors
    context.update(extra, here=here)
    return _fresh(render(request, "table/seat.html", context, status=status))


def _too_many_sends(
    request: HttpRequest,
    seat: Seat,
    wait: int,
    wants_json: bool,
    *,
    here: str,
    extra: dict[str, Any],
) -> HttpResponse:
    """429, nothing read or kept: the seat says why and when to send again."""
    said = ngettext(
        "Too many sends from this seat: wait %(seconds)d second and send your count again.",
        "Too many sends from this seat: wait %(seconds)d seconds and send your count again.",
        wait,
    ) % {"seconds": wait}
    if wants_json:
        answer = {"ok": False, "errors": {"round": [said]}, "retry_after": wait}
        response = _fresh(JsonResponse(answer, status=429))
    else:
        form = SeatForm(seat.player, seat.session.get_rules(), data=request.POST)
        form.add_error("round", said)
        response = _refused(request, seat, form, 422, wants_json=False, here=here, extra=extra)
        response.status_code = 429
    response["Retry-After"] = str(wait)
    return response


def _seat_followed(token: str) -> Followed | None:
    """The seat's session and its version (as its page was rendered with, its
    owner's counter included); None for a made-up or revoked link: 404."""
    if not token or len(token) > 64:
        return None
    found = selectors.seat_session_version(token)
    return None if found is None else (found[0], live_etag(found[1]))


def _seat_etag(request: HttpRequest, token: str) -> str | None:
    found = _seat_followed(token)
    return None if found is None else found[1]


@condition(etag_func=_seat_etag)
def seat_live(request: HttpRequest, token: str) -> HttpResponse:
    """Polled by the seat's page: 304 while nothing changed, 404 once revoked."""
    _seat(token)
    return _fresh(HttpResponse(b"", content_type="text/plain"))


@require_POST
def seat_maal(request: HttpRequest, token: str) -> HttpResponse:
    """The maal calculator's count for the seat's own cards (the partial)."""
    seat = _seat(token)
    calc = read_calculator(request.POST, seat.session.get_rules())
    return render(
        request,
        "scoring/maal/calculator.html#result",
        {"session": seat.session, "calc": calc},
    )


# --- A member's lasting link: their seat in the group's evening in progress ---------------------

# A member link's token as made (groups.models.new_link_token): checked before
# any query, so a made-up link costs nothing.
LINK_TOKEN = re.compile(r"[A-Za-z0-9_-]{32}")


def _member_link(token: str) -> MemberLink:
    if not LINK_TOKEN.fullmatch(token):
        raise Http404
    return _found(selectors.member_link_by_token(token))


def _member_seat_now(link: MemberLink) -> tuple[GameSession | None, Player | None]:
    """The group's evening in progress and the member's player in it (None when
    they are not playing it), or (None, None) between evenings."""
    session = evening_in_progress(link.member.group_id)
    if session is None:
        return None, None
    player = selectors.player_named(session, link.member.name_key)
    return session, player


def member_seat(request: HttpRequest, token: str) -> HttpResponse:
    """A member's lasting link: their seat in the group's newest evening while it
    is played, the next evening's from the moment it starts; between evenings
    the page says so (and shows how the last evening ended), never an old round."""
    link = _member_link(token)
    member, group = link.member, link.member.group
    here = reverse("member_seat", args=[link.token])
    session, player = _member_seat_now(link)
    extra = {
        "member": member,
        "group": group,
        "member_link": True,
        "follow_url": reverse("member_live", args=[link.token]),
        # Polled, not streamed: the evening it opens can change (a new one
        # starts, or this one ends), which no session's stream tells.
        "stream_url": "",
        # Another evening, or becoming a player of this one: the whole page anew.
        "follow_page": f"evening-{session.pk if session else 0}-{player.pk if player else 0}",
    }
    if session is not None and player is not None:
        seat = services.seat_for_player(session=session, player=player)
        seat.session = session
        extra["follow_etag"] = _member_etag(request, token) or ""
        return _seat_answer(request, seat, here=here, extra=extra)
    if request.method == "POST":
        return _fresh(
            JsonResponse(
                {"ok": False, "errors": {"round": [_("No evening of yours is being played now.")]}},
                status=409,
            )
        )
    last = session or last_evening(group.pk)
    context: dict[str, Any] = {**extra, "session": last, "playing": session is not None}
    if last is not None:
        context.update(ledger_context(last, latest=0, can_edit=False))
    context.update(follow_etag=_member_etag(request, token) or "", poll_seconds=POLL_SECONDS)
    return _fresh(render(request, "table/member_between.html", context))


def _member_etag(request: HttpRequest, token: str) -> str | None:
    """Which evening the link opens now and that evening's version: a new
    evening, a round saved, or the evening ending all change it."""
    if not LINK_TOKEN.fullmatch(token):
        return None
    link = selectors.member_link_by_token(token)
    if link is None:
        return None
    session, player = _member_seat_now(link)
    if session is None:
        return live_etag(f"m-none-{link.member.group_id}")
    return live_etag(f"m-{player.pk if player else 0}-{version_of(session)}")


@condition(etag_func=_member_etag)
def member_live(request: HttpRequest, token: str) -> HttpResponse:
    """Polled by a member's page: 304 while nothing it shows changed, 404 once revoked."""
    _member_link(token)
    return _fresh(HttpResponse(b"", content_type="text/plain"))


# --- What the scorer's pages follow ---------------------------------------------------------------


def _feed_position(request: HttpRequest, session_id: int) -> int:
    """The round the form is for (its number), by default the one being entered."""
    raw = request.GET.get("position", "")
    if not raw:
        return selectors.round_count(session_id) + 1
    try:
        position = parse_whole(raw, max_digits=6)  # the one parser: "²" is no number
    except NotANumber:
        raise Http404 from None
    if position < 1:
        raise Http404
    return position


def _feed_etag(request: HttpRequest, session_id: int) -> str | None:
    if not request.user.is_authenticated:
        return None
    try:
        session_version_for_scorer(request, session_id)
        position = _feed_position(request, session_id)
    except Http404:
        return None
    count, latest = selectors.feed_state(session_id, position)
    return f"seats-{session_id}-{position}-{count}-{latest:.6f}-{get_language()}"


@login_required
@condition(etag_func=_feed_etag)
def seat_feed(request: HttpRequest, session_id: int) -> HttpResponse:
    """What the seats sent for round `position`, for the scorer's open round form
    (static/js/seat-feed.js): 304 while nothing new came in."""
    session = session_for_scorer(request, session_id)
    position = _feed_position(request, session_id)
    entries = selectors.feed_entries(session, position)
    data = [
        {
            "player": e.player_id,
            "name": e.player.name,
            "prefix": row_prefix(e.player_id),  # the round form's names of their fields
            **entry_json(e),
            "tiplu_label": card_label(e.tiplu) if e.tiplu else "",
            "at": e.updated_at.isoformat(),
        }
        for e in entries
    ]
    # The fields by kind (table/entry.py): how seat-feed.js fills each one in.
    answer = {"position": position, "fields": field_kinds(), "entries": data}
    return _fresh(JsonResponse(answer))


# --- Streams: the checks above, pushed (scoring/web/streams.py) ----------------------------------
# Each tells its page when to ask its poll above, checked as that poll is.


async def seat_stream(request: HttpRequest, token: str) -> HttpResponseBase:
    """The seat page's stream: a revoked or renewed link ends it."""
    return await streams.follow(request, partial(_seat_followed, token))


def _feed_followed(request: HttpRequest, session_id: int) -> Followed | None:
    if not streams.signed_in(request):
        return None
    etag = _feed_etag(request, session_id)
    return None if etag is None else (session_id, etag)


async def seat_feed_stream(request: HttpRequest, session_id: int) -> HttpResponseBase:
    """The scorer's open round form's stream (seat_feed's check): a seat's count sent."""
    check = partial(_feed_followed, request, session_id)
    return await streams.follow(request, check, log_in=True)
