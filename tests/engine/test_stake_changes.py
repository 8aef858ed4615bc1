"""A stake that changes mid-evening (issue 30, point 3): each round's stake in
force, each player's money round by round, and the fewest payments over money
once the stakes differ, exact to the paisa and zero-sum (hypothesis)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import (
    Payment,
    money,
    money_totals,
    settle_evening,
    settle_money,
    settle_up,
    stakes_in_force,
    totals,
)
from scoring.engine.ledger import paisa

FAST = settings(max_examples=200, deadline=None)
NAMES = ["Aama", "Buwa", "Didi", "Dai", "Bhai", "Kanchha"]
STAKES = st.decimals(min_value=Decimal("0.01"), max_value=Decimal("500"), places=2)


def D(text: str) -> Decimal:
    return Decimal(text)


def test_a_stake_holds_from_its_round_on():
    assert stakes_in_force(D("1.00"), [None, None, None, D("2.00"), None, D("5.00"), None]) == [
        D("1.00"),
        D("1.00"),
        D("1.00"),
        D("2.00"),
        D("2.00"),
        D("5.00"),
        D("5.00"),
    ]
    assert stakes_in_force(D("1.00"), []) == []


def test_each_round_is_money_at_its_own_stake():
    nets = [
        {"Aama": 30, "Buwa": -30},
        {"Aama": -10, "Buwa": 10},
        {"Aama": 4, "Buwa": -4},
    ]
    stakes = [D("1.00"), D("2.00"), D("2.50")]
    # Aama: 30 × 1 − 10 × 2 + 4 × 2.50 = 20; Buwa the other side.
    assert money_totals(nets, stakes, ["Aama", "Buwa", "Didi"], stake=D("1.00")) == {
        "Aama": D("20.00"),
        "Buwa": D("-20.00"),
        "Didi": D("0.00"),
    }
    # Her points (24) at any one stake would be another figure.
    assert totals(nets)["Aama"] == 24


def test_fewer_points_may_be_more_money():
    """Buwa wins more points early at 1.00, Didi fewer late at 10.00: Didi is
    owed the most, and settle-up follows the money, not the points."""
    nets = [{"Buwa": 50, "Didi": -20, "Aama": -30}, {"Buwa": -10, "Didi": 20, "Aama": -10}]
    stakes = [D("1.00"), D("10.00")]
    points = totals(nets)
    cash = money_totals(nets, stakes, stake=D("1.00"))
    assert points == {"Buwa": 40, "Didi": 0, "Aama": -40}
    assert cash == {"Buwa": D("-50.00"), "Didi": D("180.00"), "Aama": D("-130.00")}
    assert settle_evening(points, cash, stakes) == [
        Payment("Aama", "Didi", None, D("130.00")),
        Payment("Buwa", "Didi", None, D("50.00")),
    ]


def test_one_stake_settles_in_points_as_before():
    nets = [{"Aama": 12, "Buwa": -5, "Didi": -7}]
    points = totals(nets)
    cash = money_totals(nets, [D("2.50")], stake=D("2.50"))
    assert cash == money(points, D("2.50"))
    assert settle_evening(points, cash, [D("2.50")]) == [
        Payment(t.payer, t.payee, t.points, t.money(D("2.50"))) for t in settle_up(points)
    ]
    assert settle_evening(points, cash, [D("2.50")]) == [
        Payment("Buwa", "Aama", 5, D("12.50")),
        Payment("Didi", "Aama", 7, D("17.50")),
    ]


def test_money_finer_than_a_paisa_is_refused():
    with pytest.raises(ValueError, match="hundredths"):
        paisa(D("0.125"))
    with pytest.raises(ValueError, match="sum to zero"):
        settle_money({"Aama": D("1.00"), "Buwa": D("-0.99")})


@st.composite
def evenings(draw: st.DrawFn) -> tuple[list[dict[str, int]], list[Decimal]]:
    players = NAMES[: draw(st.integers(2, len(NAMES)))]
    count = draw(st.integers(0, 12))
    nets = []
    for _ in range(count):
        seated = draw(st.lists(st.sampled_from(players), min_size=2, unique=True))
        values = [draw(st.integers(-500, 500)) for _ in seated[1:]]
        nets.append({**dict(zip(seated[1:], values, strict=True)), seated[0]: -sum(values)})
    changes = draw(st.lists(st.none() | STAKES, min_size=count, max_size=count))
    return nets, stakes_in_force(draw(STAKES), changes)


@FAST
@given(evenings())
def test_settle_up_over_money_clears_every_balance_to_the_paisa(evening):
    nets, stakes = evening
    points = totals(nets)
    cash = money_totals(nets, stakes, stake=Decimal("1.00"))
    # Zero-sum in money, as each round is in points.
    assert sum(cash.values(), Decimal(0)) == 0
    payments = settle_evening(points, cash, stakes)
    left = dict(cash)
    for p in payments:
        assert p.money > 0 and p.payer != p.payee
        assert p.money == p.money.quantize(Decimal("0.01"))
        left[p.payer] += p.money
        left[p.payee] -= p.money
    assert all(amount == 0 for amount in left.values())
    # The fewest: never more than one fewer than those owing or owed.
    owing = sum(1 for amount in cash.values() if amount)
    assert len(payments) <= max(0, owing - 1)
    if len(set(stakes)) == 1:
        # One stake: the payments in points, as before, each with its money.
        assert [(p.payer, p.payee, p.points) for p in payments] == [
            (t.payer, t.payee, t.points) for t in settle_up(points)
        ]


@FAST
@given(evenings())
def test_money_is_the_sum_of_each_rounds_points_at_its_stake(evening):
    nets, stakes = evening
    cash = money_totals(nets, stakes, stake=Decimal("1.00"))
    for player, amount in cash.items():
        assert amount == sum(
            (Decimal(r.get(player, 0)) * s for r, s in zip(nets, stakes, strict=True)),
            Decimal(0),
        )
