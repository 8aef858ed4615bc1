"""Creating a session, changing its details, deleting it."""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.db import transaction

from ..engine import Rules
from ..models import GameSession, Player


@transaction.atomic
def create_session(
    *,
    owner,
    name: str,
    played_on: datetime.date,
    currency: str,
    stake_per_point: Decimal,
    rules: Rules,
    players: list[str],
) -> GameSession:
    """A new session with its players in seating order."""
    session = GameSession.objects.create(
        owner=owner,
        name=name,
        played_on=played_on,
        currency=currency,
        stake_per_point=stake_per_point,
        rules=rules.to_options(),
    )
    Player.objects.bulk_create(
        Player(session=session, name=player, position=index) for index, player in enumerate(players)
    )
    return session


def edit_session(
    *,
    session: GameSession,
    name: str,
    played_on: datetime.date,
    currency: str,
    stake_per_point: Decimal,
) -> None:
    """Change a session's name, date and money. Points are kept per round; money
    is points × stake wherever it is shown, so a new stake needs no recomputation."""
    session.name = name
    session.played_on = played_on
    session.currency = currency
    session.stake_per_point = stake_per_point
    session.save(update_fields=["name", "played_on", "currency", "stake_per_point"])


def delete_session(*, session: GameSession) -> None:
    # Players are RESTRICTed by their rounds, which cascade from the session too.
    session.delete()
