"""Reads of Call Break games: a game as the engine's values, its table (each
deal's scores, the running totals, and once it has ended the ranks, money and
transfers), its document, its change history, and what the family purse
needs (`money_by_player`)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone

from groups.purse import PurseGame

from .engine import Deal, Game, GameResult, Rules, deal_scores, game_document, game_end
from .engine.game import settle_game_values
from .engine.money import money_decimal
from .models import CallBreakChange, CallBreakDeal, CallBreakGame
from .web.scoring_api import read_snapshot

RECENT_GAMES = 30  # the owner's recent games whose names are offered


def rules_of(game: CallBreakGame) -> Rules:
    options = dict(game.rules)
    if "rank_multipliers" in options:
        options["rank_multipliers"] = tuple(options["rank_multipliers"])
    return Rules(**options)


def live_deals(game: CallBreakGame) -> list[CallBreakDeal]:
    return list(game.deals.filter(deleted_at__isnull=True).order_by("pk"))


def engine_game(game: CallBreakGame, deals: list[CallBreakDeal] | None = None) -> Game:
    """The game as the engine's value, with its deals so far."""
    if deals is None:
        deals = live_deals(game)
    return Game(
        players=tuple(game.players),
        deals=tuple(Deal(bids=tuple(deal.bids), tricks=tuple(deal.tricks)) for deal in deals),
        rules=rules_of(game),
        stake=game.stake,
    )


@dataclass(frozen=True, slots=True)
class DealRow:
    number: int
    deal: CallBreakDeal
    scores: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Table:
    """A game as its page shows it."""

    game: CallBreakGame
    rules: Rules
    rows: tuple[DealRow, ...]
    totals: tuple[int, ...]
    ended: bool
    result: GameResult | None  # once the game has ended

    @property
    def next_number(self) -> int:
        return len(self.rows) + 1


def game_table(game: CallBreakGame) -> Table:
    """Each deal's scores and the running totals; once the game has ended, the
    engine's settlement (ranks, money, transfers)."""
    with read_snapshot():
        deals = live_deals(game)
    value = engine_game(game, deals)
    rows: list[DealRow] = []
    totals = (0,) * len(value.players)
    for number, (row, deal) in enumerate(zip(deals, value.deals, strict=True), start=1):
        scores = deal_scores(deal, value.rules)
        totals = tuple(a + b for a, b in zip(totals, scores, strict=True))
        rows.append(DealRow(number=number, deal=row, scores=scores, totals=totals))
    end = game_end(value.deals, value.rules) if value.deals else None
    result = settle_game_values(value, end) if end is not None else None
    return Table(
        game=game,
        rules=value.rules,
        rows=tuple(rows),
        totals=totals,
        ended=end is not None,
        result=result,
    )


def money_by_player(
    game: CallBreakGame, deals: list[CallBreakDeal] | None = None
) -> dict[str, Decimal] | None:
    """Each player's money in a finished game, in seat order, as the purse adds
    it to a member's balance (CALLBREAK.md §12); None while the game goes on:
    a game counts once it has ended, as a `callbreak-game/1` document must
    have (an unfinished one is refused, E_DEALS), so the purse never holds
    money a later deal would change. `deals`: its live deals, if read already."""
    value = engine_game(game, deals)
    end = game_end(value.deals, value.rules) if value.deals else None
    if end is None:
        return None
    result = settle_game_values(value, end)
    return {
        player: money_decimal(amount)
        for player, amount in zip(result.players, result.money, strict=True)
    }


# Each game's money in the purse, under its version (moved by every change of
# its deals or names): after a deal is saved, a group page reads that one
# game's deals again and the rest as kept. A few hundred bytes each.
MONEY_KEPT = 20_000
_kept: OrderedDict[str, dict[str, Decimal] | None] = OrderedDict()
_kept_lock = threading.Lock()


def forget_money() -> None:
    with _kept_lock:
        _kept.clear()


def _group_rows(group_id: int) -> list[CallBreakGame]:
    return list(
        CallBreakGame.objects.filter(group_id=group_id)
        .order_by("played_on", "pk")
        .only("pk", "name", "players", "rules", "stake", "played_on", "version", "updated_at")
    )


def _deals_by_game(game_ids: list[int]) -> dict[int, list[CallBreakDeal]]:
    """The live deals of each game, in playing order, in one query."""
    found: dict[int, list[CallBreakDeal]] = {pk: [] for pk in game_ids}
    for deal in CallBreakDeal.objects.filter(
        game_id__in=game_ids, deleted_at__isnull=True
    ).order_by("pk"):
        found[deal.game_id].append(deal)
    return found


def group_games(group_id: int) -> Iterator[PurseGame]:
    """The group's finished games as the purse counts them (groups/purse.py):
    one query for the games and their versions; the deals read only of a game
    whose money is not kept under its version yet. A game still being played
    is left out until it ends."""
    games = _group_rows(group_id)
    if not games:
        return
    # With its stamp: an id SQLite gives again after a delete is another game.
    keys = {game.pk: f"{game.pk}.{game.version}.{game.updated_at.timestamp()}" for game in games}
    money: dict[int, dict[str, Decimal] | None] = {}
    with _kept_lock:
        for pk, key in keys.items():
            if key in _kept:
                _kept.move_to_end(key)
                money[pk] = _kept[key]
    missing = [game for game in games if game.pk not in money]
    if missing:
        deals = _deals_by_game([game.pk for game in missing])
        computed = {game.pk: money_by_player(game, deals[game.pk]) for game in missing}
        with _kept_lock:
            for pk, amounts in computed.items():
                _kept[keys[pk]] = amounts
                money[pk] = amounts
            while len(_kept) > MONEY_KEPT:
                _kept.popitem(last=False)
    base = reverse("callbreak_game", args=[0]).replace("/0/", "/{}/")
    for game in games:
        amounts = money[game.pk]
        if amounts is None:
            continue
        yield PurseGame(
            kind="callbreak",
            key=f"callbreak-{game.pk}",
            name=str(game),
            played_on=game.played_on,
            money=amounts,
            version=keys[game.pk],
            url=base.format(game.pk),
        )


def group_players_playing(group_id: int) -> Iterator[str]:
    """The players of the group's games still being played, each once a game
    (the purse's `playing`: a member among them stays a member)."""
    games = _group_rows(group_id)
    deals = _deals_by_game([game.pk for game in games])
    for game in games:
        value = engine_game(game, deals[game.pk])
        if not value.deals or game_end(value.deals, value.rules) is None:
            yield from game.players


def group_documents(group_id: int) -> Iterator[tuple[str, date, dict[str, Any]]]:
    """The group's finished games for its file, as (name, played_on,
    `callbreak-game/1` document); a game still being played is not money yet
    and its document would be refused, so it is left out."""
    games = _group_rows(group_id)
    deals = _deals_by_game([game.pk for game in games])
    for game in games:
        value = engine_game(game, deals[game.pk])
        if not value.deals or game_end(value.deals, value.rules) is None:
            continue
        document = game_document(value)
        if game.name:
            document["note"] = game.name
        yield str(game)[:100], game.played_on, document


def today() -> date:
    """The day a new game is played on unless the form says otherwise."""
    return timezone.localdate()


def groups_of(user) -> QuerySet[Any]:
    """The groups a new game may be for: the user's own (as pot sessions')."""
    from groups.selectors import groups_for

    return groups_for(user.pk)


def document_of(game: CallBreakGame) -> dict[str, Any]:
    """The game as its `callbreak-game/1` document (its name as the note)."""
    document = game_document(engine_game(game))
    if game.name:
        document["note"] = game.name
    return document


def games_of(user) -> QuerySet[CallBreakGame]:
    return CallBreakGame.objects.filter(owner=user).select_related("group")


def recent_player_names(user, limit: int = 16) -> list[str]:
    """Names from the owner's recent games, most recent first, each once."""
    seen: dict[str, None] = {}
    for players in games_of(user).values_list("players", flat=True)[:RECENT_GAMES]:
        for name in players:
            seen.setdefault(name, None)
    return list(seen)[:limit]


def changes_of(game: CallBreakGame) -> QuerySet[CallBreakChange]:
    return game.changes.select_related("deal", "user")


def deal_numbers(game: CallBreakGame) -> dict[int, int]:
    """Each live deal's number in playing order, by its id."""
    ids = game.deals.filter(deleted_at__isnull=True).order_by("pk").values_list("pk", flat=True)
    return {pk: number for number, pk in enumerate(ids, start=1)}
