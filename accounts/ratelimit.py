"""Log-in with a limit on failed attempts, so a password cannot be guessed by
trying many: after LOGIN_FAILURE_LIMIT failures for one username from one
address, four times as many for one username from any addresses, or four times
as many from one address for any usernames, within LOGIN_FAILURE_WINDOW seconds
of the first, further attempts are refused without checking the password until
that window has passed (a whole window: failures meanwhile do not extend it).

The counters are shared by every worker and every host: with REDIS_URL in Redis
(one atomic script per failure: count and expiry together), otherwise in the
database (accounts.LoginFailures, one atomic upsert). Neither is a cache that
other traffic could empty: a count stays until its window ends."""

from __future__ import annotations

import hashlib
import math
import time
from typing import Protocol

from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import caches
from django.core.exceptions import ValidationError
from django.db import connections, router
from django.forms import Form
from django.http import HttpRequest
from django.utils.translation import ngettext

from .models import LoginFailures

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
    """(counter key, limit): this username from this address, this username from
    anywhere, and this address. The first is the one a success clears."""
    limit = settings.LOGIN_FAILURE_LIMIT
    ip = client_ip(request)
    user = username.strip().casefold()
    return [(_key(ip, user), limit), (_key("user", user), limit * 4), (_key(ip), limit * 4)]


class Counters(Protocol):
    def hit(self, key: str, window: int, now: float) -> None: ...
    def wait(self, key: str, limit: int, now: float) -> float: ...
    def clear(self, key: str) -> None: ...


# One failure: the count up by one, and the window set with the first failure.
# A key left without an expiry (it expired between two commands) gets one too.
_HIT = """
local n = redis.call('INCR', KEYS[1])
if n == 1 or redis.call('TTL', KEYS[1]) < 0 then
  redis.call('EXPIRE', KEYS[1], ARGV[1])
end
return n
"""


class RedisCounters:
    """In the Redis of the default cache (REDIS_URL), under its key prefix."""

    def __init__(self) -> None:
        self.cache = caches["default"]

    def _client(self, key: str):
        full = self.cache.make_and_validate_key(key)
        return full, self.cache._cache.get_client(full, write=True)  # type: ignore[attr-defined]

    def hit(self, key: str, window: int, now: float) -> None:
        full, client = self._client(key)
        client.eval(_HIT, 1, full, window)

    def wait(self, key: str, limit: int, now: float) -> float:
        full, client = self._client(key)
        pipe = client.pipeline()
        pipe.get(full)
        pipe.pttl(full)
        count, pttl = pipe.execute()
        if count is None or int(count) < limit or pttl <= 0:
            return 0.0
        return pttl / 1000

    def clear(self, key: str) -> None:
        full, client = self._client(key)
        client.delete(full)


class DatabaseCounters:
    """Rows of accounts.LoginFailures: one upsert per failure."""

    def _table(self):
        connection = connections[router.db_for_write(LoginFailures)]
        return connection, connection.ops.quote_name(LoginFailures._meta.db_table)

    def hit(self, key: str, window: int, now: float) -> None:
        connection, table = self._table()
        q = connection.ops.quote_name
        key_, count, until = q("key"), q("count"), q("until")
        with connection.cursor() as cursor:
            # Windows that ended are deleted as failures come: the table holds
            # only the counts that still matter.
            cursor.execute(f"DELETE FROM {table} WHERE {until} <= %s", [now])
            cursor.execute(
                f"INSERT INTO {table} ({key_}, {count}, {until}) VALUES (%s, 1, %s) "
                f"ON CONFLICT ({key_}) DO UPDATE SET "
                f"{count} = CASE WHEN {table}.{until} <= %s THEN 1 "
                f"ELSE {table}.{count} + 1 END, "
                f"{until} = CASE WHEN {table}.{until} <= %s THEN %s ELSE {table}.{until} END",
                [key, now + window, now, now, now + window],
            )

    def wait(self, key: str, limit: int, now: float) -> float:
        row = LoginFailures.objects.filter(key=key).values_list("count", "until").first()
        if row is None or row[0] < limit or row[1] <= now:
            return 0.0
        return row[1] - now

    def clear(self, key: str) -> None:
        LoginFailures.objects.filter(key=key).delete()


def counters() -> Counters:
    if getattr(settings, "LOGIN_FAILURE_STORE", "database") == "redis":
        return RedisCounters()
    return DatabaseCounters()


def blocked_for(keys: list[tuple[str, int]]) -> int:
    """Seconds until another attempt is allowed; 0 if allowed now."""
    store, now = counters(), time.time()
    wait = max((store.wait(key, limit, now) for key, limit in keys), default=0.0)
    return math.ceil(wait) if wait > 0 else 0


def record_failure(keys: list[tuple[str, int]]) -> None:
    """Count a failure on every key; a key's window starts at its first failure."""
    store, now = counters(), time.time()
    for key, _limit in keys:
        store.hit(key, settings.LOGIN_FAILURE_WINDOW, now)


def clear_failures(keys: list[tuple[str, int]]) -> None:
    # Only the username's own count from this address: a correct password says
    # nothing about the other usernames tried from there, nor about guesses at
    # this username from elsewhere.
    if keys:
        counters().clear(keys[0][0])


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
