"""The family purse: a group's balances carried across evenings, and the fewest
payments that clear them.

Pure: Decimal money in, Decimal money out, never a float. A member's balance is
the money they won minus what they lost over the group's evenings (each
evening's `money`, under its own rules and stake), plus what they paid, minus
what they were paid: positive means the others owe them. The payments that
clear the balances are the evenings' own `settle_up`, run in paisa (hundredths),
so a group's list of who pays whom is proven the fewest exactly as an
evening's is.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from .ledger import settle_money

CENT = Decimal("0.01")
# A payment is money a family hands over: at most ten million (a crore), in paisa.
MAX_PAYMENT = Decimal("10000000")
PAYMENT_METHODS = ("cash", "esewa", "khalti", "bank", "other")


@dataclass(frozen=True, slots=True)
class PaymentInput:
    """A payment made: `payer` handed `amount` to `payee` (members' names)."""

    payer: str
    payee: str
    amount: Decimal
    paid_on: date | None = None
    method: str = "cash"
    note: str = ""


@dataclass(frozen=True, slots=True)
class MoneyTransfer:
    """One payment that settles the group: `payer` pays `payee` `amount`."""

    payer: str
    payee: str
    amount: Decimal


def balances(
    members: Iterable[str],
    evenings: Iterable[Mapping[str, Decimal]],
    payments: Iterable[PaymentInput],
) -> dict[str, Decimal]:
    """Each member's balance, in `members`' order: the evenings' money (member →
    amount; a member who sat an evening out is simply absent) plus what they
    paid, minus what they were paid. A name that is no member is a ValueError."""
    result = {name: Decimal("0.00") for name in members}
    for evening in evenings:
        for name, amount in evening.items():
            if name not in result:
                raise ValueError(f"{name!r} is not a member")
            result[name] += amount
    for payment in payments:
        for name in (payment.payer, payment.payee):
            if name not in result:
                raise ValueError(f"{name!r} is not a member")
        result[payment.payer] += payment.amount
        result[payment.payee] -= payment.amount
    return {name: amount.quantize(CENT) + 0 for name, amount in result.items()}


def transfers(balance: Mapping[str, Decimal]) -> list[MoneyTransfer]:
    """The fewest payments that clear `balance` (which must sum to zero): the
    evenings' own settle-up over money (`settle_money`), in paisa. Listed payer
    by payer, largest first."""
    return [MoneyTransfer(p.payer, p.payee, p.money) for p in settle_money(balance)]


def apply_payments(
    balance: Mapping[str, Decimal], paid: Iterable[MoneyTransfer | PaymentInput]
) -> dict[str, Decimal]:
    """`balance` after `paid` were made: each payer's goes up, each payee's down."""
    result = dict(balance)
    for payment in paid:
        result[payment.payer] += payment.amount
        result[payment.payee] -= payment.amount
    return result


@dataclass(frozen=True, slots=True)
class RunningPoint:
    """A member's balance after one step (an evening or a day's payments)."""

    label: str
    balances: Mapping[str, Decimal]


def running_balances(
    members: Sequence[str],
    evenings: Sequence[tuple[str, date, Mapping[str, Decimal]]],
    payments: Sequence[PaymentInput],
) -> list[RunningPoint]:
    """Each member's balance after every evening, in date order, with the
    payments made up to that evening's date counted in before it (payments
    after the last evening come last): the lines of the group's chart."""
    points: list[RunningPoint] = []
    current = {name: Decimal("0.00") for name in members}
    paid = sorted(payments, key=lambda p: p.paid_on or date.min)
    index = 0
    for label, played_on, evening in sorted(evenings, key=lambda e: e[1]):
        while index < len(paid) and (paid[index].paid_on or date.min) <= played_on:
            current = apply_payments(current, [paid[index]])
            index += 1
        for name, amount in evening.items():
            current[name] = current.get(name, Decimal("0.00")) + amount
        points.append(RunningPoint(label, dict(current)))
    if index < len(paid):
        current = apply_payments(current, paid[index:])
        points.append(RunningPoint("", dict(current)))
    return points
