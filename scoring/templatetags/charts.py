"""`{% running_totals_chart ledger %}`: a session's running-totals chart inside any
page that already has its ledger (scoring.reports.build_ledger), at no extra query."""

from django import template
from django.utils.safestring import SafeString, mark_safe

from ..reports import Ledger
from ..session_chart import running_chart

register = template.Library()


@register.simple_tag
def running_totals_chart(ledger: Ledger) -> SafeString:
    svg = running_chart(ledger)  # every text in it is escaped by scoring.charts
    if not svg:
        return mark_safe("")
    return mark_safe(
        f'<figure class="chart-figure session-chart card" id="session-chart">{svg}</figure>'
    )
