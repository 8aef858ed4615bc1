"""Pot sessions in the family purse (groups/purse.py): a group's pot sessions
kept here count in its balances, and a group file's `pot-session/1` games are
saved as sessions of their own, editable at the table like any other."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from groups.purse import register_game

from .engine import FORMAT, session_money


def renamed(document: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    """The document with player `old` called `new` (a member renamed)."""

    def name(value: str) -> str:
        return new if value == old else value

    def keys(values: dict[str, Any]) -> dict[str, Any]:
        return {name(player): amount for player, amount in values.items()}

    hands = []
    for hand in document["hands"]:
        hand = {**hand, "put_in": keys(hand["put_in"])}
        if "took" in hand:
            hand["took"] = keys(hand["took"])
        if "winners" in hand:
            hand["winners"] = [name(player) for player in hand["winners"]]
        hands.append(hand)
    return {**document, "players": [name(p) for p in document["players"]], "hands": hands}


def register() -> None:
    from .selectors import group_documents, group_games
    from .services import rename_player, save_filed

    register_game(
        "pots",
        format=FORMAT,
        label=_("Pot hands"),
        money_of=session_money,
        games=group_games,
        documents=group_documents,
        save=save_filed,
        rename=rename_player,
        rename_in=renamed,
    )
