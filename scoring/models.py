"""What is kept: game nights, their players, rounds and each player's round.

Models persist; the engine decides. Each entry stores its round's net, so a
ledger or a total is a sum over rows, never a replay of the rules.
"""

from __future__ import annotations

import secrets
from decimal import Decimal
from typing import cast

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .engine import Entry, RoundInput, Rules, rules_from_options
from .engine.names import player_key
from .engine.settlement import Status, WinType


def new_share_token() -> str:
    return secrets.token_urlsafe(24)


class GameSession(models.Model):
    """One game night (or a whole festival): a ledger with its players and rules."""

    # Set by the sessions list (views.sessions), not stored: who leads it.
    leaders: list[str]
    # Set by views.access.session_for_scorer, not stored: the reader let in as
    # owner or co-scorer.
    scorer_id: int | None

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="game_sessions",
        null=True,
        blank=True,
    )
    name = models.CharField(max_length=100)
    played_on = models.DateField(default=timezone.localdate)
    currency = models.CharField(max_length=8, default="NPR")
    stake_per_point = models.DecimalField(
        max_digits=12,
        decimal_places=2,
        default=Decimal("1.00"),
        validators=[MinValueValidator(Decimal("0"))],
    )
    # Every option resolved (Rules.to_options()), so later preset changes never
    # alter a past session.
    rules = models.JSONField(default=dict)
    share_token = models.CharField(max_length=64, unique=True, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-played_on", "-id"]
        verbose_name = "session"

    def __str__(self) -> str:
        return self.name

    def save(self, **kwargs) -> None:
        # Every save moves the version (updated_at), even a save of a few fields.
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "updated_at" not in update_fields:
            kwargs["update_fields"] = [*update_fields, "updated_at"]
        super().save(**kwargs)

    def get_rules(self) -> Rules:
        return rules_from_options(self.rules)


class PlayerQuerySet(models.QuerySet):
    def bulk_create(self, objs, *args, **kwargs):
        # bulk_create skips save(): each key is set here instead.
        objs = list(objs)
        for player in objs:
            player.name_key = player_key(player.name)
        return super().bulk_create(objs, *args, **kwargs)


class Player(models.Model):
    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=40)
    # player_key(name): NFC, case folded. Unique per session, so "René", "RENÉ" and
    # a decomposed "René" can never be three players, on any database.
    name_key = models.CharField(max_length=160, editable=False)
    position = models.PositiveIntegerField(default=0)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["position", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "name_key"], name="unique_player_key_in_session"
            )
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        self.name_key = player_key(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)


class Round(models.Model):
    WIN_TYPES = [("normal", "Normal"), ("dublee", "Dublee (eight dublees)")]
    # Set by a save on the round it returns (services.rounds), not stored: its
    # place as the ledger shows it, whether the save was a repeat, and whether an
    # edit changed nothing.
    position: int
    replayed: bool
    unchanged: bool

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="rounds")
    # Order within the session; the ledger shows the position, so a deleted
    # round leaves no gap on screen.
    number = models.PositiveIntegerField()
    winner = models.ForeignKey(
        Player, on_delete=models.RESTRICT, null=True, blank=True, related_name="rounds_won"
    )
    win_type = models.CharField(max_length=10, choices=WIN_TYPES, default="normal")
    # Whether the round settled as better: the table's own mark, else the
    # default the rules give it (after a dublee win, after a rotation).
    better = models.BooleanField(default=False)
    # The table's mark: True or False when someone set it, None when the round
    # takes its default, which moves when an earlier round is added or deleted.
    better_mark = models.BooleanField(null=True, blank=True, default=None)
    # The tiplu card ("QH", "10S") picked in the maal calculator; "" if not used.
    tiplu = models.CharField(max_length=3, blank=True, default="")
    # The stake per point from this round on (raised late at night): None keeps
    # the stake in force before it (the session's, unless an earlier round set
    # one). Each round's money is its nets at the stake in force.
    stake_per_point = models.DecimalField(
        max_digits=12,
        decimal_places=2,
        null=True,
        blank=True,
        default=None,
        validators=[MinValueValidator(Decimal("0.01"))],
    )
    # RULES.md 3a, dhoos_payee next_round_winner: what players who sat this round
    # out paid in it (a dhoos given earlier, booked to this round's winner), as
    # {player id: net}. In the round's nets and the totals, not among its entries.
    outside_nets = models.JSONField(default=dict, blank=True)
    # The next-winner dhoos pending after this round, as the session settled in
    # order carries it: [[player id, amount, position of its round], ...]; None
    # when not worked out (a round saved before this was kept, or under rules
    # that carry no dhoos). The next round's form and the ledger read it instead
    # of settling every round again.
    pending_after = models.JSONField(null=True, blank=True, default=None)
    # Raised by every edit. The edit form carries the version it was opened at, so
    # saving over someone else's newer edit is refused instead of silently lost.
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="unique_round_number")
        ]

    def __str__(self) -> str:
        return f"{self.session} round {self.number}"

    def to_input(self, *, marked: bool = False) -> RoundInput:
        """The engine's view of this round (entries must be prefetched with players):
        better as it settled, or with `marked` as the table marked it (None: the
        default, for `settle_session` to work out)."""
        entries = sorted(self.entries.all(), key=lambda e: (e.player.position, e.player_id))
        return RoundInput(
            entries=tuple(e.to_entry() for e in entries),
            winner=self.winner.name if self.winner else None,
            win_type=cast(WinType, self.win_type),  # the field's choices
            better=self.better_mark if marked else self.better,
        )


class RoundEntry(models.Model):
    """One player's part in one round: what they held, and what they won or lost."""

    STATUSES = [("seen", "Seen"), ("unseen", "Unseen")]

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="entries")
    status = models.CharField(max_length=6, choices=STATUSES, default="seen")
    maal = models.PositiveIntegerField(default=0)
    tunnel = models.PositiveIntegerField(default=0)
    dhoos = models.BooleanField(default=False)
    # Saw the tiplu by seven dublees rather than three pure sets (always seen).
    dublees = models.BooleanField(default=False)
    net = models.IntegerField(default=0)
    # The maal calculator's tally (Tally.to_dict()), kept to show how maal and
    # tunnel were counted; None when they were typed in.
    maal_tally = models.JSONField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "round entries"
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="unique_player_in_round")
        ]
        # The ledger reads every round's nets by round (reports.build_ledger): from
        # this index alone, never the rows, which the first view after a change
        # would otherwise read five thousand of for a long night.
        indexes = [models.Index(fields=["round", "player", "net"], name="roundentry_round_nets")]

    def __str__(self) -> str:
        return f"{self.player} in {self.round}: {self.net:+d}"

    def to_entry(self) -> Entry:
        return Entry(
            player=self.player.name,
            status=cast(Status, self.status),  # the field's choices
            maal=self.maal,
            tunnel=self.tunnel,
            dhoos=self.dhoos,
            dublees=self.dublees,
        )


class RoundChange(models.Model):
    """The audit trail: one row per change to a round, with who made it and the
    round as it was before and after (see services/rounds.py round_snapshot)."""

    ACTIONS = [
        ("create", _("Created")),
        ("edit", _("Edited")),
        ("delete", _("Deleted")),
        ("undo", _("Undone")),
        ("restore", _("Restored")),
        # Every round settled again when the session's rules changed.
        ("rules", _("Re-settled under new rules")),
        # Settled again because an earlier round changed (next-winner dhoos, the
        # rotation's better rounds).
        ("resettle", _("Re-settled after an earlier round changed")),
        # The seating and first dealer drawn before round 1 (round_pk 0), and
        # the draw undone: scoring/services/players.py draw_seats.
        ("seats", _("Seats drawn")),
        ("seats_undo", _("Draw of seats undone")),
    ]

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="changes")
    # The round's id as a plain number, not a foreign key: the history outlives a
    # deleted round, and a restored round gets its old id back.
    round_pk = models.PositiveBigIntegerField(db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    at = models.DateTimeField(default=timezone.now)
    action = models.CharField(max_length=10, choices=ACTIONS)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    # For a delete or undo: set once the round has been restored from `before`.
    restored = models.BooleanField(default=False)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["session", "-at"], name="roundchange_session_at")]

    def __str__(self) -> str:
        return f"{self.get_action_display()} round {self.round_pk} of {self.session_id}"


class SavedKey(models.Model):
    """A form's one-time key, remembered with what its save created (see
    scoring/services/savekeys.py): a repeat of the same POST saves nothing new."""

    # "edit": a change of an existing round (object_pk), its key scoped to that round.
    KINDS = [
        ("round", "round"),
        ("session", "session"),
        ("player", "player"),
        ("import", "import"),
        ("edit", "edit"),
    ]

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="saved_keys"
    )
    key = models.CharField(max_length=64)
    kind = models.CharField(max_length=10, choices=KINDS)
    session = models.ForeignKey(
        GameSession, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    # What was created, by id: a round may be deleted and restored with its old id.
    object_pk = models.PositiveBigIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="unique_saved_key")]

    def __str__(self) -> str:
        return f"{self.kind} {self.object_pk} saved under {self.key}"
