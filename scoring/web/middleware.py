"""Pages for a logged-in reader are theirs alone: `Cache-Control: private`, so no
shared cache (a proxy, a CDN) keeps one reader's sessions for another. And the
answers to a database outage (503) and an unusable one-time key (400)."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable

from django.contrib.auth.models import AnonymousUser
from django.db import InterfaceError, OperationalError
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


class Refusals:
    """Two answers for an exception a view raises, instead of the 500 page:
    a database that did not answer (503, try again), and a one-time key that
    cannot be used (400, scoring/services/savekeys.py). A database error outside a view
    (a middleware's query) reaches the 500 handler, which answers the same
    503 (scoring/views/errors.py)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
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
