"""Log-in with a limit on failed attempts, so a password cannot be guessed by
trying many: after LOGIN_FAILURE_LIMIT failures for one username from one
address (or four times as many from one address for any usernames) within
LOGIN_FAILURE_WINDOW seconds, further attempts are refused without checking the
password until the window has passed."""

from __future__ import annotations

import hashlib
import math
import time

from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.forms import Form
from django.http import HttpRequest
from django.utils.translation import ngettext

TOO_MANY = "too_many_attempts"


def client_ip(request: HttpRequest) -> str:
    """The address that made the request. Behind a proxy every request comes from
    the proxy, so the address it appended to X-Forwarded-For is used instead."""
    if getattr(settings, "BEHIND_PROXY", False):
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        if forwarded.strip():
            return forwarded.split(",")[-1].strip()
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def _key(*parts: str) -> str:
    digest = hashlib.sha256("\0".join(parts).encode()).hexdigest()
    return f"login-failures:{digest}"


def failure_keys(request: HttpRequest, username: str) -> list[tuple[str, int]]:
    """(cache key, limit): this username from this address, and this address."""
    limit = settings.LOGIN_FAILURE_LIMIT
    ip = client_ip(request)
    return [(_key(ip, username.strip().casefold()), limit), (_key(ip), limit * 4)]


def blocked_for(keys: list[tuple[str, int]]) -> int:
    """Seconds until another attempt is allowed; 0 if allowed now."""
    now = time.time()
    wait = 0.0
    for key, limit in keys:
        record = cache.get(key)
        if record and record["count"] >= limit:
            wait = max(wait, record["until"] - now)
    return math.ceil(wait) if wait > 0 else 0


def record_failure(keys: list[tuple[str, int]]) -> None:
    """Count a failure; the window starts at the first failure. Not atomic across
    processes, which can only let through a few extra attempts, never lock out."""
    window = settings.LOGIN_FAILURE_WINDOW
    now = time.time()
    for key, _limit in keys:
        record = cache.get(key)
        if not record or record["until"] <= now:
            record = {"count": 0, "until": now + window}
        record["count"] += 1
        cache.set(key, record, timeout=math.ceil(record["until"] - now))


def clear_failures(keys: list[tuple[str, int]]) -> None:
    # Only the username's own count: a correct password says nothing about the
    # other usernames tried from the same address.
    cache.delete(keys[0][0])


def too_many_message(seconds: int) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    return ngettext(
        "Too many failed log-in attempts. Try again in %(minutes)d minute.",
        "Too many failed log-in attempts. Try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}


class RateLimitMixin(Form):
    request: HttpRequest | None

    def clean(self):
        username = self.cleaned_data.get("username") or ""
        keys = failure_keys(self.request, username) if self.request else []
        wait = blocked_for(keys)
        if wait:
            raise ValidationError(too_many_message(wait), code=TOO_MANY)
        try:
            cleaned = super().clean()
        except ValidationError:
            record_failure(keys)
            raise
        clear_failures(keys)
        return cleaned


class RateLimitedAuthenticationForm(RateLimitMixin, AuthenticationForm):
    pass


class RateLimitedAdminAuthenticationForm(RateLimitMixin, AdminAuthenticationForm):
    pass
