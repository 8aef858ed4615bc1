"""The Call Break engine (CALLBREAK.md): pure Python, no Django. A decoded
`callbreak-game/1` document or a `Game` in; refusals, or a `GameResult` and its
result object out. Scores are whole tenths, money exact until it is rounded
to the paisa once; never a float."""

from .game import Deal, Game, GameEnd, GameResult, deal_score, deal_scores, game_end, ranks_of
from .gamefile import (
    FORMAT,
    deal_refusals,
    game_document,
    game_money,
    read_game,
    refusals,
    result_document,
    settle_document,
    settle_game,
)
from .limits import LIMITS, DocumentError, Limits, loads
from .money import Transfer, canonical_transfers, round_to_paisa
from .refusals import DocumentRefused, Refusal
from .rules import OPTIONS, RuleError, Rules

__all__ = [
    "FORMAT",
    "LIMITS",
    "OPTIONS",
    "Deal",
    "DocumentError",
    "DocumentRefused",
    "Game",
    "GameEnd",
    "GameResult",
    "Limits",
    "Refusal",
    "RuleError",
    "Rules",
    "Transfer",
    "canonical_transfers",
    "deal_refusals",
    "deal_score",
    "deal_scores",
    "game_document",
    "game_end",
    "game_money",
    "loads",
    "ranks_of",
    "read_game",
    "refusals",
    "result_document",
    "round_to_paisa",
    "settle_document",
    "settle_game",
]
