"""Template helpers for the maal calculator on the round screen and round pages."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext as _

from ..engine.limits import MAX_TALLY_CHARS, loads_bounded
from ..engine.maal import TALLY_LABELS, Card, MaalError, Tally, score
from ..engine.rules import Rules
from ..forms.maal import Calculator
from ..models import GameSession, Round
from ..words.i18n import translate

register = template.Library()


def tally_text(tally: Tally) -> str:
    """ "1 marriage, 2 poplu": the items, for when a stored tally no longer scores
    to the stored points (the session's point table changed since)."""
    return ", ".join(f"{n} {_(TALLY_LABELS[name])}" for name, n in tally.to_dict().items())


def entry_maal_summary(data: object, rules: Rules, maal: int, tunnel: int) -> str:
    """How a stored tally was counted: its breakdown under the session's table, or
    its items when the table has changed since."""
    try:
        tally = Tally.from_dict(data)
        result = score(tally, rules)
    except MaalError:
        return ""
    if (result.maal, result.tunnel) == (maal, tunnel):
        return translate(result.parts)
    return _("%(items)s (counted under an earlier point table)") % {"items": tally_text(tally)}


def round_maal_lines(round_: Round, rules: Rules) -> list[tuple[str, str]]:
    """(player, breakdown) for each entry of a round counted with the calculator."""
    lines = []
    entries = sorted(round_.entries.all(), key=lambda e: (e.player.position, e.player_id))
    for entry in entries:
        if entry.maal_tally is not None:
            text = entry_maal_summary(entry.maal_tally, rules, entry.maal, entry.tunnel)
            lines.append((entry.player.name, text))
    return lines


def _rules(context: template.Context, session: GameSession) -> Rules:
    """The session's rules, parsed once per render."""
    cache = context.render_context
    key = f"maal-rules-{session.pk}"
    if key not in cache:
        cache[key] = session.get_rules()
    return cache[key]


@register.filter
def card_label(code: str) -> str:
    """ "7H" → "7♥"; anything unreadable is shown as typed."""
    try:
        return Card.parse(code).label
    except MaalError:
        return code


@register.simple_tag(takes_context=True)
def maal_summary(context: template.Context, tally: Any) -> str:
    """A round-form row's tally (JSON, as posted or stored) as its breakdown, or ""."""
    session = context.get("session")
    if not tally or session is None:
        return ""
    try:
        data = loads_bounded(tally, MAX_TALLY_CHARS) if isinstance(tally, str) else tally
        return translate(score(Tally.from_dict(data), _rules(context, session)).parts)
    except (ValueError, MaalError):
        return ""


@register.inclusion_tag("scoring/maal/_dialog.html", takes_context=True)
def maal_dialog(context: template.Context, session: GameSession) -> dict[str, Any]:
    return {
        "session": session,
        "calc": Calculator(_rules(context, session)),
        "csrf_token": context.get("csrf_token"),
        "calc_url": context.get("calc_url"),
    }


@register.simple_tag(takes_context=True)
def maal_lines(context: template.Context, round_: Round, session: GameSession) -> list:
    """(player, breakdown) for each player of the round counted with the calculator."""
    return round_maal_lines(round_, _rules(context, session))
