"""The `marriage-session/1` file: reading one, and writing the export; every bad
file refused with one line naming what is wrong; each rule option read and
written by name (the house rules of RULES.md sections 3 and 3a: `dublees`,
next-winner dhoos in the export, better after a rotation, copies in play across
a round's tallies, unseen pairs, a dead hand, next_round_winner) with its
refusals, and options this version does not know."""

from __future__ import annotations

import copy
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
    fingerprint,
    loads,
    parse_document,
    parse_stake,
)
from tests.samples import _DELETE, BUWA, PLAYERS, R2, _set, demo_doc, night


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


def entry(player: str, status: str = "seen", maal: int = 0, **more) -> dict:
    return {"player": player, "status": status, "maal": maal, **more}


def worked_example(**entry_changes) -> dict:
    """RULES.md section 2's round; `entry_changes` adds fields to a player's entry."""
    entries = [entry("A", maal=5), entry("B", "unseen", 2), entry("C", maal=7), entry("D")]
    for item in entries:
        item.update(entry_changes.get(item["player"], {}))
    return {"winner": "C", "entries": entries}


def document(rounds: list[dict], **rules) -> dict:
    return {
        "format": FORMAT,
        "name": "Tihar",
        "players": ["A", "B", "C", "D"],
        "rules": rules,
        "rounds": rounds,
    }


def refused(doc: dict) -> str:
    with pytest.raises(SessionFileError) as error:
        parse_document(doc)
    return str(error.value)


def test_an_entry_that_saw_by_dublees():
    doc = parse_document(
        document([worked_example(D={"dublees": True})], preset="nepal", unseen_maal="count")
    )
    assert doc.rounds[0].entry("D") == Entry("D", "seen", 0, 0, False, dublees=True)
    exported = export_document(doc)
    # D pays no seen payment: 14 instead of 17.
    assert exported["rounds"][0]["net"] == {"A": 3, "B": -16, "C": 27, "D": -14}
    assert exported["rounds"][0]["entries"][3] == {
        "player": "D",
        "status": "seen",
        "maal": 0,
        "tunnel": 0,
        "dhoos": False,
        "dublees": True,
    }
    # Only an entry that saw by dublees says so.
    assert "dublees" not in exported["rounds"][0]["entries"][0]
    assert loads(json.dumps(exported)) == doc


def test_dublees_on_an_unseen_player_is_refused():
    assert refused(document([worked_example(B={"dublees": True})])) == (
        "round 1, player B, dublees: saw by dublees, so must be seen (dublees show the tiplu)"
    )
    assert refused(document([worked_example(A={"dublees": "yes"})])) == (
        "round 1, player A, dublees: must be true or false, got 'yes'"
    )


def _evening() -> list[dict]:
    """D is given dhoos in round 1, sits out round 2, and B wins round 3."""
    return [
        worked_example(D={"dhoos": True}),
        {"winner": "A", "entries": [entry("A"), entry("B"), entry("C")]},
        {"winner": "B", "entries": [entry("A"), entry("B"), entry("D")]},
    ]


def test_the_export_writes_booked_and_pending_dhoos():
    exported = export_document(parse_document(document(_evening(), dhoos_payee="next_winner")))
    first, second, third = exported["rounds"]
    assert first["net"] == {"A": 3, "B": -16, "C": 30, "D": -17}
    assert "dhoos_booked" not in first and "dhoos_booked" not in second
    assert third["dhoos_booked"] == [{"player": "D", "amount": 15, "round": 1, "to": "B"}]
    assert third["net"] == {"A": -3, "B": 6 + 15, "D": -3 - 15}
    assert exported["dhoos_pending"] == []
    assert exported["totals"] == {"A": 6, "B": 2, "C": 27, "D": -35}

    pending = export_document(parse_document(document(_evening()[:2], dhoos_payee="next_winner")))
    assert pending["dhoos_pending"] == [{"player": "D", "amount": 15, "round": 1}]
    # Pending dhoos is in nobody's totals.
    assert pending["totals"] == {"A": 9, "B": -19, "C": 27, "D": -17}


def test_importing_an_export_ignores_what_it_computed():
    doc = parse_document(document(_evening(), dhoos_payee="next_winner"))
    exported = export_document(doc)
    exported["rounds"][2]["dhoos_booked"] = [{"player": "A", "amount": 999}]
    exported["rounds"][2]["net"] = {"A": 1}
    exported["dhoos_pending"] = "anything"
    exported["totals"] = {}
    assert loads(json.dumps(exported)) == doc
    assert export_document(loads(json.dumps(exported))) == export_document(doc)


def test_a_missing_better_takes_the_rotation_default():
    rounds = [worked_example() for _ in range(6)]
    rounds[5]["better"] = False
    doc = parse_document(document(rounds, better_after_rotation=True))
    # Not marked (None): settled, round 5 is due with four players; round 6 is
    # not (and says so anyway).
    assert [r.better for r in doc.rounds] == [None, None, None, None, None, False]
    exported = export_document(doc)
    assert [r["net"]["C"] for r in exported["rounds"]] == [30, 30, 30, 30, 60, 30]
    assert exported["rounds"][4]["net"] == {"A": 6, "B": -32, "C": 60, "D": -34}
    # The export writes `better` only where the file marked it, so the rounds read
    # back still follow the default, and export → import → export is the same text.
    assert [r.get("better") for r in exported["rounds"]] == [None] * 5 + [False]
    text = dumps(exported)
    assert loads(text) == doc
    assert dumps(export_document(loads(text))) == text
    rounds[4]["better"] = None
    assert refused(document(rounds, better_after_rotation=True)) == (
        "round 5, better: must be true or false, got None"
    )


def test_an_earlier_export_with_better_on_every_round_keeps_its_marks():
    # Exports written before the defaults were kept gave every round `better`:
    # each is the table's mark, and the file settles exactly as it did.
    rounds = [dict(worked_example(), better=False) for _ in range(6)]
    doc = parse_document(document(rounds, better_after_rotation=True))
    assert [r.better for r in doc.rounds] == [False] * 6
    exported = export_document(doc)
    assert [r["net"]["C"] for r in exported["rounds"]] == [30] * 6
    assert [r["better"] for r in exported["rounds"]] == [False] * 6
    assert dumps(export_document(loads(dumps(exported)))) == dumps(exported)
    # The same evening however its better rounds were written: the import asks
    # before saving it a second time.
    unmarked = parse_document(document([worked_example() for _ in range(6)]))
    assert fingerprint(parse_document(document(rounds))) == fingerprint(unmarked)
    rounds[1]["better"] = True
    assert fingerprint(parse_document(document(rounds))) != fingerprint(unmarked)


def test_an_option_this_version_does_not_know_is_refused_by_name():
    assert refused(document([], dhoos_to_dealer=True)) == "unknown rule option 'dhoos_to_dealer'"
    assert refused(document([], dhoos_payee="dealer")) == (
        "rule dhoos_payee: must be one of all, winner, next_winner, next_round_winner, got 'dealer'"
    )


def test_a_dublee_win_with_too_few_players_is_refused():
    three = {
        "winner": "A",
        "win_type": "dublee",
        "entries": [entry("A"), entry("B"), entry("C")],
    }
    assert refused(document([three], dublee_min_players=4)) == (
        "round 1, win_type: a dublee win needs at least 4 players under these rules, got 3"
    )


def test_the_nepal_preset_in_a_file():
    doc = parse_document(document(_evening(), preset="nepal"))
    assert doc.rules == make_rules("nepal")
    exported = export_document(doc)
    # Murder: B's 2 is void (T = 12); D's dhoos voids nothing (D holds none) and
    # goes to round 3's winner.
    # A pays 12+3−20 = −5, B 12+10 = 22, D 12+3 = 15.
    assert exported["rounds"][0]["net"] == {"A": 5, "B": -22, "C": 32, "D": -15}
    assert exported["rounds"][2]["dhoos_booked"] == [
        {"player": "D", "amount": 15, "round": 1, "to": "B"}
    ]


# --- the maal calculator's tallies: copies in play across the round --------------------------


def _tallied(**tallies: dict) -> dict:
    """One round with tiplu 7H where each named player's tally is given."""
    from scoring.engine.maal import Tally, parse_tiplu, score

    rules = make_rules()
    entries = []
    for player in ("A", "B", "C", "D"):
        result = score(Tally(**tallies.get(player, {})), rules)
        entries.append(
            entry(
                player,
                maal=result.maal,
                tunnel=result.tunnel,
                maal_tally=tallies.get(player, {}),
            )
        )
    return {"winner": "A", "tiplu": parse_tiplu("7H").code, "entries": entries}


def test_a_round_holding_more_tiplu_than_exist_is_refused_naming_card_and_players():
    round_ = _tallied(A={"tiplu": 1}, C={"marriages": 1}, D={"tiplu": 1})
    assert refused(document([round_])) == (
        "round 1, maal_tally: 3 tiplu held by A 1, C 1, D 1: only 2 in play"
    )
    poplu = _tallied(B={"poplu_tunnels": 1}, C={"poplu": 1})
    assert refused(document([poplu])) == (
        "round 1, maal_tally: 4 poplu held by B 3, C 1: only 3 in play"
    )
    # Within the copies it is read.
    assert parse_document(document([_tallied(A={"tiplu": 1}, D={"tiplu": 1})])).maal


def test_a_maal_tunnel_saved_before_the_split_still_reads():
    """A poplu tunnel used to be all tunnel points (pagat: 20); now 10 maal + 10
    tunnel. A file from before keeps the points its round was settled on."""
    round_ = _tallied(B={"poplu_tunnels": 1})
    assert (round_["entries"][1]["maal"], round_["entries"][1]["tunnel"]) == (10, 10)
    assert parse_document(document([round_])).rounds[0].entry("B").maal == 10
    round_["entries"][1].update(maal=0, tunnel=20)
    assert parse_document(document([round_])).rounds[0].entry("B").tunnel == 20
    round_["entries"][1].update(maal=5, tunnel=15)
    assert "the calculator counted maal 10 and tunnel 10" in refused(document([round_]))


# --- RULES.md section 3's options, with exact numbers, through the file ----------------------
# The worked example (C wins; A seen 5, B unseen 2, C 7, D seen 0; T = 14): nets
# A +3, B −16, C +30, D −17 before any dhoos.


def nets_of(rounds: list[dict], **rules) -> list[dict[str, int]]:
    return [r["net"] for r in export_document(parse_document(document(rounds, **rules)))["rounds"]]


def test_dhoos_amount_round_total_is_the_rounds_t():
    # D's dhoos costs T = 14 to each of the three others: D −17 − 42 = −59.
    assert nets_of([worked_example(D={"dhoos": True})], dhoos_amount="round_total") == [
        {"A": 17, "B": -2, "C": 44, "D": -59}
    ]
    # T after section 3's rules: under murder B's 2 is void, T = 12.
    # A pays 12 + 3 − 20 = −5, B 12 + 10 = 22, D 12 + 3 = 15; then D's 12 each.
    murder = nets_of(
        [worked_example(D={"dhoos": True})], dhoos_amount="round_total", unseen_maal="void"
    )
    assert murder == [{"A": 5 + 12, "B": -22 + 12, "C": 32 + 12, "D": -15 - 36}]
    # No winner: the points as entered, before any rule (B's void tunnel 3
    # included): 5 + 2 + 3 + 7 + 0 = 17 to each of the three others.
    abandoned = worked_example(D={"dhoos": True}, B={"tunnel": 3})
    abandoned["winner"] = None
    assert nets_of([abandoned], dhoos_amount="round_total") == [
        {"A": 17, "B": 17, "C": 17, "D": -51}
    ]
    # Under next_winner, the T of the round it was given in, paid to C in round 2.
    later = {"winner": "C", "entries": [entry("C"), entry("D")]}
    exported = export_document(
        parse_document(
            document(
                [worked_example(D={"dhoos": True}), later],
                dhoos_amount="round_total",
                dhoos_payee="next_winner",
            )
        )
    )
    assert exported["rounds"][1]["dhoos_booked"] == [
        {"player": "D", "amount": 14, "round": 1, "to": "C"}
    ]
    # Round 2: T = 0, D pays C 3 for the game and 14 for the dhoos.
    assert exported["rounds"][1]["net"] == {"C": 17, "D": -17}


def test_dhoos_payee_winner_pays_the_amount_once_to_the_winner():
    # D pays 15 once, to C: D −17 − 15, C +30 + 15.
    assert nets_of([worked_example(D={"dhoos": True})], dhoos_payee="winner") == [
        {"A": 3, "B": -16, "C": 45, "D": -32}
    ]
    # The winner given dhoos pays, as under `all`, 15 to each of the three others.
    assert nets_of([worked_example(C={"dhoos": True})], dhoos_payee="winner") == [
        {"A": 18, "B": -1, "C": -15, "D": -2}
    ]
    # No winner: as `all`.
    abandoned = dict(worked_example(D={"dhoos": True}), winner=None)
    assert nets_of([abandoned], dhoos_payee="winner") == [{"A": 15, "B": 15, "C": 15, "D": -45}]


def test_dhoos_voids_maal_of_a_fouler_holding_maal():
    # A (seen, maal 5) given dhoos counts 0: T = 0 + 2 + 7 + 0 = 9.
    # A pays 9 + 3 − 0 = 12, B 9 + 10 − 8 = 11, D 9 + 3 = 12: C +35; then A's
    # dhoos, 15 to each of the three others.
    fouled = [worked_example(A={"dhoos": True})]
    assert nets_of(fouled, dhoos_voids_maal=True) == [{"A": -57, "B": 4, "C": 50, "D": 3}]
    # Without the option A keeps the 5: the worked example, then the dhoos.
    assert nets_of(fouled) == [{"A": 3 - 45, "B": -1, "C": 45, "D": -2}]
    # Applied before kidnap: B (unseen 2) given dhoos keeps nothing for C to take.
    # T = 5 + 0 + 7 + 0 = 12: A pays 12 + 3 − 20 = −5, B 22, D 15; C +32.
    kidnapped = [worked_example(B={"dhoos": True})]
    assert nets_of(kidnapped, unseen_maal="kidnap", dhoos_voids_maal=True) == [
        {"A": 5 + 15, "B": -22 - 45, "C": 32 + 15, "D": -15 + 15}
    ]


def test_a_master_card_tally_at_value_10():
    tallied = worked_example(D={"maal": 10, "maal_tally": {"master_card": 1}})
    tallied["tiplu"] = "7H"
    rules = {"master_card": True, "master_card_value": 10}
    # D's maal 10: T = 24. A pays 24 + 3 − 20 = 7, B 24 + 10 − 8 = 26,
    # D 24 + 3 − 40 = −13 (C pays D 13): C +20.
    assert nets_of([tallied], **rules) == [{"A": -7, "B": -26, "C": 20, "D": 13}]
    # The tally is checked at the session's value: 5 (the default) is refused.
    tallied["entries"][3]["maal"] = 5
    assert refused(document([tallied], **rules)) == (
        "round 1, player D, maal_tally: the calculator counted maal 10 and tunnel 0 "
        "(1 master card = 10), not 5 and 0; count again or clear the calculator"
    )


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


SIX = [{"player": name, "status": "seen"} for name in PLAYERS]


def _json_edit(old: str, new: str):
    def change(data):
        text = json.dumps(data)
        assert old in text
        return text.replace(old, new, 1)

    return change


UNSEEN_WINNER = (
    "round 2, player Aama, status: the winner must be seen: "
    "ending the round means having shown the pure sets"
)


DUBLEE_UNSEEN = (
    "round 2, player Aama, status: a dublee winner must be seen (seven dublees show the tiplu)"
)


def _unseen_winner(win_type: str):
    def change(data):
        _set(f"{R2}.entries.0.status", "unseen")(data)
        return _set(f"{R2}.win_type", win_type)(data)

    return change


BAD = [
    pytest.param(
        lambda d: "{nope",
        "not JSON: Expecting property name enclosed in double quotes at line 1, column 2",
        id="not-json",
    ),
    pytest.param(lambda d: "", "not JSON: Expecting value at line 1, column 1", id="empty"),
    pytest.param(lambda d: "[1]", "session file: must be an object, got [1]", id="not-an-object"),
    pytest.param(
        _set("format", "marriage-session/2"),
        "format: must be 'marriage-session/1', got 'marriage-session/2'",
        id="format-tag",
    ),
    pytest.param(
        _set("format", _DELETE), "format: must be 'marriage-session/1', got None", id="no-format"
    ),
    pytest.param(
        _set("rules.tunnel_rule", "void"), "unknown rule option 'tunnel_rule'", id="unknown-rule"
    ),
    pytest.param(
        _set("rules.unseen_maal", "steal"),
        "rule unseen_maal: must be one of count, void, kidnap, got 'steal'",
        id="bad-rule-value",
    ),
    pytest.param(
        _set("rules.preset", "house"),
        "unknown rules preset 'house' (one of pagat, kidnap, murder, wikipedia, nepal)",
        id="unknown-preset",
    ),
    pytest.param(
        _set(f"{BUWA}.player", "Zed"),
        "round 2, player Zed: not one of the session's players",
        id="unknown-player",
    ),
    pytest.param(
        _set(f"{R2}.entries.2.player", "Buwa"),
        "round 2, player Buwa, player: appears twice in the round",
        id="player-twice",
    ),
    pytest.param(
        _set(f"{R2}.entries", [{"player": "Aama", "status": "seen"}]),
        "round 2, players: a round needs at least 2 players, got 1",
        id="one-player",
    ),
    pytest.param(
        _set(f"{R2}.entries", SIX),
        "round 2, players: at most 5 players can play a round under these rules, got 6",
        id="six-players",
    ),
    pytest.param(
        _set(f"{R2}.winner", _DELETE),
        "round 2, winner: missing (a player's name, or null)",
        id="no-winner-entry",
    ),
    pytest.param(
        _set(f"{R2}.winner", ["Aama", "Buwa"]),
        "round 2, winner: one player's name (or null), got ['Aama', 'Buwa']",
        id="two-winners",
    ),
    pytest.param(
        _json_edit('"winner": "Aama"', '"winner": "Aama", "winner": "Buwa"'),
        "round 2, winner: given twice",
        id="winner-twice",
    ),
    pytest.param(
        _set(f"{R2}.winner", "Dai"),
        "round 2, player Dai, winner: 'Dai' has no entry in this round",
        id="winner-not-playing",
    ),
    pytest.param(_unseen_winner("normal"), UNSEEN_WINNER, id="unseen-winner"),
    pytest.param(_unseen_winner("dublee"), DUBLEE_UNSEEN, id="dublee-winner-unseen"),
    pytest.param(
        _set(f"{BUWA}.maal", -3),
        "round 2, player Buwa, maal: must not be negative, got -3",
        id="negative-maal",
    ),
    pytest.param(
        _set(f"{BUWA}.tunnel", -5),
        "round 2, player Buwa, tunnel: must not be negative, got -5",
        id="negative-tunnel",
    ),
    pytest.param(
        _set(f"{BUWA}.maal", 2.5),
        "round 2, player Buwa, maal: must be a whole number, got 2.5",
        id="fraction-maal",
    ),
    pytest.param(
        _set(f"{BUWA}.maal", "4"),
        "round 2, player Buwa, maal: must be a whole number, got '4'",
        id="text-maal",
    ),
    pytest.param(
        _set(f"{BUWA}.tunnel", None),
        "round 2, player Buwa, tunnel: must be a whole number, got None",
        id="null-tunnel",
    ),
    pytest.param(
        _set(f"{BUWA}.maal", True),
        "round 2, player Buwa, maal: must be a whole number, got True",
        id="true-maal",
    ),
    pytest.param(
        _set(f"{BUWA}.maal", 10_001),
        "round 2, player Buwa, maal: 10001 is more than 10,000 points; check the number",
        id="absurd-maal",
    ),
    pytest.param(
        _set(f"{BUWA}.tunnel", 99_999_999),
        "round 2, player Buwa, tunnel: 99999999 is more than 10,000 points; check the number",
        id="absurd-tunnel",
    ),
    pytest.param(
        _set(f"{BUWA}.status", _DELETE),
        "round 2, player Buwa, status: missing (seen or unseen)",
        id="no-status",
    ),
    pytest.param(
        _set(f"{BUWA}.status", "blind"),
        "round 2, player Buwa, status: must be seen or unseen, got 'blind'",
        id="bad-status",
    ),
    pytest.param(
        _set("stake_per_point", "two"),
        "stake_per_point: must be a decimal string such as \"2.50\", got 'two'",
        id="stake-text",
    ),
    pytest.param(
        _set("stake_per_point", 2.5),
        'stake_per_point: must be a decimal string such as "2.50", got 2.5',
        id="stake-float",
    ),
    pytest.param(
        _set("stake_per_point", "-1"),
        "stake_per_point: must be zero or more, got '-1'",
        id="stake-negative",
    ),
    pytest.param(
        _set("stake_per_point", "2.505"),
        "stake_per_point: at most 2 decimal places, got '2.505'",
        id="stake-places",
    ),
    pytest.param(
        _set("stake_per_point", "1e12"), "stake_per_point: too large, got '1e12'", id="stake-huge"
    ),
]


@pytest.mark.parametrize(("change", "message"), BAD)
def test_a_bad_night_is_refused_with_one_exact_line(change, message):
    """The table of bad files, at the parser the commands and the upload form read
    them with (files/test_commands.py holds each command to this message)."""
    content = change(copy.deepcopy(night()))
    with pytest.raises(SessionFileError) as error:
        loads(content if isinstance(content, str) else json.dumps(content))
    assert str(error.value) == message
    assert "\n" not in message


def test_the_engine_alone_reads_the_gregorian_date():
    """The pure engine knows one calendar; the app passes its reader (README)."""
    doc = demo_doc() | {"played_on": "2083-07-26"}
    assert loads(json.dumps(doc)).played_on.isoformat() == "2083-07-26"
