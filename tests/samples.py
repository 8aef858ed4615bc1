"""Worked sessions and files that the tests of several subjects share: a night's
session file (and `_set`, a change to it at a dotted path), the demo file, the
Pokhara family's group file, the record's two evenings."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

from scoring import services
from scoring.engine import Entry, RoundInput
from scoring.models import GameSession
from tests.web_helpers import (
    make_session,
)

PLAYERS = ["Aama", "Buwa", "Didi", "Dai", "Bhai", "Bahini"]


def night() -> dict:
    """Two rounds: RULES.md's worked example, then a dublee win with dhoos."""
    return {
        "format": "marriage-session/1",
        "name": "Dashain 2026",
        "played_on": "2026-10-02",
        "currency": "NPR",
        "stake_per_point": "2.50",
        "rules": {"preset": "pagat"},
        "players": PLAYERS,
        "rounds": [
            {
                "winner": "Didi",
                "win_type": "normal",
                "better": False,
                "entries": [
                    {"player": "Aama", "status": "seen", "maal": 5, "tunnel": 0, "dhoos": False},
                    {"player": "Buwa", "status": "unseen", "maal": 2, "tunnel": 0, "dhoos": False},
                    {"player": "Didi", "status": "seen", "maal": 7, "tunnel": 0, "dhoos": False},
                    {"player": "Dai", "status": "seen", "maal": 0, "tunnel": 0, "dhoos": False},
                ],
            },
            {
                "winner": "Aama",
                "win_type": "dublee",
                "better": True,
                "entries": [
                    {"player": "Aama", "status": "seen", "maal": 10, "tunnel": 0, "dhoos": False},
                    {"player": "Buwa", "status": "seen", "maal": 4, "tunnel": 5, "dhoos": False},
                    {"player": "Didi", "status": "unseen", "maal": 3, "tunnel": 5, "dhoos": True},
                ],
            },
        ],
    }


def evening(name, played_on, stake, rules, players, rounds, currency="NPR"):
    return {
        "format": "marriage-session/1",
        "name": name,
        "played_on": played_on,
        "currency": currency,
        "stake_per_point": stake,
        "rules": rules,
        "players": players,
        "rounds": rounds,
    }


def family() -> dict:
    """Two evenings under different house rules and stakes, and a part payment.

    Tihar 1 (pagat, 2.50 a point): Didi wins; T = 4 + 0 + 10 = 14. Aama (seen)
    pays 14 + 3 − 3×4 = 5 points, Bhai (unseen) 14 + 10 = 24: Aama −12.50,
    Bhai −60.00, Didi +72.50. Tihar 2 (murder, 1 a point): Bhai wins; Aama's
    unseen maal is void, T = 3 + 12 = 15. Aama pays 15 + 10 = 25, Hajurba
    (seen, 12 maal) gets 3×12 − 15 − 3 = 18: Aama −25, Bhai +7, Hajurba +18.
    Bhai then paid Didi 20.00 of what he owed."""
    return {
        "format": "marriage-group/1",
        "name": "Pokhara family",
        "currency": "NPR",
        "members": ["Aama", "Bhai", "Didi", "Hajurba"],
        "sessions": [
            evening(
                "Tihar 1",
                "2026-10-01",
                "2.50",
                {"preset": "pagat"},
                ["Aama", "Bhai", "Didi"],
                [
                    {
                        "winner": "Didi",
                        "entries": [
                            {"player": "Aama", "status": "seen", "maal": 4},
                            {"player": "Bhai", "status": "unseen"},
                            {"player": "Didi", "status": "seen", "maal": 10},
                        ],
                    }
                ],
            ),
            evening(
                "Tihar 2",
                "2026-10-02",
                "1",
                {"preset": "murder"},
                ["Aama", "Bhai", "Hajurba"],
                [
                    {
                        "winner": "Bhai",
                        "entries": [
                            {"player": "Aama", "status": "unseen", "maal": 7},
                            {"player": "Bhai", "status": "seen", "maal": 3},
                            {"player": "Hajurba", "status": "seen", "maal": 12},
                        ],
                    }
                ],
            ),
        ],
        "payments": [
            {
                "from": "Bhai",
                "to": "Didi",
                "amount": "20.00",
                "on": "2026-10-03",
                "method": "esewa",
                "note": "part of Tihar 1",
            }
        ],
    }


EXPECTED = {
    "balances": {"Aama": "-37.50", "Bhai": "-33.00", "Didi": "52.50", "Hajurba": "18.00"},
    "transfers": [
        {"from": "Aama", "to": "Didi", "amount": "37.50"},
        {"from": "Bhai", "to": "Hajurba", "amount": "18.00"},
        {"from": "Bhai", "to": "Didi", "amount": "15.00"},
    ],
}


def play(session: GameSession, winner: str | None, rows, win_type="normal", better=False):
    entries = tuple(
        Entry(player=name, status=status, maal=maal) for name, (status, maal) in rows.items()
    )
    return services.add_round(
        session=session, round_input=RoundInput(entries, winner, win_type, better)
    )


# The record's two evenings (the record's tests assert these figures):
# Session A, "Dashain" (pagat, NPR 2.50 a point, 2 Oct 2026): Aama, Buwa, Didi, Dai.
#   1. RULES.md's worked example: Didi wins; Aama seen 5, Buwa unseen 2, Didi 7,
#      Dai seen 0. Nets Aama +3, Buwa −16, Didi +30, Dai −17.
#   2. Aama wins with eight dublees; Dai sits out. Aama seen 10, Buwa seen 4,
#      Didi unseen 3. n = 3, T = 17; Buwa pays 17 + 3 + 5 − 12 = 13, Didi pays
#      17 + 10 + 5 − 9 = 23. Nets Aama +36, Buwa −13, Didi −23.
#   Totals: Aama 39, Buwa −29, Didi 7, Dai −17.
# Session B, "Tihar" (kidnap, USD 0.10 a point, 1 Nov 2026): "AAMA" (the same
# Aama, spelt differently), Didi, Kaka.
#   1. Kaka wins; AAMA unseen with maal 6 (kidnapped: S_Kaka = 5 + 6 = 11,
#      S_AAMA = 0), Didi seen 4. T = 15; AAMA pays 15 + 10 − 0 = 25, Didi pays
#      15 + 3 − 12 = 6. Nets AAMA −25, Didi −6, Kaka +31.
#   2. Better round, AAMA wins: AAMA seen 8, Didi seen 0, Kaka unseen 0. T = 8,
#      m = 2; Didi pays (8 + 3) × 2 = 22, Kaka pays (8 + 10) × 2 = 36. AAMA +58.
#   Totals: AAMA 33, Didi −28, Kaka −5.
def make_dashain(owner) -> GameSession:
    session = make_session(owner, name="Dashain", stake="2.50", preset="pagat")
    GameSession.objects.filter(pk=session.pk).update(played_on=datetime.date(2026, 10, 2))
    play(
        session,
        "Didi",
        {"Aama": ("seen", 5), "Buwa": ("unseen", 2), "Didi": ("seen", 7), "Dai": ("seen", 0)},
    )
    play(
        session,
        "Aama",
        {"Aama": ("seen", 10), "Buwa": ("seen", 4), "Didi": ("unseen", 3)},
        win_type="dublee",
    )
    return session


def make_tihar(owner) -> GameSession:
    session = make_session(
        owner, players=("AAMA", "Didi", "Kaka"), name="Tihar", stake="0.10", preset="kidnap"
    )
    GameSession.objects.filter(pk=session.pk).update(
        played_on=datetime.date(2026, 11, 1), currency="USD"
    )
    play(session, "Kaka", {"AAMA": ("unseen", 6), "Didi": ("seen", 4), "Kaka": ("seen", 5)})
    play(
        session,
        "AAMA",
        {"AAMA": ("seen", 8), "Didi": ("seen", 0), "Kaka": ("unseen", 0)},
        better=True,
    )
    return session


DEMO = Path(__file__).resolve().parents[1] / "scoring" / "demo" / "dashain.json"


def demo_doc() -> dict:
    return json.loads(DEMO.read_text(encoding="utf-8"))


def _set(path: str, value):
    """A change to night(): set the value at a dotted path (list indexes as numbers)."""

    def change(data):
        *parents, last = path.split(".")
        target = data
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        if value is _DELETE:
            del target[last]
        elif isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value
        return data

    return change


_DELETE = object()


R2 = "rounds.1"


BUWA = f"{R2}.entries.1"


def _tihar_round(winner: str, entries: list[tuple[str, str, int]], stake: str | None = None):
    found: dict = {
        "winner": winner,
        "win_type": "normal",
        "better": False,
        "entries": [
            {"player": p, "status": s, "maal": m, "tunnel": 0, "dhoos": False}
            for p, s, m in entries
        ],
    }
    if stake is not None:
        found["stake_per_point"] = stake
    return found


def tihar_night() -> dict:
    """Seven rounds (pagat) whose stake goes from 1.00 to 2.00 at round 4 and to
    5.00 at round 6. Nets by round: Aama 29 −10 −27 | −1 12 | −12 35; Buwa −5 17
    −5 | 17 −20 | −18 −14; Didi −24 −7 32 | −16 8 | 30 −21. Money: Aama −8 × 1
    + 11 × 2 + 23 × 5 = 129.00, Buwa 7 − 6 − 160 = −159.00, Didi 1 − 16 + 45 =
    30.00, though Didi's points (+2) are far below Aama's (+26)."""
    return {
        "format": "marriage-session/1",
        "name": "Tihar night",
        "played_on": "2026-11-09",
        "currency": "NPR",
        "stake_per_point": "1.00",
        "rules": {"preset": "pagat"},
        "players": ["Aama", "Buwa", "Didi"],
        "rounds": [
            _tihar_round(
                "Aama", [("Aama", "seen", 10), ("Buwa", "seen", 4), ("Didi", "unseen", 0)]
            ),
            _tihar_round("Buwa", [("Aama", "seen", 2), ("Buwa", "seen", 8), ("Didi", "seen", 3)]),
            _tihar_round(
                "Didi", [("Aama", "unseen", 0), ("Buwa", "seen", 5), ("Didi", "seen", 12)]
            ),
            _tihar_round(
                "Buwa", [("Aama", "seen", 6), ("Buwa", "seen", 9), ("Didi", "seen", 1)], "2.00"
            ),
            _tihar_round("Aama", [("Aama", "seen", 3), ("Buwa", "unseen", 0), ("Didi", "seen", 7)]),
            _tihar_round(
                "Didi", [("Aama", "seen", 4), ("Buwa", "seen", 2), ("Didi", "seen", 15)], "5.00"
            ),
            _tihar_round(
                "Aama", [("Aama", "seen", 11), ("Buwa", "seen", 0), ("Didi", "unseen", 0)]
            ),
        ],
    }


TIHAR_MONEY = {"Aama": "129.00", "Buwa": "-159.00", "Didi": "30.00"}
TIHAR_TRANSFERS = [
    {"from": "Buwa", "to": "Aama", "amount": "129.00"},
    {"from": "Buwa", "to": "Didi", "amount": "30.00"},
]
