"""The stream a page that follows its session live keeps open (server-sent
events, read by static/js/stream.js; docs/lan.md "Live everywhere").

A stream says the page's validator, the same the page's poll answers with: at
once when it opens (a page shown again catches up by it), and whenever it
changes, woken by the live channel (scoring/web/push.py). The page then
fetches what it shows, as after a poll. Between changes it sends a beat every
HEARTBEAT_SECONDS, so that neither a proxy nor the phone takes it for dead.

A stream is let in as its page is: `check` is the page's own access check
(a seat link, a share link, the owner or a co-scorer, through
scoring/views/access.py), run again on every change and every RECHECK_SECONDS.
A link turned off, a co-scorer removed or a log-out ends it ("gone": the page
polls, and is told as a poll is). Checks run on a small pool of threads of
their own, whose database connections are kept as a request's are: a stream
holds none while it waits.

Streams need an event loop to wait on: scripts/host serves them so
(marriage_site/asgi.py). Under a WSGI server (the tests' live server,
`runserver`) a stream is checked, then answered 204: its page polls. Each
process holds at most `LIVE_STREAMS`; one more is answered 503, and its page
polls too (benchmarks/phones.py measures what a host holds).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from importlib import import_module

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib import auth
from django.contrib.auth.views import redirect_to_login
from django.core.handlers.asgi import ASGIRequest
from django.db import close_old_connections
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils import translation
from django.utils.cache import patch_cache_control, patch_vary_headers

from .middleware import OUTAGE
from .push import Follower, hub

logger = logging.getLogger("scoring.streams")

HEARTBEAT_SECONDS = 15  # a beat when nothing else was sent (static/js/stream.js waits 2.5 of them)
RECHECK_SECONDS = 60  # the access check again, changes or not (a log-out, a missed message)
LIFETIME_SECONDS = 20 * 60  # then "bye": the page opens a new stream at once
RETRY_MS = 3000  # the browser's own wait before opening a stream again
READY_SECONDS = 2.0  # a stream waits this long for the live channel to listen

# What a stream follows: its session and its page's validator; None once the
# reader may no longer see it (a 404 for the page).
Followed = tuple[int, str]
Check = Callable[[], Followed | None]

_checks = ThreadPoolExecutor(max_workers=2, thread_name_prefix="live-check")


def signed_in(request: HttpRequest) -> bool:
    """The reader's log-in, read again from their session (a log-out, a new
    password or a deactivation on any host ends it at the next check)."""
    engine = import_module(settings.SESSION_ENGINE)
    request.session = engine.SessionStore(request.COOKIES.get(settings.SESSION_COOKIE_NAME))
    request.user = auth.get_user(request)
    return bool(request.user.is_authenticated)


def _checked(check: Check, language: str) -> Followed | None:
    # As a request does: a connection past CONN_MAX_AGE, or broken, is dropped.
    close_old_connections()
    try:
        with translation.override(language):
            return check()
    except Http404:
        return None
    finally:
        close_old_connections()


async def _run(check: Check, language: str) -> Followed | None:
    run = sync_to_async(_checked, thread_sensitive=False, executor=_checks)
    return await run(check, language)


def _event(name: str, data: str = "") -> bytes:
    return f"event: {name}\ndata: {data}\n\n".encode()


def _plain(text: str, status: int) -> HttpResponse:
    response = HttpResponse(text, status=status, content_type="text/plain; charset=utf-8")
    patch_cache_control(response, no_store=True)
    return response


async def follow(request: HttpRequest, check: Check, *, log_in: bool = False) -> HttpResponseBase:
    """The stream of a page whose poll `check` answers (its session and
    validator, or None: 404). `log_in`: for a logged-in reader only (the
    anonymous are sent to log in, as the page does)."""
    if not isinstance(request, ASGIRequest):
        # No event loop holds this request: checked as the page is, then "poll".
        if log_in and not await sync_to_async(signed_in)(request):
            return redirect_to_login(request.get_full_path())
        if await sync_to_async(check)() is None:
            raise Http404
        return _plain("", 204)
    if hub.count() >= settings.LIVE_STREAMS:
        full = _plain("Too many live pages on this server just now: polling instead.\n", 503)
        full["Retry-After"] = "30"
        return full
    language = translation.get_language()
    # The log-in is read here, on the checks' threads, not on the request's:
    # nothing on the request's thread then opens a database connection that
    # would stay open as long as the stream.
    read = sync_to_async(signed_in, thread_sensitive=False, executor=_checks)
    if not await read(request) and log_in:
        return redirect_to_login(request.get_full_path())
    found = await _run(check, language)
    if found is None:
        raise Http404
    if not await hub.ready(READY_SECONDS):
        return _plain("The live channel is not listening just now: polling instead.\n", 503)
    session_id, etag = found
    follower = hub.follow(session_id)
    response = _Stream(follower, _events(follower, etag, check, language))
    # Never kept, never transformed (compressed, buffered) on the way.
    patch_cache_control(response, no_cache=True, no_transform=True, private=True)
    patch_vary_headers(response, ["Cookie"])
    response["X-Accel-Buffering"] = "no"
    response["X-Robots-Tag"] = "noindex"
    return response


class _Stream(StreamingHttpResponse):
    """The stream's response: closed (the phone gone, the handler done with it,
    on any thread), its place in the hub goes."""

    def __init__(self, follower: Follower, events: AsyncIterator[bytes]) -> None:
        super().__init__(events, content_type="text/event-stream")
        self.follower = follower

    def close(self) -> None:
        super().close()
        hub.leave_threadsafe(self.follower)


async def _events(
    follower: Follower, etag: str, check: Check, language: str
) -> AsyncIterator[bytes]:
    loop = asyncio.get_running_loop()
    try:
        yield f"retry: {RETRY_MS}\n".encode() + _event("version", etag)
        shown = etag
        now = loop.time()
        end = now + LIFETIME_SECONDS
        beat_at = now + HEARTBEAT_SECONDS
        check_at = now + RECHECK_SECONDS * random.uniform(0.8, 1.2)
        # A change between the first check and following the session: seen now.
        follower.woken.set()
        while True:
            now = loop.time()
            wait = min(beat_at, check_at, end) - now
            if wait > 0 and not follower.woken.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(follower.woken.wait(), wait)
            if follower.closed:
                if follower.bye:  # this process stops: another stream, elsewhere, at once
                    yield _event("bye")
                return  # or the channel went: the page polls until a stream opens again
            now = loop.time()
            if now >= end:
                yield _event("bye")
                return
            if follower.woken.is_set() or now >= check_at:
                follower.woken.clear()
                try:
                    found = await _run(check, language)
                except OUTAGE as error:
                    logger.warning("live stream: check failed: %s", error)
                    return  # the page polls, and is told as a poll is
                if found is None:
                    yield _event("gone")
                    return
                check_at = loop.time() + RECHECK_SECONDS * random.uniform(0.8, 1.2)
                if found[1] != shown:
                    shown = found[1]
                    yield _event("version", shown)
                    beat_at = loop.time() + HEARTBEAT_SECONDS
            elif now >= beat_at:
                yield _event("beat")
                beat_at = now + HEARTBEAT_SECONDS
    finally:
        hub.leave(follower)
