"""The scoring engine: pure Python, no Django. Dataclasses in, dataclasses out."""

from .ledger import Transfer, money, running_totals, settle_up, totals
from .rules import PRESETS, RuleError, Rules, make_rules, rules_from_options
from .settlement import (
    Entry,
    PlayerResult,
    RoundError,
    RoundInput,
    RoundResult,
    better_by_default,
    settle_long_way,
    settle_round,
)

__all__ = [
    "PRESETS",
    "Entry",
    "PlayerResult",
    "RoundError",
    "RoundInput",
    "RoundResult",
    "RuleError",
    "Rules",
    "Transfer",
    "better_by_default",
    "make_rules",
    "money",
    "rules_from_options",
    "running_totals",
    "settle_long_way",
    "settle_round",
    "settle_up",
    "totals",
]
