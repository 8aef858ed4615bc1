"""CALLBREAK.md worked the long way round, written apart from the engine and
sharing none of its code: the engine's results are compared with these.

- scores: §5's four rules, read from the document as it is;
- ranks: the players sorted by total, each taking the position of the first
  of its equals;
- by_rank and winner_takes: places handed out along the sorted order, every
  payer's payment split among the receivers one pair at a time;
- difference: every pair of players settling its difference;
- rounding: whole paisa handed out one at a time;
- transfers: §6.5's canonical list built again, and the fewest possible count
  found by trying every way to split the nets into groups.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

DEFAULTS: dict[str, Any] = {
    "min_bid": 1,
    "max_bid": 13,
    "overtrick_tenths": 1,
    "overtrick_cap": None,
    "excess_fails": "never",
    "fail_penalty": "bid",
    "bonus_bid_threshold": None,
    "bonus_bid_score": "thirteen",
    "thirteen_wins_game": False,
    "deals_per_game": 5,
    "target_score_tenths": None,
    "bids_total_min": None,
    "bids_total_max": None,
    "settlement": "by_rank",
    "rank_multipliers": [6, -1, -2, -3],
    "negative_pays_double": False,
    "big_win_tenths": None,
}


def score(bid: int, took: int, rules: dict[str, Any]) -> int:
    made = took >= bid
    if not made:
        short = bid - took
        return -(bid if rules["fail_penalty"] == "bid" else short) * 10
    threshold = rules["bonus_bid_threshold"]
    if threshold is not None and bid >= threshold:
        return 130 if rules["bonus_bid_score"] == "thirteen" else bid * 20
    extra = took - bid
    broke = {
        "never": False,
        "at_double": took >= bid + bid,
        "any": extra > 0,
    }[rules["excess_fails"]]
    if broke:
        return -bid * 10
    if rules["overtrick_cap"] is not None and extra > rules["overtrick_cap"]:
        extra = rules["overtrick_cap"]
    return bid * 10 + extra * rules["overtrick_tenths"]


def ranks(totals: dict[str, int], first: str | None) -> dict[str, int]:
    result: dict[str, int] = {}
    others = [name for name in totals if name != first]
    if first is not None:
        result[first] = 1
    ordered = sorted(others, key=lambda name: -totals[name])
    for name in ordered:
        equal = next(i for i, other in enumerate(ordered) if totals[other] == totals[name])
        result[name] = equal + 1 + (1 if first is not None else 0)
    return {name: result[name] for name in totals}


def by_rank(
    totals: dict[str, int], rank: dict[str, int], multipliers: Sequence[int], rules: dict[str, Any]
) -> dict[str, Fraction]:
    """Stakes won or paid: places along the order of ranks, each tie averaging
    the places it covers; each payer's payment split over the receivers pair by pair."""
    order = sorted(totals, key=lambda name: rank[name])
    place = {name: index for index, name in enumerate(order)}  # 0-based position
    share: dict[str, Fraction] = {}
    for name in order:
        tied = [other for other in order if rank[other] == rank[name]]
        covered = [multipliers[place[other]] for other in tied]
        share[name] = Fraction(sum(covered)) / len(covered)
    top = [name for name in totals if rank[name] == 1]
    doubled_all = rules["big_win_tenths"] is not None and totals[top[0]] >= rules["big_win_tenths"]
    receivers = [name for name in totals if share[name] > 0]
    weight = sum(share[name] for name in receivers)
    net = dict.fromkeys(totals, Fraction(0))
    for payer in totals:
        if share[payer] >= 0:
            continue
        pays = -share[payer]
        if rules["negative_pays_double"] and totals[payer] < 0:
            pays *= 2
        if doubled_all:
            pays *= 2
        for receiver in receivers:
            part = pays * share[receiver] / weight
            net[payer] -= part
            net[receiver] += part
    return net


def difference(totals: dict[str, int], stake: Fraction) -> dict[str, Fraction]:
    net = dict.fromkeys(totals, Fraction(0))
    for one in totals:
        for other in totals:
            if one != other:  # each pair settles once from either side
                net[one] += stake * Fraction(totals[one] - totals[other], 10)
    return net


def to_paisa(exact: dict[str, Fraction]) -> dict[str, int]:
    """Floor to the paisa, then one paisa at a time to the
    largest remainder not yet given one, earlier seat first."""
    floors: dict[str, int] = {}
    remainder: dict[str, Fraction] = {}
    for name, amount in exact.items():
        scaled = amount * 100
        floors[name] = math.floor(scaled)
        remainder[name] = scaled - floors[name]
    given: set[str] = set()
    while sum(floors.values()) < 0:
        best = None
        for name in exact:  # seat order: the first of the largest wins
            if name in given:
                continue
            if best is None or remainder[name] > remainder[best]:
                best = name
        assert best is not None
        floors[best] += 1
        given.add(best)
    return floors


def canonical(nets: dict[str, int]) -> list[tuple[str, str, int]]:
    left = dict(nets)
    names = list(nets)
    out: list[tuple[str, str, int]] = []
    while True:
        pairs = [
            (a, b)
            for i, a in enumerate(names)
            for b in names[i + 1 :]
            if left[a] != 0 and left[b] != 0 and left[a] == -left[b]
        ]
        if not pairs:
            break
        a, b = pairs[0]
        debtor, creditor = (a, b) if left[a] < 0 else (b, a)
        out.append((debtor, creditor, left[creditor]))
        left[a] = left[b] = 0
    while any(left.values()):
        debtor = sorted(names, key=lambda n: (left[n], names.index(n)))[0]
        creditor = sorted(names, key=lambda n: (-left[n], names.index(n)))[0]
        amount = min(-left[debtor], left[creditor])
        out.append((debtor, creditor, amount))
        left[debtor] += amount
        left[creditor] -= amount
    return out


def partitions(items: list[int]) -> Iterator[list[list[int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for smaller in partitions(rest):
        for index in range(len(smaller)):
            yield [*smaller[:index], [first, *smaller[index]], *smaller[index + 1 :]]
        yield [[first], *smaller]


def fewest_transfers(nets: Sequence[int]) -> int:
    """The fewest payments that clear `nets`, by brute force: the non-zero nets
    minus the most groups summing to zero that any partition of them has."""
    values = [value for value in nets if value]
    if not values:
        return 0
    best = max(
        sum(1 for group in partition if sum(group) == 0)
        if all(sum(group) == 0 for group in partition)
        else 0
        for partition in partitions(values)
    )
    return len(values) - best


def settle(document: dict[str, Any]) -> dict[str, Any]:
    """The graded keys of a valid document's result, the long way round."""
    rules = DEFAULTS | document.get("rules", {})
    players = document["players"]
    totals = dict.fromkeys(players, 0)
    per_deal = []
    first = None
    played = 0
    for item in document["deals"]:
        played += 1
        scores = {name: score(item["bids"][name], item["tricks"][name], rules) for name in players}
        per_deal.append(scores)
        for name in players:
            totals[name] += scores[name]
        if rules["thirteen_wins_game"]:
            thirteen = [n for n in players if item["bids"][n] == 13 and item["tricks"][n] == 13]
            if thirteen:
                first = thirteen[0]
                break
        if (
            rules["target_score_tenths"] is not None
            and max(totals.values()) >= rules["target_score_tenths"]
        ):
            break
        if played == rules["deals_per_game"]:
            break
    rank = ranks(totals, first)
    stake = Fraction(Decimal(document.get("stake", "0")))
    if rules["settlement"] == "none":
        exact = dict.fromkeys(players, Fraction(0))
    elif rules["settlement"] == "difference":
        exact = difference(totals, stake)
    else:
        multipliers = (
            [3, -1, -1, -1] if rules["settlement"] == "winner_takes" else rules["rank_multipliers"]
        )
        exact = {
            name: stake * units for name, units in by_rank(totals, rank, multipliers, rules).items()
        }
    paisa = to_paisa(exact)
    return {
        "scores": totals,
        "ranks": rank,
        "exact": exact,
        "paisa": paisa,
        "money": {name: _text(amount) for name, amount in paisa.items()},
        "transfers": canonical(paisa),
        "deal_scores": per_deal,
        "deals_played": played,
    }


def _text(paisa: int) -> str:
    return f"{Decimal(paisa).scaleb(-2):.2f}"
