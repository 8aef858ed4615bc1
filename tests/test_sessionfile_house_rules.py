"""The session file and RULES.md v2: `dublees`, next-winner dhoos in the export,
better after a rotation, copies in play across a round's tallies, and options
this version does not know."""

from __future__ import annotations

import json

import pytest

from scoring.engine import Entry, make_rules
from scoring.engine.sessionfile import (
    FORMAT,
    SessionFileError,
    dumps,
    export_document,
    fingerprint,
    loads,
    parse_document,
)


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
        "rule dhoos_payee: must be one of all, winner, next_winner, got 'dealer'"
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
