"""Pot sessions in the family purse (groups/purse.py): a group's pot sessions
kept here count in its balances, and a group file's `pot-session/1` games are
saved as sessions of their own, editable at the table like any other."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from groups.purse import register_game

from .engine import FORMAT, session_money


def register() -> None:
    from .selectors import group_documents, group_games
    from .services import save_filed

    register_game(
        "pots",
        format=FORMAT,
        label=_("Pot hands"),
        money_of=session_money,
        games=group_games,
        documents=group_documents,
        save=save_filed,
    )
