"""What a page that follows its session live carries (templates/scoring/_follow.html,
static/js/follow.js): how often it asks, and the validator it asks with. The
validator is the session's version in the database (selectors/versions.py) and
the page's language, so any host answers 304 while nothing it shows changed."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import get_language

from ..models import GameSession
from ..selectors.versions import version_of

POLL_SECONDS = 1  # a change within 1 s median, 2 s p95 (docs/lan.md)


def live_etag(version: str) -> str:
    return f"{version}-{get_language()}"


def follow_context(session: GameSession) -> dict[str, object]:
    """The context of scoring/_follow.html for a page of `session`'s owner or
    co-scorers, polled at scoring.views.live.session_live."""
    return {"follow_etag": live_etag(version_of(session)), "poll_seconds": POLL_SECONDS}


def fresh(response: HttpResponse) -> HttpResponse:
    """Never served stale from a cache: every poll asks the server."""
    patch_cache_control(response, no_cache=True, private=True)
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    response.headers["X-Robots-Tag"] = "noindex"
    return response
