"""Call Break in the family purse (groups/purse.py, CALLBREAK.md §12).

A game played at the table for a group counts in the group's balances once
it has ended (callbreak.selectors.money_by_player): a game still being played
has no money yet, as a `callbreak-game/1` document of an unfinished game is
refused (E_DEALS). A group file's `callbreak-game/1` games are saved as
games of the group, which the table can open and edit like one played here;
the group's file writes its finished games back in `other_games`.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from groups.purse import register_game

from .engine.gamefile import game_money

FORMAT = "callbreak-game/1"


def renamed(document: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    """The document with player `old` called `new` (a member renamed): for a
    game a group file brought in before Call Break kept its own."""

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
    from .selectors import group_documents, group_games, group_players_playing
    from .services import rename_player, save_filed

    register_game(
        "callbreak",
        format=FORMAT,
        label=_("Call Break"),
        money_of=game_money,
        games=group_games,
        documents=group_documents,
        save=save_filed,
        rename=rename_player,
        rename_in=renamed,
        playing=group_players_playing,
    )
