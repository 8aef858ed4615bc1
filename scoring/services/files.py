"""Session files: a parsed `marriage-session/1` document saved as a new session
(a saved session read as a document: scoring/selectors/files.py)."""

from __future__ import annotations

from django.db import transaction

from ..engine import settle_session
from ..engine.sessionfile import SessionDoc
from ..engine.settlement import outside_nets, pending_ids
from ..models import GameSession, Player, Round
from ..selectors.rounds import players_by_name
from ..selectors.saves import saved_session
from . import rounds
from .savekeys import once, remember_save


def save_document(*, doc: SessionDoc, owner=None, save_key: str | None = None) -> GameSession:
    """A parsed session file saved whole, or (on any error) not at all. With
    `save_key` (the import form's one-time key), a key saved before returns the
    session it saved and saves nothing (see scoring/services/savekeys.py)."""
    return once(
        save=lambda: _save_document(doc=doc, owner=owner, save_key=save_key),
        user=owner,
        key=save_key,
        replay=lambda saved: saved_session(saved, owner=owner),
        kind="import",
    )


@transaction.atomic
def _save_document(doc: SessionDoc, *, owner, save_key: str | None) -> GameSession:
    dated = {"played_on": doc.played_on} if doc.played_on else {}  # else today
    session = GameSession.objects.create(
        owner=owner,
        name=doc.name,
        currency=doc.currency,
        stake_per_point=doc.stake_per_point,
        rules=doc.rules.to_options(),
        **dated,
    )
    Player.objects.bulk_create(
        Player(session=session, name=name, position=index) for index, name in enumerate(doc.players)
    )
    players = players_by_name(session)
    ids = {name: player.pk for name, player in players.items()}
    settled = settle_session(doc.rounds, doc.rules)
    for number, (round_input, result) in enumerate(
        zip(doc.rounds, settled.rounds, strict=True), start=1
    ):
        maal = doc.maal_of(number - 1)
        round_ = Round.objects.create(
            session=session,
            number=number,
            winner=players[round_input.winner] if round_input.winner else None,
            win_type=round_input.win_type,
            better=result.better,
            better_mark=round_input.better,
            tiplu=maal.tiplu,
            stake_per_point=doc.stake_of(number - 1),
            outside_nets=outside_nets(result, ids),
            pending_after=pending_ids(result, ids),
        )
        rounds.write_entries(
            round_=round_,
            round_input=round_input,
            rules=doc.rules,
            players=players,
            tallies={name: dict(tally) for name, tally in maal.tallies.items()},
            result=result,
        )
    # No session on the key: it outlives a deleted session (as a new session's).
    remember_save(user=owner, key=save_key, kind="import", object_pk=session.pk)
    return session
