"""Call Break in words: the standings and settlement a page shows, a change
of the history said in a line, and the "how it works" page's worked game,
every figure from the engine."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from ..engine import Deal, Game, Rules, settle_game
from ..engine.game import deal_score
from ..engine.money import money_decimal
from ..models import CallBreakChange, CallBreakGame
from ..selectors import Table
from ..templatetags.callbreak import tenths_text


@dataclass(frozen=True, slots=True)
class Standing:
    seat: int
    name: str
    total: int
    rank: int | None
    money: Decimal | None


def table_words(table: Table) -> dict[str, Any]:
    """The standings (best first), and once the game has ended each player's
    money and who pays whom."""
    result = table.result
    players = table.game.players
    standings = [
        Standing(
            seat=seat,
            name=name,
            total=table.totals[seat],
            rank=result.ranks[seat] if result else None,
            money=money_decimal(result.money[seat]) if result else None,
        )
        for seat, name in enumerate(players)
    ]
    standings.sort(key=lambda item: (-item.total if not result else item.rank or 0, item.seat))
    transfers = (
        [
            {"from": t.payer, "to": t.payee, "amount": money_decimal(t.amount)}
            for t in result.transfers
        ]
        if result
        else []
    )
    return {
        "standings": standings,
        "transfers": transfers,
        "thirteen_winner": result.thirteen_winner if result else None,
        "money_game": table.rules.settlement != "none",
        "deals_to_play": table.rules.deals_per_game,
    }


def _snap_text(players: list[str], snap: dict[str, Any] | None) -> str:
    if snap is None:
        return _("not in the game")
    return " · ".join(
        _("%(name)s called %(bid)s, took %(tricks)s") % {"name": name, "bid": bid, "tricks": tricks}
        for name, bid, tricks in zip(players, snap["bids"], snap["tricks"], strict=True)
    )


def describe_change(game: CallBreakGame, change: CallBreakChange) -> dict[str, Any]:
    action = {
        CallBreakChange.ADDED: _("Deal added"),
        CallBreakChange.EDITED: _("Deal changed"),
        CallBreakChange.DELETED: _("Deal deleted"),
        CallBreakChange.RESTORED: _("Deal put back"),
    }[change.action]
    return {
        "change": change,
        "action": action,
        "before": _snap_text(game.players, change.before) if change.before is not None else None,
        "after": _snap_text(game.players, change.after) if change.after is not None else None,
    }


# --- The worked game of "how it works" (CALLBREAK.md's C01) ----------------------------------

# The worked game's players: CALLBREAK.md's names, said in the reader's language.
WORKED_PLAYERS = (
    gettext_noop("Asha"),
    gettext_noop("Bikash"),
    gettext_noop("Chandra"),
    gettext_noop("Dipa"),
)
WORKED_DEALS = (
    ((3, 4, 2, 3), (4, 4, 1, 4)),
    ((6, 1, 1, 2), (6, 4, 0, 3)),
    ((3, 1, 1, 1), (2, 9, 2, 0)),
    ((1, 1, 2, 7), (0, 0, 4, 9)),
    ((2, 1, 5, 2), (3, 1, 6, 3)),
)
WORKED_STAKE = Decimal("10.00")


def worked_game(rules: Rules | None = None) -> Game:
    return Game(
        players=tuple(_(name) for name in WORKED_PLAYERS),
        deals=tuple(Deal(bids=bids, tricks=tricks) for bids, tricks in WORKED_DEALS),
        rules=rules or Rules(),
        stake=WORKED_STAKE,
    )


def guide() -> dict[str, Any]:
    """The worked game settled by the engine, by place and by difference."""
    game = worked_game()
    result = settle_game(game)
    difference = settle_game(worked_game(Rules(settlement="difference")))
    rows = []
    for number, deal in enumerate(game.deals, start=1):
        rows.append(
            {
                "number": number,
                "cells": [
                    {
                        "bid": bid,
                        "tricks": tricks,
                        "score": tenths_text(deal_score(bid, tricks, game.rules)),
                    }
                    for bid, tricks in zip(deal.bids, deal.tricks, strict=True)
                ],
            }
        )
    return {
        "players": game.players,
        "rows": rows,
        "totals": [tenths_text(score) for score in result.scores],
        "ranks": list(result.ranks),
        "money": [money_decimal(amount) for amount in result.money],
        "transfers": [
            {"from": t.payer, "to": t.payee, "amount": money_decimal(t.amount)}
            for t in result.transfers
        ],
        "difference_money": [money_decimal(amount) for amount in difference.money],
        "stake": WORKED_STAKE,
        "sum_points": tenths_text(sum(result.scores)),
        "per_player": list(
            zip(
                game.players,
                [tenths_text(score) for score in result.scores],
                result.ranks,
                [money_decimal(amount) for amount in result.money],
                [money_decimal(amount) for amount in difference.money],
                strict=True,
            )
        ),
    }
