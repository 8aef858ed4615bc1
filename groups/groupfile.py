"""The `marriage-group/1` file with its `other_games` (CALLBREAK.md §12).

The Marriage side (members, sessions, payments) is read by the engine's own
parser (scoring/engine/groupfile.py), exactly as before. `other_games` is read
here, through the purse's registry (groups/purse.py): each item is exactly
`name`, `played_on` and `game`, a document of a registered format refused as
the game alone would be, naming the game by its position and name:

    other game 2 (Flash night): P_CARRY: hand 3: carry_in 0.00, not 5.00

Every player of a game must be a member; its money is in the group's currency.
A member's balance adds each game's money to the evenings' money, then the
payments, and the fewest transfers clear the whole.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from callbreak.engine.refusals import DocumentRefused
from localise.sessionfiles import read_played_on
from scoring.engine.groupfile import (
    COMPUTED,
    FORMAT,
    GROUP_FILE,
    GroupDoc,
    GroupFileError,
    evening_money,
    export_group_text,
    parse_group,
    payment_document,
    transfers_document,
)
from scoring.engine.limits import MAX_FILE_BYTES, MAX_JSON_DEPTH, check_depth, object_pairs
from scoring.engine.messages import WHERE, Message, gettext_noop, message
from scoring.engine.names import PlayerNameError, clean_session_name, player_key
from scoring.engine.purse import PaymentInput, balances, transfers
from scoring.engine.sessionfile import SessionDoc, SessionFileError, parse_played_on

from . import purse

OTHER_GAMES = "other_games"
OTHER_KEYS = ("name", "played_on", "game")
MAX_OTHER_GAMES = 1_000
MAX_GAME_NAME = 100


@dataclass(frozen=True, slots=True)
class OtherGameDoc:
    """One of `other_games`: its kind, name, date, document, and its money
    per member (the member's name as the group writes it)."""

    kind: str
    name: str
    played_on: date
    document: Mapping[str, Any]
    money: Mapping[str, Decimal]


@dataclass(frozen=True, slots=True)
class PurseFile:
    group: GroupDoc
    other_games: tuple[OtherGameDoc, ...] = field(default=())


def _other(number: int, name: object) -> Message:
    return message(
        gettext_noop("other game %(number)s (%(name)s)"),
        number=number,
        name=name if isinstance(name, str) and name.strip() else "?",
    )


def _refuse(where: Message, problem: Message | str) -> GroupFileError:
    return GroupFileError(
        message(
            WHERE,
            where=(where,),
            problem=problem if isinstance(problem, Message) else Message(problem),
        )
    )


def _member_value(key: str, value: object) -> str:
    """One member of the file's top object as the engine writes it: its key,
    and the value indented a level further (the engine's layout, kept here so
    that a file with other games reads like one without)."""
    text = json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n  ")
    return f"  {json.dumps(key)}: {text}"


def _kind_of(value: object) -> Message:
    if isinstance(value, dict):
        return Message(gettext_noop("an object"))
    if isinstance(value, str):
        return Message(gettext_noop("text"))
    return Message(gettext_noop("a number") if isinstance(value, int | Decimal) else repr(value))


def parse_other_game(
    raw: object, number: int, members: tuple[str, ...], read_date=read_played_on
) -> OtherGameDoc:
    """One item of `other_games`; GroupFileError naming it by position and name."""
    if not isinstance(raw, dict):
        raise _refuse(
            _other(number, None),
            message(gettext_noop("must be an object, got %(value)s"), value=_kind_of(raw)),
        )
    where = _other(number, raw.get("name"))
    for key in raw:
        if key not in OTHER_KEYS:
            raise _refuse(
                where,
                message(
                    gettext_noop("unknown key %(key)s (one of %(keys)s)"),
                    key=repr(key),
                    keys=", ".join(OTHER_KEYS),
                ),
            )
    for key in OTHER_KEYS:
        if key not in raw:
            raise _refuse(where, message(gettext_noop("%(key)s: missing"), key=key))
    name = raw["name"]
    if not isinstance(name, str) or not name.strip():
        raise _refuse(
            where,
            message(gettext_noop("name: must be non-empty text, got %(value)s"), value=repr(name)),
        )
    try:
        name = clean_session_name(" ".join(name.split()))
    except PlayerNameError as error:
        raise _refuse(where, message(WHERE, where=("name",), problem=error.msg)) from None
    if len(name) > MAX_GAME_NAME:
        raise _refuse(
            where, message(gettext_noop("name: longer than %(max)s characters"), max=MAX_GAME_NAME)
        )
    try:
        played_on = parse_played_on(raw["played_on"], read_date)
    except SessionFileError as error:
        raise _refuse(where, error.msg) from None
    if played_on is None:
        raise _refuse(where, gettext_noop("played_on: missing"))
    game = raw["game"]
    kind = purse.kind_for_format(game.get("format") if isinstance(game, dict) else None)
    if kind is None:
        raise _refuse(
            where,
            message(
                gettext_noop("game: format must be one of %(formats)s, got %(value)s"),
                formats=", ".join(repr(f) for f in purse.formats()),
                value=repr(game.get("format") if isinstance(game, dict) else game),
            ),
        )
    try:
        money = kind.money_of(game)
    except DocumentRefused as refused:
        first = refused.refusals[0]
        problem = message(
            "%(code)s: %(problem)s" if not first.where else "%(code)s: %(where)s: %(problem)s",
            code=first.code,
            where=tuple(first.where),
            problem=first.problem,
        )
        raise _refuse(where, problem) from None
    by_key = {player_key(member): member for member in members}
    named: dict[str, Decimal] = {}
    for player, amount in money.items():
        member = by_key.get(player_key(player))
        if member is None:
            raise _refuse(
                where,
                message(gettext_noop("player %(name)s: not a member of the group"), name=player),
            )
        named[member] = named.get(member, Decimal("0.00")) + amount
    return OtherGameDoc(kind.kind, name, played_on, game, named)


def parse_purse(data: object, read_date=read_played_on) -> PurseFile:
    """A decoded group document, `other_games` included; GroupFileError."""
    others_raw: object = []
    if isinstance(data, dict) and OTHER_GAMES in data:
        data = dict(data)
        others_raw = data.pop(OTHER_GAMES)
    group = parse_group(data, read_date)
    if not isinstance(others_raw, list):
        raise GroupFileError(
            message(
                gettext_noop("other_games: must be a list, got %(value)s"),
                value=_kind_of(others_raw),
            )
        )
    if len(others_raw) > MAX_OTHER_GAMES:
        raise GroupFileError(
            message(
                gettext_noop("other_games: at most %(max)s games in a group, got %(count)s"),
                max=f"{MAX_OTHER_GAMES:,}",
                count=f"{len(others_raw):,}",
            )
        )
    others = tuple(
        parse_other_game(raw, number, group.members, read_date)
        for number, raw in enumerate(others_raw, start=1)
    )
    return PurseFile(group, others)


def load_purse(text: str, read_date=read_played_on) -> PurseFile:
    """A group file's text, `other_games` included; GroupFileError, one line."""
    if len(text) > MAX_FILE_BYTES:
        raise GroupFileError(
            message(
                gettext_noop("file: larger than the limit of %(max)s bytes"),
                max=f"{MAX_FILE_BYTES:,}",
            )
        )
    try:
        data = json.loads(
            text.removeprefix("\ufeff"), object_pairs_hook=object_pairs, parse_float=Decimal
        )
    except json.JSONDecodeError as error:
        raise GroupFileError(
            message(
                gettext_noop("not JSON: %(problem)s at line %(line)s, column %(column)s"),
                problem=error.msg,
                line=error.lineno,
                column=error.colno,
            )
        ) from None
    except (ValueError, RecursionError) as error:
        raise GroupFileError(
            message(gettext_noop("not JSON: %(problem)s"), problem=str(error).splitlines()[0])
        ) from None
    # A game nests two levels below a session (other_games, item, game).
    if not check_depth(data, MAX_JSON_DEPTH + 4):
        raise GroupFileError(
            message(
                WHERE,
                where=GROUP_FILE,
                problem=message(
                    gettext_noop("nested more than %(max)s deep"), max=MAX_JSON_DEPTH + 4
                ),
            )
        )
    return parse_purse(data, read_date)


def purse_balances(file: PurseFile) -> dict[str, Decimal]:
    doc = file.group
    monies: list[Mapping[str, Decimal]] = [evening_money(s, doc.members) for s in doc.sessions]
    monies += [game.money for game in file.other_games]
    return balances(doc.members, monies, doc.payments)


def purse_summary(file: PurseFile) -> dict[str, Any]:
    """What `balances FILE` prints: each member's balance, the evenings and
    the other games counted alike, and the fewest payments."""
    balance = purse_balances(file)
    return {
        "balances": {name: str(amount) for name, amount in balance.items()},
        "transfers": transfers_document(transfers(balance)),
    }


def other_game_document(name: str, played_on: date, game: Mapping[str, Any]) -> dict[str, Any]:
    return {"name": name, "played_on": played_on.isoformat(), "game": dict(game)}


def export_purse_text(
    head: GroupDoc,
    sessions: Iterable[SessionDoc],
    payments: Iterable[PaymentInput],
    other_games: Iterable[OtherGameDoc],
) -> Iterator[str]:
    """The group file written as it is read, `other_games` after the payments
    and the balances counting them. Without other games it is the engine's
    text byte for byte (a file of Marriage alone reads as it always did)."""
    others = list(other_games)
    if not others:
        yield from export_group_text(head, sessions, payments)
        return
    members = head.members
    monies: list[Mapping[str, Decimal]] = []

    def counted() -> Iterator[SessionDoc]:
        for session in sessions:
            monies.append(evening_money(session, members))
            yield session

    paid = list(payments)
    # The engine's text up to the payments; its balances (Marriage alone) are
    # replaced by the whole purse's.
    for part in export_group_text(head, counted(), []):
        if part.startswith(",\n") and '"payments"' in part:
            break
        yield part
    monies += [game.money for game in others]
    balance = balances(members, monies, paid)
    yield ",\n" + ",\n".join(
        _member_value(key, value)
        for key, value in (
            ("payments", [payment_document(p) for p in paid]),
            (
                OTHER_GAMES,
                [other_game_document(g.name, g.played_on, g.document) for g in others],
            ),
            ("balances", {name: str(amount) for name, amount in balance.items()}),
            ("transfers", transfers_document(transfers(balance))),
        )
    )
    yield "\n}\n"


__all__ = [
    "COMPUTED",
    "FORMAT",
    "OTHER_GAMES",
    "OtherGameDoc",
    "PurseFile",
    "export_purse_text",
    "load_purse",
    "parse_purse",
    "purse_balances",
    "purse_summary",
]
