"""Pot hands at the table (docs/callbreak.md, "Pot hands"): a pot session, its
players, and each hand's money in whole paisa, seat by seat. A hand's
`carry_in` is never stored: it is what the hand before carried out, so a
chain cannot break by an edit of one hand alone (the services check the whole
session through the engine before anything is saved)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring.engine.names import player_key


class PotSession(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="pot_sessions"
    )
    # The family purse this evening's pots count in (groups/purse.py).
    group = models.ForeignKey(
        "groups.Group",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="pot_sessions",
    )
    name = models.CharField(max_length=100)
    played_on = models.DateField(default=timezone.localdate)
    currency = models.CharField(max_length=8, default="NPR")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # Raised by every write to the session or its hands: the live follow's
    # version and the purse's.
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["-played_on", "-id"]

    def __str__(self) -> str:
        return self.name


class PotPlayer(models.Model):
    session = models.ForeignKey(PotSession, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=40)
    name_key = models.CharField(max_length=160, editable=False)
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["session", "name_key"], name="unique_pot_player_key")
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        self.name_key = player_key(self.name)
        super().save(*args, **kwargs)


class PotHand(models.Model):
    """One pot: paisa put in per seat; either the winners (seats) who split it
    or what each seat took out (`took`); and what it carried on."""

    session = models.ForeignKey(PotSession, on_delete=models.CASCADE, related_name="hands")
    game = models.CharField(max_length=40, blank=True, default="")
    put_in = models.JSONField()  # [paisa per seat]
    winners = models.JSONField(default=list)  # [seat]
    took = models.JSONField(null=True, blank=True)  # [paisa per seat] or None
    carry_out = models.BigIntegerField(default=0)
    note = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"hand {self.pk} of {self.session_id}"


class PotHandChange(models.Model):
    """The change history of a session's hands, as a round's RoundChange."""

    ACTIONS = [
        ("create", _("Created")),
        ("edit", _("Edited")),
        ("delete", _("Deleted")),
        # Put back: "Restored" beside money reads as a refund (ne-review-3 row 5).
        ("restore", pgettext_lazy("payment", "Restored")),
    ]

    session = models.ForeignKey(PotSession, on_delete=models.CASCADE, related_name="changes")
    hand_pk = models.PositiveBigIntegerField(db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)
    action = models.CharField(max_length=10, choices=ACTIONS)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    restored = models.BooleanField(default=False)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.action} hand {self.hand_pk}"
