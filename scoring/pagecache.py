"""Whole pages rendered once per change of a session (or, for pages drawn from
all of a reader's sessions, of any of them) and then served from the cache, so
a table of phones reading an unchanged session costs one tiny query and a cache
read each, not a template rendering.

A session's *version* names the state a reader can see: its `updated_at`, which
moves on every saved or deleted session, player, round or entry, whoever
writes it (versions.py, the one place that keeps this rule). A page's
key holds the version, the reader (their name is in the top bar), the language
and whatever the view adds, so a change is a new key and nothing stale is ever
served. A page is rendered with stand-ins for the two values that differ per
request, the CSRF token of its forms and the CSP nonce, which each answer then
fills in. A page with a message waiting (e.g. "Round 12 saved.") is rendered for
its request alone: the message is shown once.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import UTC, datetime

from django.contrib.messages import get_messages
from django.core.cache import caches
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.middleware.csp import get_nonce
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import get_language

from .models import GameSession
from .savekeys import new_save_key
from .snapshot import read_snapshot

PAGE_CACHE_SECONDS = 600
CSRF_STAND_IN = "csrf-stand-in-9c41e7"
NONCE_STAND_IN = "nonce-stand-in-9c41e7"
# A form's one-time key (scoring/savekeys.py): fresh in every answer, never cached.
SAVE_KEY_STAND_IN = "save-key-stand-in-9c41e7"


def version_of(session_id: int, updated_at: datetime) -> str:
    """E.g. "s12-1795425600.123456". A naive time is UTC: how SQLite stores it."""
    if updated_at.tzinfo is None:
        updated_at = updated_at.replace(tzinfo=UTC)
    return f"s{session_id}-{updated_at.timestamp():.6f}"


# The version is asked on every page view and every poll. The ORM takes about
# 0.3 ms to build this one-row query, longer than the rest of a cached page;
# written out, it takes 0.02 ms.
_VERSION_SQL = f"SELECT id, updated_at FROM {GameSession._meta.db_table} WHERE "


def _version(where: str, params: list[object]) -> str | None:
    with connection.cursor() as cursor:
        cursor.execute(_VERSION_SQL + where, params)
        row = cursor.fetchone()
    return None if row is None else version_of(*row)


def owned_version(session_id: int, owner_id: int | None) -> str | None:
    """The version of session `session_id` if `owner_id` owns it, else None."""
    return _version("id = %s AND owner_id = %s", [session_id, owner_id])


def shared_version(token: str) -> str | None:
    """The version of the session shared under `token`; None if there is none
    (never shared, or the link was turned off: share_token is NULL)."""
    return _version("share_token = %s", [token]) if token else None


def owner_version(request: HttpRequest) -> str:
    """The state of all the reader's sessions, for pages drawn from every one of
    them (history, player pages, leaderboard): how many there are and the latest
    change. Any write moves the latest change, and a deletion the count."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT COUNT(*), MAX(updated_at) FROM {GameSession._meta.db_table} "
            "WHERE owner_id = %s",
            [request.user.pk],
        )
        count, latest = cursor.fetchone()
    # The raw value is enough for a key: the same database gives the same text.
    return f"u{request.user.pk}-{count}-{latest}"


def page_key(request: HttpRequest, name: str, version: str, *parts: object) -> str:
    """The cache key of page `name` of a session at `version`, for this reader."""
    reader = request.user.pk if request.user.is_authenticated else "-"
    key = ":".join(map(str, (name, version, reader, get_language(), *parts)))
    # Parts may be a whole path and query: hashed, the key is short and plain.
    return "page:" + hashlib.sha256(key.encode()).hexdigest()


def fill_in(html: str, request: HttpRequest) -> str:
    nonce = get_nonce(request)  # lazy, and falsy until used: str() makes it
    nonce = "" if nonce is None else str(nonce)
    html = html.replace(CSRF_STAND_IN, get_token(request)).replace(NONCE_STAND_IN, nonce)
    if SAVE_KEY_STAND_IN in html:
        html = html.replace(SAVE_KEY_STAND_IN, new_save_key())
    return html


def cached_page(
    request: HttpRequest,
    key: str,
    template_name: str,
    context: Callable[[], dict[str, object]],
) -> HttpResponse:
    """The page `template_name` from the cache under `key`, rendered with
    `context()` when it is not there (and then stored)."""
    # A page is read in one snapshot (its context and whatever the template reads
    # lazily), so a round saved meanwhile is on it whole or not at all. The key's
    # version was read before: the page is never older than its key.
    if get_messages(request):  # len() only: reading them would mark them shown
        with read_snapshot():
            return render(request, template_name, context())
    pages = caches["pages"]
    html = pages.get(key)
    if html is None:
        stand_ins = {
            "csrf_token": CSRF_STAND_IN,
            "csp_nonce": NONCE_STAND_IN,
            "save_key": SAVE_KEY_STAND_IN,
        }
        with read_snapshot():
            html = render_to_string(template_name, context() | stand_ins, request)
        pages.set(key, html, PAGE_CACHE_SECONDS)
    return HttpResponse(fill_in(html, request))
