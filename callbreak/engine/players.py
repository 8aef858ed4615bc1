"""The `players` of a game document (CALLBREAK.md §3, and §9 for pot sessions):
a list of names, each non-empty text with no spaces around it, unique
ignoring case.

A name is checked as the Marriage engine checks one (scoring/engine/names.py:
nothing invisible, at most MAX_PLAYER_NAME_LENGTH characters), and two names
are the same player when their `player_key`s are equal: "Dipa" and "dipa" are
refused together, because a family would confuse them, and the purse (§12)
matches a game's players to a group's members by that key.
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.engine.messages import gettext_noop
from scoring.engine.names import PlayerNameError, clean_player_name, player_key

from .limits import MAX_NAME_LENGTH
from .money import shown
from .refusals import Refusal, Where, player_at, refusal

PLAYERS_KEY: Where = ("players",)


def read_players(
    raw: object, *, low: int, high: int, code: str, missing: bool = False
) -> tuple[tuple[str, ...], list[Refusal]]:
    """The names of `raw` (a document's `players`), and its refusals under
    `code`: the list missing or not a list, fewer than `low` or more than
    `high` names, a bad name, a name given twice. Names are looked at only when
    there are at most `high` of them."""
    if missing:
        return (), [refusal(code, PLAYERS_KEY, gettext_noop("missing"))]
    if not isinstance(raw, list):
        return (), [
            refusal(
                code,
                PLAYERS_KEY,
                gettext_noop("must be a list of names, got %(value)s"),
                value=shown(raw),
            )
        ]
    found: list[Refusal] = []
    if not low <= len(raw) <= high:
        found.append(
            refusal(
                code,
                PLAYERS_KEY,
                gettext_noop("must name exactly %(low)s players, got %(count)s")
                if low == high
                else gettext_noop("must name %(low)s to %(high)s players, got %(count)s"),
                low=low,
                high=high,
                count=f"{len(raw):,}",
            )
        )
        if len(raw) > high:
            return (), found
    seen: dict[str, tuple[int, str]] = {}
    for number, name in enumerate(raw, start=1):
        problem = _name_problem(name, number, code)
        if problem is not None:
            found.append(problem)
            continue
        assert isinstance(name, str)
        key = player_key(name)
        if key in seen:
            first, spelled = seen[key]
            found.append(
                refusal(
                    code,
                    (*PLAYERS_KEY, player_at(number)),
                    gettext_noop(
                        "%(name)s is the same name as player %(first)s, %(other)s "
                        "(names must differ in more than case)"
                    )
                    if spelled != name
                    else gettext_noop("%(name)s is listed twice (as player %(first)s too)"),
                    name=shown(name),
                    first=first,
                    other=shown(spelled),
                )
            )
            continue
        seen[key] = (number, name)
    return tuple(name for name in raw if isinstance(name, str)), found


def _name_problem(name: object, number: int, code: str) -> Refusal | None:
    where = (*PLAYERS_KEY, player_at(number))
    if not isinstance(name, str):
        return refusal(
            code, where, gettext_noop("must be a name, got %(value)s"), value=shown(name)
        )
    if not name.strip():
        return refusal(
            code, where, gettext_noop("must not be empty, got %(value)s"), value=shown(name)
        )
    if name != name.strip():
        return refusal(
            code,
            where,
            gettext_noop("%(name)s has spaces before or after it"),
            name=shown(name),
        )
    if len(name) > MAX_NAME_LENGTH:
        return refusal(
            code,
            where,
            gettext_noop("%(name)s is longer than %(max)s characters"),
            name=shown(name[:20] + "…"),
            max=MAX_NAME_LENGTH,
        )
    try:  # nothing invisible: two names that look alike are one name, or none
        clean_player_name(name)
    except PlayerNameError as error:
        return Refusal(code, where, error.msg)
    return None


def same_name_as(name: str, players: Sequence[str]) -> str | None:
    """The player whose name `name` is, but for case (a typo a message can name)."""
    key = player_key(name)
    return next((player for player in players if player_key(player) == key), None)
