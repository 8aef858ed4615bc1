"""The backend that reads the signed-in user from the cache."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

USER_CACHE_SECONDS = 300


def _user_key(user_id: object) -> str:
    return f"auth-user:{user_id}"


class CachedUserBackend(ModelBackend):
    """ModelBackend, except that the user of each request comes from the cache
    rather than a database query. Every save or delete of a user (a new password,
    deactivation, the time of the last log-in) drops the cached copy, so a changed
    password still ends every other log-in at its next request. A write that
    bypasses save(), such as QuerySet.update(), shows within USER_CACHE_SECONDS."""

    def get_user(self, user_id):
        key = _user_key(user_id)
        user = cache.get(key)
        if user is None:
            user = super().get_user(user_id)  # None if unknown or inactive: not cached
            if user is not None:
                cache.set(key, user, USER_CACHE_SECONDS)
        return user


@receiver([post_save, post_delete], sender=settings.AUTH_USER_MODEL)
def _forget_cached_user(sender, instance, **kwargs) -> None:
    key = _user_key(instance.pk)
    cache.delete(key)
    # Again once the change is committed: a request reading the user before then
    # would have cached the old row.
    transaction.on_commit(lambda: cache.delete(key))
