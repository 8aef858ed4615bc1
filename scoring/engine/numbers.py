"""Numbers as typed: the one parser every form, hidden field and file uses.

Python's `int()` takes far more than a number a person types: "1_000", "٣"
(Arabic-Indic), "５" (fullwidth), and `str.isdigit()` says yes to "²", which
`int()` then refuses. Here a whole number is ASCII digits with an optional sign
and nothing else, bounded in length before it is converted; Devanagari digits
(०-९, what a Nepali keyboard types) only where the caller says so. A decimal
(a stake per point) is ASCII digits with at most one "." (and an exponent,
"1e3", as a file may write it).
"""

from __future__ import annotations

import re
from decimal import Decimal

DEVANAGARI_DIGITS = str.maketrans("०१२३४५६७८९", "0123456789")
MAX_DIGITS = 18  # far above any bound of the app; int() of a 5,000-digit text never runs

_WHOLE = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,4})?")


class NotANumber(ValueError):
    """Not a whole (or decimal) number as the app reads one."""


class TooManyDigits(NotANumber):
    """Digits enough for a number, but more of them than any bound allows."""


def parse_whole(text: str, *, devanagari: bool = False, max_digits: int = MAX_DIGITS) -> int:
    """`text` (stripped) as an int: ASCII digits, an optional sign; with
    `devanagari`, Devanagari digits too. NotANumber for anything else (TooManyDigits
    for more than `max_digits` digits)."""
    text = text.strip()
    if devanagari:
        text = text.translate(DEVANAGARI_DIGITS)
    if not _WHOLE.fullmatch(text):
        raise NotANumber(f"not a whole number: {text[:20]!r}")
    if len(text.lstrip("+-").lstrip("0")) > max_digits:
        raise TooManyDigits(f"more than {max_digits} digits")
    return int(text)


def parse_decimal(text: str, *, max_digits: int = MAX_DIGITS) -> Decimal:
    """`text` (stripped) as a Decimal: ASCII digits with at most one ".", an
    optional sign and exponent (never "_", "NaN", "Infinity" or another script's
    digits). NotANumber otherwise."""
    text = text.strip()
    if not _DECIMAL.fullmatch(text):
        raise NotANumber(f"not a decimal number: {text[:20]!r}")
    if sum(char.isdigit() for char in text) > max_digits:
        raise TooManyDigits(f"more than {max_digits} digits")
    return Decimal(text)
