"""Small formatting helpers for a round's breakdown and its history."""

from typing import Any

from django import template
from django.utils.html import format_html, format_html_join

from localise.numbers import NumberFormat
from scoring.engine import PlayerResult, RoundResult
from scoring.words.breakdown_words import player_sentence

register = template.Library()


@register.filter
def winner_take(result: RoundResult) -> str:
    """What the winner collects, as a sum a table can check: "15 + 34 + (−3) = 46"."""
    number = NumberFormat.current().num  # grouped the reader's way, as |num
    pays = [p.pay for p in result.players if not p.is_winner]
    terms = " + ".join(number(pay) if pay >= 0 else f"(−{number(-pay)})" for pay in pays)
    total = sum(pays)
    return f"{terms} = {number(total) if total >= 0 else f'−{number(-total)}'}"


@register.simple_tag
def in_words(result: RoundResult, player: PlayerResult | None) -> str:
    """One player's part of the round as a sentence (scoring/words/breakdown_words.py);
    nothing in the skeleton of a breakdown (scoring/templatetags/slots.py), which has no round."""
    if player is None:
        return ""
    return player_sentence(result, player)


@register.simple_tag
def change_values(values: list[dict[str, Any]], was: bool = False) -> str:
    """One side of a line of a change (views/audit.py), value by value: a value
    the other side has otherwise is marked, struck out before and emphasised
    after; the others are plain, so the one value that changed stands out."""
    mark = '<del class="was">{}</del>' if was else "<ins>{}</ins>"
    return format_html_join(
        " · ",
        "{}",
        ((format_html(mark, v["text"]) if v["changed"] else v["text"],) for v in values),
    )
