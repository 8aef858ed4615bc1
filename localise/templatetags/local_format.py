"""Numbers, money, dates and rule values in the page's language.

- `{{ amount|money }}`: two decimals, grouped the reader's way: 1,000,000.00 in
  English, 10,00,000.00 in Nepali (marriage_site/formats/ne).
  `{{ code|currency }}`: NPR as रु. in Nepali; `{{ amount|money_in:code }}` the
  two together ("रु. 174.00", "NPR 174.00"), as the purse's shared text and the
  picture cards write them (localise.numbers.money_with_currency). `{{ n|num }}`
  grouped for whole numbers. CSV and JSON never go through these: they write plain numbers.
- `{{ day|local_date }}`: "2 Oct 2026" in English; in Nepali the Bikram Sambat date
  with the Gregorian beside it, "16 असोज 2083 (2 अक्टोबर 2026)".
- `{{ value|rule_value }}`: a rule's value or a preset's name (count, void, pagat …)
  in the reader's language; yes/no for a switch; numbers grouped.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from functools import lru_cache

from django import template
from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.formats import number_format
from django.utils.translation import get_language, gettext

from ..bikram_sambat import bs_label
from ..numbers import currency_label, money_with_currency
from ..words import RULE_VALUES, rule_value_text

register = template.Library()


def _nepali() -> bool:
    return (get_language() or "").startswith("ne")


@register.filter
def money(value) -> str:
    """1000000 → "1,000,000.00" (en) / "10,00,000.00" (ne); "" stays ""."""
    if value in (None, ""):
        return ""
    try:
        amount = Decimal(str(value))
    except ArithmeticError:
        return str(value)
    # Two places, or more when the amount has them (a stake of 0.125 a point).
    places = max(2, -int(amount.normalize().as_tuple().exponent))
    return number_format(amount, decimal_pos=places, use_l10n=True, force_grouping=True)


@register.filter
def money_in(value, code) -> str:
    """An amount with its currency, the one way: "रु. 174.00" / "NPR 174.00"."""
    if value in (None, ""):
        return ""
    try:
        amount = Decimal(str(value))
    except ArithmeticError:
        return str(value)
    return money_with_currency(amount, str(code or ""))


@register.filter
def currency(code) -> str:
    """A session's currency as the reader writes it: "NPR" (en), "रु." (ne)."""
    return currency_label(str(code or ""), get_language())


@register.filter
def num(value) -> str:
    """A whole number grouped the reader's way: 100000 → "100,000" / "1,00,000"."""
    if value in (None, ""):
        return ""
    if isinstance(value, bool) or not isinstance(value, int | Decimal | float):
        try:
            value = int(value)
        except (TypeError, ValueError):
            return str(value)
    return number_format(value, use_l10n=True, force_grouping=True)


@register.filter
def signed(value) -> str:
    """A net with its sign, grouped: "+1,00,000", "-16", "0"."""
    text = num(value)
    if isinstance(value, int | Decimal | float) and value > 0:
        return f"+{text}"
    return text


@register.filter
def sign_class(value) -> str:
    """The class a number is coloured by: "pos", "neg", or "" for 0. Anything that
    does not compare with 0 gets "", as `{% if value > 0 %}` would find it false."""
    try:
        return "pos" if value > 0 else "neg" if value < 0 else ""
    except TypeError:
        return ""


@register.filter
def local_date(value, fmt: str = "j M Y") -> str:
    """The date in English, or Bikram Sambat (Gregorian) in Nepali."""
    if value in (None, ""):
        return ""
    if isinstance(value, datetime.datetime):
        value = timezone.localtime(value).date() if timezone.is_aware(value) else value.date()
    return _date_label(value, fmt, get_language() or "")


@lru_cache(maxsize=4096)
def _date_label(day: datetime.date, fmt: str, language: str) -> str:
    # A day's words never change in one language: a page listing a hundred
    # evenings (the round search's filter) formats each once per process.
    gregorian = date_format(day, fmt)
    if not language.startswith("ne"):
        return gregorian
    bikram = bs_label(day)
    return f"{bikram} ({gregorian})" if bikram else gregorian


@register.filter
def local_datetime(value, fmt: str = "H:i") -> str:
    """A moment: its date as local_date, then the time."""
    if value in (None, ""):
        return ""
    if timezone.is_aware(value):
        value = timezone.localtime(value)
    return f"{local_date(value.date())} {date_format(value, fmt)}"


@register.filter
def rule_value(value) -> str:
    """An option's value as a reader says it."""
    if value is True:
        return gettext("yes")
    if value is False:
        return gettext("no")
    if isinstance(value, int):
        return num(value)
    if isinstance(value, str) and value in RULE_VALUES:
        return rule_value_text(value)
    return "" if value is None else str(value)
