"""A session file saved (scoring.services.save_document): what it stores under the
rules that carry dhoos from round to round (next_winner, next_round_winner)."""

from __future__ import annotations

import json

import pytest

from scoring import services
from scoring.engine.sessionfile import loads
from scoring.models import GameSession, Round
from scoring.selectors.files import export_session
from scoring.selectors.reports import build_ledger
from tests.web_helpers import nets

pytestmark = pytest.mark.django_db


def test_an_imported_session_books_next_winner_dhoos(owner):
    from scoring.engine.sessionfile import parse_document

    doc = parse_document(
        {
            "format": "marriage-session/1",
            "name": "Tihar",
            "players": ["A", "B"],
            "rules": {"dhoos_payee": "next_winner"},
            "rounds": [
                {
                    "winner": "A",
                    "entries": [
                        {"player": "A", "status": "seen"},
                        {"player": "B", "status": "seen", "dhoos": True},
                    ],
                },
                {
                    "winner": "A",
                    "entries": [
                        {"player": "A", "status": "seen"},
                        {"player": "B", "status": "seen"},
                    ],
                },
            ],
        }
    )
    saved = services.save_document(doc=doc, owner=owner)
    second = Round.objects.get(session=saved, number=2)
    assert nets(second) == {"A": 3 + 15, "B": -3 - 15}
    assert export_session(saved)["totals"] == {"A": 21, "B": -21}
    assert GameSession.objects.count() == 1


def test_an_imported_file_stores_the_payment_of_a_player_who_sat_out(owner):
    document = {
        "format": "marriage-session/1",
        "name": "Imported",
        "players": ["A", "B", "C", "D"],
        "rules": {"dhoos_payee": "next_round_winner"},
        "rounds": [
            {
                "winner": "C",
                "entries": [
                    {"player": "A", "status": "seen", "maal": 5},
                    {"player": "B", "status": "unseen", "maal": 2},
                    {"player": "C", "status": "seen", "maal": 7},
                    {"player": "D", "status": "seen", "dhoos": True},
                ],
            },
            {
                "winner": "A",
                "entries": [{"player": p, "status": "seen"} for p in ("A", "B", "C")],
            },
        ],
    }
    session = services.save_document(doc=loads(json.dumps(document)), owner=owner)
    ledger = build_ledger(GameSession.objects.get(pk=session.pk))
    assert {s.player.name: s.points for s in ledger.standings} == {
        "A": 24,
        "B": -19,
        "C": 27,
        "D": -32,
    }
