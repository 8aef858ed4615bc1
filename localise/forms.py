"""A date field that takes a date in either calendar a Nepali family writes.

A card evening at Dashain is dated "2083-06-16" (Bikram Sambat) as often as
"2026-10-02": the field reads both (localise.bikram_sambat.read_typed: Devanagari
digits, "BS"/"वि.सं." or "AD"/"ई.सं." after the date, and an unmarked year as far
ahead as 2083 is Bikram Sambat) and keeps the Gregorian date. A plain text input,
not type=date: a browser's date picker refuses a Bikram Sambat month's 32nd day.
In Nepali the date is shown in Bikram Sambat, in English in Gregorian.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

from django import forms
from django.forms import BoundField
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from scoring.engine.numbers import NotANumber, parse_decimal, parse_whole

from .bikram_sambat import BikramSambatError, bs_label, from_bs, read_typed, to_bs
from .templatetags.local_format import local_date

# The Bikram Sambat marker shown after a date in Nepali (read_typed reads it back).
BS_MARK = "वि.सं."


def typed_date(day: datetime.date) -> str:
    """A date as the field shows it: "2083-06-16 वि.सं." in Nepali, "2026-10-02" in English."""
    if (get_language() or "").startswith("ne"):
        try:
            year, month, dom = to_bs(day)
        except BikramSambatError:
            return day.isoformat()
        return f"{year}-{month:02d}-{dom:02d} {BS_MARK}"
    return day.isoformat()


def both_calendars(day: datetime.date) -> str:
    """ "16 असोज 2083 (2 अक्टोबर 2026)" in Nepali, "2 Oct 2026 (16 Ashwin 2083 BS)" in English."""
    shown = local_date(day)
    if (get_language() or "").startswith("ne"):
        return shown
    bikram = bs_label(day, nepali=False)
    return f"{shown} ({bikram} BS)" if bikram else shown


class EitherCalendarDateInput(forms.TextInput):
    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__({"autocomplete": "off", **(attrs or {})})

    def format_value(self, value: Any) -> str | None:
        if isinstance(value, datetime.date):
            return typed_date(value)
        return super().format_value(value)


class EitherCalendarBoundField(BoundField):
    """Its help ends with the date in both calendars, so a reader sees which day a
    typed 2083-06-16 became (or the day the form starts on). Made when the page
    asks for the field, so an initial date a view sets after the form is seen."""

    def __init__(self, form: forms.BaseForm, field: forms.Field, name: str) -> None:
        super().__init__(form, field, name)
        try:
            day = field.to_python(self.value())
        except forms.ValidationError:
            day = None
        if day is not None and self.help_text:
            said = gettext("This is %(date)s.") % {"date": both_calendars(day)}
            self.help_text = f"{self.help_text} {said}"


class EitherCalendarDateField(forms.DateField):
    """A Gregorian or Bikram Sambat date, cleaned to the Gregorian date."""

    bound_field_class = EitherCalendarBoundField

    widget = EitherCalendarDateInput
    default_error_messages = {
        "invalid": _(
            "Enter a valid date. Write it year-month-day, in Bikram Sambat (2083-06-16) "
            "or Gregorian (2026-10-02)."
        ),
        "no_such_bs": _("Enter a valid date. Bikram Sambat has no %(date)s."),
        "no_such_ad": _("Enter a valid date. The Gregorian calendar has no %(date)s."),
    }

    def to_python(self, value: Any) -> datetime.date | None:
        if value in self.empty_values:
            return None
        if isinstance(value, datetime.datetime):
            return value.date()
        if isinstance(value, datetime.date):
            return value
        try:
            year, month, day, bikram = read_typed(str(value))
        except BikramSambatError:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid") from None
        try:
            return from_bs(year, month, day) if bikram else datetime.date(year, month, day)
        except (BikramSambatError, ValueError):
            code = "no_such_bs" if bikram else "no_such_ad"
            written = f"{year}-{month:02d}-{day:02d}"
            raise forms.ValidationError(
                self.error_messages[code], code=code, params={"date": written}
            ) from None


class WholeNumberField(forms.IntegerField):
    """An IntegerField that reads what a person types as a number and nothing else
    (scoring.engine.numbers.parse_whole): ASCII digits, and Devanagari digits with
    `devanagari=True`; never "1_000", "٣" or "５", which Python's int() would take."""

    def __init__(self, *args: Any, devanagari: bool = False, **kwargs: Any) -> None:
        self.devanagari = devanagari
        super().__init__(*args, **kwargs)

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        try:
            return parse_whole(str(value), devanagari=self.devanagari)
        except NotANumber:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid") from None


class PlainDecimalField(forms.DecimalField):
    """A DecimalField that takes ASCII digits with one "." only (parse_decimal):
    Decimal() alone would take "1_000", "٣", "1e2" and "５"."""

    def to_python(self, value: Any) -> Any:
        if value in self.empty_values:
            return None
        if isinstance(value, Decimal | int) and not isinstance(value, bool):
            return super().to_python(value)
        try:
            parse_decimal(str(value))
        except NotANumber:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid") from None
        return super().to_python(value)
