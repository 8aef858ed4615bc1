"""A session's running totals as a chart, with numbers in the page's language;
the session page and stats' printable summary both show it."""

from __future__ import annotations

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from ..selectors.reports import Ledger
from . import charts


def fmt_number(value: float) -> str:
    """A chart's number in the page's language (grouping and decimal mark)."""
    places = 0 if float(value).is_integer() else 2
    return number_format(value, places, use_l10n=True, force_grouping=True)


def fmt_money(value: float) -> str:
    """Money on a chart as |money writes it: two decimals."""
    return number_format(value, 2, use_l10n=True, force_grouping=True)


def fmt_signed(value: float) -> str:
    return ("+" if value > 0 else "") + fmt_number(value)


def running_chart(ledger: Ledger) -> str:
    """The running totals of a session as an SVG line chart ("" before the first round)."""
    if not ledger.rows:
        return ""
    lines = ledger.rows.totals_by_player
    series = [
        (f"{player.name} ({fmt_signed(lines[i][-1])})", lines[i])
        for i, player in enumerate(ledger.players)
    ]
    return charts.line_chart(
        series,
        title=_("Running totals: %(session)s") % {"session": ledger.session.name},
        x_label=_("Round"),
        y_label=_("Points"),
        fmt=fmt_number,
    )
