"""What ends a user's log-ins on every host: a new password (every log-in but
the one that made the change, which Django then gives a new key), a
deactivation and a deletion end their sessions (accounts/sessions.py), whoever
saves the user: a view, the admin, a command or the shell. Then the user's
cached copy is dropped (accounts/backends.py), again once the change is
committed: a request reading the user before then would have cached the old row.

The sessions are ended before the copy is dropped, their rows first: if Redis
does not answer, the error is raised after the rows are gone (in a transaction
the whole change is undone and the request answers 503, try again)."""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save, pre_delete, pre_save
from django.dispatch import receiver

from .backends import user_key
from .sessions import end_user_sessions

ENDS = "_ends_log_ins"


@receiver(pre_save, sender=settings.AUTH_USER_MODEL)
def _before_user_saved(sender, instance, raw: bool = False, **kwargs) -> None:
    fields = kwargs.get("update_fields")
    if raw or instance._state.adding or instance.pk is None:
        return
    if fields is not None and not {"password", "is_active"} & set(fields):
        return  # e.g. the time of the last log-in
    before = (
        sender._default_manager.using(kwargs.get("using"))
        .filter(pk=instance.pk)
        .values_list("password", "is_active")
        .first()
    )
    if before is None:
        return
    password, active = before
    instance.__dict__[ENDS] = password != instance.password or (active and not instance.is_active)


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def _user_saved(sender, instance, raw: bool = False, **kwargs) -> None:
    if not raw and instance.__dict__.pop(ENDS, False):
        end_user_sessions(instance.pk)
    _forget(instance.pk)


@receiver(pre_delete, sender=settings.AUTH_USER_MODEL)
def _user_to_delete(sender, instance, **kwargs) -> None:
    end_user_sessions(instance.pk)


@receiver(post_delete, sender=settings.AUTH_USER_MODEL)
def _user_deleted(sender, instance, **kwargs) -> None:
    _forget(instance.pk)


def _forget(user_id: int) -> None:
    key = user_key(user_id)
    cache.delete(key)
    transaction.on_commit(lambda: cache.delete(key))
