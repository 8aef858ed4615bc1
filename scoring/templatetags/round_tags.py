"""Small formatting helpers for a round's breakdown."""

from django import template

from scoring.breakdown_words import player_sentence
from scoring.engine import PlayerResult, RoundResult

register = template.Library()


@register.filter
def winner_take(result: RoundResult) -> str:
    """What the winner collects, as a sum a table can check: "15 + 34 + (−3) = 46"."""
    pays = [p.pay for p in result.players if not p.is_winner]
    terms = " + ".join(str(pay) if pay >= 0 else f"(−{-pay})" for pay in pays)
    total = sum(pays)
    return f"{terms} = {total if total >= 0 else f'−{-total}'}"


@register.simple_tag
def in_words(result: RoundResult, player: PlayerResult) -> str:
    """One player's part of the round as a sentence (scoring/breakdown_words.py)."""
    return player_sentence(result, player)
