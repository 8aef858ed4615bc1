"""Small formatting helpers for a round's breakdown."""

from django import template

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
