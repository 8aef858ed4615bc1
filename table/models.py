"""A table of phones: seats (one link per player, no log-in), the entries a seat
sends for the round being entered, and co-scorers with their one-time invites.

Everything here lives in the database, never in a process's memory, so any
number of server processes or hosts see the same seats and entries.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models

from scoring.models import GameSession, Player


def new_token() -> str:
    # 24 random bytes: 192 bits, as a share link's.
    return secrets.token_urlsafe(24)


class Seat(models.Model):
    """One player's seat link: good for that player of that session only.
    Revoking it deletes the row; deleting the session or the player does too."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="seats")
    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="seat")
    token = models.CharField(max_length=64, unique=True, default=new_token)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["player__position", "player_id"]

    def __str__(self) -> str:
        return f"seat of {self.player} in {self.session}"


class SeatEntry(models.Model):
    """What a seat sent for one round being entered (its place on the ledger):
    the round form's fields for that one player. Nothing is saved to the
    ledger from it: the scorer's open round form takes it in."""

    STATUSES = [("seen", "seen"), ("unseen", "unseen")]

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="seat_entries")
    position = models.PositiveIntegerField()
    status = models.CharField(max_length=6, choices=STATUSES, default="seen")
    maal = models.PositiveIntegerField(default=0)
    tunnel = models.PositiveIntegerField(default=0)
    dhoos = models.BooleanField(default=False)
    dublees = models.BooleanField(default=False)
    # The maal calculator's tally (Tally.to_dict()), None when typed in.
    maal_tally = models.JSONField(null=True, blank=True)
    tiplu = models.CharField(max_length=3, blank=True, default="")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "seat entries"
        constraints = [
            models.UniqueConstraint(fields=["player", "position"], name="unique_seat_entry")
        ]
        indexes = [models.Index(fields=["session", "position"], name="seatentry_session_pos")]

    def __str__(self) -> str:
        return f"{self.player} for round {self.position}"


class CoScorer(models.Model):
    """A user who may enter, edit, delete and restore the session's rounds."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="co_scorers")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="co_scoring"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["session", "user"], name="unique_co_scorer")]

    def __str__(self) -> str:
        return f"{self.user} co-scores {self.session}"


class Invite(models.Model):
    """A one-time invite to co-score: accepted once by a logged-in user, or
    revoked (deleted) by the owner."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=64, unique=True, default=new_token)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"invite to {self.session}"
