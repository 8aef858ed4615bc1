"""What the owner's and co-scorers' pages of a session follow: the poll
(304 while nothing changed) and the stream that says when to ask it
(scoring/web/streams.py). Every page that shows a session includes
scoring/_follow.html with these two."""

from __future__ import annotations

from functools import partial

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.views.decorators.http import condition

from ..web import streams
from ..web.live import fresh, live_etag
from ..web.streams import Followed
from .access import session_version_for_scorer


def _session_etag(request: HttpRequest, session_id: int) -> str | None:
    if not request.user.is_authenticated:
        return None
    try:
        return live_etag(session_version_for_scorer(request, session_id))
    except Http404:
        return None


@login_required
@condition(etag_func=_session_etag)
def session_live(request: HttpRequest, session_id: int) -> HttpResponse:
    """Polled by the owner's and co-scorers' session page: 304 while nothing changed."""
    session_version_for_scorer(request, session_id)  # 404 for anyone else
    return fresh(HttpResponse(b"", content_type="text/plain"))


def _session_followed(request: HttpRequest, session_id: int) -> Followed | None:
    if not streams.signed_in(request):
        return None
    return session_id, live_etag(session_version_for_scorer(request, session_id))


async def session_stream(request: HttpRequest, session_id: int) -> HttpResponseBase:
    """The owner's and co-scorers' pages' stream (session_live's check): a
    co-scorer removed, or a log-out, ends it."""
    check = partial(_session_followed, request, session_id)
    return await streams.follow(request, check, log_in=True)
