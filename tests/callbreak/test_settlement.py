"""Ranks, money and who pays whom (CALLBREAK.md §6 and §8): the worked
examples C01, C03 and C09, every settlement and money option with exact
figures, rounding to the paisa and the canonical transfers."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from callbreak.engine import (
    canonical_transfers,
    ranks_of,
    read_game,
    round_to_paisa,
    settle_document,
    settle_game,
)
from callbreak.engine.money import MoneyError, money_text, parse_money
from tests.callbreak.games import C01, C01_DEALS, C03, C09, deal, game


def money(document) -> dict[str, str]:
    return settle_document(document)["money"]


def transfers(document) -> list[tuple[str, str, str]]:
    return [(t["from"], t["to"], t["amount"]) for t in settle_document(document)["transfers"]]


# --- the worked examples (§6.6, §11) --------------------------------------------------------


def test_c01_the_result_object():
    assert settle_document(C01) == {
        "scores": {"Asha": 72, "Bikash": 71, "Chandra": 54, "Dipa": 135},
        "ranks": {"Asha": 2, "Bikash": 3, "Chandra": 4, "Dipa": 1},
        "money": {"Asha": "-10.00", "Bikash": "-20.00", "Chandra": "-30.00", "Dipa": "60.00"},
        "transfers": [
            {"from": "Chandra", "to": "Dipa", "amount": "30.00"},
            {"from": "Bikash", "to": "Dipa", "amount": "20.00"},
            {"from": "Asha", "to": "Dipa", "amount": "10.00"},
        ],
        "deal_scores": [
            {"Asha": 31, "Bikash": 40, "Chandra": -20, "Dipa": 31},
            {"Asha": 60, "Bikash": 13, "Chandra": -10, "Dipa": 21},
            {"Asha": -30, "Bikash": 18, "Chandra": 11, "Dipa": -10},
            {"Asha": -10, "Bikash": -10, "Chandra": 22, "Dipa": 72},
            {"Asha": 21, "Bikash": 10, "Chandra": 51, "Dipa": 21},
        ],
        "deals_played": 5,
    }


def test_c03_a_tie_for_first_and_for_third():
    result = settle_document(C03)
    assert result["scores"] == {"Asha": 71, "Bikash": 71, "Chandra": 50, "Dipa": 50}
    assert result["ranks"] == {"Asha": 1, "Bikash": 1, "Chandra": 3, "Dipa": 3}
    assert settle_game(read_game(C03)).units == tuple(map(Fraction, ("5/2", "5/2", "-5/2", "-5/2")))
    assert result["money"] == {
        "Asha": "25.00",
        "Bikash": "25.00",
        "Chandra": "-25.00",
        "Dipa": "-25.00",
    }
    assert transfers(C03) == [("Chandra", "Asha", "25.00"), ("Dipa", "Bikash", "25.00")]


def test_c09_the_odd_cent_goes_to_the_earlier_seat():
    settled = settle_game(read_game(C09))
    assert settled.scores == (60, 60, 20, 40)
    assert settled.exact == tuple(map(Fraction, ("0.125", "0.125", "-0.15", "-0.10")))
    assert money(C09) == {"Asha": "0.13", "Bikash": "0.12", "Chandra": "-0.15", "Dipa": "-0.10"}
    assert transfers(C09) == [
        ("Chandra", "Asha", "0.13"),
        ("Dipa", "Bikash", "0.10"),
        ("Chandra", "Bikash", "0.02"),
    ]


# --- ranks (§6.2) --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scores", "winner", "ranks"),
    [
        ((72, 71, 54, 135), None, (2, 3, 4, 1)),
        ((71, 71, 50, 50), None, (1, 1, 3, 3)),
        ((10, 10, 10, 10), None, (1, 1, 1, 1)),
        ((30, 20, 20, 20), None, (1, 2, 2, 2)),
        ((-5, -40, 0, -5), None, (2, 4, 1, 2)),  # §8.6: negative totals rank normally
        ((0, 31, 30, 30), 0, (1, 2, 3, 3)),  # §6.2: the thirteen winner first, whatever the totals
        ((0, 31, 31, 31), 0, (1, 2, 2, 2)),
        ((140, 150, 10, 10), 0, (1, 2, 3, 3)),
    ],
)
def test_competition_ranks(scores, winner, ranks):
    assert ranks_of(scores, winner) == ranks


# --- the settlements (§6.3) ----------------------------------------------------------------

# Three deals of C01: totals Asha 61, Bikash 71, Chandra -19, Dipa 42 (Chandra below 0).
NEGATIVE = C01_DEALS[:3]
# Chandra's total is exactly 0 (§8.5): 62, 62, 63, 0.
ZERO = [deal([3, 3, 3, 1], [4, 4, 4, 1]), deal([3, 3, 3, 1], [4, 4, 5, 0])]
# Asha bids 13 and takes 13 in the second deal, but ends with the lowest total:
# 0, 31, 30, 30.
THIRTEEN = [deal([13, 4, 4, 4], [0, 5, 4, 4]), deal([13, 1, 1, 1], [13, 0, 0, 0])]


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        # by_rank, the default 6/-1/-2/-3.
        (game(*NEGATIVE), ("-10.00", "60.00", "-30.00", "-20.00")),
        # negative_pays_double: Chandra (-1.9) pays 6 stakes, the winner takes 9.
        (game(*NEGATIVE, negative_pays_double=True), ("-10.00", "90.00", "-60.00", "-20.00")),
        # §8.5: a total of exactly 0 is not below 0.
        (game(*ZERO, negative_pays_double=True), ("-15.00", "-15.00", "60.00", "-30.00")),
        # big_win_tenths: Dipa's 13.5 reaches 10.0, every payment doubles.
        (game(*C01_DEALS, big_win_tenths=100), ("-20.00", "-40.00", "-60.00", "120.00")),
        (game(*C01_DEALS, big_win_tenths=135), ("-20.00", "-40.00", "-60.00", "120.00")),
        (game(*C01_DEALS, big_win_tenths=136), ("-10.00", "-20.00", "-30.00", "60.00")),
        # Both: Bikash's 7.1 reaches 7.0; Chandra pays 3 × 2 × 2.
        (
            game(*NEGATIVE, negative_pays_double=True, big_win_tenths=70),
            ("-20.00", "180.00", "-120.00", "-40.00"),
        ),
        # Multipliers of the house.
        (game(*C01_DEALS, rank_multipliers=[3, 0, -1, -2]), ("0.00", "-10.00", "-20.00", "30.00")),
        (game(*C01_DEALS, rank_multipliers=[0, 0, 0, 0]), ("0.00", "0.00", "0.00", "0.00")),
        # Two receivers share what is paid by their multipliers (4 : 2), after doubling.
        (
            game(*NEGATIVE, rank_multipliers=[4, 2, -3, -3], negative_pays_double=True),
            ("30.00", "60.00", "-60.00", "-30.00"),
        ),
        # winner_takes: each of the others pays one stake.
        (game(*C01_DEALS, settlement="winner_takes"), ("-10.00", "-10.00", "-10.00", "30.00")),
        # §8.1: tied winners split the losers' payments equally.
        (
            C03 | {"rules": {"deals_per_game": 2, "settlement": "winner_takes"}},
            ("10.00", "10.00", "-10.00", "-10.00"),
        ),
        (
            game(*NEGATIVE, settlement="winner_takes", negative_pays_double=True),
            ("-10.00", "40.00", "-20.00", "-10.00"),
        ),
        (
            game(*C01_DEALS, settlement="winner_takes", big_win_tenths=135),
            ("-20.00", "-20.00", "-20.00", "60.00"),
        ),
        # difference: every pair settles its points; C01 sums to 33.2 points.
        (game(*C01_DEALS, settlement="difference"), ("-44.00", "-48.00", "-116.00", "208.00")),
        # At 0.01 a point the exact amounts fall between paisa: -0.044, -0.048,
        # -0.116, 0.208 round to -0.04, -0.05, -0.12, 0.21.
        (
            game(*C01_DEALS, settlement="difference", stake="0.01"),
            ("-0.04", "-0.05", "-0.12", "0.21"),
        ),
        # none: no money.
        (game(*C01_DEALS, settlement="none", stake=None), ("0.00", "0.00", "0.00", "0.00")),
        (game(*C01_DEALS, settlement="none"), ("0.00", "0.00", "0.00", "0.00")),
        # §6.2 and §8.2: the thirteen winner is first, then 2nd, and 3rd shared.
        (
            game(*THIRTEEN, thirteen_wins_game=True, deals_per_game=5),
            ("60.00", "-10.00", "-25.00", "-25.00"),
        ),
        # §8.7: big win looks at the first place's total (0), not the highest.
        (
            game(*THIRTEEN, thirteen_wins_game=True, deals_per_game=5, big_win_tenths=20),
            ("60.00", "-10.00", "-25.00", "-25.00"),
        ),
        # difference ignores ranks: the thirteen winner with 0 points pays.
        (
            game(*THIRTEEN, thirteen_wins_game=True, deals_per_game=5, settlement="difference"),
            ("-91.00", "33.00", "29.00", "29.00"),
        ),
    ],
)
def test_settlements(document, expected):
    assert tuple(money(document).values()) == expected


def test_a_four_way_tie_settles_to_zeros_with_no_transfers():
    # Each takes one overtrick in turn: 12.1 each.
    rotating = [deal([3, 3, 3, 3], [4 if seat == n else 3 for seat in range(4)]) for n in range(4)]
    document = game(*rotating)
    result = settle_document(document)
    assert result["scores"] == dict.fromkeys(result["scores"], 121)
    assert result["ranks"] == dict.fromkeys(result["ranks"], 1)
    assert result["money"] == dict.fromkeys(result["money"], "0.00")
    assert result["transfers"] == []


def test_a_tie_for_second_shares_the_odd_paisa_by_seat():
    # Dipa 1st; Bikash and Chandra tie for 2nd and pay 1.5 stakes of 0.05 each
    # (0.075); Asha is 4th. The paisa Bikash is spared goes to the earlier seat.
    document = game(deal([4, 3, 3, 3], [1, 3, 3, 6]), stake="0.05")
    result = settle_document(document)
    assert result["scores"] == {"Asha": -40, "Bikash": 30, "Chandra": 30, "Dipa": 33}
    assert result["money"] == {
        "Asha": "-0.15",
        "Bikash": "-0.07",
        "Chandra": "-0.08",
        "Dipa": "0.30",
    }


def test_three_tied_first_share_one_stake_each():
    document = game(deal([3, 3, 3, 4], [4, 4, 4, 1]), stake="0.05")
    assert money(document) == {"Asha": "0.05", "Bikash": "0.05", "Chandra": "0.05", "Dipa": "-0.15"}


def test_a_large_stake_is_exact():
    document = game(*C01_DEALS, settlement="difference", stake="9999999.99")
    assert money(document) == {
        "Asha": "-43999999.96",
        "Bikash": "-47999999.95",
        "Chandra": "-115999999.88",
        "Dipa": "207999999.79",
    }


# --- rounding to the paisa (§6.4) ----------------------------------------------------------


def test_round_to_paisa_largest_remainder():
    assert round_to_paisa([Fraction(1, 8), Fraction(1, 8), Fraction(-3, 20), Fraction(-1, 10)]) == [
        13,
        12,
        -15,
        -10,
    ]
    # Three paisa to hand out: the largest remainders first, ties by seat.
    thirds = [Fraction(1, 300), Fraction(1, 300), Fraction(1, 300), Fraction(-1, 100)]
    assert round_to_paisa(thirds) == [1, 0, 0, -1]
    quarters = [Fraction(-3, 400)] * 3 + [Fraction(9, 400)]
    assert round_to_paisa(quarters) == [0, -1, -1, 2]  # four equal remainders
    assert round_to_paisa([Fraction(0)] * 4) == [0, 0, 0, 0]
    with pytest.raises(ValueError, match=r"sum to zero"):
        round_to_paisa([Fraction(1, 100), Fraction(0)])


@pytest.mark.parametrize(
    ("paisa", "text"),
    [(0, "0.00"), (5, "0.05"), (-5, "-0.05"), (-1250, "-12.50"), (3750, "37.50"), (100, "1.00")],
)
def test_money_is_written_with_two_decimals_and_never_minus_zero(paisa, text):
    assert money_text(paisa) == text


@pytest.mark.parametrize(
    ("text", "amount"),
    [("10.00", "10.00"), ("0.25", "0.25"), ("5", "5.00"), ("5.5", "5.50"), ("007", "7.00")],
)
def test_money_strings(text, amount):
    assert parse_money(text) == Decimal(amount)
    assert str(parse_money(text)) == amount


def test_zero_money_where_allowed():
    assert parse_money("0", zero=True) == 0
    with pytest.raises(MoneyError, match=r'must not be negative, got "-1"'):
        parse_money("-1", zero=True)
    with pytest.raises(
        MoneyError, match=r'must be a money string such as "10.00", got "12345678901234"'
    ):
        parse_money("12345678901234")


# --- who pays whom (§6.5) ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("nets", "expected"),
    [
        (
            {"A": -1000, "B": -2000, "C": -3000, "D": 6000},
            [("C", "D", 3000), ("B", "D", 2000), ("A", "D", 1000)],
        ),
        ({"A": 2500, "B": 2500, "C": -2500, "D": -2500}, [("C", "A", 2500), ("D", "B", 2500)]),
        # Opposite pairs first, each the first pair in seat order.
        ({"A": 5, "B": -5, "C": 10, "D": -10}, [("B", "A", 5), ("D", "C", 10)]),
        ({"A": -10, "B": -10, "C": 10, "D": 10}, [("A", "C", 10), ("B", "D", 10)]),
        # Then the largest debtor pays the largest creditor.
        ({"A": 30, "B": -10, "C": -20, "D": 0}, [("C", "A", 20), ("B", "A", 10)]),
        ({"A": 50, "B": 30, "C": -45, "D": -35}, [("C", "A", 45), ("D", "B", 30), ("D", "A", 5)]),
        # Equal debts and credits: the earlier seat first.
        ({"A": -20, "B": -20, "C": 25, "D": 15}, [("A", "C", 20), ("B", "D", 15), ("B", "C", 5)]),
        # Five nets, a pair and a three: 3 transfers.
        ({"A": 3, "B": -3, "C": 4, "D": 5, "E": -9}, [("B", "A", 3), ("E", "D", 5), ("E", "C", 4)]),
        ({"A": 0, "B": 0}, []),
    ],
)
def test_canonical_transfers(nets, expected):
    assert [(t.payer, t.payee, t.amount) for t in canonical_transfers(nets)] == expected


def test_transfers_need_nets_that_sum_to_zero():
    with pytest.raises(ValueError, match=r"sum to 1"):
        canonical_transfers({"A": 1, "B": 0})
