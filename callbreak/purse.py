"""Call Break in the family purse (groups/purse.py): a `callbreak-game/1`
document's money, from the engine. A game brought in by a group file is kept
by the group as its document (groups.models.FiledGame)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from groups.purse import register_game

from .engine.gamefile import game_money

FORMAT = "callbreak-game/1"


def register() -> None:
    register_game("callbreak", format=FORMAT, label=_("Call Break"), money_of=game_money)
