"""Session totals, money and settle-up (RULES.md section 6), with exact figures."""

from __future__ import annotations

from decimal import Decimal

import pytest

from scoring.engine import Transfer, at_stake, money, money_by_round, settle_up, totals
from scoring.engine.ledger import EXACT_SETTLE_LIMIT, _settle_group, _zero_sum_groups

NIGHT = [
    {"Aama": 3, "Buwa": -16, "Didi": 30, "Dai": -17},
    {"Aama": 45, "Buwa": -21, "Didi": -2, "Dai": -22},
    {"Aama": -6, "Buwa": 14, "Didi": -8},  # Dai sat this one out
]


def test_totals_are_sums_of_round_nets():
    assert totals(NIGHT) == {"Aama": 42, "Buwa": -23, "Didi": 20, "Dai": -39}
    # Players who have not played yet are listed with 0, in the order given.
    assert totals(NIGHT[:1], ["Sita", "Aama"]) == {
        "Sita": 0,
        "Aama": 3,
        "Buwa": -16,
        "Didi": 30,
        "Dai": -17,
    }
    assert totals([], ["Aama", "Buwa"]) == {"Aama": 0, "Buwa": 0}


def test_money_is_points_times_the_stake_in_decimal():
    amounts = money({"Aama": 42, "Buwa": -23, "Didi": 0}, Decimal("2.50"))
    assert amounts == {"Aama": Decimal("105.00"), "Buwa": Decimal("-57.50"), "Didi": Decimal("0")}
    assert [str(a) for a in amounts.values()] == ["105.00", "-57.50", "0.00"]
    assert all(isinstance(a, Decimal) for a in amounts.values())
    # 0.10 × 3 is exactly 0.30 (a float would give 0.30000000000000004).
    assert money({"A": 3}, Decimal("0.10")) == {"A": Decimal("0.30")}


def test_money_by_round_uses_each_rounds_stake():
    # Aama's evening: 30 and 12 points at 2.50, then -10 at 5.00 from round 3 on.
    rounds = [(30, Decimal("2.50")), (12, Decimal("2.50")), (-10, Decimal("5.00"))]
    assert str(money_by_round(rounds)) == "55.00"  # 75.00 + 30.00 - 50.00
    assert str(money_by_round(iter(rounds[2:]))) == "-50.00"
    assert money_by_round([]) == 0
    # One stake: the points added up at it, written as the product always was.
    assert str(at_stake(-23, Decimal("2.50"))) == "-57.50"
    assert str(at_stake(-3, Decimal("0.00"))) == "-0.00"
    assert str(at_stake(0, Decimal("0.10"))) == "0.00"


def test_transfer_in_money():
    assert Transfer("Buwa", "Aama", 23).money(Decimal("2.50")) == Decimal("57.50")


def test_settle_up_of_a_night():
    # The biggest debtor pays the biggest creditor first; listed payer by payer.
    assert settle_up({"Aama": 42, "Buwa": -23, "Didi": 20, "Dai": -39}) == [
        Transfer("Buwa", "Didi", 20),
        Transfer("Buwa", "Aama", 3),
        Transfer("Dai", "Aama", 39),
    ]


def test_settle_up_finds_pairs_that_cancel():
    balance = {"A": -8, "B": 6, "C": -2, "D": 3, "E": 4, "F": -3}
    # Biggest debtor to biggest creditor over everyone takes five payments; D and F
    # cancel on their own, so four are enough (six balances, two zero-sum groups).
    everyone = list(range(6))
    assert len(_settle_group(list(balance), list(balance.values()), everyone)) == 5
    assert settle_up(balance) == [
        Transfer("A", "B", 6),
        Transfer("A", "E", 2),
        Transfer("C", "E", 2),
        Transfer("F", "D", 3),
    ]


def test_settle_up_uses_one_payment_per_matching_pair():
    balance = {"A": 5, "B": -5, "C": 7, "D": -7, "E": 1, "F": -1}
    assert settle_up(balance) == [
        Transfer("B", "A", 5),
        Transfer("D", "C", 7),
        Transfer("F", "E", 1),
    ]


def test_settle_up_when_everyone_is_square():
    assert settle_up({}) == []
    assert settle_up({"A": 0, "B": 0}) == []


def test_settle_up_refuses_balances_that_do_not_sum_to_zero():
    with pytest.raises(ValueError, match=r"^balances must sum to zero, they sum to 1$"):
        settle_up({"A": 3, "B": -2})


def test_zero_sum_groups_are_the_most_there_are():
    groups = _zero_sum_groups([-8, 6, -2, 3, 4, -3])
    assert sorted(sorted(group) for group in groups) == [[0, 1, 2, 4], [3, 5]]
    assert _zero_sum_groups([]) == []
    assert sorted(sorted(g) for g in _zero_sum_groups([1, -1, 2, -2, 3, -3])) == [
        [0, 1],
        [2, 3],
        [4, 5],
    ]


def test_beyond_the_exact_limit_settle_up_still_clears_everything():
    count = EXACT_SETTLE_LIMIT + 2
    balance = {f"P{i:02}": (i + 1) * (1 if i % 2 else -1) for i in range(count)}
    balance["P17"] -= sum(balance.values())
    transfers = settle_up(balance)
    left = dict(balance)
    for t in transfers:
        left[t.payer] += t.points
        left[t.payee] -= t.points
    assert set(left.values()) == {0}
    assert len(transfers) <= count - 1
