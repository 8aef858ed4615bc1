"""Pages for a logged-in reader are theirs alone: `Cache-Control: private`, so no
shared cache (a proxy, a CDN) keeps one reader's sessions for another. And the
answers to a database outage (503) and an unusable one-time key (400)."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable

from django.contrib.auth.models import AnonymousUser
from django.db import DEFAULT_DB_ALIAS, InterfaceError, OperationalError, connections
from django.http import HttpRequest, HttpResponse
from django.middleware.gzip import GZipMiddleware as DjangoGZipMiddleware
from django.shortcuts import render
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext
from redis.exceptions import RedisError

from ..selectors.saves import SaveKeyRefused

SESSION_PATH = re.compile(r"^/sessions/([0-9]+)/")


def private_when_logged_in(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        if response.status_code >= 500:
            # The database may be what failed: ask it nothing, and keep the
            # answer out of shared caches all the same.
            patch_cache_control(response, private=True)
            return response
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            patch_cache_control(response, private=True)
        return response

    return middleware


class GZipMiddleware(DjangoGZipMiddleware):
    """Django's, except for a live stream (scoring/web/streams.py): each of its
    events must leave as it is written, and compression holds them back."""

    def process_response(self, request: HttpRequest, response):
        if response.get("Content-Type", "").startswith("text/event-stream"):
            return response
        return super().process_response(request, response)


# The database did not answer (a restart, a network fault, a full pool): said as
# such, with 503 and Retry-After, never a traceback. Django reconnects on the
# next request (CONN_HEALTH_CHECKS drops a connection that died meanwhile).
# Redis (REDIS_URL) likewise: reads fall back to the database (accounts/cache.py),
# but logging in and out need it.
OUTAGE = (OperationalError, InterfaceError, RedisError)
# PostgreSQL's deadlock_detected and serialization_failure: a transaction undone
# whole, to be tried again (SQLite takes its write lock at BEGIN: none there).
RETRIED = ("40P01", "40001")
RETRY_AFTER_SECONDS = 5

logger = logging.getLogger("scoring.outage")


def outage_page(request: HttpRequest) -> HttpResponse:
    """templates/503.html, built without the database, which is what failed."""
    match = SESSION_PATH.match(request.path)
    context = {
        "user": AnonymousUser(),
        "messages": [],
        "session_id": int(match[1]) if match else None,
        "saving": request.method == "POST",
    }
    try:
        response = render(request, "503.html", context, status=503)
    except Exception:  # the page itself failed: the plainest answer there is
        response = HttpResponse(
            "The database is not answering just now. Try again in a moment.",
            content_type="text/plain; charset=utf-8",
            status=503,
        )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    patch_cache_control(response, no_store=True)
    return response


def deadlocked(error: BaseException) -> bool:
    """A write the database chose to undo to break a deadlock (or, in a
    snapshot, a serialization failure): nothing of it was kept."""
    cause = error.__cause__
    return isinstance(error, OperationalError) and getattr(cause, "sqlstate", None) in RETRIED


class Refusals:
    """Three answers for an exception a view raises, instead of the 500 page:
    a deadlock is tried once more (the writes take their locks in one order,
    CONTRIBUTING, so this is a last guard: a race never answers 5xx); a
    database that did not answer (503, try again), and a one-time key that
    cannot be used (400, scoring/services/savekeys.py). A database error outside a view
    (a middleware's query) reaches the 500 handler, which answers the same
    503 (scoring/views/errors.py)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view, args, kwargs) -> None:
        # The transactions open as the view starts (none, but in a test): the
        # view's own are all undone when it raises with as many open.
        request._atomic_depth = len(connections[DEFAULT_DB_ALIAS].atomic_blocks)  # type: ignore[attr-defined]

    def _again(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        """The view once more: its transaction was undone whole, so nothing of
        the first try is kept, and a one-time key still answers a repeat."""
        connection = connections[DEFAULT_DB_ALIAS]
        match = request.resolver_match
        depth = getattr(request, "_atomic_depth", None)
        if match is None or depth != len(connection.atomic_blocks) or connection.needs_rollback:
            return None  # inside a transaction still open: not ours to try again
        request._tried_again = True  # type: ignore[attr-defined]
        logger.warning("deadlock, tried once more: %s", exception)
        try:
            return match.func(request, *match.args, **match.kwargs)
        except Exception as again:
            answer = self.process_exception(request, again)
            if answer is None:
                raise
            return answer

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if deadlocked(exception) and not getattr(request, "_tried_again", False):
            return self._again(request, exception)
        if isinstance(exception, OUTAGE):
            logger.warning("database unavailable: %s", exception)
            return outage_page(request)
        if isinstance(exception, SaveKeyRefused):
            match = SESSION_PATH.match(request.path)
            context = {
                "problem": gettext(exception.problem),
                "session_id": int(match[1]) if match else None,
            }
            return render(request, "scoring/refused.html", context, status=400)
        return None
