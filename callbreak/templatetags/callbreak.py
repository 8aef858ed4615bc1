"""Call Break's figures as a page shows them: scores are whole tenths of a
point, shown with one decimal ("3.1", "-2.0"), never through a float."""

from __future__ import annotations

from django import template

register = template.Library()


def tenths_text(value: int) -> str:
    sign = "-" if value < 0 else ""
    whole, part = divmod(abs(int(value)), 10)
    return f"{sign}{whole}.{part}"


@register.filter
def tenths(value) -> str:
    if value in (None, ""):
        return ""
    return tenths_text(value)


@register.filter
def at(values, index):
    """values[index], for a table's cells in seat order."""
    try:
        return values[int(index)]
    except (IndexError, TypeError, ValueError):
        return ""
