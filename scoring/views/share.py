"""Read-only share links: the owner hands out /s/<token>/ and the table follows
the standings live on their own phones, without an account.

The token is the only key, so it is long and random (`secrets.token_urlsafe`),
and revoking it (share_token = None) makes every old link a 404. The public page
polls a partial every few seconds; the partial answers 304 Not Modified until the
session changes, so an idle table costs one tiny query per phone per poll.
"""

from __future__ import annotations

import json
from functools import partial

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import slugify
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import condition, require_POST

from .. import services
from ..models import GameSession
from ..selectors.ledger_table import ledger_context
from ..selectors.reports import LATEST_ROUNDS
from ..selectors.versions import remember, session_of, shared_version, version_of
from ..web import streams
from ..web.live import POLL_SECONDS, live_etag
from ..web.pagecache import render_page
from ..web.session_card import session_card as session_card_png
from .access import (
    session_for_scorer,
    session_for_user,
    session_version_for_scorer,
    shared_session,
    shared_session_version,
)

# A save shows on every watching phone within about this long. An unchanged
# session answers each poll with a bare 304 (one indexed row read), and a hidden
# page does not poll at all (static/js/live.js), so a quick poll costs little.


def _etag(request: HttpRequest | None, token: str) -> str | None:
    """What the live partial shows changes only when the session's version
    (versions.py) does, or the reader's language. One indexed row, so an idle
    table's polls cost almost nothing. None for an unknown token: 404."""
    version = shared_version(token)
    return None if version is None else live_etag(version)


def _live_context(session: GameSession, latest: int | None = LATEST_ROUNDS) -> dict[str, object]:
    etag = live_etag(version_of(session))
    return {
        "session": session,
        **ledger_context(session, latest=latest, can_edit=False),
        "can_edit": False,
        "poll_url": reverse("share_live", args=[session.share_token]),
        "live_etag": etag,
        "poll_seconds": POLL_SECONDS,
        # The next poll sends If-None-Match itself, so the answer is a bare 304
        # (which htmx is configured to ignore) until something changes.
        "poll_headers": json.dumps({"If-None-Match": f'"{etag}"'}),
    }


def _no_store_in_shared_caches(response: HttpResponse) -> HttpResponse:
    # Always revalidate: standings must never be served stale.
    patch_cache_control(response, no_cache=True, private=True)
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    response.headers["X-Robots-Tag"] = "noindex"
    return response


def share_view(request: HttpRequest, token: str) -> HttpResponse:
    version = shared_session_version(token)
    latest = None if request.GET.get("all") else LATEST_ROUNDS
    response = render_page(
        request,
        "scoring/share/view.html",
        lambda: _live_context(shared_session(token), latest),
        version=version,
    )
    return _no_store_in_shared_caches(response)


@condition(etag_func=_etag)
def share_live(request: HttpRequest, token: str) -> HttpResponse:
    """The polled partial: standings, payments and ledger. `condition` answers 304
    when the If-None-Match validator still matches, 404 when the link is revoked."""
    try:
        session = shared_session(token)
    except Http404:
        # Revoked while phones were watching: replace the live part with a notice
        # that does not poll again (the page swaps 404 answers in; see share_view.html).
        response = render(request, "scoring/share/view.html#gone", status=404)
        return _no_store_in_shared_caches(response)
    response = render(request, "scoring/share/view.html#live", _live_context(session))
    return _no_store_in_shared_caches(response)


def _share_followed(token: str) -> streams.Followed | None:
    version = shared_version(token)
    return None if version is None else (session_of(version), live_etag(version))


async def share_stream(request: HttpRequest, token: str) -> HttpResponseBase:
    """Tells the share page when to ask share_live (scoring/web/streams.py);
    a link turned off ends it."""
    return await streams.follow(request, partial(_share_followed, token))


# --- The owner's management page ---------------------------------------------------------------


def qr_svg(url: str) -> SafeString:
    """The link as an inline SVG QR code, for the others at the table to scan off
    the owner's phone. segno writes only paths and numbers, never the text."""
    svg = segno.make(url, error="m").svg_inline(
        scale=4, border=3, omitsize=True, light="#fff", title=_("QR code of the share link")
    )
    return mark_safe(svg)  # generated markup; the title is escaped by segno


@login_required
def session_share(request: HttpRequest, session_id: int) -> HttpResponse:
    session = session_for_user(request, session_id)
    context: dict[str, object] = {"session": session, "share_url": None}
    if session.share_token:
        url = request.build_absolute_uri(reverse("share_view", args=[session.share_token]))
        context.update(share_url=url, qr=qr_svg(url))
    return render(request, "scoring/share/manage.html", context)


@login_required
@require_POST
def share_create(request: HttpRequest, session_id: int) -> HttpResponse:
    """Create the link, or (when one exists) replace it with a new one."""
    session = session_for_user(request, session_id)
    had_link = bool(session.share_token)
    services.create_share_link(session=session)
    if had_link:
        messages.success(request, _("New link created. The old link no longer works."))
    else:
        messages.success(request, _("Share link created. Anyone with it can watch the standings."))
    return redirect("session_share", session_id=session.pk)


@login_required
@require_POST
def share_revoke(request: HttpRequest, session_id: int) -> HttpResponse:
    session = session_for_user(request, session_id)
    if session.share_token:
        services.revoke_share_link(session=session)
        messages.success(request, _("Link turned off. Nobody can open it any more."))
    return redirect("session_share", session_id=session.pk)


# --- The picture card: standings, money and who pays whom, as a PNG --------------------------


def _card_etag(request: HttpRequest, session_id: int) -> str | None:
    if not request.user.is_authenticated:
        return None
    try:
        return live_etag(f"card-{session_version_for_scorer(request, session_id)}")
    except Http404:
        return None


@login_required
@condition(etag_func=_card_etag)
def session_card(request: HttpRequest, session_id: int) -> HttpResponse:
    """The evening as a picture to share (WhatsApp, Viber), in the reader's
    language: for its owner and co-scorers only (anyone else a 404). Drawn
    once per version of the session and language."""
    version = session_version_for_scorer(request, session_id)
    session = session_for_scorer(request, session_id)
    png = remember(f"card-{get_language()}", version, lambda: session_card_png(session))
    return png_response(png, f"{slugify(session.name) or 'evening'}-{session.pk}.png")


def png_response(png: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(png, content_type="image/png")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response
