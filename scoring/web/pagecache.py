"""Warm pages served whole: a page the table reads again and again (the
session, settle-up, the share page, the empty round form, the sessions list,
history, player pages, the leaderboard) is rendered once per version of what it
shows and then served from each process's memory.

Pages are rendered normally, from data that is cheap to compute (README,
Benchmarks); this only spares the template work of a page nobody changed,
which alone is more than 3× a trivial answer under gunicorn. The key holds the
version of what the page shows, moved by the one rule of `versions.py` (every
saved or deleted session, player, round or entry, whoever writes it), so a
change is a new key and nothing stale is ever served; it also holds the reader
(their name is in the top bar), the language and the address.

Three things differ per answer, never per page: the CSRF token, the CSP nonce
and a creating form's one-time save key. A page is rendered with stand-ins for
them, which each answer fills in. A page with a message waiting ("Round 12
saved.") is rendered for its request alone, so the message shows once.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from django.contrib.messages import get_messages
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from django.middleware.csp import get_nonce
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import get_language

from ..selectors.snapshot import read_snapshot
from ..services.savekeys import new_save_key

# Long enough for an evening's reading; a key never goes stale, so this only
# bounds the memory a page nobody reads keeps.
PAGE_SECONDS = 600
CSRF_STAND_IN = "csrf-stand-in-9c41e7"
NONCE_STAND_IN = "nonce-stand-in-9c41e7"
SAVE_KEY_STAND_IN = "save-key-stand-in-9c41e7"
STAND_INS = {
    "csrf_token": CSRF_STAND_IN,
    "csp_nonce": NONCE_STAND_IN,
    "save_key": SAVE_KEY_STAND_IN,
}


def page_key(request: HttpRequest, template_name: str, version: str) -> str:
    reader = request.user.pk if request.user.is_authenticated else "-"
    parts = (template_name, version, reader, get_language(), request.get_full_path())
    # The address may be long: hashed, the key is short and plain.
    return "page:" + hashlib.sha256(repr(parts).encode()).hexdigest()


def fill_in(html: str, request: HttpRequest) -> str:
    html = html.replace(CSRF_STAND_IN, get_token(request))
    nonce = get_nonce(request)  # lazy, and falsy until str() makes it
    if NONCE_STAND_IN in html and nonce is not None:
        html = html.replace(NONCE_STAND_IN, str(nonce))
    if SAVE_KEY_STAND_IN in html:
        html = html.replace(SAVE_KEY_STAND_IN, new_save_key())
    return html


def render_page(
    request: HttpRequest,
    template_name: str,
    context: Callable[[], dict[str, object]],
    *,
    version: str,
) -> HttpResponse:
    """`template_name` rendered with `context()`, or the copy rendered for the
    same `version` of what it shows, reader, language and address."""
    if get_messages(request):  # len() only: reading them would mark them shown
        with read_snapshot():
            return render(request, template_name, context())
    pages = caches["pages"]
    key = page_key(request, template_name, version)
    html = pages.get(key)
    if html is None:
        # The context is read in one snapshot; the version was read before it,
        # so a page is never older than its key.
        with read_snapshot():
            html = render_to_string(template_name, context() | STAND_INS, request)
        pages.set(key, html, PAGE_SECONDS)
    return HttpResponse(fill_in(html, request))
