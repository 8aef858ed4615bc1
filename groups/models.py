"""The family purse: a group of regulars, its evenings and the payments made
between its members (docs/groups.md).

Balances are never stored: each is the evenings' money plus the payments,
computed by the engine (scoring/engine/purse.py) from what is kept here.
"""

from __future__ import annotations

import secrets
from decimal import Decimal

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring.engine.names import player_key
from scoring.engine.purse import MAX_PAYMENT
from scoring.models import GameSession


class Group(models.Model):
    """A group of regulars ("Pokhara family") whose evenings carry one purse."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="purse_groups",
        null=True,
        blank=True,
    )
    name = models.CharField(max_length=100)
    currency = models.CharField(max_length=8, default="NPR")
    created_at = models.DateTimeField(auto_now_add=True)
    # Moved by every write to the group, its members, evenings and payments
    # (groups/versions.py): with its evenings' own versions, the group's version.
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Member(models.Model):
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="members")
    name = models.CharField(max_length=40)
    # player_key(name): a member is the player of the same key in each evening.
    name_key = models.CharField(max_length=160, editable=False)
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["group", "name_key"], name="unique_member_key_in_group")
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        self.name_key = player_key(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)


def new_link_token() -> str:
    # 24 random bytes (192 bits), as a seat link's: 32 URL-safe characters.
    return secrets.token_urlsafe(24)


class MemberLink(models.Model):
    """A member's own link for the whole festival: it opens their seat in the
    group's evening in progress, whichever that is (table.views.member_seat).
    Revoking it deletes the row; a new link replaces the token."""

    member = models.OneToOneField(Member, on_delete=models.CASCADE, related_name="link")
    token = models.CharField(max_length=64, unique=True, default=new_link_token)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["member__position", "member_id"]

    def __str__(self) -> str:
        return f"link of {self.member}"


class Evening(models.Model):
    """A session that belongs to a group: its players are members. A session
    belongs to one group at most; a session without one is as it always was."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="evenings")
    session = models.OneToOneField(
        GameSession, on_delete=models.CASCADE, related_name="purse_evening"
    )

    def __str__(self) -> str:
        return f"{self.session} in {self.group}"


class Payment(models.Model):
    METHODS = [
        ("cash", _("cash")),
        ("esewa", _("eSewa")),
        ("khalti", _("Khalti")),
        ("bank", _("bank")),
        ("other", _("other")),
    ]

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="payments")
    payer = models.ForeignKey(Member, on_delete=models.RESTRICT, related_name="payments_made")
    payee = models.ForeignKey(Member, on_delete=models.RESTRICT, related_name="payments_received")
    amount = models.DecimalField(
        max_digits=12,
        decimal_places=2,
        validators=[MinValueValidator(Decimal("0.01"))],
    )
    paid_on = models.DateField(default=timezone.localdate)
    method = models.CharField(max_length=10, choices=METHODS, default="cash")
    note = models.CharField(max_length=200, blank=True, default="")
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)
    # Raised by every edit: an edit opened before another one is refused.
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["-paid_on", "-recorded_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(amount__gte=Decimal("0.01")) & models.Q(amount__lte=MAX_PAYMENT),
                name="payment_amount_in_bounds",
            ),
            models.CheckConstraint(
                condition=~models.Q(payer=models.F("payee")), name="payment_not_to_oneself"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.payer} → {self.payee}: {self.amount}"


class PaymentChange(models.Model):
    """The audit trail of a group's payments, like RoundChange for rounds."""

    ACTIONS = [
        ("create", _("Created")),
        ("edit", _("Edited")),
        ("delete", _("Deleted")),
        # A payment put back: not "Restored" as a round is, which beside money
        # reads as a refund in Nepali (ne-review-3 row 5).
        ("restore", pgettext_lazy("payment", "Restored")),
    ]

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="changes")
    payment_pk = models.PositiveBigIntegerField(db_index=True)
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
        return f"{self.get_action_display()} payment {self.payment_pk} of {self.group_id}"


class FiledGame(models.Model):
    """Another game of the group's purse (CALLBREAK.md §12) brought in by a
    group file, kept as its document when its app keeps no record of its own
    (groups/purse.py): a Call Break game, or any registered kind without a
    `save`. Its money is worked out from the document by its kind's engine
    once, at import, and kept (member name → amount, as text)."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="filed_games")
    kind = models.CharField(max_length=20)
    name = models.CharField(max_length=100)
    played_on = models.DateField()
    document = models.JSONField()
    money = models.JSONField()
    position = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    # Moved by a member's rename (its only change): the purse keeps its money under it.
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["played_on", "position", "id"]

    def __str__(self) -> str:
        return f"{self.kind} {self.name} in {self.group}"
