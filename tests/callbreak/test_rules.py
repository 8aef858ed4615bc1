"""The 17 options of CALLBREAK.md §4: one `Rules` value, its defaults, every
option's range, and the options that do not go together, each refused with
its exact line."""

from __future__ import annotations

import dataclasses

import pytest

from callbreak.engine import OPTIONS, RuleError, Rules, refusals
from tests.callbreak.games import C01


def test_seventeen_options_with_the_specs_defaults():
    assert {name: option.default for name, option in OPTIONS.items()} == {
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
        "rank_multipliers": (6, -1, -2, -3),
        "negative_pays_double": False,
        "big_win_tenths": None,
    }
    assert Rules() == Rules(**{name: option.default for name, option in OPTIONS.items()})


def test_the_rules_are_one_frozen_value():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Rules().max_bid = 8
    assert Rules(max_bid=8) == Rules(max_bid=8)
    assert hash(Rules(max_bid=8)) == hash(Rules(max_bid=8))


def test_every_option_has_words_and_a_kind():
    for option in OPTIONS.values():
        assert option.label and option.help.endswith(".")
        assert option.kind in ("bool", "whole", "choice", "multipliers")
    assert OPTIONS["excess_fails"].choices == ("never", "at_double", "any")
    assert OPTIONS["settlement"].choices == ("by_rank", "winner_takes", "difference", "none")
    assert (OPTIONS["max_bid"].low, OPTIONS["max_bid"].high) == (8, 13)
    assert OPTIONS["overtrick_cap"].nullable and not OPTIONS["max_bid"].nullable
    assert OPTIONS["big_win_tenths"].only_with == ("by_rank", "winner_takes")
    assert OPTIONS["rank_multipliers"].only_with == ("by_rank",)


def first_line(**options) -> str:
    document = C01 | {"rules": options}
    found = refusals(document)
    assert found, options
    return str(found[0])


# Every option: a value it cannot take, and the line that refuses it.
@pytest.mark.parametrize(
    ("options", "line"),
    [
        ({"min_bid": 0}, "E_RULES: rules, min_bid: must be a whole number from 1 to 2, got 0"),
        ({"min_bid": 3}, "E_RULES: rules, min_bid: must be a whole number from 1 to 2, got 3"),
        (
            {"min_bid": None},
            "E_RULES: rules, min_bid: must be a whole number from 1 to 2, got null",
        ),
        ({"max_bid": 7}, "E_RULES: rules, max_bid: must be a whole number from 8 to 13, got 7"),
        ({"max_bid": 14}, "E_RULES: rules, max_bid: must be a whole number from 8 to 13, got 14"),
        (
            {"max_bid": 13.0},
            "E_RULES: rules, max_bid: must be a whole number from 8 to 13, got 13.0",
        ),
        (
            {"max_bid": "13"},
            'E_RULES: rules, max_bid: must be a whole number from 8 to 13, got "13"',
        ),
        (
            {"max_bid": True},
            "E_RULES: rules, max_bid: must be a whole number from 8 to 13, got true",
        ),
        (
            {"overtrick_tenths": 11},
            "E_RULES: rules, overtrick_tenths: must be a whole number from 0 to 10, got 11",
        ),
        (
            {"overtrick_cap": 13},
            "E_RULES: rules, overtrick_cap: must be null or a whole number from 0 to 12, got 13",
        ),
        (
            {"overtrick_cap": -1},
            "E_RULES: rules, overtrick_cap: must be null or a whole number from 0 to 12, got -1",
        ),
        (
            {"excess_fails": "double"},
            'E_RULES: rules, excess_fails: must be one of "never", "at_double", "any", '
            'got "double"',
        ),
        (
            {"fail_penalty": None},
            'E_RULES: rules, fail_penalty: must be one of "bid", "shortfall", got null',
        ),
        (
            {"bonus_bid_threshold": 4},
            "E_RULES: rules, bonus_bid_threshold: must be null or a whole number from 5 to 13, "
            "got 4",
        ),
        (
            {"bonus_bid_threshold": 8, "bonus_bid_score": "triple"},
            'E_RULES: rules, bonus_bid_score: must be one of "thirteen", "double", got "triple"',
        ),
        (
            {"thirteen_wins_game": 1},
            "E_RULES: rules, thirteen_wins_game: must be true or false, got 1",
        ),
        (
            {"deals_per_game": 0},
            "E_RULES: rules, deals_per_game: must be null or a whole number from 1 to 20, got 0",
        ),
        (
            {"deals_per_game": 21},
            "E_RULES: rules, deals_per_game: must be null or a whole number from 1 to 20, got 21",
        ),
        (
            {"deals_per_game": None, "target_score_tenths": 9},
            "E_RULES: rules, target_score_tenths: must be null or a whole number from 10 to "
            "10000, got 9",
        ),
        (
            {"bids_total_min": 3},
            "E_RULES: rules, bids_total_min: must be null or a whole number from 4 to 52, got 3",
        ),
        (
            {"bids_total_max": 53},
            "E_RULES: rules, bids_total_max: must be null or a whole number from 4 to 52, got 53",
        ),
        (
            {"settlement": "pairs"},
            'E_RULES: rules, settlement: must be one of "by_rank", "winner_takes", "difference", '
            '"none", got "pairs"',
        ),
        (
            {"rank_multipliers": [6, -1, -2]},
            "E_RULES: rules, rank_multipliers: must be a list of 4 whole numbers, got 3 items",
        ),
        (
            {"rank_multipliers": "6,-1,-2,-3"},
            'E_RULES: rules, rank_multipliers: must be a list of 4 whole numbers, got "6,-1,-2,-3"',
        ),
        (
            {"rank_multipliers": [6, -1, -2, -3.0]},
            "E_RULES: rules, rank_multipliers: must be a list of 4 whole numbers, got 4 items",
        ),
        (
            {"rank_multipliers": [6, -1, -2, -4]},
            "E_RULES: rules, rank_multipliers: must sum to 0, [6, -1, -2, -4] sums to -1",
        ),
        (
            {"rank_multipliers": [3, -1, 0, -2]},
            "E_RULES: rules, rank_multipliers: must not increase from 1st to 4th place, "
            "got [3, -1, 0, -2]",
        ),
        (
            {"rank_multipliers": [3000, -1000, -1000, -1000]},
            "E_RULES: rules, rank_multipliers: each must be from -1,000 to 1,000, "
            "got [3000, -1000, -1000, -1000]",
        ),
        (
            {"negative_pays_double": "yes"},
            'E_RULES: rules, negative_pays_double: must be true or false, got "yes"',
        ),
        (
            {"big_win_tenths": 9},
            "E_RULES: rules, big_win_tenths: must be null or a whole number from 10 to 10000, "
            "got 9",
        ),
        ({"preset": "pagat"}, 'E_RULES: rules: unknown option "preset"'),
    ],
)
def test_an_option_out_of_range_is_refused(options, line):
    assert first_line(**options) == line


# The options that do not go together (§4's cross-checks).
@pytest.mark.parametrize(
    ("options", "line"),
    [
        (
            {"max_bid": 10, "bonus_bid_threshold": 11},
            "E_RULES: rules, bonus_bid_threshold: 11 is above max_bid 10",
        ),
        (
            {"bonus_bid_score": "double"},
            "E_RULES: rules, bonus_bid_score: has no effect without a bonus_bid_threshold",
        ),
        (
            {"bonus_bid_score": "thirteen", "bonus_bid_threshold": None},
            "E_RULES: rules, bonus_bid_score: has no effect without a bonus_bid_threshold",
        ),
        (
            {"thirteen_wins_game": True, "max_bid": 12},
            "E_RULES: rules, thirteen_wins_game: needs max_bid 13, but max_bid is 12",
        ),
        (
            {"target_score_tenths": 300},
            "E_RULES: rules: a game ends by deals_per_game or by target_score_tenths: set "
            "exactly one of them (a target game sets deals_per_game to null)",
        ),
        (
            {"deals_per_game": None},
            "E_RULES: rules: a game ends by deals_per_game or by target_score_tenths: set "
            "exactly one of them (a target game sets deals_per_game to null)",
        ),
        (
            {"bids_total_min": 12, "bids_total_max": 11},
            "E_RULES: rules, bids_total_min: 12 is above bids_total_max 11",
        ),
        (
            {"settlement": "winner_takes", "rank_multipliers": [3, -1, -1, -1]},
            'E_RULES: rules, rank_multipliers: applies only to the "by_rank" settlement, '
            'not "winner_takes"',
        ),
        (
            {"settlement": "difference", "negative_pays_double": False},
            'E_RULES: rules, negative_pays_double: applies only to the "by_rank" or '
            '"winner_takes" settlement, not "difference"',
        ),
        (
            {"settlement": "none", "big_win_tenths": 200},
            'E_RULES: rules, big_win_tenths: applies only to the "by_rank" or "winner_takes" '
            'settlement, not "none"',
        ),
    ],
)
def test_options_that_do_not_go_together_are_refused(options, line):
    assert first_line(**options) == line


def test_every_problem_of_the_rules_is_named():
    found = refusals(C01 | {"rules": {"max_bid": 14, "colour": "red", "min_bid": 0}})
    assert [str(item) for item in found] == [
        "E_RULES: rules, max_bid: must be a whole number from 8 to 13, got 14",
        'E_RULES: rules: unknown option "colour"',
        "E_RULES: rules, min_bid: must be a whole number from 1 to 2, got 0",
    ]


def test_rules_must_be_an_object():
    assert [str(item) for item in refusals(C01 | {"rules": [1]})] == [
        "E_RULES: rules: must be an object, got […]"
    ]
    assert [str(item) for item in refusals(C01 | {"rules": None})] == [
        "E_RULES: rules: must be an object, got null"
    ]


def test_each_setting_that_applies_is_accepted():
    for options in (
        {"settlement": "winner_takes", "negative_pays_double": True, "big_win_tenths": 200},
        {"settlement": "by_rank", "rank_multipliers": [3, 0, -1, -2]},
        {"settlement": "by_rank", "rank_multipliers": [0, 0, 0, 0]},
        {"bonus_bid_threshold": 8, "bonus_bid_score": "thirteen"},
        {"bonus_bid_threshold": 13, "max_bid": 13, "thirteen_wins_game": True},
        {"bids_total_min": 4, "bids_total_max": 52},
        {"deals_per_game": 5, "target_score_tenths": None},
        {"min_bid": 1, "max_bid": 13, "overtrick_cap": None},
    ):
        assert refusals(C01 | {"rules": options}) == [], options


def test_rules_built_in_code_are_checked_too():
    with pytest.raises(RuleError, match=r"^max_bid: must be a whole number from 8 to 13, got 14$"):
        Rules(max_bid=14)
    with pytest.raises(RuleError, match=r"^thirteen_wins_game: needs max_bid 13"):
        Rules(max_bid=12, thirteen_wins_game=True)
    with pytest.raises(RuleError, match=r"^a game ends by deals_per_game or by target_score"):
        Rules(target_score_tenths=300)
    with pytest.raises(RuleError, match=r'^rank_multipliers: applies only to the "by_rank"'):
        Rules(settlement="difference", rank_multipliers=(3, -1, -1, -1))
    # In code an option is set when it is not its default: the default is fine anywhere.
    assert Rules(settlement="difference").rank_multipliers == (6, -1, -2, -3)


def test_to_options_writes_what_differs_and_reads_back():
    rules = Rules(deals_per_game=None, target_score_tenths=300, settlement="winner_takes")
    assert rules.to_options() == {
        "deals_per_game": None,
        "target_score_tenths": 300,
        "settlement": "winner_takes",
    }
    assert Rules().to_options() == {}
    assert Rules(rank_multipliers=(4, 0, -1, -3)).to_options() == {
        "rank_multipliers": [4, 0, -1, -3]
    }
    assert Rules(settlement="winner_takes").multipliers == (3, -1, -1, -1)
