"""Bikram Sambat dates, the calendar families in Nepal date Dashain and Tihar in.

The conversion is the `nepali` package's (opensource-nepal/py-nepali, its own
tables of month lengths for BS 2000–2100); this module only names the months and
reads what a user types. Digits stay 0-9 as everywhere in the app.
"""

from __future__ import annotations

import datetime
import re
from functools import lru_cache

from nepali.constants import NEPALI_MONTHS_EN, NEPALI_MONTHS_NE
from nepali.datetime import nepalidate

DEVANAGARI_DIGITS = str.maketrans("०१२३४५६७८९", "0123456789")
# A typed date: year, month and day separated by "-", "/" or ".", then optionally the
# calendar: "BS"/"वि.सं." (Bikram Sambat) or "AD"/"ई.सं." (Gregorian).
TYPED = re.compile(
    r"^\s*([0-9]{4})\s*[-/.]\s*([0-9]{1,2})\s*[-/.]\s*([0-9]{1,2})\s*"
    r"(?P<calendar>BS|B\.S\.|VS|वि\.?\s?सं\.?|AD|A\.D\.|ई\.?\s?सं\.?)?\s*$",
    re.IGNORECASE,
)
# Bikram Sambat runs 56 or 57 years ahead: an unmarked year this far past today's
# Gregorian year can only be a Bikram Sambat one (nobody records a card evening 30
# years ahead), and one before it a Gregorian one.
BS_YEARS_AHEAD = 30


class BikramSambatError(ValueError):
    """A date that is not on the calendar (or outside the years the tables cover)."""


@lru_cache(maxsize=8192)
def to_bs(day: datetime.date) -> tuple[int, int, int]:
    """(year, month, day) in Bikram Sambat; month 1 is Baishakh. A day's answer
    never changes: a page of a hundred evenings converts each once per process."""
    try:
        bs = nepalidate.from_date(day)
    except ValueError as error:
        raise BikramSambatError(str(error)) from None
    return bs.year, bs.month, bs.day


def from_bs(year: int, month: int, day: int) -> datetime.date:
    try:
        return nepalidate(year, month, day).to_date()
    except ValueError:
        raise BikramSambatError(
            f"{year}-{month:02d}-{day:02d} is not a Bikram Sambat date"
        ) from None


def bs_label(day: datetime.date, *, nepali: bool = True) -> str:
    """ "16 असोज 2083" (or "16 Ashwin 2083"); "" when the date is outside the tables."""
    try:
        year, month, dom = to_bs(day)
    except BikramSambatError:
        return ""
    names = NEPALI_MONTHS_NE if nepali else NEPALI_MONTHS_EN
    return f"{dom} {names[month - 1]} {year}"


def read_typed(text: str, *, today: datetime.date | None = None) -> tuple[int, int, int, bool]:
    """(year, month, day, is Bikram Sambat) of a date typed year-month-day, not yet
    checked against either calendar. Unmarked, a year more than BS_YEARS_AHEAD past
    today's is Bikram Sambat. Raises BikramSambatError if it is not year-month-day."""
    match = TYPED.match(text.translate(DEVANAGARI_DIGITS))
    if not match:
        raise BikramSambatError(f"{text!r} is not a date written year-month-day")
    year, month, day = (int(part) for part in match.groups()[:3])
    marker = (match.group("calendar") or "").upper()
    if marker:
        bikram = marker.startswith(("B", "V", "वि"))
    else:
        bikram = year > (today or datetime.date.today()).year + BS_YEARS_AHEAD
    return year, month, day, bikram


def parse_date(text: str, *, today: datetime.date | None = None) -> datetime.date:
    """A date typed in either calendar: "2026-10-02", "2083-06-16", "२०८३/०६/१६",
    "2083-06-16 BS" (read_typed). Raises BikramSambatError for anything else."""
    year, month, day, bikram = read_typed(text, today=today)
    if bikram:
        return from_bs(year, month, day)
    try:
        return datetime.date(year, month, day)
    except ValueError:
        raise BikramSambatError(f"{text!r} is not a Gregorian date") from None
