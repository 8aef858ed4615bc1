"""A round made ready to save, once: checked, settled in its place in the
session, and the maal calculator's tallies checked against the points beside
them. The round form prepares it; the service that saves it accepts it as it
is when the session has not changed since (its version), else prepares again."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .maal import Card, MaalError, Tally, check_entry_tally, check_round_tallies
from .messages import gettext_noop
from .rules import Rules
from .settlement import Dhoos, RoundError, RoundInput, RoundResult, settle_round

Tallies = Mapping[str, Any]  # player name -> Tally.to_dict() from the maal calculator


def check_tallies(
    round_input: RoundInput, tiplu: str, tallies: Tallies | None, rules: Rules
) -> tuple[str, dict[str, dict[str, int]]]:
    """The round's tiplu code and each player's checked tally; RoundError naming
    the player if a tally is impossible or disagrees with the points entered."""
    code = ""
    if tiplu:
        try:
            code = Card.parse(tiplu).code
        except MaalError as error:
            raise RoundError(error.msg, field="tiplu") from None
    checked: dict[str, dict[str, int]] = {}
    for name, data in (tallies or {}).items():
        try:
            entry = round_input.entry(name)
        except KeyError:
            raise RoundError(
                gettext_noop("has a maal tally but is not in the round"), player=name
            ) from None
        if not code:
            raise RoundError(
                gettext_noop("pick the tiplu card to use the maal calculator"), field="tiplu"
            )
        try:
            result = check_entry_tally(data, code, rules, entry.maal, entry.tunnel)[1]
        except MaalError as error:
            raise RoundError(error.msg, field="maal", player=name) from None
        checked[name] = result.tally.to_dict()
    try:
        check_round_tallies({name: Tally(**tally) for name, tally in checked.items()})
    except MaalError as error:
        raise RoundError(error.msg, field="maal") from None
    return code, checked


@dataclass(frozen=True)
class PreparedRound:
    """A round ready to save. `round_input` is the round as it is kept: its
    better None when it follows the rules' default (which moves if an earlier
    round is added or deleted), else the table's own mark. `result` is the round
    settled in its place (`number`, the dhoos pending before it); `tiplu` and
    `tallies` the maal calculator's checked values. `version`: the session's
    version the round was prepared against, for the service to compare."""

    round_input: RoundInput
    result: RoundResult
    number: int
    tiplu: str = ""
    tallies: Mapping[str, dict[str, int]] = field(default_factory=dict)
    version: object = None


def prepare_round(
    round_input: RoundInput,
    rules: Rules,
    *,
    number: int = 1,
    pending: Sequence[Dhoos] = (),
    better_default: bool = False,
    tiplu: str = "",
    tallies: Tallies | None = None,
    version: object = None,
) -> PreparedRound:
    """The round as played (its better None: the default) settled once in its
    place and its tallies checked once; RoundError for the first problem."""
    if round_input.better is None:
        round_input = replace(round_input, better=better_default)
    result = settle_round(round_input, rules, number=number, pending=pending)
    code, checked = check_tallies(round_input, tiplu, tallies, rules)
    marked = None if round_input.better == better_default else round_input.better
    return PreparedRound(
        round_input=replace(round_input, better=marked),
        result=result,
        number=number,
        tiplu=code,
        tallies=checked,
        version=version,
    )
