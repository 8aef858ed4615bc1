"""Pot hands settled (CALLBREAK.md §9): what each player put into each pot and
took out of it, a split pot's odd paisa, and who pays whom at the end.

Pure: a `PotSession` of typed values in, a `PotResult` out. Money is whole
paisa (`int`) throughout: every amount of a document has at most two
decimals, and a split pot hands out its odd paisa one by one, so nothing is
ever rounded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from callbreak.engine.money import Transfer, canonical_transfers


@dataclass(frozen=True, slots=True)
class Hand:
    """One pot: what each seat put in (paisa, in seat order), and either the
    `winners` (seats) who split it or what each seat `took` out; what was
    carried in from the hand before and carried out to the next."""

    put_in: tuple[int, ...]
    winners: tuple[int, ...] = ()
    took: tuple[int, ...] | None = None
    carry_in: int = 0
    carry_out: int = 0
    game: str | None = None
    note: str | None = None

    @property
    def pot(self) -> int:
        return sum(self.put_in) + self.carry_in

    def taken(self) -> tuple[int, ...]:
        """What each seat took out: `took`, or the pot less what is carried out
        split equally among the winners, the odd paisa one each to the winners
        in seat order, earlier first."""
        if self.took is not None:
            return self.took
        return split(self.pot - self.carry_out, self.winners, len(self.put_in))


@dataclass(frozen=True, slots=True)
class PotSession:
    """A `pot-session/1` document as values."""

    players: tuple[str, ...]
    hands: tuple[Hand, ...]
    note: str | None = None


@dataclass(frozen=True, slots=True)
class PotResult:
    """Each player's money per hand and over the session (paisa, seat order),
    and who pays whom."""

    players: tuple[str, ...]
    per_hand: tuple[tuple[int, ...], ...]
    money: tuple[int, ...]
    transfers: tuple[Transfer, ...]


def split(amount: int, winners: Sequence[int], seats: int) -> tuple[int, ...]:
    """`amount` paisa shared equally by the `winners` (seats), the odd paisa one
    each to the earlier seats among them."""
    share, odd = divmod(amount, len(winners))
    order = sorted(winners)
    extra = set(order[:odd])
    return tuple(
        share + (1 if seat in extra else 0) if seat in order else 0 for seat in range(seats)
    )


def settle_hands(session: PotSession) -> PotResult:
    """Settle a session already checked (`potfile.settle_session` checks it first)."""
    per_hand = tuple(
        tuple(took - put for took, put in zip(hand.taken(), hand.put_in, strict=True))
        for hand in session.hands
    )
    money = tuple(sum(column) for column in zip(*per_hand, strict=True))
    return PotResult(
        players=session.players,
        per_hand=per_hand,
        money=money,
        transfers=tuple(canonical_transfers(dict(zip(session.players, money, strict=True)))),
    )
