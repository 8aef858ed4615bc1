"""Writes of Call Break games: each a function with keyword-only arguments and
one transaction, checked by the engine before anything is saved.

Every change of a deal is checked as a whole game would be: the deal itself
(its bids and tricks, the tricks totalling 13), and the game after it, which
may not hold a deal after the deal that ended it (a target reached, a
thirteen won). Each write bumps the game's version and tells the live
channel once it has committed, so the watch pages follow.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_noop

from groups.versions import group_changed

from .engine import Deal, Refusal, Rules, deal_refusals, game_end, read_game
from .engine.game import GameEnd
from .engine.limits import PLAYERS
from .engine.players import read_players
from .engine.refusals import DocumentRefused, deal_at, refusal
from .models import CallBreakChange, CallBreakDeal, CallBreakGame
from .selectors import engine_game, live_deals, rules_of
from .web.scoring_api import (
    REUSED,
    SaveKeyRefused,
    announce,
    once,
    player_key,
    remember_save,
)

KIND_GAME = "cb_game"
KIND_DEAL = "cb_deal"
KIND_IMPORT = "cb_import"
KIND_EDIT = "cb_edit"  # a change of a deal, its key kept with the deal


class DealRefused(Exception):
    """A change the engine refuses: nothing was saved. `refusals` say why."""

    def __init__(self, refusals: Sequence[Refusal]) -> None:
        super().__init__(str(refusals[0]))
        self.refusals = tuple(refusals)


# The live channel carries a followed thing's number as decimal digits
# (scoring/web/push.py); a game's is its id past this offset, so it never
# meets a Marriage session's.
STREAM_OFFSET = 10**15


def stream_id(game: CallBreakGame | int) -> int:
    """The live channel's number for a game."""
    pk = game if isinstance(game, int) else game.pk
    return STREAM_OFFSET + pk


def _changed(game: CallBreakGame) -> None:
    CallBreakGame.objects.filter(pk=game.pk).update(
        version=F("version") + 1, updated_at=timezone.now()
    )
    # A game of a group moves the group's version: its pages are kept under it.
    group_changed(game.group_id)
    announce(stream_id(game))


def _join_group(group, players: Sequence[str]) -> None:
    """The game's players are members of its group (CALLBREAK.md §12: every
    player of a game is a member), as an evening's players become members."""
    from groups.models import Member

    members = Member.objects.filter(group=group)
    have = set(members.values_list("name_key", flat=True))
    top = max(members.values_list("position", flat=True), default=0)
    for name in players:
        if player_key(name) not in have:
            top += 1
            Member.objects.create(group=group, name=name, position=top)
            have.add(player_key(name))


def _snap(deal: CallBreakDeal) -> dict[str, Any]:
    return {"bids": list(deal.bids), "tricks": list(deal.tricks)}


def _raw(players: Sequence[str], bids: Sequence[int], tricks: Sequence[int]) -> dict[str, Any]:
    return {
        "bids": dict(zip(players, bids, strict=True)),
        "tricks": dict(zip(players, tricks, strict=True)),
    }


def _check_end(players: Sequence[str], deals: Sequence[Deal], rules: Rules) -> None:
    """The game after a change holds no deal after the one that ended it."""
    if not deals:
        return
    end = game_end(deals, rules)
    if end is not None and end.deals_played < len(deals):
        raise DealRefused([_after_end(end, players, rules)])


def _after_end(end: GameEnd, players: Sequence[str], rules: Rules) -> Refusal:
    where = (deal_at(end.deals_played + 1),)
    if end.thirteen_winner is not None:
        return refusal(
            "E_DEALS",
            where,
            gettext_noop("the game ended in deal %(number)s: %(name)s called and took all 13"),
            number=end.deals_played,
            name=players[end.thirteen_winner],
        )
    if rules.target_score_tenths is not None and end.deals_played != rules.deals_per_game:
        return refusal(
            "E_DEALS",
            where,
            gettext_noop("the game ended in deal %(number)s: a total reached the target"),
            number=end.deals_played,
        )
    return refusal(
        "E_DEALS",
        where,
        gettext_noop("the game ended after deal %(number)s"),
        number=end.deals_played,
    )


def _checked_deal(
    game: CallBreakGame, number: int, bids: Sequence[int], tricks: Sequence[int]
) -> Deal:
    rules = rules_of(game)
    found = deal_refusals(_raw(game.players, bids, tricks), number, tuple(game.players), rules)
    if found:
        raise DealRefused(found)
    return Deal(bids=tuple(bids), tricks=tuple(tricks))


def _locked(game: CallBreakGame) -> CallBreakGame:
    return CallBreakGame.objects.select_for_update().get(pk=game.pk)


def start_game(
    *,
    owner,
    players: Sequence[str],
    rules: Rules,
    stake: Decimal | None,
    name: str = "",
    played_on: datetime.date | None = None,
    group=None,
    save_key: str | None = None,
) -> CallBreakGame:
    """A new game. The players and rules were read by the form through the
    engine; the names are checked once more here, as a document's would be
    (four, none empty, none twice): DealRefused (E_PLAYERS) if not. A game
    for a `group` counts in its purse once it has ended; its players become
    members of the group."""
    _names, problems = read_players(list(players), low=PLAYERS, high=PLAYERS, code="E_PLAYERS")
    if problems:
        raise DealRefused(problems)

    def save() -> CallBreakGame:
        with transaction.atomic():
            game = CallBreakGame.objects.create(
                owner=owner,
                name=name,
                players=list(players),
                rules=rules.to_options(),
                stake=stake,
                played_on=played_on or timezone.localdate(),
                group=group,
            )
            if group is not None:
                _join_group(group, players)
                group_changed(group.pk)
            remember_save(user=owner, key=save_key, kind=KIND_GAME, object_pk=game.pk)
            return game

    return once(
        save=save,
        user=owner,
        key=save_key,
        kind=KIND_GAME,
        replay=lambda saved: CallBreakGame.objects.get(pk=saved.object_pk or 0, owner=owner),
    )


def add_deal(
    *,
    game: CallBreakGame,
    user,
    bids: Sequence[int],
    tricks: Sequence[int],
    save_key: str | None = None,
) -> CallBreakDeal:
    """The next deal of `game`: DealRefused if the engine refuses it or the
    game has ended. A repeat of the same `save_key` is the first save's deal."""

    def save() -> CallBreakDeal:
        with transaction.atomic():
            locked = _locked(game)
            deals = live_deals(locked)
            value = engine_game(locked, deals)
            if value.deals and game_end(value.deals, value.rules) is not None:
                end = game_end(value.deals, value.rules)
                assert end is not None
                raise DealRefused([_after_end(end, locked.players, value.rules)])
            new = _checked_deal(locked, len(deals) + 1, bids, tricks)
            _check_end(locked.players, [*value.deals, new], value.rules)
            deal = CallBreakDeal.objects.create(game=locked, bids=list(bids), tricks=list(tricks))
            CallBreakChange.objects.create(
                game=locked, deal=deal, action=CallBreakChange.ADDED, after=_snap(deal), user=user
            )
            remember_save(user=user, key=save_key, kind=KIND_DEAL, object_pk=deal.pk)
            _changed(locked)
            return deal

    return once(
        save=save,
        user=user,
        key=save_key,
        kind=KIND_DEAL,
        replay=lambda saved: replayed_deal(game, saved.object_pk),
    )


def replayed_deal(game: CallBreakGame, deal_pk: int | None) -> CallBreakDeal:
    """The deal a repeated key saved, in this game only (a key kept with a deal
    of another game is refused, never answered with it)."""
    deal = CallBreakDeal.objects.filter(pk=deal_pk or 0, game=game).first()
    if deal is None:
        raise SaveKeyRefused(REUSED)
    return deal


def _replace(game: CallBreakGame, deal: CallBreakDeal, snap: dict[str, Any] | None) -> list[Deal]:
    """The game's deals with `deal` as `snap` (None: without it), checked."""
    rows = list(game.deals.filter(deleted_at__isnull=True).exclude(pk=deal.pk).order_by("pk"))
    values: list[tuple[int, Deal]] = [
        (row.pk, Deal(bids=tuple(row.bids), tricks=tuple(row.tricks))) for row in rows
    ]
    if snap is not None:
        number = 1 + sum(pk < deal.pk for pk, _deal in values)
        new = _checked_deal(game, number, snap["bids"], snap["tricks"])
        values.append((deal.pk, new))
        values.sort(key=lambda item: item[0])
    ordered = [value for _pk, value in values]
    _check_end(game.players, ordered, rules_of(game))
    return ordered


def edit_deal(
    *,
    deal: CallBreakDeal,
    user,
    bids: Sequence[int],
    tricks: Sequence[int],
    save_key: str | None = None,
) -> CallBreakDeal:
    """A deal's bids and tricks changed, the change kept in the history. Its
    `save_key` is kept with the deal, so the same change sent again is known
    (the view answers it as the first, never applying it over a later one)."""
    with transaction.atomic():
        game = _locked(deal.game)
        deal = CallBreakDeal.objects.select_for_update().get(pk=deal.pk, deleted_at__isnull=True)
        after = {"bids": list(bids), "tricks": list(tricks)}
        before = _snap(deal)
        remember_save(user=user, key=save_key, kind=KIND_EDIT, object_pk=deal.pk, unless_used=True)
        if before == after:
            return deal
        _replace(game, deal, after)
        deal.bids, deal.tricks = after["bids"], after["tricks"]
        deal.save(update_fields=["bids", "tricks"])
        CallBreakChange.objects.create(
            game=game,
            deal=deal,
            action=CallBreakChange.EDITED,
            before=before,
            after=after,
            user=user,
        )
        _changed(game)
        return deal


def delete_deal(*, deal: CallBreakDeal, user) -> None:
    """A deal taken out of the game; its history can put it back."""
    with transaction.atomic():
        game = _locked(deal.game)
        deal = CallBreakDeal.objects.select_for_update().get(pk=deal.pk, deleted_at__isnull=True)
        _replace(game, deal, None)
        deal.deleted_at = timezone.now()
        deal.save(update_fields=["deleted_at"])
        CallBreakChange.objects.create(
            game=game, deal=deal, action=CallBreakChange.DELETED, before=_snap(deal), user=user
        )
        _changed(game)


def restore_change(*, change: CallBreakChange, user) -> CallBreakDeal:
    """The deal as it was before `change` (a deleted deal back in its place, an
    edit undone, an added deal taken out again), checked as any change is."""
    with transaction.atomic():
        game = _locked(change.game)
        deal = CallBreakDeal.objects.select_for_update().get(pk=change.deal_id)
        now = _snap(deal) if deal.deleted_at is None else None
        wanted = change.before
        if now == wanted:
            return deal
        _replace(game, deal, wanted)
        if wanted is None:
            deal.deleted_at = timezone.now()
            action = CallBreakChange.DELETED
        else:
            deal.bids, deal.tricks = wanted["bids"], wanted["tricks"]
            deal.deleted_at = None
            action = CallBreakChange.RESTORED if now is None else CallBreakChange.EDITED
        deal.save(update_fields=["bids", "tricks", "deleted_at"])
        CallBreakChange.objects.create(
            game=game, deal=deal, action=action, before=now, after=wanted, user=user
        )
        _changed(game)
        return deal


def _saved_value(*, value, owner, name: str, played_on: datetime.date, group=None) -> CallBreakGame:
    """An engine-read game written whole, its deals in order, each with its
    "added" change (inside the caller's transaction)."""
    game = CallBreakGame.objects.create(
        owner=owner,
        name=name[:120],
        players=list(value.players),
        rules=value.rules.to_options(),
        stake=value.stake,
        played_on=played_on,
        group=group,
    )
    for deal in value.deals:
        row = CallBreakDeal.objects.create(
            game=game, bids=list(deal.bids), tricks=list(deal.tricks)
        )
        CallBreakChange.objects.create(
            game=game, deal=row, action=CallBreakChange.ADDED, after=_snap(row), user=owner
        )
    if group is not None:
        _join_group(group, value.players)
        group_changed(group.pk)
    return game


def import_game(
    *,
    owner,
    document: object,
    played_on: datetime.date | None = None,
    group=None,
    save_key: str | None = None,
) -> CallBreakGame:
    """A `callbreak-game/1` document saved as a finished game, its deals in
    order (played on `played_on`, today without it; for `group`, whose purse
    then counts it); DocumentRefused (nothing saved) if the engine refuses it."""
    value = read_game(document)  # DocumentRefused before anything is written

    def save() -> CallBreakGame:
        with transaction.atomic():
            game = _saved_value(
                value=value,
                owner=owner,
                name=value.note or "",
                played_on=played_on or timezone.localdate(),
                group=group,
            )
            remember_save(user=owner, key=save_key, kind=KIND_IMPORT, object_pk=game.pk)
            return game

    return once(
        save=save,
        user=owner,
        key=save_key,
        kind=KIND_IMPORT,
        replay=lambda saved: CallBreakGame.objects.get(pk=saved.object_pk or 0, owner=owner),
    )


def save_filed(*, group, name: str, played_on: datetime.date, document: object, owner) -> None:
    """A group file's Call Break game (one of its `other_games`) kept as a game
    of the group that the table can open and edit, as one played here (the
    purse's `save`, inside the group import's transaction). The file's item
    names it; its document was checked by the engine when the file was read."""
    with transaction.atomic():
        _saved_value(
            value=read_game(document), owner=owner, name=name, played_on=played_on, group=group
        )


def rename_player(*, group_id: int, old_key: str, name: str) -> None:
    """A member of the group renamed (inside the rename's transaction): the
    player of that key in each of the group's games takes the new name. The
    deals keep their figures in seat order, so only the names change."""
    games = CallBreakGame.objects.select_for_update().filter(group_id=group_id)
    for game in games:
        renamed = [name if player_key(p) == old_key else p for p in game.players]
        if renamed != game.players:
            CallBreakGame.objects.filter(pk=game.pk).update(players=renamed)
            _changed(game)


__all__ = [
    "DealRefused",
    "DocumentRefused",
    "add_deal",
    "delete_deal",
    "edit_deal",
    "import_game",
    "rename_player",
    "restore_change",
    "save_filed",
    "start_game",
]
