"""Session totals, money and settle-up (RULES.md section 6)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal

# Exact settle-up looks at every subset of the non-zero balances; beyond this many
# it falls back to greedy matching, which may use a few more payments.
EXACT_SETTLE_LIMIT = 16
CENT = Decimal("0.01")  # a paisa: money is exact to it (a stake has two places)


@dataclass(frozen=True, slots=True)
class Transfer:
    """One payment at settle-up, in points; `money` gives it in the session's currency."""

    payer: str
    payee: str
    points: int

    def money(self, stake_per_point: Decimal) -> Decimal:
        return at_stake(self.points, stake_per_point)


def totals(nets: Iterable[Mapping[str, int]], players: Iterable[str] = ()) -> dict[str, int]:
    """Sum of round nets per player; `players` adds those who have not played yet."""
    result = {player: 0 for player in players}
    for round_nets in nets:
        for player, net in round_nets.items():
            result[player] = result.get(player, 0) + net
    return result


def money_by_round(rounds: Iterable[tuple[int, Decimal]]) -> Decimal:
    """Money of points won round by round: each round's points × the stake in
    force for that round, added up. Exact: Decimal, never float.

    The one place in the project where points become money: every page, file,
    CSV and the group's sums call it (through `at_stake` or `money`), and
    `tests/site/test_layout.py` finds no other multiplication by a stake. It
    takes a stake per round so that a stake changed from round N on needs no
    other function: pass each round's (points, stake). While a session has one
    stake, its points added up at that stake are the same figure, and a caller
    may pass that one pair. No rounds is 0.
    """
    total: Decimal | None = None
    for points, stake in rounds:
        amount = points * stake
        # The first amount as it is (its places, "-0.00" for a loss at stake
        # 0), as the single product was written before there was a sum.
        total = amount if total is None else total + amount
    return Decimal(0) if total is None else total


def at_stake(points: int, stake: Decimal) -> Decimal:
    """Points at one stake: `money_by_round` of a single (points, stake)."""
    return money_by_round(((points, stake),))


def money[K](points: Mapping[K, int], stake_per_point: Decimal) -> dict[K, Decimal]:
    """Each player's points at one stake (a session with one stake)."""
    return {player: at_stake(total, stake_per_point) for player, total in points.items()}


def stakes_in_force(stake: Decimal, changes: Iterable[Decimal | None]) -> list[Decimal]:
    """Each round's stake in force: the session's `stake` until a round carries
    its own (`changes`, one per round in order, None where the round keeps the
    stake before it), which holds from that round on."""
    in_force = []
    for change in changes:
        if change is not None:
            stake = change
        in_force.append(stake)
    return in_force


def money_totals[K](
    nets: Iterable[Mapping[K, int]],
    stakes: Iterable[Decimal],
    players: Iterable[K] = (),
    *,
    stake: Decimal,
) -> dict[K, Decimal]:
    """Each player's money over the rounds: every round's nets at its stake in
    force (`stakes`, one per round), through `money_by_round`. A player's points
    are added up per stake first, so an evening at one stake gives exactly
    `money(totals(nets), stake)`, as it did before a stake could change.
    `players` adds those who have not played yet, at the session's `stake`."""
    by_stake: dict[K, dict[Decimal, int]] = {player: {} for player in players}
    for round_nets, round_stake in zip(nets, stakes, strict=True):
        for player, net in round_nets.items():
            parts = by_stake.setdefault(player, {})
            parts[round_stake] = parts.get(round_stake, 0) + net
    return {
        player: money_by_round((points, at) for at, points in parts.items() or [(stake, 0)])
        for player, parts in by_stake.items()
    }


@dataclass(frozen=True, slots=True)
class Payment:
    """One payment at settle-up, in money; `points` when the evening had one
    stake (the payment in points too), None once the stake changed mid-evening."""

    payer: str
    payee: str
    points: int | None
    money: Decimal


def paisa(amount: Decimal) -> int:
    """Money as a whole number of its hundredths (a stake has two places and
    points are whole, so every amount is exact in paisa); refuses anything finer."""
    hundredths = amount.scaleb(2)
    if hundredths != hundredths.to_integral_value():
        raise ValueError(f"{amount} is not a whole number of hundredths")
    return int(hundredths)


def settle_money(balances: Mapping[str, Decimal]) -> list[Payment]:
    """The fewest payments, in money, that clear every balance (which must sum to
    zero): `settle_up` over whole paisa, so it is exact to the paisa."""
    transfers = settle_up({player: paisa(amount) for player, amount in balances.items()})
    return [
        Payment(t.payer, t.payee, None, Decimal(t.points).scaleb(-2).quantize(CENT))
        for t in transfers
    ]


def settle_evening(
    points: Mapping[str, int], amounts: Mapping[str, Decimal], stakes: Iterable[Decimal]
) -> list[Payment]:
    """An evening's settle-up: at one stake (`stakes`, the stake in force of each
    round), the fewest payments in points, each with its money, as always; once
    the stake changed mid-evening, the fewest payments over money (`amounts`,
    from `money_totals`), since equal points are no longer equal money."""
    distinct = set(stakes)
    if len(distinct) > 1:
        return settle_money(amounts)
    stake = next(iter(distinct), Decimal(0))
    return [Payment(t.payer, t.payee, t.points, t.money(stake)) for t in settle_up(points)]


def _zero_sum_groups(balances: list[int]) -> list[list[int]]:
    """Split the balances (indexes into `balances`) into the most disjoint groups
    that each sum to zero; the balances must sum to zero.

    Remove players one at a time from the full set down to nobody: the players
    removed between two zero-sum sets form a zero-sum group. best[mask] is the
    most zero-sum sets (mask included) such a chain can pass through from mask,
    so best[full] is the most groups; walking back along a best chain gives them.
    """
    count = len(balances)
    full = (1 << count) - 1
    sums = [0] * (1 << count)
    for mask in range(1, full + 1):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + balances[low]
    best = [0] * (1 << count)
    for mask in range(1, full + 1):
        top = 0
        rest = mask
        while rest:
            bit = rest & -rest
            rest ^= bit
            top = max(top, best[mask ^ bit])
        best[mask] = top + (1 if sums[mask] == 0 else 0)
    # Walk back from the full set, closing a group at every zero-sum mask.
    groups: list[list[int]] = []
    current: list[int] = []
    mask = full
    while mask:
        here = best[mask] - (1 if sums[mask] == 0 else 0)
        rest = mask
        while rest:
            bit = rest & -rest
            rest ^= bit
            if best[mask ^ bit] == here:
                current.append(bit.bit_length() - 1)
                mask ^= bit
                break
        if mask == 0 or sums[mask] == 0:
            groups.append(current)
            current = []
    return groups


def _settle_group(names: list[str], balances: list[int], members: list[int]) -> list[Transfer]:
    """At most len(members) − 1 payments: the biggest debtor pays the biggest creditor."""
    left = {i: balances[i] for i in members}
    transfers = []
    while True:
        debtors = sorted((i for i in left if left[i] < 0), key=lambda i: (left[i], names[i]))
        creditors = sorted((i for i in left if left[i] > 0), key=lambda i: (-left[i], names[i]))
        if not debtors or not creditors:
            break
        payer, payee = debtors[0], creditors[0]
        amount = min(-left[payer], left[payee])
        transfers.append(Transfer(names[payer], names[payee], amount))
        left[payer] += amount
        left[payee] -= amount
    return transfers


def settle_up(balances: Mapping[str, int]) -> list[Transfer]:
    """The fewest payments, in points, that clear every balance (which must sum to zero).

    Exact: the count is the number of non-zero balances minus the most disjoint
    groups that sum to zero. Payments are listed payer by payer, largest first.
    """
    if sum(balances.values()) != 0:
        raise ValueError(f"balances must sum to zero, they sum to {sum(balances.values())}")
    names = sorted(name for name, value in balances.items() if value)
    values = [balances[name] for name in names]
    if len(names) <= EXACT_SETTLE_LIMIT:
        groups = _zero_sum_groups(values)
    else:
        groups = [list(range(len(names)))]
    transfers = [t for group in groups for t in _settle_group(names, values, group)]
    return sorted(transfers, key=lambda t: (t.payer, -t.points, t.payee))
