"""Every problem of a round at once (`round_problems`), for the round form;
`validate_round` still raises the first of them."""

from __future__ import annotations

import pytest

from scoring.engine import Entry, RoundError, RoundInput, make_rules
from scoring.engine.settlement import round_problems, validate_round


def test_every_problem_in_the_order_validate_round_meets_them():
    rules = make_rules("pagat", dublee_min_players=4)
    round_ = RoundInput(
        entries=(
            Entry("Aama", maal=-1, tunnel=10_001),
            Entry("Buwa", status="unseen", dublees=True),
            Entry("Didi", status="unseen", maal=7),
        ),
        winner="Didi",
        win_type="dublee",
    )
    problems = round_problems(round_, rules)
    assert [str(p) for p in problems] == [
        "player Aama, maal: must not be negative, got -1",
        "player Aama, tunnel: 10001 is more than 10,000 points; check the number",
        "player Buwa, dublees: saw by dublees, so must be seen (dublees show the tiplu)",
        "player Didi, status: a dublee winner must be seen (seven dublees show the tiplu)",
        "win_type: a dublee win needs at least 4 players under these rules, got 3",
    ]
    assert [(p.player, p.field) for p in problems] == [
        ("Aama", "maal"),
        ("Aama", "tunnel"),
        ("Buwa", "dublees"),
        ("Didi", "status"),
        (None, "win_type"),
    ]
    with pytest.raises(RoundError) as raised:
        validate_round(round_, rules)
    assert str(raised.value) == str(problems[0])


def test_a_check_that_needs_another_is_left_out_when_it_failed():
    rules = make_rules("pagat")
    # No entry for the winner: nothing to say about the winner's status.
    lone = RoundInput(entries=(Entry("Aama"),), winner="Dai")
    assert [str(p) for p in round_problems(lone, rules)] == [
        "players: a round needs at least 2 players, got 1",
        "player Dai, winner: 'Dai' has no entry in this round",
    ]
    # A player given twice is told once, and then not judged again.
    twice = RoundInput(entries=(Entry("Aama"), Entry("Aama", maal=-1)), winner="Aama")
    assert [str(p) for p in round_problems(twice, rules)] == [
        "player Aama, player: appears twice in the round"
    ]


def test_a_playable_round_has_no_problems():
    round_ = RoundInput(entries=(Entry("Aama", maal=5), Entry("Buwa")), winner="Aama")
    assert round_problems(round_, make_rules("pagat")) == []
