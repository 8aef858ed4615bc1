"""The standings the phone shows at once when Save is tapped (static/js/
standings.js, round-save.js) are the server's: each player's rank as the
ledger ranks them (best first, equal points sharing a rank, seat order among
them) and their money as the `money` filter writes it, in English and Nepali
(lakh grouping), for stakes with two, three or no places. Hypothesis draws
the points and stakes; Node runs the phone's copy. Node missing is a failure,
never a skip."""

from __future__ import annotations

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
from tests.node_runner import node, run_node
from tests.web_helpers import make_session, played

RUNNER = Path(__file__).parents[1] / "js" / "standings_runner.mjs"
NAMES = ["Aama", "Buwa", "Didi", "Dai", "Bhai", "Kanchha"]
CASES = 300

STAKES = st.sampled_from(["1", "2.50", "0.125", "10", "0.01", "100", "0.5", "1000"]) | st.decimals(
    min_value=Decimal("0.01"), max_value=Decimal("500"), places=2
).map(str)


def run(cases: list[dict[str, Any]]) -> list[Any]:
    return run_node(RUNNER, cases)


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


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "ne"])
def test_the_phones_money_follows_a_stake_changed_mid_evening(owner, language) -> None:
    """Rounds saved on the phone, some raising the stake from themselves on:
    the phone adds each round's nets at its stake in force to the server's
    money before them, and ranks by money (then points) as build_ledger does
    once the server has the same rounds."""
    from scoring.services import rounds as rounds_service
    from tests.web_helpers import worked_round

    node()
    seats = ["Aama", "Buwa", "Didi", "Dai"]
    session = make_session(owner, players=tuple(seats), stake="2.50")
    first = played(session, ("Aama", {}))  # before the phone's rounds: the server's money
    assert first
    before = build_ledger(session)
    money_before = {s.player.name: str(s.money) for s in before.standings}
    phone_rounds = [(worked_round(), "5.00"), (worked_round(), None), (worked_round(), "0.75")]
    waiting = []
    stake = str(before.stake_now)
    for round_input, new_stake in phone_rounds:
        saved = rounds_service.add_round(
            session=session,
            round_input=round_input,
            stake_per_point=Decimal(new_stake) if new_stake else None,
        )
        stake = new_stake or stake
        nets = {e.player.name: e.net for e in saved.entries.select_related("player")}
        waiting.append({"nets": nets, "stake": stake})
    after = build_ledger(session)
    assert after.stake_changed
    points = {s.player.name: s.points for s in after.standings}
    with translation.override(language):
        fmt = format_of(language)
        wanted = [(s.player.name, s.rank, s.points, money(s.money)) for s in after.standings]
    [answer] = run(
        [
            {
                "seats": seats,
                "points": points,
                "stake": stake,
                "format": fmt,
                "money": money_before,
                "rounds": waiting,
            }
        ]
    )
    assert [(r["name"], r["rank"], r["points"], r["money"]) for r in answer] == wanted
    # Didi won every round: 30 × 5 + 30 × 5 + 30 × 0.75 = 322.50 on the phone's rounds.
    assert {s.player.name: s.money for s in after.standings}["Didi"] - Decimal(
        money_before["Didi"]
    ) == Decimal("322.50")


@pytest.mark.parametrize("language", ["en", "ne"])
def test_the_phones_money_over_changed_stakes_is_the_engines(language) -> None:
    """Hypothesis draws the money before, the rounds and their stakes: the
    phone's moneyAfter and ranks are money_totals' and the ledger's order."""
    from scoring.engine import money_totals

    node()
    cases: list[dict[str, Any]] = []
    expected: list[list[tuple[str, int, str]]] = []

    @settings(
        max_examples=100,
        database=None,
        derandomize=True,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(
        before=st.lists(st.integers(-500_000, 500_000), min_size=4, max_size=4),
        rounds=st.lists(
            st.tuples(
                st.lists(st.integers(-5_000, 5_000), min_size=4, max_size=4),
                st.decimals(min_value=Decimal("0.01"), max_value=Decimal("500"), places=2),
            ),
            min_size=1,
            max_size=6,
        ),
    )
    def collect(before: list[int], rounds: list[tuple[list[int], Decimal]]) -> None:
        seats = NAMES[:4]
        start = {n: Decimal(c).scaleb(-2) for n, c in zip(seats, before, strict=True)}
        nets = [dict(zip(seats, values, strict=True)) for values, _stake in rounds]
        stakes = [stake for _values, stake in rounds]
        cash = money_totals(nets, stakes, seats, stake=Decimal("1.00"))
        total = {n: start[n] + cash[n] for n in seats}
        points = {n: sum(r[n] for r in nets) for n in seats}
        order = sorted(range(4), key=lambda i: (-total[seats[i]], -points[seats[i]], i))
        cases.append(
            {
                "seats": seats,
                "points": points,
                "stake": str(stakes[-1]),
                "format": format_of(language),
                "money": {n: str(start[n]) for n in seats},
                "rounds": [{"nets": r, "stake": str(s)} for r, s in zip(nets, stakes, strict=True)],
            }
        )
        with translation.override(language):
            expected.append(
                [
                    (
                        seats[i],
                        1
                        + sum(
                            1
                            for j in range(4)
                            if (total[seats[j]], points[seats[j]])
                            > (total[seats[i]], points[seats[i]])
                        ),
                        money(total[seats[i]]),
                    )
                    for i in order
                ]
            )

    collect()
    for case, answer, wanted in zip(cases, run(cases), expected, strict=True):
        assert [(r["name"], r["rank"], r["money"]) for r in answer] == wanted, case
