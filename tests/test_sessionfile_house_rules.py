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
