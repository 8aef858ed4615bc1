"""Offline at the table: what the service worker (templates/scoring/offline/sw.js)
needs from the server.

- Which pages a phone keeps for reading offline: the server marks them with
  `X-Offline-Cache: 1` (the session, the round form, settle-up, the share pages),
  so the worker needs no list of URLs of its own.
- Whose they are: every page says `X-Offline-User`, an opaque per-user name (an
  HMAC of the user's id, "public" when signed out). The worker files pages under
  it and shows only the current user's, so another user on the same phone never
  sees them.
- How long the worker waits on a network that hangs rather than fails: a page
  it keeps is shown from the phone after NAVIGATION_TIMEOUT_MS, a round save
  is given up and kept on the phone after SAVE_TIMEOUT_MS (settings
  OFFLINE_NAVIGATION_TIMEOUT_MS and OFFLINE_SAVE_TIMEOUT_MS change them). The
  share page's live part shows the offline banner when a poll is unanswered
  after NAVIGATION_TIMEOUT_MS.
- How soon a page shown from the phone while the browser thinks it is online
  (the network hung) asks whether the network answers again: after
  RECHECK_MS, then twice as long each time up to six times it (setting
  OFFLINE_RECHECK_MS; the worker writes it on the page it shows).
- The static files to precache, as `static()` names them (hashed in production),
  and a version drawn from their contents and the worker's own source: a deploy
  that changes any of them is a new cache. The caches of the two deploys
  before it stay, for pages kept before it, which name their files.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.finders import FileSystemFinder
from django.http import HttpRequest, HttpResponse
from django.template import Context, Template
from django.templatetags.static import static
from django.utils.crypto import salted_hmac

# The pages of a session kept on the phone for reading offline (URL names).
OFFLINE_PAGES = frozenset(
    {"session_detail", "round_new", "settle_up", "session_share", "share_view", "group_detail"}
)
PUBLIC = "public"
# A kept page is shown from the phone when the network has not answered by then;
# a round save that has not is kept on the phone and sent again later.
NAVIGATION_TIMEOUT_MS = 4_000
SAVE_TIMEOUT_MS = 10_000
# A kept page shown while the browser says it is online checks the network
# after 5 s, then 10, 20, and every 30 s (static/js/offline.js).
RECHECK_MS = 5_000
SW_TEMPLATE = Path(settings.BASE_DIR) / "templates" / "scoring" / "offline" / "sw.js"


def user_bucket(user: Any) -> str:
    """The name a user's pages are kept under on a phone: stable, and says
    nothing about the user to anyone without the secret key."""
    if user is None or isinstance(user, AnonymousUser) or not user.is_authenticated:
        return PUBLIC
    digest = salted_hmac("scoring.offline.user", str(user.pk), algorithm="sha256").hexdigest()
    return "u" + digest[:24]


def offline_headers(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """Middleware: tells the service worker whose page this is and whether to keep it."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        if request.method != "GET" or request.headers.get("HX-Request"):
            return response
        if response.status_code >= 500:
            return response  # the database may be what failed: ask it nothing
        if not response.get("Content-Type", "").startswith("text/html"):
            return response
        response.headers["X-Offline-User"] = user_bucket(getattr(request, "user", None))
        match = request.resolver_match
        if response.status_code == 200 and match and match.url_name in OFFLINE_PAGES:
            response.headers["X-Offline-Cache"] = "1"
        return response

    return middleware


def _own_static_files() -> list[tuple[str, str]]:
    """(name, absolute path) of every file under STATICFILES_DIRS."""
    finder = FileSystemFinder()
    found = []
    for name, storage in finder.list([]):
        found.append((name.replace("\\", "/"), storage.path(name)))
    return sorted(found)


def _htmx_urls() -> list[str]:
    # Whatever {% htmx_script %} loads in this configuration (minified or not).
    rendered = Template("{% load django_htmx %}{% htmx_script %}").render(Context())
    return re.findall(r'src="([^"]+)"', rendered)


def _build() -> tuple[list[str], str]:
    urls, digest = [], hashlib.sha256(SW_TEMPLATE.read_bytes())
    for name, path in _own_static_files():
        urls.append(static(name))
        digest.update(name.encode() + Path(path).read_bytes())
    for url in _htmx_urls():
        urls.append(url)
        source = finders.find(url.removeprefix(settings.STATIC_URL).lstrip("/").split("?")[0])
        digest.update(url.encode())
        if isinstance(source, str):
            digest.update(Path(source).read_bytes())
    return urls, digest.hexdigest()[:16]


_build_once = cache(_build)


def precache() -> tuple[list[str], str]:
    """The static URLs to precache and the version of the whole set. Worked out
    once per process, except while developing (DEBUG), where files change."""
    return _build() if settings.DEBUG else _build_once()


def navigation_timeout_ms() -> int:
    """How long a page the phone keeps waits for a network that hangs; the share
    page's live part gives a poll as long (static/js/live.js)."""
    return int(getattr(settings, "OFFLINE_NAVIGATION_TIMEOUT_MS", NAVIGATION_TIMEOUT_MS))


def save_timeout_ms() -> int:
    """How long a round's save (the worker's, or a send from the queue) waits
    for a network that hangs before it is given up and kept (or left) waiting."""
    return int(getattr(settings, "OFFLINE_SAVE_TIMEOUT_MS", SAVE_TIMEOUT_MS))


def service_worker_config(*, offline_url: str, login_url: str, logout_url: str) -> str:
    urls, version = precache()
    return json.dumps(
        {
            "version": version,
            "precache": urls,
            "offlineUrl": offline_url,
            "loginUrl": login_url,
            "logoutUrl": logout_url,
            "queueScript": static("js/offline-queue.js"),
            "staticUrl": settings.STATIC_URL,
            "navigationTimeout": navigation_timeout_ms(),
            "saveTimeout": save_timeout_ms(),
            "recheck": int(getattr(settings, "OFFLINE_RECHECK_MS", RECHECK_MS)),
        }
    )
