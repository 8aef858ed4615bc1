"""The `pot-session/1` document (CALLBREAK.md §9): §9's example settled
exactly, every refusal code with its exact line, document order, and the
document read into values and written back."""

from __future__ import annotations

import copy
import re
from decimal import Decimal
from typing import Any

import pytest

from callbreak.engine import DocumentRefused
from pots.engine import (
    Hand,
    PotSession,
    read_session,
    refusals,
    session_document,
    session_money,
    settle_document,
    settle_session,
)
from tests.pots.sessions import EXAMPLE, PLAYERS, session

DELETE = object()


def changed(path: str, value: Any, document: dict[str, Any] = EXAMPLE) -> dict[str, Any]:
    """`document` with the value at a dotted path ("hands.2.took.Bikash", 1-based
    hand numbers) set, or deleted when `value` is DELETE."""
    copied = copy.deepcopy(document)
    *parents, last = path.split(".")
    here: Any = copied
    for part in parents:
        here = here[int(part) - 1] if isinstance(here, list) else here[part]
    if value is DELETE:
        del here[last]
    elif isinstance(here, list):
        here[int(last) - 1] = value
    else:
        here[last] = value
    return copied


def lines(document: object) -> list[str]:
    return [str(item) for item in refusals(document)]


def test_the_example_of_section_9():
    assert settle_document(EXAMPLE) == {
        "money": {"Asha": "-13.00", "Bikash": "21.00", "Chandra": "-8.00"},
        "per_hand": [
            {"Asha": "-10.00", "Bikash": "20.00", "Chandra": "-10.00"},
            {"Asha": "-3.00", "Bikash": "1.00", "Chandra": "-3.00"},
            {"Asha": "0.00", "Bikash": "0.00", "Chandra": "5.00"},
        ],
        "transfers": [
            {"from": "Asha", "to": "Bikash", "amount": "13.00"},
            {"from": "Chandra", "to": "Bikash", "amount": "8.00"},
        ],
    }


def test_a_split_pot_gives_the_odd_paisa_by_seat_order():
    # A pot of 10.01 (8.00 of it carried in) split three ways: 3.34 to Asha
    # and to Bikash, 3.33 to Chandra, though the winners are listed the other way.
    document = session(
        {
            "put_in": {"Asha": "3.00", "Bikash": "3.00", "Chandra": "2.00"},
            "took": {},
            "carry_out": "8.00",
        },
        {
            "put_in": {"Asha": "0.01", "Bikash": "1.00", "Chandra": "1.00"},
            "carry_in": "8.00",
            "winners": ["Chandra", "Bikash", "Asha"],
            "carry_out": "0.00",
        },
    )
    assert settle_document(document)["per_hand"][1] == {
        "Asha": "3.33",  # 3.34 less the 0.01 put in
        "Bikash": "2.34",
        "Chandra": "2.33",
    }
    assert settle_document(document)["money"] == {
        "Asha": "0.33",
        "Bikash": "-0.66",
        "Chandra": "0.33",
    }


def test_a_split_pot_can_carry_part_of_the_pot_on():
    document = session(
        {
            "put_in": {"Asha": "5.00", "Bikash": "5.00"},
            "winners": ["Asha", "Bikash"],
            "carry_out": "3.00",
        },
        {"put_in": {"Chandra": "1.00"}, "carry_in": "3.00", "winners": ["Chandra"]},
    )
    assert settle_document(document)["money"] == {
        "Asha": "-1.50",
        "Bikash": "-1.50",
        "Chandra": "3.00",
    }


# Each code, the smallest change of the example that earns it, and its exact line.
@pytest.mark.parametrize(
    ("document", "line"),
    [
        ([EXAMPLE], "P_DOC: a pot-session/1 document must be a JSON object, got […]"),
        (
            changed("format", "pot-session/2"),
            'P_DOC: format: must be "pot-session/1", got "pot-session/2"',
        ),
        (changed("format", DELETE), 'P_DOC: format: missing (must be "pot-session/1")'),
        (EXAMPLE | {"money": {}}, 'P_DOC: unknown key "money"'),
        (EXAMPLE | {"note": ["Tihar"]}, "P_DOC: note: must be text, got […]"),
        (changed("players", DELETE), "P_PLAYERS: players: missing"),
        (changed("players", ["Asha"]), "P_PLAYERS: players: must name 2 to 10 players, got 1"),
        (
            changed("players", [f"P{n}" for n in range(11)]),
            "P_PLAYERS: players: must name 2 to 10 players, got 11",
        ),
        (
            changed("players.2", "Asha "),
            'P_PLAYERS: players, player 2: "Asha " has spaces before or after it',
        ),
        (
            changed("players.2", "ASHA"),
            'P_PLAYERS: players, player 2: "ASHA" is the same name as player 1, "Asha" (names must '
            "differ in more than case)",
        ),
        (changed("hands", DELETE), "P_HANDS: hands: missing"),
        (changed("hands", []), "P_HANDS: hands: must be a list of at least one hand, got […]"),
        (
            changed("hands", {"1": {}}),
            "P_HANDS: hands: must be a list of at least one hand, got {…}",
        ),
        (
            changed("hands.1", "pot"),
            'P_HAND: hand 1: must be an object with put_in, and winners or took, got "pot"',
        ),
        (changed("hands.1.dealer", "Asha"), 'P_HAND: hand 1: unknown key "dealer"'),
        (changed("hands.1.put_in", DELETE), "P_HAND: hand 1, put_in: missing"),
        (
            changed("hands.1.put_in", {}),
            "P_HAND: hand 1, put_in: must be an object of what each player put in, got {…}",
        ),
        (
            changed("hands.1.took", {"Bikash": "50.00"}),
            "P_HAND: hand 1: has both winners and took: a hand has exactly one of them",
        ),
        (
            changed("hands.2.took", DELETE),
            "P_HAND: hand 2: has neither winners nor took: a hand has exactly one of them",
        ),
        (
            changed("hands.1.winners", []),
            "P_HAND: hand 1, winners: must be a list of at least one player, got […]",
        ),
        (
            changed("hands.1.winners", "Bikash"),
            'P_HAND: hand 1, winners: must be a list of at least one player, got "Bikash"',
        ),
        (
            changed("hands.1.winners", ["Bikash", "Bikash"]),
            'P_HAND: hand 1, winners: "Bikash" is listed twice',
        ),
        (
            changed("hands.1.winners", [2]),
            "P_HAND: hand 1, winners: must list players' names, got 2",
        ),
        (
            changed("hands.2.took", ["Bikash"]),
            "P_HAND: hand 2, took: must be an object of what each player took out, got […]",
        ),
        (changed("hands.1.game", 3), "P_HAND: hand 1, game: must be text, got 3"),
        (changed("hands.1.note", None), "P_HAND: hand 1, note: must be text, got null"),
        (
            changed(
                "hands.1.put_in",
                {"Asha": "0.00", "Bikash": "0"},
                changed("hands.1.winners", ["Bikash"]),
            ),
            "P_WINNER_NOT_IN: hand 1, winners: Bikash won but put nothing in this hand",
        ),
        (
            session({"put_in": {"Asha": "0.00"}, "took": {}}),
            "P_HAND: hand 1: the pot is empty: nothing was put in and nothing carried in",
        ),
        (
            changed("hands.1.put_in.Asha", "10.005"),
            'P_MONEY: hand 1, put_in, Asha: at most 2 decimal places, got "10.005"',
        ),
        (
            changed("hands.1.put_in.Asha", 10),
            'P_MONEY: hand 1, put_in, Asha: must be a money string such as "10.00", got 10',
        ),
        (
            changed("hands.1.put_in.Asha", "-1.00"),
            'P_MONEY: hand 1, put_in, Asha: must not be negative, got "-1.00"',
        ),
        (
            changed("hands.2.took.Bikash", "four"),
            'P_MONEY: hand 2, took, Bikash: must be a money string such as "10.00", got "four"',
        ),
        (
            changed("hands.3.carry_in", 5),
            'P_MONEY: hand 3, carry_in: must be a money string such as "10.00", got 5',
        ),
        (
            changed("hands.2.carry_out", "5.001"),
            'P_MONEY: hand 2, carry_out: at most 2 decimal places, got "5.001"',
        ),
        (
            changed("hands.1.put_in.Dipa", "1.00"),
            'P_UNKNOWN_PLAYER: hand 1, put_in: "Dipa" is not one of the players',
        ),
        (
            changed("hands.1.winners", ["bikash"]),
            'P_UNKNOWN_PLAYER: hand 1, winners: "bikash" is not one of the players (did you mean '
            '"Bikash"? names are exact)',
        ),
        (
            changed("hands.2.took.Dipa", "1.00"),
            'P_UNKNOWN_PLAYER: hand 2, took: "Dipa" is not one of the players',
        ),
        (
            changed("hands.2.took.Bikash", "3.00"),
            "P_NOT_ZERO_SUM: hand 2: took 3.00 and carry_out 5.00 make 8.00, not the pot of 9.00 "
            "(put in 9.00, carry_in 0.00)",
        ),
        (
            changed("hands.1.carry_in", "1.00"),
            "P_CARRY: hand 1, carry_in: must be 0.00: the first hand starts with an empty pot, "
            "got 1.00",
        ),
        (
            changed("hands.3.carry_in", "4.00", changed("hands.3.took.Chandra", "5.00")),
            "P_CARRY: hand 3, carry_in: 4.00 is not what hand 2 carried out (5.00)",
        ),
        (
            changed("hands.3.carry_out", "6.00", changed("hands.3.took.Chandra", "0.00")),
            "P_CARRY: hand 3, carry_out: 6.00 is left in the pot at the end: the last hand carries "
            "out 0.00",
        ),
        (
            changed("hands.1.carry_out", "50.00"),
            "P_CARRY: hand 1, carry_out: 50.00 leaves nothing for the winners: it must be below "
            "the pot of 50.00",
        ),
    ],
)
def test_each_refusal_and_its_line(document, line):
    assert lines(document)[0] == line
    with pytest.raises(DocumentRefused) as refused:
        settle_document(document)
    assert str(refused.value) == line


def test_every_problem_of_the_hands_in_document_order():
    document = copy.deepcopy(EXAMPLE)
    document["hands"][0]["put_in"]["Asha"] = "ten"
    document["hands"][1]["took"]["Bikash"] = "3.00"
    document["hands"][2]["carry_in"] = "4.00"
    document["hands"][2]["took"]["Chandra"] = "5.00"
    assert lines(document) == [
        'P_MONEY: hand 1, put_in, Asha: must be a money string such as "10.00", got "ten"',
        "P_NOT_ZERO_SUM: hand 2: took 3.00 and carry_out 5.00 make 8.00, not the pot of 9.00 "
        "(put in 9.00, carry_in 0.00)",
        "P_CARRY: hand 3, carry_in: 4.00 is not what hand 2 carried out (5.00)",
    ]


def test_players_problems_stop_the_hands_being_read():
    document = changed("players", ["Asha"], changed("hands", "none") | {"extra": 1})
    assert lines(document) == [
        'P_DOC: unknown key "extra"',
        "P_PLAYERS: players: must name 2 to 10 players, got 1",
    ]


def test_at_most_a_thousand_hands():
    hand = {"put_in": {"Asha": "1.00"}, "winners": ["Asha"]}
    assert refusals(session(*[hand] * 1_000)) == []
    assert lines(session(*[hand] * 1_001)) == [
        "P_HANDS: hands: at most 1,000 hands in a session, got 1,001"
    ]


def test_a_session_read_as_values_and_written_back():
    read = read_session(EXAMPLE)
    assert read.players == tuple(PLAYERS)
    assert read.hands[0] == Hand(put_in=(1000, 3000, 1000), winners=(1,), game="teen_patti")
    assert read.hands[1].took == (0, 400, 0) and read.hands[1].carry_out == 500
    assert session_document(read) == EXAMPLE
    assert read_session(session_document(read)) == read


def test_a_session_built_in_code_is_checked_before_it_is_settled():
    unbalanced = PotSession(
        players=("Asha", "Bikash"), hands=(Hand(put_in=(100, 100), took=(150, 0)),)
    )
    with pytest.raises(DocumentRefused) as refused:
        settle_session(unbalanced)
    assert refused.value.lines() == [
        "P_NOT_ZERO_SUM: hand 1: took 1.50 and carry_out 0.00 make 1.50, not the pot of 2.00 "
        "(put in 2.00, carry_in 0.00)"
    ]
    for both_or_neither, line in [
        (Hand(put_in=(100, 100), winners=(1,), took=(0, 200)), "has both winners and took"),
        (Hand(put_in=(100, 100)), "winners: must be a list of at least one player, got […]"),
        (Hand(put_in=(100, 100), winners=(2,)), '"seat 3" is not one of the players'),
    ]:
        with pytest.raises(DocumentRefused, match=re.escape(line)):
            settle_session(PotSession(players=("Asha", "Bikash"), hands=(both_or_neither,)))
    good = PotSession(players=("Asha", "Bikash"), hands=(Hand(put_in=(100, 100), winners=(1,)),))
    assert settle_session(good).money == (-100, 100)


def test_session_money_for_the_purse():
    assert session_money(EXAMPLE) == {
        "Asha": Decimal("-13.00"),
        "Bikash": Decimal("21.00"),
        "Chandra": Decimal("-8.00"),
    }
