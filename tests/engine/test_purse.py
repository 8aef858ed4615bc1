"""The family purse's engine (scoring/engine/purse.py): balances and the fewest
payments across evenings, in Decimal money (hypothesis properties)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.purse import (
    MoneyTransfer,
    PaymentInput,
    apply_payments,
    balances,
    running_balances,
    transfers,
)
from tests.engine.test_properties import most_zero_sum_groups

FAST = settings(max_examples=200, deadline=None)
NAMES = ["Aama", "Bhai", "Didi", "Hajurba", "Kanchha", "Sanu"]
cents = st.integers(-50_000, 50_000).map(lambda c: Decimal(c) / 100)


@st.composite
def evenings(draw, members: list[str]) -> dict[str, Decimal]:
    """One evening's money: zero-sum over the members who played it."""
    players = draw(
        st.lists(st.sampled_from(members), min_size=2, max_size=len(members), unique=True)
    )
    amounts = [draw(cents) for _ in players[1:]]
    return dict(zip(players, [-sum(amounts, Decimal(0)), *amounts], strict=True))


@st.composite
def groups(draw, most: int = 6):
    members = NAMES[: draw(st.integers(2, most))]
    nights = draw(st.lists(evenings(members), max_size=6))
    payments = draw(
        st.lists(
            st.tuples(st.sampled_from(members), st.sampled_from(members), cents).filter(
                lambda p: p[0] != p[1] and p[2] > 0
            ),
            max_size=6,
        )
    )
    return members, nights, [PaymentInput(a, b, amount) for a, b, amount in payments]


@FAST
@given(groups())
def test_balances_sum_to_zero(group):
    members, nights, payments = group
    assert sum(balances(members, nights, payments).values()) == 0


@FAST
@given(groups())
def test_the_suggested_transfers_paid_clear_every_balance(group):
    members, nights, payments = group
    balance = balances(members, nights, payments)
    found = transfers(balance)
    paid = [PaymentInput(t.payer, t.payee, t.amount) for t in found]
    assert set(balances(members, nights, payments + paid).values()) <= {Decimal(0)}
    assert all(t.amount > 0 and t.payer != t.payee for t in found)
    assert all(balance[t.payer] < 0 < balance[t.payee] for t in found)


@FAST
@given(groups(most=6))
def test_the_transfer_count_is_the_proven_minimum(group):
    members, nights, payments = group
    balance = balances(members, nights, payments)
    nonzero = [int(amount * 100) for amount in balance.values() if amount]
    fewest = len(nonzero) - (most_zero_sum_groups(nonzero) if nonzero else 0)
    assert len(transfers(balance)) == fewest


@FAST
@given(groups(), st.randoms(use_true_random=False))
def test_order_of_evenings_and_payments_does_not_change_balances(group, random):
    members, nights, payments = group
    shuffled_nights, shuffled_payments = list(nights), list(payments)
    random.shuffle(shuffled_nights)
    random.shuffle(shuffled_payments)
    assert balances(members, shuffled_nights, shuffled_payments) == balances(
        members, nights, payments
    )


@FAST
@given(groups())
def test_money_stays_exact_decimal(group):
    members, nights, payments = group
    for amount in balances(members, nights, payments).values():
        assert isinstance(amount, Decimal)
        assert amount == amount.quantize(Decimal("0.01"))


def test_balances_worked_example():
    """Two evenings and a part payment: Bhai lost 60.00 and won 7.00, then paid
    Didi 20.00 of what he owed."""
    first = {"Aama": Decimal("-12.50"), "Bhai": Decimal("-60.00"), "Didi": Decimal("72.50")}
    second = {"Aama": Decimal("-25.00"), "Bhai": Decimal("7.00"), "Hajurba": Decimal("18.00")}
    paid = [PaymentInput("Bhai", "Didi", Decimal("20.00"))]
    balance = balances(["Aama", "Bhai", "Didi", "Hajurba"], [first, second], paid)
    assert balance == {
        "Aama": Decimal("-37.50"),
        "Bhai": Decimal("-33.00"),
        "Didi": Decimal("52.50"),
        "Hajurba": Decimal("18.00"),
    }
    assert transfers(balance) == [
        MoneyTransfer("Aama", "Didi", Decimal("37.50")),
        MoneyTransfer("Bhai", "Hajurba", Decimal("18.00")),
        MoneyTransfer("Bhai", "Didi", Decimal("15.00")),
    ]


def test_an_over_payment_turns_the_debt_around():
    balance = balances(
        ["Aama", "Bhai"],
        [{"Aama": Decimal("174.00"), "Bhai": Decimal("-174.00")}],
        [PaymentInput("Bhai", "Aama", Decimal("200.00"))],
    )
    assert balance == {"Aama": Decimal("-26.00"), "Bhai": Decimal("26.00")}
    assert transfers(balance) == [MoneyTransfer("Aama", "Bhai", Decimal("26.00"))]


def test_a_full_payment_clears_and_a_stranger_is_refused():
    balance = balances(
        ["Aama", "Bhai"],
        [{"Aama": Decimal("174.00"), "Bhai": Decimal("-174.00")}],
        [PaymentInput("Bhai", "Aama", Decimal("174.00"))],
    )
    assert balance == {"Aama": Decimal("0.00"), "Bhai": Decimal("0.00")}
    assert transfers(balance) == []
    with pytest.raises(ValueError, match="'Didi' is not a member"):
        balances(["Aama", "Bhai"], [], [PaymentInput("Didi", "Aama", Decimal(1))])


def test_apply_payments_and_running_balances():
    from datetime import date

    first = {"Aama": Decimal("10.00"), "Bhai": Decimal("-10.00")}
    second = {"Aama": Decimal("-4.00"), "Bhai": Decimal("4.00")}
    paid = [PaymentInput("Bhai", "Aama", Decimal("6.00"), date(2026, 10, 2))]
    points = running_balances(
        ["Aama", "Bhai"],
        [("Two", date(2026, 10, 3), second), ("One", date(2026, 10, 1), first)],
        paid,
    )
    assert [(p.label, p.balances) for p in points] == [
        ("One", {"Aama": Decimal("10.00"), "Bhai": Decimal("-10.00")}),
        ("Two", {"Aama": Decimal("0.00"), "Bhai": Decimal("0.00")}),
    ]
    assert apply_payments(
        {"Aama": Decimal(1), "Bhai": Decimal(-1)}, [MoneyTransfer("Bhai", "Aama", Decimal(1))]
    ) == {"Aama": Decimal(0), "Bhai": Decimal(0)}
