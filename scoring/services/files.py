"""Session files: a parsed `marriage-session/1` document saved as a new session,
and a saved session as a document."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.db import transaction
from django.db.models import Count, QuerySet

from ..engine import settle_session
from ..engine.sessionfile import (
    RoundMaal,
    SessionDoc,
    export_document,
    fingerprint,
    maal_per_round,
)
from ..models import GameSession, Player, Round
from . import rounds
from .savekeys import once, remember_save
from .sessions import saved_session


def session_doc(session: GameSession) -> SessionDoc:
    players = tuple(p.name for p in session.players.all())
    saved = list(rounds.rounds_with_entries(session))
    maal = [
        RoundMaal(
            tiplu=r.tiplu,
            tallies={e.player.name: e.maal_tally for e in r.entries.all() if e.maal_tally},
        )
        for r in saved
    ]
    return SessionDoc(
        name=session.name,
        currency=session.currency,
        stake_per_point=session.stake_per_point,
        rules=session.get_rules(),
        players=players,
        # As the table marked them: an unmarked round (None) keeps its default.
        rounds=tuple(r.to_input(marked=True) for r in saved),
        played_on=session.played_on,
        maal=maal_per_round(maal),
    )


def export_session(session: GameSession) -> dict[str, Any]:
    return export_document(session_doc(session))


def save_document(*, doc: SessionDoc, owner=None, save_key: str | None = None) -> GameSession:
    """A parsed session file saved whole, or (on any error) not at all. With
    `save_key` (the import form's one-time key), a key saved before returns the
    session it saved and saves nothing (see scoring/services/savekeys.py)."""
    return once(
        lambda: _save_document(doc=doc, owner=owner, save_key=save_key),
        user=owner,
        key=save_key,
        replay=lambda saved: saved_session(saved, owner=owner),
        kind="import",
    )


def same_evening(doc: SessionDoc, sessions: QuerySet[GameSession]) -> GameSession | None:
    """The first of `sessions` (the importer's own) holding what the file holds,
    so that an import does not count an evening twice without asking. A file
    without a date matches whatever date the session has."""
    candidates = (
        sessions.filter(name=doc.name)
        .annotate(round_count=Count("rounds"))
        .filter(round_count=len(doc.rounds))
        .order_by("-created_at", "-id")
    )
    for session in candidates:
        if list(session.players.values_list("name", flat=True)) != list(doc.players):
            continue
        dated = doc if doc.played_on else replace(doc, played_on=session.played_on)
        if fingerprint(dated) == fingerprint(session_doc(session)):
            return session
    return None


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
    players = rounds.players_by_name(session)
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
            outside_nets=rounds.outside_nets(result, players),
            pending_after=rounds.pending_ids(result, players),
        )
        rounds.write_entries(
            round_,
            round_input,
            doc.rules,
            players,
            {name: dict(tally) for name, tally in maal.tallies.items()},
            result=result,
        )
    # No session on the key: it outlives a deleted session (as a new session's).
    remember_save(user=owner, key=save_key, kind="import", object_pk=session.pk)
    return session
