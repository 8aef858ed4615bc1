"""Paisa (as the pot session keeps money) as the pages' money filters take it."""

from decimal import Decimal

from django import template

register = template.Library()


@register.filter
def paisa(value) -> Decimal:
    """1250 → Decimal("12.50")."""
    return Decimal(int(value)).scaleb(-2)


@register.filter
def at(values, index):
    """`values|at:i`: the i-th item of a list (a seat's amount)."""
    return values[index]
