"""The log-in sessions (SESSION_ENGINE): rows of accounts.LoginSession in the
database, which knows whose each one is, read through the shared cache when
there is one (settings.SESSION_CACHED: REDIS_URL, CACHE_DIR, the tests).

Ending a session must hold on every host, even when Redis pauses or is away
while it ends (docs/hosting.md). So an ended session is marked where every host
looks: a mark beside its cached copy in Redis (`ENDED`), read in the same round
trip as the copy and never overwritten by one, and its row in the database,
which the hosts read while Redis does not answer, marked ended at once and
deleted once the mark in Redis is written. A copy written late (a host that read
the row before it ended, its write held up by a pause) is read past: the mark
wins. If the mark cannot be written the error is raised: a log-out answers 503
and is never said to be done, and tried again it marks the cookie's session
even though nothing loads from it any more. Rows left marked ended get their
mark in Redis from the process that could not write it, at its next request
once Redis answers (made at every request), or from `manage.py
clearsessions`.

A log-out, a new password (every log-in but the one that changed it, which
Django gives a new key), a deactivation and a deleted user each end sessions
this way (accounts/signals.py)."""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Iterable
from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.base import CreateError, UpdateError
from django.contrib.sessions.backends.db import SessionStore as DBStore
from django.core.cache import BaseCache, caches
from django.core.exceptions import SuspiciousOperation
from django.db import IntegrityError, router, transaction
from django.utils import timezone
from redis.exceptions import RedisError

from .cache import answering, must_set_many

logger = logging.getLogger(__name__)

COPY = "login-session:"
ENDED = "login-session-ended:"
# Django's session keys: 32 of these. Only such a key is marked ended.
SESSION_KEY_RE = re.compile(r"[a-z0-9]{32}")
FLUSH_BATCH = 500


class PendingMarks:
    """Whether this process left rows marked ended without their mark in Redis."""

    rows = False


def login_sessions() -> Any:
    """accounts.LoginSession (the models module names this one as its store)."""
    return apps.get_model("accounts", "LoginSession")


def shared_cache() -> BaseCache | None:
    if not getattr(settings, "SESSION_CACHED", False):
        return None
    return caches[settings.SESSION_CACHE_ALIAS]


def end_sessions(keys: Iterable[str]) -> None:
    """End the sessions on every host: their rows marked ended (read by the
    hosts while Redis does not answer), then the mark in Redis, then the rows
    deleted. Raises, leaving the rows marked, if the mark could not be written."""
    LoginSession = login_sessions()

    keys = [k for k in keys if k and SESSION_KEY_RE.fullmatch(k)]
    if not keys:
        return
    cache = shared_cache()
    if cache is None:
        LoginSession.objects.filter(session_key__in=keys).delete()
        return
    LoginSession.objects.filter(session_key__in=keys).update(ended=True)
    try:
        must_set_many(cache, {ENDED + key: True for key in keys}, settings.SESSION_COOKIE_AGE)
    except Exception:
        PendingMarks.rows = True
        raise
    LoginSession.objects.filter(session_key__in=keys, ended=True).delete()
    # The marks are written: the copies are never read again, and expire.
    with contextlib.suppress(RedisError):
        cache.delete_many([COPY + key for key in keys])


def end_user_sessions(user_id: int) -> None:
    """End every log-in session of the user."""
    LoginSession = login_sessions()

    end_sessions(LoginSession.objects.filter(user_id=user_id).values_list("session_key", flat=True))


def write_pending_marks() -> int:
    """Write the marks of sessions whose rows were marked ended while Redis did
    not answer, and delete those rows: how many. Raises if Redis still does not."""
    LoginSession = login_sessions()

    written = 0
    while True:
        keys = list(
            LoginSession.objects.filter(ended=True).values_list("session_key", flat=True)[
                :FLUSH_BATCH
            ]
        )
        if not keys:
            return written
        end_sessions(keys)
        written += len(keys)


class SessionStore(DBStore):
    def __init__(self, session_key: str | None = None) -> None:
        super().__init__(session_key)
        # The cookie's key, kept when nothing loads from it: a log-out tried
        # again must still mark it ended.
        self._cookie_key = self.session_key
        if PendingMarks.rows:
            cache = shared_cache()
            if cache is not None and answering(cache):
                self._write_pending()

    @classmethod
    def get_model_class(cls):
        return login_sessions()

    @classmethod
    def clear_expired(cls):
        super().clear_expired()
        with contextlib.suppress(RedisError):
            write_pending_marks()

    def create_model_instance(self, data):
        instance = super().create_model_instance(data)
        user_id = data.get(SESSION_KEY)  # the user's id as text, when logged in
        known = isinstance(user_id, str) and user_id.isascii() and user_id.isdigit()
        instance.user_id = int(user_id) if known else None
        return instance

    def _get_session_from_db(self):
        try:
            return self.model.objects.get(
                session_key=self.session_key, expire_date__gt=timezone.now(), ended=False
            )
        except (self.model.DoesNotExist, SuspiciousOperation) as error:
            if isinstance(error, SuspiciousOperation):
                logging.getLogger(f"django.security.{type(error).__name__}").warning(str(error))
            self._session_key = None
            return None

    def load(self):
        cache = shared_cache()
        if cache is None:
            return super().load()
        key = self.session_key
        if key is None:
            return {}
        found = cache.get_many([COPY + key, ENDED + key])
        if found.get(ENDED + key):
            self._session_key = None
            return {}
        data = found.get(COPY + key)
        if isinstance(data, dict):
            return data
        row = self._get_session_from_db()
        if row is None:
            return {}
        data = self.decode(row.session_data)
        # add, never set: a copy never replaces what is there (a newer copy, a mark).
        cache.add(COPY + key, data, self.get_expiry_age(expiry=row.expire_date))
        return data

    @staticmethod
    def _write_pending() -> None:
        try:
            write_pending_marks()
        except Exception as error:  # Redis still away: the next request tries again
            logger.warning("ended log-in sessions not yet marked in Redis: %s", error)
        else:
            PendingMarks.rows = False

    def exists(self, session_key):
        cache = shared_cache()
        if cache is not None and cache.get_many([COPY + session_key, ENDED + session_key]):
            return True
        return super().exists(session_key)

    def save(self, must_create=False):
        """Django's, except that a session ended meanwhile is never written
        again (its row is only marked ended until its mark is in Redis)."""
        if self.session_key is None:
            return self.create()
        data = self._get_session(no_load=must_create)
        row = self.create_model_instance(data)
        using = router.db_for_write(self.model, instance=row)
        if must_create:
            try:
                with transaction.atomic(using=using):
                    row.save(force_insert=True, using=using)
            except IntegrityError:
                raise CreateError from None
        else:
            updated = (
                self.model.objects.using(using)
                .filter(session_key=row.session_key, ended=False)
                .update(
                    session_data=row.session_data,
                    expire_date=row.expire_date,
                    user_id=row.user_id,
                )
            )
            if not updated:
                raise UpdateError
        cache = shared_cache()
        if cache is not None:
            cache.set(COPY + row.session_key, self._session, self.get_expiry_age())

    def delete(self, session_key=None):
        if session_key is None:
            session_key = self.session_key or self._cookie_key
        if session_key is None:
            return
        end_sessions([session_key])

    def flush(self):
        self.clear()
        self.delete(self.session_key or self._cookie_key)
        self._session_key = None
        self._cookie_key = None

    async def aload(self):
        raise NotImplementedError("the app is served by WSGI")
