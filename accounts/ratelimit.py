"""Log-in with a limit on failed attempts, so a password cannot be guessed by
trying many: after LOGIN_FAILURE_LIMIT failures for one username from one
address, four times as many for one username from any addresses, or four times
as many from one address for any usernames, within LOGIN_FAILURE_WINDOW seconds
of the first, further attempts are refused without checking the password until
that window has passed (a whole window: failures meanwhile do not extend it).

Each attempt is counted as a failure before its password is checked, in one
atomic step that also reads the count, and a right password takes it back: so
at most the limit are checked however many arrive at the same moment.

The counters are shared by every worker and every host: with REDIS_URL in Redis
(one atomic script per attempt: count and expiry together), otherwise in the
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
from django.db.models import F
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


def counter_key(*parts: str, kind: str = "login-failures") -> str:
    """The key of a count: what is counted, hashed (a token or an address is
    never kept as it is)."""
    digest = hashlib.sha256("\0".join(parts).encode()).hexdigest()
    return f"{kind}:{digest}"


def failure_keys(request: HttpRequest, username: str) -> list[tuple[str, int]]:
    """(counter key, limit): this username from this address, this username from
    anywhere, and this address. The first is the one a success clears."""
    limit = settings.LOGIN_FAILURE_LIMIT
    ip = client_ip(request)
    user = username.strip().casefold()
    return [
        (counter_key(ip, user), limit),
        (counter_key("user", user), limit * 4),
        (counter_key(ip), limit * 4),
    ]


class Counters(Protocol):
    def hit(self, key: str, window: int, now: float) -> tuple[int, float]: ...
    def take_back(self, key: str) -> None: ...
    def clear(self, key: str) -> None: ...


# One attempt: the count up by one, and the window set with the first; the
# count and the seconds left, read in the same step. A key left without an
# expiry (it expired between two commands) gets one too.
_HIT = """
local n = redis.call('INCR', KEYS[1])
if n == 1 or redis.call('TTL', KEYS[1]) < 0 then
  redis.call('EXPIRE', KEYS[1], ARGV[1])
end
return {n, redis.call('PTTL', KEYS[1])}
"""
# An attempt that turned out right: its count taken back, if the window still runs.
_TAKE_BACK = """
if redis.call('GET', KEYS[1]) and tonumber(redis.call('GET', KEYS[1])) > 0 then
  return redis.call('DECR', KEYS[1])
end
return 0
"""


class RedisCounters:
    """In the Redis of the default cache (REDIS_URL), under its key prefix."""

    def __init__(self) -> None:
        self.cache = caches["default"]

    def _client(self, key: str):
        full = self.cache.make_and_validate_key(key)
        return full, self.cache._cache.get_client(full, write=True)  # type: ignore[attr-defined]

    def hit(self, key: str, window: int, now: float) -> tuple[int, float]:
        full, client = self._client(key)
        count, pttl = client.eval(_HIT, 1, full, window)
        return int(count), max(0, int(pttl)) / 1000

    def take_back(self, key: str) -> None:
        full, client = self._client(key)
        client.eval(_TAKE_BACK, 1, full)

    def clear(self, key: str) -> None:
        full, client = self._client(key)
        client.delete(full)


class DatabaseCounters:
    """Rows of accounts.LoginFailures: one upsert per attempt, which returns the count."""

    def _table(self):
        connection = connections[router.db_for_write(LoginFailures)]
        return connection, connection.ops.quote_name(LoginFailures._meta.db_table)

    def hit(self, key: str, window: int, now: float) -> tuple[int, float]:
        connection, table = self._table()
        q = connection.ops.quote_name
        key_, count, until = q("key"), q("count"), q("until")
        with connection.cursor() as cursor:
            # Windows that ended are deleted as attempts come: the table holds
            # only the counts that still matter.
            cursor.execute(f"DELETE FROM {table} WHERE {until} <= %s", [now])
            cursor.execute(
                f"INSERT INTO {table} ({key_}, {count}, {until}) VALUES (%s, 1, %s) "
                f"ON CONFLICT ({key_}) DO UPDATE SET "
                f"{count} = CASE WHEN {table}.{until} <= %s THEN 1 "
                f"ELSE {table}.{count} + 1 END, "
                f"{until} = CASE WHEN {table}.{until} <= %s THEN %s ELSE {table}.{until} END "
                f"RETURNING {count}, {until}",
                [key, now + window, now, now, now + window],
            )
            found, ends = cursor.fetchone()
        return int(found), max(0.0, float(ends) - now)

    def take_back(self, key: str) -> None:
        LoginFailures.objects.filter(key=key, count__gt=0).update(count=F("count") - 1)

    def clear(self, key: str) -> None:
        LoginFailures.objects.filter(key=key).delete()


def counters() -> Counters:
    if getattr(settings, "LOGIN_FAILURE_STORE", "database") == "redis":
        return RedisCounters()
    return DatabaseCounters()


def count_attempt(keys: list[tuple[str, int]], window: int | None = None) -> int:
    """Count one attempt on every key, each in one atomic step that also reads
    the count: seconds until another attempt is allowed if this one is past a
    key's limit (then it is not to be made), else 0. Counted before the attempt
    is looked at, so however many arrive at once, at most the limit go on."""
    store, now = counters(), time.time()
    window = window or settings.LOGIN_FAILURE_WINDOW
    wait = 0.0
    for key, limit in keys:
        count, left = store.hit(key, window, now)
        if count > limit:
            wait = max(wait, left)
    return math.ceil(wait) if wait > 0 else 0


def record_failure(keys: list[tuple[str, int]]) -> None:
    """Count a failure on every key; a key's window starts at its first failure."""
    count_attempt(keys)


def clear_failures(keys: list[tuple[str, int]]) -> None:
    """A right password: this username's count from this address starts again
    (a correct password says nothing about the other usernames tried from
    there, nor about guesses at this username from elsewhere); on the other
    keys the attempt, counted before it was checked, is taken back."""
    if not keys:
        return
    store = counters()
    store.clear(keys[0][0])
    for key, _limit in keys[1:]:
        store.take_back(key)


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
        # Counted as a failure before the password is looked at: thirty tries
        # at the same moment find the count at 1, 2, … 30, and only those
        # within the limit are checked.
        wait = count_attempt(keys)
        if wait:
            raise ValidationError(too_many_message(wait), code=TOO_MANY)
        cleaned = super().clean()  # a wrong password leaves the failure counted
        clear_failures(keys)
        return cleaned


class RateLimitedAuthenticationForm(RateLimitMixin, AuthenticationForm):
    pass


class RateLimitedAdminAuthenticationForm(RateLimitMixin, AdminAuthenticationForm):
    pass
