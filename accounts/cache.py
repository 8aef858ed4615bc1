"""Django's RedisCache, for the state every host shares (marriage_site/settings.py),
read so that a Redis that does not answer costs speed rather than pages.

A read that fails is a miss, and a write of a copy that fails is skipped: what
the cache holds (log-in sessions, users) is a copy of what the database holds,
which is then read instead. Each wait is bounded by the socket timeouts (at
most a second, settings), and after a failure this process leaves Redis alone
for DOWN_SECONDS: reads are misses and copies are not written, so a blip costs
one request one second, not every request several.

What must reach every host is written with `must_set` or deleted, never
skipped, and fails loudly: the mark that a log-in session ended
(accounts/sessions.py) and a user's changed copy. A copy left behind would
outlive a log-out once Redis answered again, so while Redis is away a log-out
answers 503 (scoring/web/middleware.py), after ending the session in the
database, which the hosts read meanwhile."""

from __future__ import annotations

import logging
import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

# After a failure, how long this process reads from the database alone.
DOWN_SECONDS = 5.0


# Per process and Redis (its address): the monotonic time it may be asked again.
_down_until: dict[str, float] = {}


class SharedRedisCache(RedisCache):
    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._server = str(server)

    def _skipped(self) -> bool:
        return time.monotonic() < _down_until.get(self._server, 0.0)

    def answering(self) -> bool:
        """False while this process leaves Redis alone after a failure."""
        return not self._skipped()

    def _failed(self, action: str, error: RedisError) -> None:
        _down_until[self._server] = time.monotonic() + DOWN_SECONDS
        logger.warning("Redis %s failed, read from the database instead: %s", action, error)

    def get(self, key, default=None, version=None):
        if self._skipped():
            return default
        try:
            return super().get(key, default, version)
        except RedisError as error:
            self._failed("read", error)
            return default

    def get_many(self, keys, version=None):
        if self._skipped():
            return {}
        try:
            return super().get_many(keys, version)
        except RedisError as error:
            self._failed("read", error)
            return {}

    def has_key(self, key, version=None):
        if self._skipped():
            return False
        try:
            return super().has_key(key, version)
        except RedisError as error:
            self._failed("read", error)
            return False

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        if self._skipped():
            return
        try:
            super().set(key, value, timeout, version)
        except RedisError as error:
            self._failed("write", error)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        if self._skipped():
            return False
        try:
            return super().add(key, value, timeout, version)
        except RedisError as error:
            self._failed("write", error)
            return False

    def must_set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None) -> None:
        """`set`, tried even while reads are skipped, raising if it fails."""
        try:
            super().set(key, value, timeout, version)
        except RedisError as error:
            self._failed("write", error)
            raise

    def must_set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None) -> None:
        try:
            super().set_many(data, timeout, version)
        except RedisError as error:
            self._failed("write", error)
            raise

    def delete(self, key, version=None):
        try:
            return super().delete(key, version)
        except RedisError as error:
            self._failed("delete", error)
            raise


def must_set(cache: BaseCache, key: str, value: object, timeout: int) -> None:
    """Write what every host must read, raising if it could not be written
    (any cache raises; the shared Redis one, unlike its copies, too)."""
    if isinstance(cache, SharedRedisCache):
        cache.must_set(key, value, timeout)
    else:
        cache.set(key, value, timeout)


def must_set_many(cache: BaseCache, data: dict[str, object], timeout: int) -> None:
    if not data:
        return
    if isinstance(cache, SharedRedisCache):
        cache.must_set_many(data, timeout)
    else:
        cache.set_many(data, timeout)


def answering(cache: BaseCache) -> bool:
    return cache.answering() if isinstance(cache, SharedRedisCache) else True
