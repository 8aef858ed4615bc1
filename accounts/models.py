"""What every app host must agree on, kept in the database they share.

OwnerVersion: a counter per user, moved in the transaction of every write to one
of their sessions (scoring/selectors/versions.py), so the key of a page drawn
from their sessions changes exactly when such a write commits, whatever the
order of the commits or the clocks of the hosts that made them.

LoginSession: a log-in session (accounts/sessions.py), with whose it is, so
that a new password or a deactivation can end every one of them.

LoginFailures: the failed log-in counters (accounts/ratelimit.py) when no Redis
is configured: rows, so nothing else in a cache can push them out.
"""

from __future__ import annotations

from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import models


class OwnerVersion(models.Model):
    # The user's id, without a foreign key: a user's deletion deletes their
    # sessions, whose deletion moves this counter in the same transaction.
    owner_id = models.BigIntegerField(primary_key=True)
    value = models.BigIntegerField(default=0)

    def __str__(self) -> str:
        return f"user {self.owner_id}: version {self.value}"


class LoginFailures(models.Model):
    # A hash of what is counted (a username, an address): see ratelimit.py.
    key = models.CharField(max_length=80, primary_key=True)
    count = models.PositiveIntegerField(default=0)
    # The end of the window that began at the first failure (seconds since the epoch).
    until = models.FloatField(db_index=True)

    class Meta:
        verbose_name_plural = "login failures"

    def __str__(self) -> str:
        return f"{self.count} failures until {self.until:.0f}"


class LoginSession(AbstractBaseSession):
    # Whose it is, from the session's data at each save (None until someone
    # logs in). No foreign key: a user's deletion ends their sessions itself
    # (accounts/signals.py), marking them ended on every host as it goes.
    user_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    # Ended (a log-out, a new password), its mark in Redis not yet written: no
    # host reads it, and it goes once the mark is written (accounts/sessions.py).
    ended = models.BooleanField(default=False)

    class Meta(AbstractBaseSession.Meta):
        indexes = [
            models.Index(
                fields=["ended"], condition=models.Q(ended=True), name="loginsession_ended"
            )
        ]

    @classmethod
    def get_session_store_class(cls):
        from .sessions import SessionStore

        return SessionStore
