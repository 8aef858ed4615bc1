"""Money of a game: money strings read exactly, exact amounts rounded to the
paisa so they still sum to zero, and the canonical fewest transfers
(CALLBREAK.md §2, §6.4, §6.5). Pot hands use the same (§9).

Never a float: money is read as a `Decimal`, worked as a `Fraction`, and
rounded once, to whole paisa (`int` cents).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from scoring.engine.messages import Message, gettext_noop, message
from scoring.engine.numbers import NotANumber, parse_decimal
from scoring.engine.purse import MAX_PAYMENT

# A money string: ASCII digits, then at most one "." and its decimals ("10.00",
# "0.25", "5"). No sign, exponent, space or other script's digits: a JSON
# number (10.5) is not one either, since a float cannot say 0.10 exactly.
MONEY_TEXT = re.compile(r"(-?)([0-9]+)(?:\.([0-9]+))?")
MONEY_PLACES = 2
# At most a crore, as a payment in the family purse (scoring/engine/purse.py).
MAX_MONEY = MAX_PAYMENT
MAX_MONEY_DIGITS = 12  # "10000000.00": enough for MAX_MONEY, bounded before it is read


class MoneyError(ValueError):
    """Not a money string (or not one allowed here); `msg` says why."""

    def __init__(self, msg: Message) -> None:
        super().__init__(str(msg))
        self.msg = msg


def parse_money(value: object, *, zero: bool = False) -> Decimal:
    """A money string as an exact Decimal with two places: more than 0, or 0 or
    more with `zero`; at most MAX_MONEY. MoneyError saying what is wrong."""
    not_money = message(
        gettext_noop('must be a money string such as "10.00", got %(value)s'), value=shown(value)
    )
    # Bounded before the pattern reads it: a pasted megabyte is not looked at.
    if not isinstance(value, str) or len(value) > MAX_MONEY_DIGITS + 2:
        raise MoneyError(not_money)
    match = MONEY_TEXT.fullmatch(value)
    if match is None:
        raise MoneyError(not_money)
    sign, _whole, decimals = match.groups()
    if sign:
        raise MoneyError(
            message(
                gettext_noop("must not be negative, got %(value)s")
                if zero
                else gettext_noop("must be more than 0, got %(value)s"),
                value=shown(value),
            )
        )
    if decimals is not None and len(decimals) > MONEY_PLACES:
        raise MoneyError(
            message(
                gettext_noop("at most %(places)s decimal places, got %(value)s"),
                places=MONEY_PLACES,
                value=shown(value),
            )
        )
    try:  # the project's one reader of decimals: ASCII only, its digits bounded
        amount = parse_decimal(value, max_digits=MAX_MONEY_DIGITS)
    except NotANumber:
        raise MoneyError(not_money) from None
    if not zero and not amount:
        raise MoneyError(
            message(gettext_noop("must be more than 0, got %(value)s"), value=shown(value))
        )
    if amount > MAX_MONEY:
        raise MoneyError(
            message(
                gettext_noop("must be at most %(max)s, got %(value)s"),
                max=f"{MAX_MONEY:,}",
                value=shown(value),
            )
        )
    return amount.quantize(Decimal(1).scaleb(-MONEY_PLACES))


def shown(value: object) -> str:
    """A value of a document as a message quotes it: JSON's own spelling, at
    most 40 characters."""
    if value is None:
        text = "null"
    elif isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, str):
        text = '"' + value + '"'
    elif isinstance(value, (list, tuple)):
        text = "[…]"
    elif isinstance(value, dict):
        text = "{…}"
    else:
        text = str(value)
    return text if len(text) <= 40 else text[:39] + "…"


def cents(amount: Decimal) -> int:
    """A Decimal of whole paisa as an int of paisa; ValueError if it is not whole."""
    scaled = amount.scaleb(MONEY_PLACES)
    if scaled != scaled.to_integral_value():
        raise ValueError(f"{amount} is not a whole number of paisa")
    return int(scaled)


def money_text(amount: int) -> str:
    """Paisa as the result writes money: two decimals, a minus sign for a loss
    and none for a gain, never "-0.00"."""
    sign = "-" if amount < 0 else ""
    whole, part = divmod(abs(amount), 100)
    return f"{sign}{whole}.{part:02d}"


def money_decimal(amount: int) -> Decimal:
    """Paisa as a Decimal with two places (the purse's money)."""
    return Decimal(amount).scaleb(-MONEY_PLACES)


def quotient(dividend: Fraction, divisor: Fraction) -> Fraction:
    """dividend ÷ divisor, exactly. Written without `/`, which on two ints gives
    a float: the engines have no `/` at all (tests/callbreak/test_exact.py)."""
    return Fraction(
        dividend.numerator * divisor.denominator, dividend.denominator * divisor.numerator
    )


def round_to_paisa(exact: Sequence[Fraction]) -> list[int]:
    """Exact amounts that sum to zero, in seat order, as whole paisa that still
    sum to zero (CALLBREAK.md §6.4, the largest remainder): each is floored,
    then the missing paisa go one each to the largest remainders, equal
    remainders to the earlier seat."""
    if sum(exact, Fraction(0)) != 0:
        raise ValueError("the amounts must sum to zero")
    scaled = [amount * 100 for amount in exact]
    floors = [value.numerator // value.denominator for value in scaled]
    missing = -sum(floors)
    by_remainder = sorted(range(len(exact)), key=lambda seat: (floors[seat] - scaled[seat], seat))
    for seat in by_remainder[:missing]:
        floors[seat] += 1
    return floors


@dataclass(frozen=True, slots=True)
class Transfer:
    """One payment that settles a game: `payer` pays `payee` `amount` paisa."""

    payer: str
    payee: str
    amount: int

    def document(self) -> dict[str, str]:
        return {"from": self.payer, "to": self.payee, "amount": money_text(self.amount)}


def canonical_transfers(nets: Mapping[str, int]) -> list[Transfer]:
    """Who pays whom, from each player's net in paisa (in seat order; they must
    sum to zero), by CALLBREAK.md §6.5's canonical algorithm: first every pair
    whose nets cancel (the first such pair in seat order, again and again),
    then the largest debtor pays the largest creditor, earlier seat first on a
    tie. For up to five non-zero nets this is the fewest transfers."""
    if sum(nets.values()) != 0:
        raise ValueError(f"nets must sum to zero, they sum to {sum(nets.values())}")
    names = list(nets)
    left = [nets[name] for name in names]
    found: list[Transfer] = []
    while True:
        pair = _first_opposite_pair(left)
        if pair is None:
            break
        low, high = pair
        payer, payee = (low, high) if left[low] < 0 else (high, low)
        found.append(Transfer(names[payer], names[payee], left[payee]))
        left[low] = left[high] = 0
    while any(left):
        payer = min(range(len(left)), key=lambda seat: (left[seat], seat))
        payee = min(range(len(left)), key=lambda seat: (-left[seat], seat))
        amount = min(-left[payer], left[payee])
        found.append(Transfer(names[payer], names[payee], amount))
        left[payer] += amount
        left[payee] -= amount
    return found


def _first_opposite_pair(left: Sequence[int]) -> tuple[int, int] | None:
    """The first pair of seats (i, j), i before j, whose non-zero nets cancel."""
    for i, first in enumerate(left):
        if not first:
            continue
        for j in range(i + 1, len(left)):
            if left[j] and first + left[j] == 0:
                return i, j
    return None
