"""Points as a person types them, on the round form and on a seat's own page:
read by the one parser (scoring.engine.numbers, a Nepali keyboard's digits
too), bounded, and refused with the same words wherever they are typed."""

from __future__ import annotations

from django.utils.translation import gettext as _

from ..engine.numbers import NotANumber, TooManyDigits, parse_whole
from ..engine.settlement import MAX_POINTS


def read_points(raw: str) -> tuple[int | None, str | None]:
    """(the points, None), or (None, what is wrong with them). Blank is 0."""
    raw = raw.strip()
    if raw == "":
        return 0, None
    try:
        value = parse_whole(raw, devanagari=True)
    except TooManyDigits:
        return None, _("%(count)s digits is more than %(max)s points; check the number") % {
            "count": f"{len(raw):,}",
            "max": f"{MAX_POINTS:,}",
        }
    except NotANumber:
        shown = raw if len(raw) <= 20 else raw[:20] + "…"
        return None, _("must be a whole number, got %(value)r") % {"value": shown}
    if value < 0:
        return None, _("must not be negative, got %(value)d") % {"value": value}
    if value > MAX_POINTS:
        return None, _("%(value)d is more than %(max)s points; check the number") % {
            "value": value,
            "max": f"{MAX_POINTS:,}",
        }
    return value, None
