"""The `marriage-session/1` file: reading one, and writing the export."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal

import pytest

from scoring.engine import PRESETS, Entry, RoundInput, make_rules
from scoring.engine.maal import PRESET_TABLES
from scoring.engine.sessionfile import (
    FORMAT,
    RoundMaal,
    SessionDoc,
    SessionFileError,
    dumps,
    export_document,
    loads,
    parse_document,
    parse_stake,
)


def worked_example_file(**changes) -> dict:
    return {
        "format": FORMAT,
        "name": "Dashain",
        "currency": "NPR",
        "stake_per_point": "2.50",
        "rules": {"preset": "pagat"},
        "players": ["A", "B", "C", "D"],
        "rounds": [
            {
                "winner": "C",
                "win_type": "normal",
                "better": False,
                "entries": [
                    {"player": "A", "status": "seen", "maal": 5, "tunnel": 0, "dhoos": False},
                    {"player": "B", "status": "unseen", "maal": 2, "tunnel": 0, "dhoos": False},
                    {"player": "C", "status": "seen", "maal": 7, "tunnel": 0, "dhoos": False},
                    {"player": "D", "status": "seen", "maal": 0, "tunnel": 0, "dhoos": False},
                ],
            }
        ],
    } | changes


def test_the_export_of_the_worked_example():
    exported = export_document(parse_document(worked_example_file()))
    expected = worked_example_file()
    expected["rules"] = PRESETS["pagat"].to_options()
    expected["rounds"][0]["net"] = {"A": 3, "B": -16, "C": 30, "D": -17}
    expected |= {
        "totals": {"A": 3, "B": -16, "C": 30, "D": -17},
        "money": {"A": "7.50", "B": "-40.00", "C": "75.00", "D": "-42.50"},
        "transfers": [
            {"from": "B", "to": "C", "amount": "32.50"},
            {"from": "B", "to": "A", "amount": "7.50"},
            {"from": "D", "to": "C", "amount": "42.50"},
        ],
    }
    assert exported == expected
    assert list(exported) == [
        "format",
        "name",
        "currency",
        "stake_per_point",
        "rules",
        "players",
        "rounds",
        "totals",
        "money",
        "transfers",
    ]


def test_the_smallest_file_and_its_defaults():
    doc = loads('{"format": "marriage-session/1", "name": "Tihar", "players": ["A", "B"]}')
    assert doc == SessionDoc(
        name="Tihar",
        currency="NPR",
        stake_per_point=Decimal("1.00"),
        rules=PRESETS["pagat"],
        players=("A", "B"),
        rounds=(),
    )
    exported = export_document(doc)
    assert exported["totals"] == {"A": 0, "B": 0}
    assert exported["money"] == {"A": "0.00", "B": "0.00"}
    assert exported["transfers"] == []


def test_entry_and_round_defaults():
    data = worked_example_file()
    data["rounds"] = [
        {
            "winner": "A",
            "entries": [{"player": "A", "status": "seen"}, {"player": "B", "status": "unseen"}],
        }
    ]
    (round_,) = parse_document(data).rounds
    assert round_ == RoundInput(
        (Entry("A", "seen", 0, 0, False), Entry("B", "unseen", 0, 0, False)),
        winner="A",
        win_type="normal",
        better=None,  # not marked: settles with the rules' default
    )


def test_names_are_tidied_and_currency_upper_cased():
    data = worked_example_file(name="  Dashain \n 2026 ", currency=" npr ")
    data["players"] = [" A ", "B", "C", "D"]
    data["rounds"][0]["entries"][0]["player"] = "A  "
    doc = parse_document(data)
    assert (doc.name, doc.currency, doc.players[0]) == ("Dashain 2026", "NPR", "A")
    assert doc.rounds[0].entries[0].player == "A"


def test_rules_preset_and_overrides_are_resolved_in_the_export():
    data = worked_example_file(rules={"preset": "kidnap", "seen_payment": 4})
    rules = export_document(parse_document(data))["rules"]
    assert rules == PRESETS["kidnap"].to_options() | {"seen_payment": 4}
    assert "preset" not in rules


@pytest.mark.parametrize("preset", list(PRESETS))
def test_export_read_back_exports_the_same(preset):
    data = worked_example_file(rules={"preset": preset, "better_multiplier": 3})
    data["rounds"].append(
        {
            "winner": "A",
            "win_type": "dublee",
            "better": True,
            "entries": [
                {"player": "D", "status": "unseen", "maal": 9, "tunnel": 20, "dhoos": True},
                {"player": "A", "status": "seen", "maal": 4, "tunnel": 5},
                {"player": "B", "status": "seen", "maal": 1},
            ],
        }
    )
    data["rounds"].append(
        {"winner": None, "entries": [{"player": p, "status": "unseen"} for p in "BC"]}
    )
    first = export_document(parse_document(data))
    text = dumps(first)
    again = export_document(loads(text))
    assert again == first
    assert dumps(again) == text


def test_the_export_lists_entries_in_the_sessions_player_order():
    data = worked_example_file()
    data["rounds"][0]["entries"].reverse()
    exported = export_document(parse_document(data))
    assert [e["player"] for e in exported["rounds"][0]["entries"]] == ["A", "B", "C", "D"]
    assert list(exported["rounds"][0]["net"]) == ["A", "B", "C", "D"]
    assert exported == export_document(parse_document(worked_example_file()))


def test_a_round_after_a_dublee_win_is_better_unless_the_file_says():
    data = worked_example_file(rules={"dublee_triggers_better": True})
    data["rounds"][0]["win_type"] = "dublee"
    second = {k: v for k, v in data["rounds"][0].items() if k != "better"} | {"win_type": "normal"}
    data["rounds"] += [second, dict(second), dict(second, better=False)]
    rounds = parse_document(data).rounds
    # A missing `better` is not marked: the round keeps following its default.
    assert [r.better for r in rounds] == [False, None, None, False]
    # The second round is doubled: the worked example's nets × 2.
    exported = export_document(parse_document(data))
    assert exported["rounds"][1]["net"] == {"A": 6, "B": -32, "C": 60, "D": -34}
    assert exported["rounds"][2]["net"] == {"A": 3, "B": -16, "C": 30, "D": -17}
    # The export writes only the marks, so reading it back keeps the defaults.
    assert [r.get("better") for r in exported["rounds"]] == [False, None, None, False]
    # Without the option, a missing `better` is false.
    data["rules"] = {}
    exported = export_document(parse_document(data))
    assert exported["rounds"][1]["net"] == {"A": 3, "B": -16, "C": 30, "D": -17}


@pytest.mark.parametrize(
    ("value", "stake"),
    [
        ("2.50", "2.50"),
        ("2.5", "2.50"),
        (" 3 ", "3.00"),
        (2, "2.00"),
        ("0", "0.00"),
        ("-0", "0.00"),
        ("1e3", "1000.00"),
        ("9999999999.99", "9999999999.99"),
    ],
)
def test_stakes(value, stake):
    assert str(parse_stake(value)) == stake


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("abc", "stake_per_point: must be a decimal string such as \"2.50\", got 'abc'"),
        ("", "stake_per_point: must be a decimal string such as \"2.50\", got ''"),
        (2.5, 'stake_per_point: must be a decimal string such as "2.50", got 2.5'),
        (True, 'stake_per_point: must be a decimal string such as "2.50", got True'),
        (None, 'stake_per_point: must be a decimal string such as "2.50", got None'),
        ("NaN", "stake_per_point: must be a decimal string such as \"2.50\", got 'NaN'"),
        ("Infinity", "stake_per_point: must be a decimal string such as \"2.50\", got 'Infinity'"),
        ("-1", "stake_per_point: must be zero or more, got '-1'"),
        ("2.505", "stake_per_point: at most 2 decimal places, got '2.505'"),
        ("10000000000", "stake_per_point: too large, got '10000000000'"),
    ],
)
def test_bad_stakes(value, message):
    with pytest.raises(SessionFileError) as error:
        parse_stake(value)
    assert str(error.value) == message


def test_dumps_is_indented_utf8_with_a_final_newline():
    text = dumps({"name": "तिहार", "n": [1]})
    assert text == '{\n  "name": "तिहार",\n  "n": [\n    1\n  ]\n}\n'


def _error(text: str) -> str:
    with pytest.raises(SessionFileError) as error:
        loads(text)
    return str(error.value)


def test_a_byte_order_mark_is_ignored():
    assert loads("\ufeff" + json.dumps(worked_example_file())).name == "Dashain"


def test_json_that_python_cannot_read_is_one_line():
    huge = '{"format": "marriage-session/1", "name": "x", "players": [' + "9" * 5000 + "]}"
    assert _error(huge) == "not JSON: a number with too many digits"
    assert "\n" not in _error(huge)
    deep = "[" * 100_000 + "]" * 100_000
    assert _error(deep).startswith("not JSON: ")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(extra=1), "session file: unknown field 'extra'"),
        (lambda d: d.update(name=" "), "name: must be non-empty text, got ' '"),
        (lambda d: d.update(name="x" * 101), "name: longer than 100 characters"),
        (
            lambda d: d.update(currency="RUPEES-NPR"),
            "currency: must be a short code such as NPR, got 'RUPEES-NPR'",
        ),
        (lambda d: d.update(rules=["pagat"]), "rules: must be an object, got ['pagat']"),
        (lambda d: d.update(players="A, B"), "players: must be a list, got 'A, B'"),
        (
            lambda d: d.update(players=["A", "B", "A"]),
            "players: A is listed twice",
        ),
        (
            lambda d: d.update(players=["A"]),
            "players: a session needs at least 2 players, got 1",
        ),
        (
            lambda d: d.update(players=["A", ""]),
            "players, entry 2: a player name must be non-empty text, got ''",
        ),
        (
            lambda d: d.update(players=["A", "x" * 41]),
            "players, entry 2: player name 'xxxxxxxxxxxxxxxxxxxx'… is longer than 40 characters",
        ),
        (lambda d: d.update(rounds={}), "rounds: must be a list, got {}"),
        (lambda d: d["rounds"].append([]), "round 2: must be an object, got []"),
        (
            lambda d: d["rounds"][0].update(notes="x"),
            "round 1: unknown field 'notes'",
        ),
        (
            lambda d: d["rounds"][0].pop("entries"),
            "round 1, entries: must be a list, got None",
        ),
        (
            lambda d: d["rounds"][0]["entries"].append("E"),
            "round 1, entry 5: must be an object, got 'E'",
        ),
        (
            lambda d: d["rounds"][0]["entries"][1].pop("player"),
            "round 1, entry 2, player: missing",
        ),
        (
            lambda d: d["rounds"][0]["entries"][1].update(seen=True),
            "round 1, player B: unknown field 'seen'",
        ),
        (
            lambda d: d["rounds"][0]["entries"][1].pop("status"),
            "round 1, player B, status: missing (seen or unseen)",
        ),
        (
            lambda d: d["rounds"][0]["entries"][1].update(status="blind"),
            "round 1, player B, status: must be seen or unseen, got 'blind'",
        ),
        (
            lambda d: d["rounds"][0]["entries"][1].update(dhoos="yes"),
            "round 1, player B, dhoos: must be true or false, got 'yes'",
        ),
        (
            lambda d: d["rounds"][0].update(win_type="triple"),
            "round 1, win_type: must be normal or dublee, got 'triple'",
        ),
        (
            lambda d: d["rounds"][0].update(better=1),
            "round 1, better: must be true or false, got 1",
        ),
        (
            lambda d: d["rounds"][0].update(winner=None, win_type="dublee"),
            "round 1, win_type: a dublee win needs a winner",
        ),
        (
            lambda d: d["rounds"][0].update(winner=""),
            "round 1, winner: a player name must be non-empty text, got ''",
        ),
        (
            lambda d: d.update(name="Tihar\x00"),
            "name: must not contain control characters, got 'Tihar\\x00'",
        ),
        (
            lambda d: d.update(players=["A", "B\x07"]),
            "players, entry 2: must not contain control characters, got 'B\\x07'",
        ),
        (
            lambda d: d.update(currency="NP\x00"),
            "currency: must not contain control characters, got 'NP\\x00'",
        ),
        (
            lambda d: d.update(played_on="2026-13-01"),
            "played_on: must be a date such as \"2026-10-02\", got '2026-13-01'",
        ),
        (
            lambda d: d.update(played_on=20261002),
            'played_on: must be a date such as "2026-10-02", got 20261002',
        ),
        (
            lambda d: d["rounds"][0].update(tiplu="ZZ"),
            "round 1, tiplu: 'ZZ' is not a card: write rank then suit, such as QH or 10S",
        ),
        (
            lambda d: d["rounds"][0].update(tiplu=7),
            'round 1, tiplu: must be a card such as "QH", got 7',
        ),
        (
            lambda d: d["rounds"][0]["entries"][2].update(maal_tally={"tiplu": 2}),
            "round 1, player C, maal_tally: pick the tiplu card to use the maal calculator",
        ),
        (
            lambda d: (
                d["rounds"][0].update(tiplu="7H"),
                d["rounds"][0]["entries"][2].update(maal_tally={"tiplu": 1}),
            ),
            "round 1, player C, maal_tally: the calculator counted maal 3 and tunnel 0 "
            "(1 tiplu = 3), not 7 and 0; count again or clear the calculator",
        ),
        (
            lambda d: (
                d["rounds"][0].update(tiplu="7H"),
                d["rounds"][0]["entries"][2].update(maal_tally={"tiplu": -2}),
            ),
            "round 1, player C, maal_tally: tiplu: must not be negative, got -2",
        ),
    ],
)
def test_bad_files_name_what_is_wrong(change, message):
    data = worked_example_file()
    change(data)
    assert _error(json.dumps(data)) == message


def test_a_key_given_twice_is_refused_where_it_is():
    text = json.dumps(worked_example_file())
    winner_twice = text.replace('"winner": "C"', '"winner": "C", "winner": "A"')
    assert _error(winner_twice) == "round 1, winner: given twice"
    maal_twice = text.replace('"maal": 2,', '"maal": 2, "maal": 20,')
    assert _error(maal_twice) == "round 1, player B, maal: given twice"
    name_twice = text.replace('"name": "Dashain",', '"name": "Dashain", "name": "Tihar",')
    assert _error(name_twice) == "session file, name: given twice"
    rules_twice = text.replace('"preset": "pagat"', '"preset": "pagat", "preset": "murder"')
    assert _error(rules_twice) == "rules, preset: given twice"


def test_a_round_with_two_winners():
    data = worked_example_file()
    data["rounds"][0]["winner"] = ["A", "C"]
    assert (
        _error(json.dumps(data)) == "round 1, winner: one player's name (or null), got ['A', 'C']"
    )


def test_round_rules_errors_come_from_the_engine_with_the_round_number():
    data = worked_example_file(rules={"preset": "pagat", "max_players": 3})
    assert (
        _error(json.dumps(data))
        == "round 1, players: at most 3 players can play a round under these rules, got 4"
    )


def test_a_session_with_many_rounds_has_running_money():
    data = worked_example_file(stake_per_point="0.10")
    data["rounds"] *= 3
    exported = export_document(parse_document(data))
    assert exported["totals"] == {"A": 9, "B": -48, "C": 90, "D": -51}
    assert exported["money"] == {"A": "0.90", "B": "-4.80", "C": "9.00", "D": "-5.10"}


def test_rules_with_a_custom_maal_table_survive_the_file():
    table = PRESET_TABLES["tiers"].to_options() | {"tiplu": [4, 9]}
    rules = make_rules("wikipedia", maal_points=table)
    doc = SessionDoc("Tihar", "NPR", Decimal("1.00"), rules, ("A", "B"))
    assert loads(dumps(export_document(doc))).rules == rules


def test_a_huge_bad_value_is_cut_short_in_the_message():
    data = worked_example_file()
    data["rounds"][0]["entries"][1]["maal"] = list(range(10_000))
    message = _error(json.dumps(data))
    assert message.startswith("round 1, player B, maal: must be a whole number, got [0, 1, 2, ")
    assert len(message) == 300
    assert message.endswith("…")


def test_the_date_tiplu_and_maal_tallies_survive_the_file():
    data = worked_example_file(played_on="2026-10-02")
    data["rounds"][0]["tiplu"] = "7h"
    data["rounds"][0]["entries"][2]["maal_tally"] = {"poplu": 2, "jhiplu": 1}
    doc = parse_document(data)
    assert doc.played_on == date(2026, 10, 2)
    assert doc.maal == (RoundMaal(tiplu="7H", tallies={"C": {"poplu": 2, "jhiplu": 1}}),)
    exported = export_document(doc)
    assert exported["played_on"] == "2026-10-02"
    assert exported["rounds"][0]["tiplu"] == "7H"
    assert exported["rounds"][0]["entries"][2]["maal_tally"] == {"poplu": 2, "jhiplu": 1}
    assert "maal_tally" not in exported["rounds"][0]["entries"][0]
    assert parse_document(exported) == doc


def test_a_file_without_date_or_calculator_exports_neither():
    exported = export_document(parse_document(worked_example_file()))
    assert "played_on" not in exported and "tiplu" not in exported["rounds"][0]
