"""Reads of Call Break games: a game as the engine's values, its table (each
deal's scores, the running totals, and once it has ended the ranks, money and
transfers), its document, its change history, and what the family purse
needs (`money_by_player`)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import QuerySet

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


def money_by_player(game: CallBreakGame) -> dict[str, Decimal] | None:
    """Each player's money in a finished game, in seat order, as the purse adds
    it to a member's balance (CALLBREAK.md §12); None while the game goes on."""
    result = game_table(game).result
    if result is None:
        return None
    return {
        player: money_decimal(amount)
        for player, amount in zip(result.players, result.money, strict=True)
    }


def document_of(game: CallBreakGame) -> dict[str, Any]:
    """The game as its `callbreak-game/1` document (its name as the note)."""
    document = game_document(engine_game(game))
    if game.name:
        document["note"] = game.name
    return document


def games_of(user) -> QuerySet[CallBreakGame]:
    return CallBreakGame.objects.filter(owner=user)


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
