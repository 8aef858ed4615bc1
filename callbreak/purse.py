"""Call Break in the family purse (groups/purse.py): a `callbreak-game/1`
document's money, from the engine. A game brought in by a group file is kept
by the group as its document (groups.models.FiledGame)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from groups.purse import register_game

from .engine.gamefile import game_money

FORMAT = "callbreak-game/1"


def renamed(document: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    """The document with player `old` called `new` (a member renamed)."""

    def keys(values: dict[str, Any]) -> dict[str, Any]:
        return {new if name == old else name: value for name, value in values.items()}

    return {
        **document,
        "players": [new if name == old else name for name in document["players"]],
        "deals": [
            {"bids": keys(deal["bids"]), "tricks": keys(deal["tricks"])}
            for deal in document["deals"]
        ],
    }


def register() -> None:
    register_game(
        "callbreak", format=FORMAT, label=_("Call Break"), money_of=game_money, rename_in=renamed
    )
