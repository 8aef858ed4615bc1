"""A Call Break game as the table records it: four players, the house's
options, a stake, and the deals in playing order, each with its change history.

The engine (`callbreak/engine/`) decides every figure; these rows keep only
what was entered. A deal deleted stays as a row marked `deleted_at`, so its
change history can put it back where it was.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models


def new_watch_token() -> str:
    return secrets.token_urlsafe(16)


class CallBreakGame(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="callbreak_games"
    )
    # The family purse this game's money counts in (groups/purse.py,
    # callbreak/purse.py): its players are members of the group.
    group = models.ForeignKey(
        "groups.Group",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="callbreak_games",
    )
    name = models.CharField(max_length=120, blank=True)
    # The four names in seat order (seat order breaks ties in rounding and transfers).
    players = models.JSONField()
    # The options that differ from their defaults, as a document's `rules` writes them.
    rules = models.JSONField(default=dict, blank=True)
    # None only under the "none" settlement.
    stake = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    played_on = models.DateField()
    # A read-only link for other phones at the table (the watch page).
    watch_token = models.CharField(max_length=32, unique=True, default=new_watch_token)
    # Grows with every change: the watch page's validator and the phone's check.
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return self.name or ", ".join(self.players)


class CallBreakDeal(models.Model):
    game = models.ForeignKey(CallBreakGame, on_delete=models.CASCADE, related_name="deals")
    # In seat order, as the engine's Deal.
    bids = models.JSONField()
    tricks = models.JSONField()
    deleted_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        # Playing order is the order entered: a restored deal goes back to its place.
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"deal {self.pk} of game {self.game_id}"


class CallBreakChange(models.Model):
    """One change of a deal: what it was before and after (None: not there)."""

    ADDED, EDITED, DELETED, RESTORED = "added", "edited", "deleted", "restored"
    ACTIONS = [(ADDED, ADDED), (EDITED, EDITED), (DELETED, DELETED), (RESTORED, RESTORED)]

    game = models.ForeignKey(CallBreakGame, on_delete=models.CASCADE, related_name="changes")
    deal = models.ForeignKey(CallBreakDeal, on_delete=models.CASCADE, related_name="changes")
    action = models.CharField(max_length=10, choices=ACTIONS)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.action} deal {self.deal_id}"
