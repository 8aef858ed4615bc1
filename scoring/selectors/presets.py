"""The session's rounds read against other rules: the rules page's preset
comparison, and the first round a change of rules would refuse."""

from __future__ import annotations

import dataclasses

from ..engine import PRESETS, RoundError, Rules, settle_round, settle_session
from ..models import GameSession
from .rounds import rounds_with_entries, saved_rounds


def first_refused_round(session: GameSession, rules: Rules) -> tuple[int, RoundError] | None:
    """The first round that cannot be settled under `rules`: its position and
    the engine's error; None if every round settles."""
    for position, round_ in enumerate(rounds_with_entries(session), start=1):
        try:
            settle_round(round_.to_input(), rules)
        except RoundError as error:
            return position, error
    return None


def with_house_table(preset: Rules, rules: Rules) -> Rules:
    """A preset adopted by a session keeps the session's own maal point table."""
    return dataclasses.replace(preset, maal_points=rules.maal_points)


def compare_presets(session: GameSession, rules: Rules) -> dict[str, object] | None:
    """The session's last round under its rules and under each preset, side by
    side: each player's net per column (None where that preset refuses it).
    "This session" is the ledger's stored nets. A preset under which a round can
    depend on the rounds before it (next-winner dhoos, a better default) settles
    the whole session in order, as adopting it would, so the last round books
    the dhoos owed from earlier rounds (None if it refuses any round); under any
    other the last round settles alone, with the same nets. A 1,000-round nepal
    session: about 60 ms for this table (30 of them reading the rounds)."""
    saved = saved_rounds(session)
    if not saved:
        return None
    last = saved[-1]
    alone = dataclasses.replace(last.input, better=bool(last.input.better))  # no default: False
    nets: list[dict[str, int] | None] = [{name: net for name, (_id, net) in last.entries.items()}]
    presets = [(name, with_house_table(preset, rules)) for name, preset in PRESETS.items()]
    for _name, column_rules in presets:
        try:
            if column_rules.looks_back():
                # better as the table marked it: None takes this preset's default
                inputs = [r.input for r in saved]
                nets.append(settle_session(inputs, column_rules).rounds[-1].nets)
            else:
                nets.append(settle_round(alone, column_rules).nets)
        except RoundError:
            nets.append(None)
    return {
        "position": len(saved),
        "presets": [name for name, _rules in presets],
        "rows": [
            {"player": entry.player, "nets": [n[entry.player] if n else None for n in nets]}
            for entry in last.input.entries
        ],
        "refused": [n is None for n in nets],
    }
