"""Dashain and Tihar: which days of a Bikram Sambat year they span, so a group's
records can mark the evenings played in them.

Both are lunar: Dashain runs from Ghatasthapana, the first day of the bright
fortnight of Ashwin, to Kojagrat Purnima, its full moon; Tihar from Kaag
Tihar (the 13th day of Kartik's dark fortnight) to Bhai Tika (the second day
after Kartik's new moon, Laxmi Puja's). So the windows come from the moon:
Ashwin's new moon is the last new moon with the sun in Kanya (the sidereal
sign of the solar month Ashwin; in a year with an extra Ashwin, the second
one), Kartik's is the next. New and full moons are Meeus's (Astronomical
Algorithms, ch. 49, to a minute or two); a festival day is the day whose
sunrise (06:00 Nepal time) falls in its lunar day, a lunar day taken as a
thirtieth of the mean month. A window can so be a day off at either end in
a year where a lunar day is skipped or repeated: good enough to mark an
evening, which is what this is for (docs/groups.md, "Records").
"""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass
from functools import lru_cache

from .bikram_sambat import BikramSambatError, from_bs, to_bs

NEPAL = datetime.timezone(datetime.timedelta(hours=5, minutes=45))
SYNODIC = 29.530588861
LUNAR_DAY = datetime.timedelta(days=SYNODIC / 30)
SUNRISE = datetime.time(6, 0)
_UNIX_EPOCH_JD = 2440587.5

# (coefficient, E power, M', M, F, Ω multiples) of Meeus's corrections, new moon then full moon.
_NEW = (
    (-0.40720, 0, 1, 0, 0, 0), (0.17241, 1, 0, 1, 0, 0), (0.01608, 0, 2, 0, 0, 0),
    (0.01039, 0, 0, 0, 2, 0), (0.00739, 1, 1, -1, 0, 0), (-0.00514, 1, 1, 1, 0, 0),
    (0.00208, 2, 0, 2, 0, 0), (-0.00111, 0, 1, 0, -2, 0), (-0.00057, 0, 1, 0, 2, 0),
    (0.00056, 1, 2, 1, 0, 0), (-0.00042, 0, 3, 0, 0, 0), (0.00042, 1, 0, 1, 2, 0),
    (0.00038, 1, 0, 1, -2, 0), (-0.00024, 1, 2, -1, 0, 0), (-0.00017, 0, 0, 0, 0, 1),
    (-0.00007, 0, 1, 2, 0, 0), (0.00004, 0, 2, 0, -2, 0), (0.00004, 0, 0, 3, 0, 0),
    (0.00003, 0, 1, 1, -2, 0), (0.00003, 0, 2, 0, 2, 0), (-0.00003, 0, 1, 1, 2, 0),
    (0.00003, 0, 1, -1, 2, 0), (-0.00002, 0, 1, -1, -2, 0), (-0.00002, 0, 3, 1, 0, 0),
    (0.00002, 0, 4, 0, 0, 0),
)  # fmt: skip
_FULL = (
    (-0.40614, 0, 1, 0, 0, 0), (0.17302, 1, 0, 1, 0, 0), (0.01614, 0, 2, 0, 0, 0),
    (0.01043, 0, 0, 0, 2, 0), (0.00734, 1, 1, -1, 0, 0), (-0.00515, 1, 1, 1, 0, 0),
    (0.00209, 2, 0, 2, 0, 0), *_NEW[7:],
)  # fmt: skip


def moon_phase(k: float) -> datetime.datetime:
    """The moment (UTC) of the new moon of lunation `k` (0 is January 2000's),
    or its full moon for k + 0.5."""
    t = k / 1236.85
    jde = (
        2451550.09766 + SYNODIC * k + 0.00015437 * t**2 - 0.000000150 * t**3 + 0.00000000073 * t**4
    )
    e = 1 - 0.002516 * t - 0.0000074 * t**2
    sun = math.radians(2.5534 + 29.10535670 * k - 0.0000014 * t**2)
    moon = math.radians(201.5643 + 385.81693528 * k + 0.0107582 * t**2 + 0.00001238 * t**3)
    node = math.radians(160.7108 + 390.67050284 * k - 0.0016118 * t**2)
    omega = math.radians(124.7746 - 1.56375588 * k + 0.0020672 * t**2)
    terms = _FULL if k % 1 else _NEW
    jde += sum(
        c * e**power * math.sin(mm * moon + ms * sun + f * node + o * omega)
        for c, power, mm, ms, f, o in terms
    )
    seconds = (jde - _UNIX_EPOCH_JD) * 86400
    return datetime.datetime.fromtimestamp(seconds, datetime.UTC)


def sun_sidereal_longitude(moment: datetime.datetime) -> float:
    """The sun's longitude in degrees from the sidereal zodiac's start (Lahiri's
    ayanamsa), as the lunar months are named: 150 to 180 is Kanya, the sun's
    sign in the month Ashwin. Meeus ch. 25's low accuracy, a hundredth of a
    degree: a quarter of an hour of the sun's motion."""
    jd = moment.timestamp() / 86400 + _UNIX_EPOCH_JD
    t = (jd - 2451545.0) / 36525
    mean = 280.46646 + 36000.76983 * t + 0.0003032 * t**2
    anomaly = math.radians(357.52911 + 35999.05029 * t - 0.0001537 * t**2)
    centre = (
        (1.914602 - 0.004817 * t - 0.000014 * t**2) * math.sin(anomaly)
        + (0.019993 - 0.000101 * t) * math.sin(2 * anomaly)
        + 0.000289 * math.sin(3 * anomaly)
    )
    apparent = mean + centre - 0.00569 - 0.00478 * math.sin(math.radians(125.04 - 1934.136 * t))
    ayanamsa = 23.853 + 0.013969 * (t * 100)
    return (apparent - ayanamsa) % 360


def _lunation_near(day: datetime.date) -> int:
    years = day.year + (day.timetuple().tm_yday - 1) / 365.25 - 2000
    return math.floor(years * 12.3685)


def _sunrise_on_or_after(moment: datetime.datetime) -> datetime.date:
    """The first day whose sunrise comes at or after `moment` (Nepal time)."""
    local = moment.astimezone(NEPAL)
    day = local.date()
    return day if local.time() <= SUNRISE else day + datetime.timedelta(days=1)


@dataclass(frozen=True, slots=True)
class Festivals:
    dashain: tuple[datetime.date, datetime.date]  # Ghatasthapana to Kojagrat Purnima
    tihar: tuple[datetime.date, datetime.date]  # Kaag Tihar to Bhai Tika

    def of(self, day: datetime.date) -> str:
        """ "dashain", "tihar" or "" for a day of this year."""
        if self.dashain[0] <= day <= self.dashain[1]:
            return "dashain"
        if self.tihar[0] <= day <= self.tihar[1]:
            return "tihar"
        return ""


@lru_cache(maxsize=64)
def festivals(bs_year: int) -> Festivals | None:
    """Dashain's and Tihar's days in Bikram Sambat year `bs_year`; None outside
    the calendar's tables."""
    try:
        ashwin = from_bs(bs_year, 6, 1)
    except BikramSambatError:
        return None
    start = _lunation_near(ashwin) - 1
    in_kanya = [
        k for k in range(start, start + 4) if 150 <= sun_sidereal_longitude(moon_phase(k)) < 180
    ]
    k = in_kanya[-1]  # the second, in a year with an extra Ashwin
    new, full, next_new = moon_phase(k), moon_phase(k + 0.5), moon_phase(k + 1)
    ghatasthapana = _sunrise_on_or_after(new)
    purnima = (full.astimezone(NEPAL) - datetime.timedelta(hours=6)).date()
    kaag_tihar = _sunrise_on_or_after(next_new - 3 * LUNAR_DAY)
    bhai_tika = _sunrise_on_or_after(next_new + LUNAR_DAY)
    return Festivals((ghatasthapana, purnima), (kaag_tihar, bhai_tika))


def festival_of(day: datetime.date) -> str:
    """ "dashain", "tihar" or "" for the day an evening was played."""
    try:
        year = to_bs(day)[0]
    except BikramSambatError:
        return ""
    found = festivals(year)
    return found.of(day) if found else ""
