"""The backend that reads the signed-in user from the cache."""

from __future__ import annotations

from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache

USER_CACHE_SECONDS = 300


def user_key(user_id: object) -> str:
    return f"auth-user:{user_id}"


class CachedUserBackend(ModelBackend):
    """ModelBackend, except that the user of each request comes from the cache
    rather than a database query. Every save or delete of a user (a new password,
    deactivation, the time of the last log-in) drops the cached copy, and a new
    password, a deactivation or a deletion also ends the user's log-in sessions
    on every host (accounts/signals.py), so a copy left behind by a Redis that
    did not answer opens nothing. A write that bypasses save(), such as
    QuerySet.update(), shows within USER_CACHE_SECONDS."""

    def get_user(self, user_id):
        key = user_key(user_id)
        user = cache.get(key)
        if user is None:
            user = super().get_user(user_id)  # None if unknown or inactive: not cached
            if user is not None:
                # add, never set: a copy read before a change never replaces
                # the one written after it.
                cache.add(key, user, USER_CACHE_SECONDS)
        return user
