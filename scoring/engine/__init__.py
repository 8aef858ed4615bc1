"""The scoring engine: pure Python, no Django. Dataclasses in, dataclasses out."""

from .ledger import Transfer, at_stake, money, money_by_round, settle_up, totals
from .prepare import PreparedRound, check_tallies, prepare_round
from .rules import PRESETS, RuleError, Rules, make_rules, rules_from_options
from .settlement import (
    BetterDefault,
    BookedDhoos,
    Dhoos,
    Entry,
    PlayerResult,
    RoundError,
    RoundInput,
    RoundResult,
    SessionResult,
    better_by_default,
    better_defaults,
    settle_long_way,
    settle_round,
    settle_session,
)

__all__ = [
    "PRESETS",
    "BetterDefault",
    "BookedDhoos",
    "Dhoos",
    "Entry",
    "PlayerResult",
    "PreparedRound",
    "RoundError",
    "RoundInput",
    "RoundResult",
    "RuleError",
    "Rules",
    "SessionResult",
    "Transfer",
    "at_stake",
    "better_by_default",
    "better_defaults",
    "check_tallies",
    "make_rules",
    "money",
    "money_by_round",
    "prepare_round",
    "rules_from_options",
    "settle_long_way",
    "settle_round",
    "settle_session",
    "settle_up",
    "totals",
]
