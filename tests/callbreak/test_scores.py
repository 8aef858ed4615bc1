"""A deal's score in tenths (CALLBREAK.md §5): the spec's examples, and every
option that changes a score, with exact figures."""

from __future__ import annotations

import pytest

from callbreak.engine import Rules, deal_score


@pytest.mark.parametrize(
    ("bid", "tricks", "tenths"),
    [
        (3, 3, 30),  # §5: made exactly
        (3, 5, 32),  # §5: two overtricks, 0.1 each
        (5, 3, -50),  # §5: failed, minus the bid
        (13, 13, 130),  # §5 and §8.2: 13 and no overtricks
        (1, 13, 22),  # one bid, twelve overtricks
        (4, 0, -40),
        (8, 7, -80),  # one short is the whole bid
    ],
)
def test_default_scores(bid, tricks, tenths):
    assert deal_score(bid, tricks) == tenths


def test_overtrick_tenths():
    assert deal_score(3, 5, Rules(overtrick_tenths=0)) == 30  # overtricks worth nothing
    assert deal_score(3, 5, Rules(overtrick_tenths=10)) == 50  # a whole point each
    assert deal_score(3, 5, Rules(overtrick_tenths=5)) == 40


def test_overtrick_cap():
    capped = Rules(overtrick_cap=2)
    assert [deal_score(3, tricks, capped) for tricks in (3, 4, 5, 6, 13)] == [30, 31, 32, 32, 32]
    assert deal_score(3, 9, Rules(overtrick_cap=0)) == 30
    assert deal_score(2, 9, Rules(overtrick_cap=12, overtrick_tenths=10)) == 90


def test_fail_penalty_shortfall():
    short = Rules(fail_penalty="shortfall")
    assert deal_score(5, 3, short) == -20
    assert deal_score(5, 0, short) == -50
    assert deal_score(5, 4, short) == -10
    assert deal_score(5, 5, short) == 50


def test_excess_fails_at_double():
    double = Rules(excess_fails="at_double")
    assert deal_score(3, 5, double) == 32
    assert deal_score(3, 6, double) == -30  # twice the bid
    assert deal_score(1, 2, double) == -10
    assert deal_score(3, 2, double) == -30  # failed as usual


def test_excess_fails_any():
    exact = Rules(excess_fails="any")
    assert deal_score(3, 3, exact) == 30
    assert deal_score(3, 4, exact) == -30
    assert deal_score(6, 13, exact) == -60


def test_too_many_tricks_costs_the_whole_bid_whatever_the_fail_penalty():
    rules = Rules(excess_fails="any", fail_penalty="shortfall")
    assert deal_score(3, 4, rules) == -30
    assert deal_score(3, 1, rules) == -20  # failing still costs the shortfall


@pytest.mark.parametrize(
    ("rules", "bid", "tricks", "tenths"),
    [
        (Rules(bonus_bid_threshold=8), 8, 8, 130),  # pagat: 13 flat
        (Rules(bonus_bid_threshold=8), 8, 11, 130),  # no overtricks on a bonus bid
        (Rules(bonus_bid_threshold=8), 7, 9, 72),  # below the threshold: as usual
        (Rules(bonus_bid_threshold=8), 9, 8, -90),  # a failed bonus bid: minus the bid
        (Rules(bonus_bid_threshold=8, bonus_bid_score="double"), 8, 8, 160),
        (Rules(bonus_bid_threshold=8, bonus_bid_score="double"), 13, 13, 260),  # §8.2
        (Rules(bonus_bid_threshold=13), 13, 13, 130),
        (Rules(bonus_bid_threshold=8, excess_fails="any"), 8, 10, 130),  # excess not applied
        (Rules(bonus_bid_threshold=5, fail_penalty="shortfall"), 6, 4, -20),
    ],
)
def test_bonus_bids(rules, bid, tricks, tenths):
    assert deal_score(bid, tricks, rules) == tenths


def test_min_bid_two_scores_like_any_bid():
    assert deal_score(2, 2, Rules(min_bid=2)) == 20
