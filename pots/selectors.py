"""Reads of pot sessions: each hand's money and the running money per player,
worked out by the engine (pots/engine/), and a group's pot sessions as the
purse counts them (groups/purse.py).

A session at the table may end with its pot carried on to a hand not played
yet. That pot is no one's money until a hand takes it: the running money
counts every hand, and the purse counts the hands up to the last one that
left the pot empty, so a group's balances always add up to zero.
"""

from __future__ import annotations

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
from .engine.hands import settle_hands
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
    seats = len(players)
    values = engine_hands(hands, seats)
    last = max((i for i, hand in enumerate(values) if not hand.carry_out), default=-1)
    counted = values[: last + 1]
    if not counted:
        return {name: Decimal("0.00") for name in players}
    result = settle_hands(PotValues(tuple(players), tuple(counted)))
    return {name: money_decimal(amount) for name, amount in zip(players, result.money, strict=True)}


def sessions_for(owner_id: int) -> QuerySet[PotSession]:
    return PotSession.objects.filter(owner_id=owner_id).select_related("group")


def group_games(group_id: int) -> Iterator[PurseGame]:
    """The group's pot sessions as the purse counts them (one query each for
    sessions, players and hands, however many sessions)."""
    sessions = list(PotSession.objects.filter(group_id=group_id).order_by("played_on", "id"))
    if not sessions:
        return
    ids = [s.pk for s in sessions]
    players: dict[int, list[str]] = {i: [] for i in ids}
    for sid, name in PotPlayer.objects.filter(session_id__in=ids).values_list("session_id", "name"):
        players[sid].append(name)
    hands: dict[int, list[PotHand]] = {i: [] for i in ids}
    for hand in PotHand.objects.filter(session_id__in=ids):
        hands[hand.session_id].append(hand)
    for session in sessions:
        yield PurseGame(
            kind="pots",
            key=f"pots-{session.pk}",
            name=session.name,
            played_on=session.played_on,
            money=settled_money(players[session.pk], hands[session.pk]),
            version=f"{session.pk}.{session.version}",
            url=reverse("pots:detail", args=[session.pk]),
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
