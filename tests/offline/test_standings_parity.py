"""The standings the phone shows at once when Save is tapped (static/js/
standings.js, round-save.js) are the server's: each player's rank as the
ledger ranks them (best first, equal points sharing a rank, seat order among
them) and their money as the `money` filter writes it, in English and Nepali
(lakh grouping), for stakes with two, three or no places. Hypothesis draws
the points and stakes; Node runs the phone's copy. Node missing is a failure,
never a skip."""

from __future__ import annotations

import json
import subprocess
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from localise.numbers import NumberFormat
from localise.templatetags.local_format import money
from scoring.selectors.reports import build_ledger
from tests.offline.test_settlement_parity import node
from tests.web_helpers import make_session, played

RUNNER = Path(__file__).parents[1] / "js" / "standings_runner.mjs"
NAMES = ["Aama", "Buwa", "Didi", "Dai", "Bhai", "Kanchha"]
CASES = 300

STAKES = st.sampled_from(["1", "2.50", "0.125", "10", "0.01", "100", "0.5", "1000"]) | st.decimals(
    min_value=Decimal("0.01"), max_value=Decimal("500"), places=2
).map(str)


def run(cases: list[dict[str, Any]]) -> list[Any]:
    done = subprocess.run(
        [node(), str(RUNNER)],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def format_of(language: str) -> dict[str, Any]:
    with translation.override(language):
        fmt = NumberFormat.current()
    return {"sep": fmt.thousand_sep, "sizes": list(fmt.sizes), "decimal": fmt.decimal_sep}


@pytest.mark.parametrize("language", ["en", "ne"])
def test_the_phones_money_is_the_servers(language: str) -> None:
    node()
    cases: list[dict[str, Any]] = []
    expected: list[list[str]] = []

    @settings(
        max_examples=CASES,
        database=None,
        derandomize=True,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(
        points=st.lists(st.integers(-5_000_000, 5_000_000), min_size=2, max_size=6),
        stake=STAKES,
    )
    def collect(points: list[int], stake: str) -> None:
        seats = NAMES[: len(points)]
        cases.append(
            {
                "seats": seats,
                "points": dict(zip(seats, points, strict=True)),
                "stake": stake,
                "format": format_of(language),
            }
        )
        with translation.override(language):
            expected.append([money(p * Decimal(stake)) for p in points])

    collect()
    for case, answer, wanted in zip(cases, run(cases), expected, strict=True):
        said = {row["name"]: row["money"] for row in answer}
        assert [said[name] for name in case["seats"]] == wanted, case
    # The cases that matter were drawn: lakhs, losses, a stake of 0.125.
    assert any(abs(p) * Decimal(c["stake"]) >= 100_000 for c in cases for p in c["points"].values())


@pytest.mark.django_db
@pytest.mark.parametrize(
    "rounds",
    [
        (),  # nobody has a point: everyone first
        (("Aama", {}), ("Buwa", {})),  # Aama and Buwa level
        (("Didi", {"Dai": True}), ("Aama", {}), (None, {"Bhai": True})),
        (("Bhai", {}), ("Bhai", {"Aama": True}), ("Dai", {})),
    ],
)
def test_the_phones_ranks_are_the_ledgers(owner, rounds) -> None:
    """Best first, equal points sharing a rank, seat order among them: as
    build_ledger ranks the same points."""
    node()
    seats = NAMES[:5]  # a round holds at most five under pagat
    session = make_session(owner, players=tuple(seats), stake="0.50")
    played(session, *rounds)
    ledger = build_ledger(session)
    points = {s.player.name: s.points for s in ledger.standings}
    [answer] = run([{"seats": seats, "points": points, "stake": "0.50", "format": format_of("en")}])
    assert [(row["name"], row["rank"], row["points"], row["money"]) for row in answer] == [
        (s.player.name, s.rank, s.points, money(s.money)) for s in ledger.standings
    ]
