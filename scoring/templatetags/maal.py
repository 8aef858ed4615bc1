"""Template helpers for the maal calculator on the round screen and round pages."""

from __future__ import annotations

import json
from typing import Any

from django import template

from ..engine.maal import Card, MaalError, Tally, score
from ..engine.rules import Rules
from ..engine_text import engine_message
from ..models import GameSession, Round
from ..views_maal import Calculator, round_maal_lines

register = template.Library()


def _rules(context: template.Context, session: GameSession) -> Rules:
    """The session's rules, parsed once per render."""
    cache = context.render_context
    key = ("maal-rules", session.pk)
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
        data = json.loads(tally) if isinstance(tally, str) else tally
        return engine_message(score(Tally.from_dict(data), _rules(context, session)).breakdown)
    except (ValueError, MaalError):
        return ""


@register.inclusion_tag("scoring/maal_dialog.html", takes_context=True)
def maal_dialog(context: template.Context, session: GameSession) -> dict[str, Any]:
    return {
        "session": session,
        "calc": Calculator(_rules(context, session)),
        "csrf_token": context.get("csrf_token"),
    }


@register.simple_tag(takes_context=True)
def maal_lines(context: template.Context, round_: Round, session: GameSession) -> list:
    """(player, breakdown) for each player of the round counted with the calculator."""
    return round_maal_lines(round_, _rules(context, session))
