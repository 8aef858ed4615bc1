"""Properties of the Call Break engine on random games under random options
(hypothesis), held to the long way round of tests/callbreak/reference.py:
the same scores, ranks, money and transfers; money that sums to exactly zero;
transfers that clear it in the fewest payments; ties that share places; and
results that depend on seat order only where the spec says so."""

from __future__ import annotations

import copy
from decimal import Decimal
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from callbreak.engine import (
    canonical_transfers,
    read_game,
    refusals,
    round_to_paisa,
    settle_document,
    settle_game,
)
from tests.callbreak import reference
from tests.callbreak.strategies import any_games

FAST = settings(max_examples=300, deadline=None)


def paisa(text: str) -> int:
    return int(Decimal(text) * 100)


@FAST
@given(any_games())
def test_the_engine_agrees_with_the_long_way_round(document):
    assert refusals(document) == []
    result = settle_document(document)
    expected = reference.settle(document)
    assert result["scores"] == expected["scores"]
    assert result["ranks"] == expected["ranks"]
    assert result["deal_scores"] == expected["deal_scores"]
    assert result["deals_played"] == expected["deals_played"] == len(document["deals"])
    assert settle_game(read_game(document)).exact == tuple(expected["exact"].values())
    assert result["money"] == expected["money"]
    assert [(t["from"], t["to"], paisa(t["amount"])) for t in result["transfers"]] == expected[
        "transfers"
    ]


@FAST
@given(any_games())
def test_money_sums_to_exactly_zero_and_the_transfers_are_the_fewest(document):
    result = settle_document(document)
    nets = {name: paisa(amount) for name, amount in result["money"].items()}
    assert sum(nets.values()) == 0
    assert "-0.00" not in result["money"].values()
    left = dict(nets)
    for transfer in result["transfers"]:
        amount = paisa(transfer["amount"])
        assert amount > 0
        assert nets[transfer["from"]] < 0 < nets[transfer["to"]]
        left[transfer["from"]] += amount
        left[transfer["to"]] -= amount
    assert set(left.values()) <= {0}
    assert len(result["transfers"]) == reference.fewest_transfers(list(nets.values()))


@FAST
@given(any_games())
def test_ties_share_places(document):
    result = settle_document(document)
    settled = settle_game(read_game(document))
    scores = result["scores"]
    thirteen = settled.thirteen_winner
    for one in scores:
        for other in scores:
            if scores[one] == scores[other] and thirteen not in (one, other):
                assert result["ranks"][one] == result["ranks"][other]
                seats = (settled.players.index(one), settled.players.index(other))
                assert settled.exact[seats[0]] == settled.exact[seats[1]]
                assert abs(paisa(result["money"][one]) - paisa(result["money"][other])) <= 1
    # Ranks are competition ranks: a shared rank skips the places it covers.
    ranks = sorted(result["ranks"].values())
    for place, rank in enumerate(ranks, start=1):
        assert rank == place or rank == ranks[place - 2]


@FAST
@given(any_games(), st.permutations(range(4)))
def test_seat_order_changes_only_who_gets_an_odd_paisa(document, order):
    """Seat order breaks ties only in rounding and transfers (§2): scores,
    ranks and the exact money of each player do not depend on it."""
    seated = copy.deepcopy(document)
    seated["players"] = [document["players"][seat] for seat in order]
    before, after = settle_document(document), settle_document(seated)
    assert before["scores"] == after["scores"]
    assert before["ranks"] == after["ranks"]
    exact_before = dict(
        zip(document["players"], settle_game(read_game(document)).exact, strict=True)
    )
    exact_after = dict(zip(seated["players"], settle_game(read_game(seated)).exact, strict=True))
    assert exact_before == exact_after
    for name in document["players"]:
        assert abs(paisa(before["money"][name]) - paisa(after["money"][name])) <= 1


@FAST
@given(any_games())
def test_no_float_anywhere_in_a_result(document):
    def walk(value: Any) -> None:
        assert not isinstance(value, float), value
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, (list, tuple)):
            for item in value:
                walk(item)

    walk(settle_document(document))
    settled = settle_game(read_game(document))
    walk(list(settled.scores) + list(settled.money))
    assert all(isinstance(amount, Fraction) for amount in (*settled.exact, *settled.units))


@FAST
@given(any_games(), st.data())
def test_a_deal_whose_tricks_do_not_total_13_is_named(document, data):
    number = data.draw(st.integers(1, len(document["deals"])))
    broken = copy.deepcopy(document)
    tricks = broken["deals"][number - 1]["tricks"]
    name = data.draw(st.sampled_from(sorted(tricks)))
    tricks[name] = (tricks[name] + data.draw(st.integers(1, 12))) % 14
    total = sum(tricks.values())
    assert [str(item) for item in refusals(broken)] == [
        f"E_TRICKS_SUM: deal {number}: tricks total {total}, not 13"
    ]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.integers(-5_000, 5_000), min_size=2, max_size=5))
def test_canonical_transfers_are_the_fewest_for_up_to_five_nets(values):
    nets = {f"P{seat}": value for seat, value in enumerate(values)}
    nets["P0"] -= sum(values)  # they sum to zero
    found = canonical_transfers(nets)
    assert len(found) == reference.fewest_transfers(list(nets.values()))
    assert [(t.payer, t.payee, t.amount) for t in found] == reference.canonical(nets)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.fractions(max_denominator=2_000), min_size=2, max_size=10))
def test_rounding_to_the_paisa_keeps_zero_and_stays_within_a_paisa(values):
    exact = [*values, -sum(values, Fraction(0))]
    rounded = round_to_paisa(exact)
    assert sum(rounded) == 0
    for amount, cents in zip(exact, rounded, strict=True):
        assert abs(amount * 100 - cents) < 1
    named = {f"P{seat}": amount for seat, amount in enumerate(exact)}
    assert rounded == list(reference.to_paisa(named).values())
