"""The `pot-session/1` document (CALLBREAK.md §9): checked, read into a
`PotSession`, settled, and written as its result object
`{"money", "per_hand", "transfers"}`.

Checking runs in stages, as a Call Break game's does (§7): a document that is
not an object, or has a missing or wrong `format`, stops at once; otherwise its
keys (P_DOC) and players (P_PLAYERS) are checked, and a problem there stops the
rest, since hands cannot be read without players. Then the hands (P_HANDS)
and each hand, every problem reported in document order: its shape (P_HAND),
its names (P_UNKNOWN_PLAYER) and amounts (P_MONEY); then, when those read, its
winners (P_WINNER_NOT_IN), its pot and balance (P_HAND, P_NOT_ZERO_SUM) and
the carry chain (P_CARRY).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from callbreak.engine.money import MoneyError, cents, money_decimal, money_text, parse_money, shown
from callbreak.engine.players import read_players, same_name_as
from callbreak.engine.refusals import (
    DocumentRefused,
    Enough,
    Found,
    Refusal,
    Where,
    hand_at,
    refusal,
)
from scoring.engine.messages import gettext_noop

from .hands import Hand, PotResult, PotSession, settle_hands
from .limits import MAX_HANDS, MAX_PLAYERS, MAX_REFUSALS, MIN_PLAYERS

FORMAT = "pot-session/1"
TOP_KEYS = ("format", "players", "hands", "note")
HAND_KEYS = ("put_in", "winners", "took", "carry_in", "carry_out", "game", "note")


def refusals(data: object) -> list[Refusal]:
    """Every problem of a decoded document, in order (at most MAX_REFUSALS); an
    empty list means the document is accepted."""
    return _check(data)[1]


def read_session(data: object) -> PotSession:
    """A decoded document as a PotSession; DocumentRefused with its refusals if it has any."""
    session, found = _check(data)
    if session is None:
        raise DocumentRefused(found)
    return session


def settle_session(session: PotSession) -> PotResult:
    """Each player's money per hand and in all, and who pays whom. A session is
    checked as its document would be, so one built in code that does not
    balance is refused, never settled."""
    checked, found = _check(session_document(session))
    if checked is None:
        raise DocumentRefused(found)
    return settle_hands(checked)


def settle_document(data: object) -> dict[str, Any]:
    """The result object of a decoded document; DocumentRefused if it is refused."""
    return result_document(settle_session(read_session(data)))


def session_money(data: object) -> dict[str, Decimal]:
    """Each player's money in a decoded document, in seat order (what the
    family purse adds to a member's balance, §12); DocumentRefused if refused."""
    result = settle_session(read_session(data))
    return {
        player: money_decimal(amount)
        for player, amount in zip(result.players, result.money, strict=True)
    }


def result_document(result: PotResult) -> dict[str, Any]:
    """`{"money", "per_hand", "transfers"}`: every player in seat order, in
    each hand too (0.00 for a player the hand did not touch)."""

    def each(amounts: Sequence[int]) -> dict[str, str]:
        return {
            player: money_text(amount)
            for player, amount in zip(result.players, amounts, strict=True)
        }

    return {
        "money": each(result.money),
        "per_hand": [each(hand) for hand in result.per_hand],
        "transfers": [transfer.document() for transfer in result.transfers],
    }


def session_document(session: PotSession) -> dict[str, Any]:
    """A session as its `pot-session/1` document: each hand's put_in for the
    players who put something in (a player absent from a hand put in 0), its
    winners or what each took (those who took something), its carries when
    not 0."""
    players = session.players
    hands = []
    for hand in session.hands:
        item: dict[str, Any] = {}
        if hand.game is not None:
            item["game"] = hand.game
        # A put_in names at least one player: all of them, when nobody put anything in.
        item["put_in"] = _amounts(players, hand.put_in, every=not any(hand.put_in))
        if hand.carry_in:
            item["carry_in"] = money_text(hand.carry_in)
        # Both, or neither, when a hand built in code has them so: refused then.
        if hand.winners or hand.took is None:
            item["winners"] = [_seat(players, seat) for seat in hand.winners]
        if hand.took is not None:
            item["took"] = _amounts(players, hand.took, every=False)
        if hand.carry_out:
            item["carry_out"] = money_text(hand.carry_out)
        if hand.note is not None:
            item["note"] = hand.note
        hands.append(item)
    document: dict[str, Any] = {"format": FORMAT, "players": list(players), "hands": hands}
    if session.note is not None:
        document["note"] = session.note
    return document


def _seat(players: Sequence[str], seat: int) -> str:
    """A seat's name; a seat beyond the players keeps its number, so a hand
    built in code for the wrong table is refused."""
    return players[seat] if 0 <= seat < len(players) else f"seat {seat + 1}"


def _amounts(players: Sequence[str], amounts: Sequence[int], *, every: bool) -> dict[str, str]:
    return {
        _seat(players, seat): money_text(amount)
        for seat, amount in enumerate(amounts)
        if every or amount
    }


# --- the checks --------------------------------------------------------------------------------


@dataclass(slots=True)
class _HandRead:
    """What could be read of one hand: None where a part could not be."""

    put_in: dict[str, int] | None = None
    winners: list[str] | None = None
    took: dict[str, int] | None = None
    carry_in: int | None = 0
    carry_out: int | None = 0


def _check(data: object) -> tuple[PotSession | None, list[Refusal]]:
    found = Found(MAX_REFUSALS)
    try:
        session = _stages(data, found)
    except Enough:
        session = None
    return (session if not found.items else None), found.items


def _stages(data: object, found: Found) -> PotSession | None:
    if not isinstance(data, Mapping):
        found.add(
            refusal(
                "P_DOC",
                (),
                gettext_noop("a %(format)s document must be a JSON object, got %(value)s"),
                format=FORMAT,
                value=shown(data),
            )
        )
        return None
    if data.get("format") != FORMAT:
        found.add(
            refusal(
                "P_DOC",
                ("format",),
                gettext_noop("must be %(format)s, got %(value)s")
                if "format" in data
                else gettext_noop("missing (must be %(format)s)"),
                format=shown(FORMAT),
                value=shown(data.get("format")),
            )
        )
        return None
    for key in data:
        if key not in TOP_KEYS:
            found.add(refusal("P_DOC", (), gettext_noop("unknown key %(key)s"), key=shown(key)))
    if "note" in data and not isinstance(data["note"], str):
        found.add(
            refusal(
                "P_DOC",
                ("note",),
                gettext_noop("must be text, got %(value)s"),
                value=shown(data["note"]),
            )
        )
    players, problems = read_players(
        data.get("players"),
        low=MIN_PLAYERS,
        high=MAX_PLAYERS,
        code="P_PLAYERS",
        missing="players" not in data,
    )
    found.add(*problems)
    if found.items:
        return None
    raw = data.get("hands")
    if "hands" not in data:
        found.add(refusal("P_HANDS", ("hands",), gettext_noop("missing")))
        return None
    if not isinstance(raw, list) or not raw:
        found.add(
            refusal(
                "P_HANDS",
                ("hands",),
                gettext_noop("must be a list of at least one hand, got %(value)s"),
                value=shown(raw),
            )
        )
        return None
    if len(raw) > MAX_HANDS:
        found.add(
            refusal(
                "P_HANDS",
                ("hands",),
                gettext_noop("at most %(max)s hands in a session, got %(count)s"),
                max=f"{MAX_HANDS:,}",
                count=f"{len(raw):,}",
            )
        )
        return None
    hands: list[Hand | None] = []
    carried: int | None = 0  # what the hand before carried out; None: unknown
    for number, item in enumerate(raw, start=1):
        hand = _hand(item, number, players, carried, found)
        hands.append(hand)
        carried = hand.carry_out if hand is not None else _carry_out_of(item)
    if carried:  # the last hand's carry_out, when it could be read
        found.add(
            refusal(
                "P_CARRY",
                (hand_at(len(raw)), "carry_out"),
                gettext_noop(
                    "%(amount)s is left in the pot at the end: the last hand carries out 0.00"
                ),
                amount=money_text(carried),
            )
        )
    if found.items:
        return None
    note = data.get("note")
    return PotSession(
        players=players, hands=tuple(hand for hand in hands if hand is not None), note=note
    )


def _carry_out_of(item: object) -> int | None:
    """A refused hand's carry_out, if it can be read, to check the next hand's carry_in."""
    if not isinstance(item, Mapping):
        return None
    try:
        return cents(parse_money(item.get("carry_out", "0.00"), zero=True))
    except MoneyError:
        return None


def _hand(
    raw: object, number: int, players: tuple[str, ...], carried: int | None, found: Found
) -> Hand | None:
    """One hand; None (its refusals added) if it cannot be read or is refused."""
    where: Where = (hand_at(number),)
    if not isinstance(raw, Mapping):
        found.add(
            refusal(
                "P_HAND",
                where,
                gettext_noop("must be an object with put_in, and winners or took, got %(value)s"),
                value=shown(raw),
            )
        )
        return None
    before = len(found)
    _shape(raw, where, found)
    if len(found) > before:
        return None
    read = _HandRead()
    read.put_in = _money_of(raw["put_in"], (*where, "put_in"), players, found)
    if "winners" in raw:
        read.winners = _winners(raw["winners"], (*where, "winners"), players, found)
    else:
        read.took = _money_of(raw["took"], (*where, "took"), players, found)
    read.carry_in = _carry(raw, "carry_in", where, found)
    read.carry_out = _carry(raw, "carry_out", where, found)
    if len(found) > before:
        return None
    assert read.put_in is not None and read.carry_in is not None and read.carry_out is not None
    put_in = tuple(read.put_in.get(player, 0) for player in players)
    pot = sum(put_in) + read.carry_in
    if read.winners is not None:
        for name in read.winners:
            if not read.put_in.get(name):
                found.add(
                    refusal(
                        "P_WINNER_NOT_IN",
                        (*where, "winners"),
                        gettext_noop("%(name)s won but put nothing in this hand"),
                        name=name,
                    )
                )
    if not pot:
        found.add(
            refusal(
                "P_HAND",
                where,
                gettext_noop("the pot is empty: nothing was put in and nothing carried in"),
            )
        )
    elif read.winners is not None and read.carry_out >= pot:
        found.add(
            refusal(
                "P_CARRY",
                (*where, "carry_out"),
                gettext_noop(
                    "%(carry)s leaves nothing for the winners: it must be below the pot of %(pot)s"
                ),
                carry=money_text(read.carry_out),
                pot=money_text(pot),
            )
        )
    elif read.took is not None and sum(read.took.values()) + read.carry_out != pot:
        taken = sum(read.took.values())
        found.add(
            refusal(
                "P_NOT_ZERO_SUM",
                where,
                gettext_noop(
                    "took %(took)s and carry_out %(carry)s make %(total)s, not the pot of %(pot)s "
                    "(put in %(put)s, carry_in %(carry_in)s)"
                ),
                took=money_text(taken),
                carry=money_text(read.carry_out),
                total=money_text(taken + read.carry_out),
                pot=money_text(pot),
                put=money_text(sum(put_in)),
                carry_in=money_text(read.carry_in),
            )
        )
    if carried is not None and read.carry_in != carried:
        found.add(
            refusal(
                "P_CARRY",
                (*where, "carry_in"),
                gettext_noop(
                    "must be 0.00: the first hand starts with an empty pot, got %(amount)s"
                )
                if number == 1
                else gettext_noop(
                    "%(amount)s is not what hand %(before)s carried out (%(carried)s)"
                ),
                amount=money_text(read.carry_in),
                before=number - 1,
                carried=money_text(carried),
            )
        )
    if len(found) > before:
        return None
    winners = tuple(players.index(name) for name in read.winners or ())
    took = tuple(read.took.get(player, 0) for player in players) if read.took is not None else None
    game, note = raw.get("game"), raw.get("note")
    return Hand(
        put_in=put_in,
        winners=winners,
        took=took,
        carry_in=read.carry_in,
        carry_out=read.carry_out,
        game=game,
        note=note,
    )


def _shape(raw: Mapping[str, Any], where: Where, found: Found) -> None:
    """A hand's keys and the kind of each value (P_HAND)."""
    for key in raw:
        if key not in HAND_KEYS:
            found.add(refusal("P_HAND", where, gettext_noop("unknown key %(key)s"), key=shown(key)))
    if "put_in" not in raw:
        found.add(refusal("P_HAND", (*where, "put_in"), gettext_noop("missing")))
    elif not isinstance(raw["put_in"], Mapping) or not raw["put_in"]:
        found.add(
            refusal(
                "P_HAND",
                (*where, "put_in"),
                gettext_noop("must be an object of what each player put in, got %(value)s"),
                value=shown(raw["put_in"]),
            )
        )
    if ("winners" in raw) == ("took" in raw):
        found.add(
            refusal(
                "P_HAND",
                where,
                gettext_noop("has both winners and took: a hand has exactly one of them")
                if "winners" in raw
                else gettext_noop("has neither winners nor took: a hand has exactly one of them"),
            )
        )
    winners = raw.get("winners")
    if "winners" in raw:
        if not isinstance(winners, list) or not winners:
            found.add(
                refusal(
                    "P_HAND",
                    (*where, "winners"),
                    gettext_noop("must be a list of at least one player, got %(value)s"),
                    value=shown(winners),
                )
            )
        else:
            seen: set[str] = set()
            for name in winners:
                if not isinstance(name, str):
                    found.add(
                        refusal(
                            "P_HAND",
                            (*where, "winners"),
                            gettext_noop("must list players' names, got %(value)s"),
                            value=shown(name),
                        )
                    )
                    continue
                if name in seen:
                    found.add(
                        refusal(
                            "P_HAND",
                            (*where, "winners"),
                            gettext_noop("%(name)s is listed twice"),
                            name=shown(name),
                        )
                    )
                seen.add(name)
    if "took" in raw and not isinstance(raw["took"], Mapping):
        found.add(
            refusal(
                "P_HAND",
                (*where, "took"),
                gettext_noop("must be an object of what each player took out, got %(value)s"),
                value=shown(raw["took"]),
            )
        )
    for key in ("game", "note"):
        if key in raw and not isinstance(raw[key], str):
            found.add(
                refusal(
                    "P_HAND",
                    (*where, key),
                    gettext_noop("must be text, got %(value)s"),
                    value=shown(raw[key]),
                )
            )


def _unknown(name: str, where: Where, players: Sequence[str]) -> Refusal:
    other = same_name_as(name, players)
    if other is not None:
        return refusal(
            "P_UNKNOWN_PLAYER",
            where,
            gettext_noop(
                "%(name)s is not one of the players (did you mean %(other)s? names are exact)"
            ),
            name=shown(name),
            other=shown(other),
        )
    return refusal(
        "P_UNKNOWN_PLAYER",
        where,
        gettext_noop("%(name)s is not one of the players"),
        name=shown(name),
    )


def _money_of(
    raw: Mapping[str, Any], where: Where, players: Sequence[str], found: Found
) -> dict[str, int] | None:
    """A hand's put_in or took: player → paisa, or None (its refusals added)."""
    before = len(found)
    amounts: dict[str, int] = {}
    for name, value in raw.items():
        if name not in players:
            found.add(_unknown(name, where, players))
            continue
        try:
            amounts[name] = cents(parse_money(value, zero=True))
        except MoneyError as error:
            found.add(Refusal("P_MONEY", (*where, name), error.msg))
    return amounts if len(found) == before else None


def _winners(
    raw: list[str], where: Where, players: Sequence[str], found: Found
) -> list[str] | None:
    before = len(found)
    for name in raw:
        if name not in players:
            found.add(_unknown(name, where, players))
    return list(raw) if len(found) == before else None


def _carry(raw: Mapping[str, Any], key: str, where: Where, found: Found) -> int | None:
    if key not in raw:
        return 0
    try:
        return cents(parse_money(raw[key], zero=True))
    except MoneyError as error:
        found.add(Refusal("P_MONEY", (*where, key), error.msg))
        return None
