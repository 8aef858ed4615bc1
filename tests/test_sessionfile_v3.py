"""The session file and RULES.md v3 (section 3a): its four options read and
written by name, their refusals, and what an export computes under them (the
nets of a player who sits out the round that books their next_round_winner
dhoos)."""

from __future__ import annotations

import json

import pytest

from scoring.engine import make_rules
from scoring.engine.sessionfile import (
    SessionFileError,
    export_document,
    loads,
    parse_document,
)
from tests.test_sessionfile_house_rules import _evening, document, entry, worked_example


def refused(doc: dict) -> str:
    with pytest.raises(SessionFileError) as error:
        parse_document(doc)
    return str(error.value)


def test_the_v3_options_are_read_and_written_by_name():
    options = {
        "unseen_pairs": "skip",
        "dhoos_pays_total": True,
        "dublee_player_bonus": 2,
        "dhoos_payee": "next_round_winner",
    }
    doc = parse_document(document([worked_example()], **options))
    assert doc.rules == make_rules(**options)
    exported = export_document(doc)
    assert {key: exported["rules"][key] for key in options} == options
    assert loads(json.dumps(exported)) == doc


def test_an_older_file_reads_with_the_v3_defaults_and_settles_as_before():
    exported = export_document(parse_document(document([worked_example()])))
    assert exported["rules"]["unseen_pairs"] == "settle"
    assert exported["rules"]["dhoos_pays_total"] is False
    assert exported["rules"]["dublee_player_bonus"] == 0
    assert exported["rounds"][0]["net"] == {"A": 3, "B": -16, "C": 30, "D": -17}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"dublee_player_bonus": 2.0},
            "rule dublee_player_bonus: must be a whole number from 0 to 10000, got 2.0",
        ),
        (
            {"dublee_player_bonus": True},
            "rule dublee_player_bonus: must be a whole number from 0 to 10000, got True",
        ),
        (
            {"dhoos_pays_total": 1},
            "rule dhoos_pays_total: must be true or false, got 1",
        ),
        (
            {"unseen_pairs": "never"},
            "rule unseen_pairs: must be one of settle, skip, got 'never'",
        ),
    ],
)
def test_a_bad_v3_value_is_refused_by_name(options, message):
    assert refused(document([worked_example()], **options)) == message


def test_unseen_pairs_skip_in_an_export():
    round_ = {
        "winner": "A",
        "entries": [
            entry("A", maal=20),
            entry("B", maal=10),
            entry("C", "unseen", 5),
            entry("D", "unseen"),
        ],
    }
    exported = export_document(parse_document(document([round_], unseen_pairs="skip")))
    assert exported["rounds"][0]["net"] == {"A": 68, "B": 2, "C": -30, "D": -40}


def test_a_dead_hand_in_an_export():
    round_ = {
        "winner": "A",
        "entries": [entry("A", maal=5), entry("B", maal=4, dhoos=True), entry("C", maal=3)],
    }
    doc = document([round_], dhoos_pays_total=True, dhoos_payee="winner")
    doc["players"] = ["A", "B", "C"]
    exported = export_document(parse_document(doc))
    assert exported["rounds"][0]["net"] == {"A": 18 + 15, "B": -12 - 15, "C": -6}


def test_next_round_winner_books_the_dhoos_of_a_player_who_sits_out():
    """D is given dhoos in round 1 and sits out round 2, which A wins: D pays A
    there, listed in round 2's nets though not among its entries."""
    exported = export_document(
        parse_document(document(_evening(), dhoos_payee="next_round_winner"))
    )
    first, second, third = exported["rounds"]
    assert first["net"] == {"A": 3, "B": -16, "C": 30, "D": -17}
    assert [e["player"] for e in second["entries"]] == ["A", "B", "C"]
    assert second["dhoos_booked"] == [{"player": "D", "amount": 15, "round": 1, "to": "A"}]
    assert second["net"] == {"A": 6 + 15, "B": -3, "C": -3, "D": -15}
    assert "dhoos_booked" not in third
    assert third["net"] == {"A": -3, "B": 6, "D": -3}
    assert exported["dhoos_pending"] == []
    assert exported["totals"] == {"A": 21, "B": -13, "C": 27, "D": -35}
    assert sum(exported["totals"].values()) == 0
    # Read back, the file settles the same.
    assert export_document(loads(json.dumps(exported))) == exported
