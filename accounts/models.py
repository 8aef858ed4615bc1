"""What every app host must agree on, kept in the database they share.

OwnerVersion: a counter per user, moved in the transaction of every write to one
of their sessions (scoring/selectors/versions.py), so the key of a page drawn
from their sessions changes exactly when such a write commits, whatever the
order of the commits or the clocks of the hosts that made them.

LoginFailures: the failed log-in counters (accounts/ratelimit.py) when no Redis
is configured: rows, so nothing else in a cache can push them out.
"""

from __future__ import annotations

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
