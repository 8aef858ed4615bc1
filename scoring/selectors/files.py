"""A saved session read as a `marriage-session/1` document: for its export,
and to tell whether a file holds an evening already saved."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.db.models import Count, QuerySet

from ..engine.sessionfile import (
    RoundMaal,
    SessionDoc,
    export_document,
    fingerprint,
    maal_per_round,
    stakes_per_round,
)
from ..models import GameSession
from .rounds import SavedRound, saved_rounds


def session_doc(session: GameSession) -> SessionDoc:
    """The saved session as a document, its rounds read as plain values."""
    return _session_doc(session)[0]


def _session_doc(session: GameSession) -> tuple[SessionDoc, list[SavedRound]]:
    players = tuple(session.players.values_list("name", flat=True))
    saved = saved_rounds(session)
    maal = [RoundMaal(tiplu=r.tiplu, tallies=r.tallies) for r in saved]
    doc = SessionDoc(
        name=session.name,
        currency=session.currency,
        stake_per_point=session.stake_per_point,
        rules=session.get_rules(),
        players=players,
        # As the table marked them: an unmarked round (None) keeps its default.
        rounds=tuple(r.input for r in saved),
        played_on=session.played_on,
        maal=maal_per_round(maal),
        stakes=stakes_per_round([r.stake for r in saved]),
    )
    return doc, saved


def export_session(session: GameSession) -> dict[str, Any]:
    """The session's export; its nets as saved where settling again would give
    the same (export_document knows when), so a long session is not settled
    again for its file."""
    doc, saved = _session_doc(session)
    nets = [{name: net for name, (_id, net) in r.entries.items()} for r in saved]
    return export_document(doc, stored_nets=nets)


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
