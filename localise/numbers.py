"""Numbers in the reader's language, with the format looked up once per page.

Django's `number_format` asks for the language and three format settings on every
call; a 1,000-round ledger holds 10,000 numbers. `NumberFormat.current()` reads
the settings once, and its methods give exactly the text of the `num`, `signed`
and `money` filters (localise/templatetags/local_format.py), which use it too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.utils import numberformat
from django.utils.formats import get_format
from django.utils.translation import get_language


def _nepali(language: str | None) -> bool:
    return (language or "").startswith("ne")


# The currency as a Nepali family writes it; any other stays its code.
NEPALI_CURRENCY = {"NPR": "रु."}


def currency_label(code: str, language: str | None) -> str:
    """ "NPR" → "रु." in Nepali; every other code, and English, as it is: one
    currency display per language, on every page, picture and shared text."""
    if _nepali(language):
        return NEPALI_CURRENCY.get(code, code)
    return code


def money_with_currency(amount: Decimal, code: str, *, sign: bool = False) -> str:
    """The one way money is written beside its currency, in the active language:
    "NPR 1,74,000.00" → "रु. 1,74,000.00" in Nepali, "NPR 174,000.00" in English.
    The amount's absolute value unless `sign` (a balance: "-रु." reads oddly, so
    the sign goes before the number: "रु. -12.50")."""
    fmt = NumberFormat.current()
    shown = fmt.money(amount if sign else abs(amount))
    if sign and amount > 0:
        shown = "+" + shown
    return f"{currency_label(code, get_language())} {shown}"


@dataclass(frozen=True, slots=True)
class NumberFormat:
    decimal_sep: str
    thousand_sep: str
    # As Django's NUMBER_GROUPING: 3 (1,000,000), or a sequence such as Nepali
    # (3, 2, 0): the first group of three, then twos (10,00,000).
    grouping: int | tuple[int, ...]
    # The group sizes from the right, as Django's numberformat reads `grouping`
    # (a 0 repeats the size before it; the last size repeats): (3, 2) for Nepali.
    sizes: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        grouping = self.grouping if isinstance(self.grouping, tuple) else (self.grouping,)
        object.__setattr__(self, "sizes", tuple(size for size in grouping if size > 0) or (0,))

    @classmethod
    def current(cls) -> NumberFormat:
        """The format of the active language."""
        language = get_language()
        grouping = get_format("NUMBER_GROUPING", language, use_l10n=True)
        return cls(
            decimal_sep=get_format("DECIMAL_SEPARATOR", language, use_l10n=True),
            thousand_sep=get_format("THOUSAND_SEPARATOR", language, use_l10n=True),
            grouping=tuple(grouping) if isinstance(grouping, list | tuple) else grouping,
        )

    def num(self, value: int) -> str:
        """A whole number, grouped: 100000 → "100,000" (en) / "1,00,000" (ne)."""
        digits = str(abs(value))
        sizes = self.sizes
        if sizes[0] == 0 or len(digits) <= sizes[0]:
            return str(value)  # the common case: nothing to group
        parts = []
        end = len(digits)
        for index in range(len(digits)):
            size = sizes[min(index, len(sizes) - 1)]
            if end <= size:
                break
            parts.append(digits[end - size : end])
            end -= size
        parts.append(digits[:end])
        grouped = self.thousand_sep.join(reversed(parts))
        return "-" + grouped if value < 0 else grouped

    def signed(self, value: int) -> str:
        """A net with its sign: "+1,00,000", "-16", "0"."""
        return "+" + self.num(value) if value > 0 else self.num(value)

    def money(self, amount: Decimal) -> str:
        """Two decimals, or more when the amount has them (a stake of 0.125 a point),
        in both languages: a column of money lines up, and रु. 66.00 sits beside
        रु. 97.50 as a family's ledger writes it."""
        places = max(2, -int(amount.normalize().as_tuple().exponent))
        return numberformat.format(
            amount,
            self.decimal_sep,
            decimal_pos=places,
            grouping=self.grouping,
            thousand_sep=self.thousand_sep,
            force_grouping=True,
        )
