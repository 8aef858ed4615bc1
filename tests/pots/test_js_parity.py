"""One truth: the phone's pot money (static/js/pot-money.js, shown at once as a
hand is typed and saved) agrees with the engine to the paisa on generated
sessions: each hand's money, the running totals and the pot carried on. The
whole batch goes through Node in one run (tests/js/pot_runner.mjs). Node
missing is a failure, never a skip."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pots.engine import read_session
from pots.engine.hands import settle_hands
from pots.selectors import closed
from tests.node_runner import run_node
from tests.pots.test_properties import any_sessions

RUNNER = Path(__file__).parents[1] / "js" / "pot_runner.mjs"


def run(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return run_node(RUNNER, cases)


def case_of(document: dict[str, Any], cut: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The session's first `cut` hands as the page gives them to the phone,
    and the engine's figures for them (a pot still carried on closed by a
    hand the engine then leaves out)."""
    session = read_session(document)
    seats = len(session.players)
    hands = session.hands[:cut]
    page = [
        {
            "put_in": list(h.put_in),
            "winners": list(h.winners),
            "took": None if h.took is None else list(h.took),
            "carry_out": h.carry_out,
        }
        for h in hands
    ]
    result = settle_hands(type(session)(session.players, tuple(closed(list(hands), seats))))
    per_hand = [list(m) for m in result.per_hand[: len(hands)]]
    totals = [sum(column) for column in zip(*per_hand, strict=True)] if per_hand else [0] * seats
    expected = {"perHand": per_hand, "totals": totals, "openPot": hands[-1].carry_out}
    return {"seats": seats, "hands": page}, expected


SESSIONS = 300


@settings(max_examples=1, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.tuples(any_sessions(), st.integers(1, 6)), min_size=SESSIONS, max_size=SESSIONS))
def test_the_phone_works_out_the_same_money_as_the_engine(sessions):
    cases, expected = [], []
    for document, cut in sessions:
        case, want = case_of(document, min(cut, len(document["hands"])))
        cases.append(case)
        expected.append(want)
    answers = run(cases)
    for case, want, got in zip(cases, expected, answers, strict=True):
        assert {k: got[k] for k in want} == want, case


def test_odd_paisa_and_the_words_of_money():
    (answer,) = run(
        [
            {
                "seats": 3,
                "hands": [
                    {"put_in": [1, 1, 1], "winners": [2, 0], "took": None, "carry_out": 0},
                    {"put_in": [0, 500, 0], "winners": [], "took": [0, 0, 0], "carry_out": 500},
                ],
            }
        ]
    )
    assert answer == {
        "perHand": [[1, -1, 0], [0, -500, 0]],
        "totals": [1, -501, 0],
        "openPot": 500,
        "texts": ["+0.01", "-5.01", "0.00"],
    }
