"""Creating a session, changing its details, deleting it."""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.db import transaction

from ..engine import Rules
from ..models import GameSession, Player
from ..selectors.saves import saved_session
from .savekeys import once, remember_save


def create_session(
    *,
    owner,
    name: str,
    played_on: datetime.date,
    currency: str,
    stake_per_point: Decimal,
    rules: Rules,
    players: list[str],
    save_key: str | None = None,
) -> GameSession:
    """A new session with its players in seating order. With `save_key` (the
    form's one-time key), a key saved before returns the session it saved and
    saves nothing (see scoring/services/savekeys.py)."""
    return once(
        save=lambda: _create_session(
            owner=owner,
            name=name,
            played_on=played_on,
            currency=currency,
            stake_per_point=stake_per_point,
            rules=rules,
            players=players,
            save_key=save_key,
        ),
        user=owner,
        key=save_key,
        replay=lambda saved: saved_session(saved, owner=owner),
        kind="session",
    )


@transaction.atomic
def _create_session(
    *,
    owner,
    name: str,
    played_on: datetime.date,
    currency: str,
    stake_per_point: Decimal,
    rules: Rules,
    players: list[str],
    save_key: str | None,
) -> GameSession:
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
    # No session on the key: it outlives a deleted session, whose repeat then
    # saves nothing either.
    remember_save(user=owner, key=save_key, kind="session", object_pk=session.pk)
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


@transaction.atomic
def delete_session(*, session: GameSession) -> None:
    # The session's row first, as every write to its rows takes it: a round
    # saved at this moment finishes first (or waits and finds it gone), never
    # a deadlock over the players both touch. Players are RESTRICTed by their
    # rounds, which cascade from the session too.
    GameSession.objects.select_for_update().filter(pk=session.pk).first()
    session.delete()
