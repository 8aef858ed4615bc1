"""Reads of pot sessions: each hand's money and the running money per player,
worked out by the engine (pots/engine/), and a group's pot sessions as the
purse counts them (groups/purse.py).

A session at the table may end with its pot carried on to a hand not played
yet. That pot is no one's money until a hand takes it: the running money
counts every hand, and the purse counts the hands up to the last one that
left the pot empty, so a group's balances always add up to zero.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from django.db.models import QuerySet
from django.urls import reverse

from callbreak.engine.money import Transfer, canonical_transfers, money_decimal
from groups.purse import PurseGame
from scoring.selectors.snapshot import read_snapshot

from .engine import Hand, session_document, settle_session
from .engine import PotSession as PotValues
from .models import PotHand, PotHandChange, PotPlayer, PotSession


def _padded(values: Sequence[int] | None, seats: int) -> tuple[int, ...]:
    values = list(values or [])
    return tuple((values + [0] * seats)[:seats])


def engine_hands(hands: Sequence[PotHand], seats: int) -> list[Hand]:
    """The stored hands as the engine's, each carrying in what the one before carried out."""
    found: list[Hand] = []
    carry = 0
    for hand in hands:
        found.append(
            Hand(
                put_in=_padded(hand.put_in, seats),
                winners=tuple(hand.winners or ()),
                took=None if hand.took is None else _padded(hand.took, seats),
                carry_in=carry,
                carry_out=hand.carry_out,
                game=hand.game or None,
                note=hand.note or None,
            )
        )
        carry = hand.carry_out
    return found


def closed(hands: Sequence[Hand], seats: int) -> list[Hand]:
    """`hands`, and when the last carries a pot on, a hand that hands it back
    to the first seat: a session at the table checked as a finished one."""
    if hands and hands[-1].carry_out:
        carry = hands[-1].carry_out
        took = (carry, *([0] * (seats - 1)))
        return [*hands, Hand(put_in=(0,) * seats, took=took, carry_in=carry)]
    return list(hands)


@dataclass(frozen=True, slots=True)
class HandLine:
    hand: PotHand
    number: int
    pot: int  # paisa: put in and carried in
    carry_in: int
    money: tuple[int, ...]  # per seat, paisa
    running: tuple[int, ...]  # per seat, after this hand


@dataclass(frozen=True, slots=True)
class PotTable:
    session: PotSession
    players: list[PotPlayer]
    lines: list[HandLine]  # oldest first
    totals: tuple[int, ...]
    open_pot: int  # carried on to the next hand, not anyone's yet
    transfers: tuple[Transfer, ...]

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.players]

    @property
    def rows(self) -> list[tuple[PotPlayer, int]]:
        return list(zip(self.players, self.totals, strict=True))


def money_lines(hands: Sequence[PotHand], seats: int) -> list[HandLine]:
    values = engine_hands(hands, seats)
    running = [0] * seats
    lines = []
    for number, (stored, hand) in enumerate(zip(hands, values, strict=True), start=1):
        money = tuple(t - p for t, p in zip(hand.taken(), hand.put_in, strict=True))
        running = [r + m for r, m in zip(running, money, strict=True)]
        lines.append(HandLine(stored, number, hand.pot, hand.carry_in, money, tuple(running)))
    return lines


def pot_table(session: PotSession) -> PotTable:
    with read_snapshot():
        players = list(session.players.all())
        hands = list(session.hands.all())
    seats = len(players)
    lines = money_lines(hands, seats)
    totals = lines[-1].running if lines else (0,) * seats
    open_pot = hands[-1].carry_out if hands else 0
    found: tuple[Transfer, ...] = ()
    if not open_pot:
        found = tuple(
            canonical_transfers(dict(zip([p.name for p in players], totals, strict=True)))
        )
    return PotTable(session, players, lines, totals, open_pot, found)


def document_of(session: PotSession) -> dict[str, Any]:
    """The session as a `pot-session/1` document (its hands as played; one
    carrying a pot on at the end is refused by the engine as unfinished)."""
    players = list(session.players.all())
    hands = list(session.hands.all())
    values = PotValues(tuple(p.name for p in players), tuple(engine_hands(hands, len(players))))
    return session_document(values)


def settled_money(players: Sequence[str], hands: Sequence[PotHand]) -> dict[str, Decimal]:
    """Money per player over the hands up to the last one that left the pot
    empty (what the purse counts)."""
    return _closed_money(players, engine_hands(hands, len(players)))


def _closed_money(players: Sequence[str], values: Sequence[Hand]) -> dict[str, Decimal]:
    last = max((i for i, hand in enumerate(values) if not hand.carry_out), default=-1)
    totals = [0] * len(players)
    for hand in values[: last + 1]:
        for seat, (took, put) in enumerate(zip(hand.taken(), hand.put_in, strict=True)):
            totals[seat] += took - put
    return {name: money_decimal(amount) for name, amount in zip(players, totals, strict=True)}


def sessions_for(owner_id: int) -> QuerySet[PotSession]:
    return PotSession.objects.filter(owner_id=owner_id).select_related("group")


# Each pot session's money in the purse, under its version (moved by every
# write to its hands): after a hand is saved, a group page reads that one
# session's hands again and the rest as kept. A few hundred bytes each.
MONEY_KEPT = 20_000
_kept: OrderedDict[str, dict[str, Decimal]] = OrderedDict()
_kept_lock = threading.Lock()


def forget_money() -> None:
    with _kept_lock:
        _kept.clear()


def _hand_values(rows) -> list[Hand]:
    """(put_in, winners, took, carry_out) rows, in order, as the engine's hands."""
    found, carry = [], 0
    for put_in, winners, took, carry_out in rows:
        found.append(
            Hand(
                put_in=tuple(put_in),
                winners=tuple(winners or ()),
                took=None if took is None else tuple(took),
                carry_in=carry,
                carry_out=carry_out,
            )
        )
        carry = carry_out
    return found


def _money_of(session_ids: list[int]) -> dict[int, dict[str, Decimal]]:
    """The purse's money of each session (settled_money), in two queries."""
    players: dict[int, list[str]] = {i: [] for i in session_ids}
    seated = PotPlayer.objects.filter(session_id__in=session_ids).order_by("position", "id")
    for sid, name in seated.values_list("session_id", "name"):
        players[sid].append(name)
    hands: dict[int, list[tuple]] = {i: [] for i in session_ids}
    played = PotHand.objects.filter(session_id__in=session_ids).order_by("id")
    for sid, *row in played.values_list("session_id", "put_in", "winners", "took", "carry_out"):
        hands[sid].append(tuple(row))
    result = {}
    for sid in session_ids:
        seats = len(players[sid])
        values = [
            Hand(
                put_in=_padded(h.put_in, seats),
                winners=h.winners,
                took=None if h.took is None else _padded(h.took, seats),
                carry_in=h.carry_in,
                carry_out=h.carry_out,
            )
            for h in _hand_values(hands[sid])
        ]
        result[sid] = _closed_money(players[sid], values)
    return result


def group_games(group_id: int) -> Iterator[PurseGame]:
    """The group's pot sessions as the purse counts them: one query for the
    sessions and their versions; the hands read only of a session whose
    version is not kept yet."""
    sessions = list(
        PotSession.objects.filter(group_id=group_id)
        .order_by("played_on", "id")
        .values_list("id", "name", "played_on", "version", "updated_at")
    )
    if not sessions:
        return
    # With its stamp: an id SQLite gives again after a delete is another session.
    keys = {sid: f"{sid}.{version}.{stamp.timestamp()}" for sid, _n, _d, version, stamp in sessions}
    money: dict[int, dict[str, Decimal]] = {}
    with _kept_lock:
        for sid, key in keys.items():
            if key in _kept:
                _kept.move_to_end(key)
                money[sid] = _kept[key]
    missing = [sid for sid in keys if sid not in money]
    if missing:
        computed = _money_of(missing)
        with _kept_lock:
            for sid, amounts in computed.items():
                _kept[keys[sid]] = amounts
                money[sid] = amounts
            while len(_kept) > MONEY_KEPT:
                _kept.popitem(last=False)
    base = reverse("pot_list")
    for sid, name, played_on, _version, _stamp in sessions:
        yield PurseGame(
            kind="pots",
            key=f"pots-{sid}",
            name=name,
            played_on=played_on,
            money=money[sid],
            version=keys[sid],
            url=f"{base}{sid}/",
        )


def group_documents(group_id: int) -> Iterator[tuple[str, date, dict[str, Any]]]:
    """The group's pot sessions for its file: the hands up to the last that
    left the pot empty (a pot still carried on is not money yet)."""
    for session in PotSession.objects.filter(group_id=group_id).order_by("played_on", "id"):
        players = [p.name for p in session.players.all()]
        hands = list(session.hands.all())
        values = engine_hands(hands, len(players))
        last = max((i for i, hand in enumerate(values) if not hand.carry_out), default=-1)
        if last < 0:
            continue
        document = session_document(PotValues(tuple(players), tuple(values[: last + 1])))
        yield session.name, session.played_on, document


def changes_of(session: PotSession) -> QuerySet[PotHandChange]:
    return PotHandChange.objects.filter(session=session).select_related("user")


def check(players: Sequence[str], hands: Sequence[Hand]) -> None:
    """The engine's check of a session at the table; DocumentRefused."""
    settle_session(PotValues(tuple(players), tuple(closed(hands, len(players)))))


def hand_saved(user, key: str) -> bool:
    """Whether a one-time key has saved a hand already: its repeat is answered
    as the first save was, before the form is looked at (the pot has moved on
    since, and would refuse it now). A key kept with another kind of save is
    refused as reused (SaveKeyRefused)."""
    from scoring.selectors.saves import earlier_save, same_save

    earlier = earlier_save(user, key)
    if earlier is None:
        return False
    same_save(earlier, kind="pothand")
    return True
