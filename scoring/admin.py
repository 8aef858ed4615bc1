"""The Django admin: every table, for looking things up and fixing a name or a date.

A round's figures and nets are the engine's, written only through `services`
(which settles the round again), so here they are read-only; so are a session's
rules, which only the app may change (it re-settles every round).
"""

from django.contrib import admin
from django.http import HttpRequest

from .models import GameSession, Player, Round, RoundEntry

ENTRY_FIELDS = ("player", "status", "maal", "tunnel", "dhoos", "net", "maal_tally")


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    fields = ["name", "position"]
    can_delete = False  # a player with rounds is protected anyway


class RoundEntryInline(admin.TabularInline):
    model = RoundEntry
    extra = 0
    fields = ENTRY_FIELDS
    readonly_fields = ENTRY_FIELDS
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(GameSession)
class GameSessionAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "played_on", "currency", "stake_per_point", "shared"]
    list_filter = ["played_on", "currency"]
    search_fields = ["name", "owner__username", "players__name"]
    date_hierarchy = "played_on"
    list_select_related = ["owner"]
    raw_id_fields = ["owner"]
    readonly_fields = ["rules", "stake_per_point", "created_at", "updated_at"]
    inlines = [PlayerInline]

    @admin.display(boolean=True, description="share link")
    def shared(self, obj: GameSession) -> bool:
        return bool(obj.share_token)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "session", "position"]
    search_fields = ["name", "session__name"]
    list_select_related = ["session"]
    raw_id_fields = ["session"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["__str__", "session", "number", "winner", "win_type", "better", "created_at"]
    list_filter = ["win_type", "better"]
    search_fields = ["session__name", "winner__name"]
    list_select_related = ["session", "winner"]
    fields = (
        "session",
        "number",
        "winner",
        "win_type",
        "better",
        "tiplu",
        "stake_per_point",
        "created_at",
    )
    readonly_fields = fields
    inlines = [RoundEntryInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(RoundEntry)
class RoundEntryAdmin(admin.ModelAdmin):
    list_display = ["player", "round", "status", "maal", "tunnel", "dhoos", "net"]
    list_filter = ["status", "dhoos"]
    search_fields = ["player__name", "round__session__name"]
    list_select_related = ["player", "round__session"]
    fields = ("round", *ENTRY_FIELDS)
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
