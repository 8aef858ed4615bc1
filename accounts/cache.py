"""Django's RedisCache, for the state every host shares (marriage_site/settings.py),
read so that a Redis that does not answer costs speed rather than pages.

A read that fails is a miss, and a write of a copy that fails is skipped: what
the cache holds (log-in sessions, users) is a copy of what the database holds,
which is then read instead. A deletion that fails is an error, as in Django's:
it is how a log-out, a new password or a deactivation reaches every host, and a
copy left behind would outlive it once Redis answered again. So while Redis is
away pages are read and rounds saved; logging in and out answer 503 until it is
back (scoring/web/middleware.py)."""

from __future__ import annotations

import logging

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)


class SharedRedisCache(RedisCache):
    def _failed(self, action: str, error: RedisError) -> None:
        logger.warning("Redis %s failed, read from the database instead: %s", action, error)

    def get(self, key, default=None, version=None):
        try:
            return super().get(key, default, version)
        except RedisError as error:
            self._failed("read", error)
            return default

    def get_many(self, keys, version=None):
        try:
            return super().get_many(keys, version)
        except RedisError as error:
            self._failed("read", error)
            return {}

    def has_key(self, key, version=None):
        try:
            return super().has_key(key, version)
        except RedisError as error:
            self._failed("read", error)
            return False

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        try:
            super().set(key, value, timeout, version)
        except RedisError as error:
            self._failed("write", error)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        try:
            return super().add(key, value, timeout, version)
        except RedisError as error:
            self._failed("write", error)
            return False
