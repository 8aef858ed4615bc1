"""The `callbreak-game/1` document (CALLBREAK.md §3, §7): every refusal code
with its exact line, the stages, document order, the end of the game (§6.1),
and the document read into values and written back."""

from __future__ import annotations

import copy
from decimal import Decimal
from typing import Any

import pytest

from callbreak.engine import (
    Deal,
    DocumentRefused,
    Game,
    Rules,
    game_document,
    game_money,
    read_game,
    refusals,
    settle_document,
    settle_game,
)
from tests.callbreak.games import C01, C03, PLAYERS, deal, game


def changed(path: str, value: Any, document: dict[str, Any] = C01) -> dict[str, Any]:
    """`document` with the value at a dotted path ("deals.3.tricks.Asha", 1-based
    deal numbers) set, or deleted when `value` is DELETE."""
    copied = copy.deepcopy(document)
    *parents, last = path.split(".")
    here: Any = copied
    for part in parents:
        here = here[int(part) - 1] if isinstance(here, list) else here[part]
    if value is DELETE:
        del here[last]
    elif isinstance(here, list):
        here[int(last) - 1] = value
    else:
        here[last] = value
    return copied


DELETE = object()


def lines(document: object) -> list[str]:
    return [str(item) for item in refusals(document)]


# Each code, the smallest change of C01 that earns it, and its exact line.
@pytest.mark.parametrize(
    ("document", "line"),
    [
        # Stage 1: the document.
        ([C01], "E_DOC: a callbreak-game/1 document must be a JSON object, got […]"),
        ("callbreak", 'E_DOC: a callbreak-game/1 document must be a JSON object, got "callbreak"'),
        (
            changed("format", "callbreak-game/2"),
            'E_DOC: format: must be "callbreak-game/1", got "callbreak-game/2"',
        ),
        (changed("format", DELETE), 'E_DOC: format: missing (must be "callbreak-game/1")'),
        (C01 | {"totals": {}}, 'E_DOC: unknown key "totals"'),
        (C01 | {"note": 2081}, "E_DOC: note: must be text, got 2081"),
        # Stage 2: the players.
        (changed("players", DELETE), "E_PLAYERS: players: missing"),
        (
            changed("players", "Asha, Bikash"),
            'E_PLAYERS: players: must be a list of names, got "Asha, Bikash"',
        ),
        (changed("players", PLAYERS[:3]), "E_PLAYERS: players: must name exactly 4 players, got 3"),
        (
            changed("players", [*PLAYERS, "Esha"]),
            "E_PLAYERS: players: must name exactly 4 players, got 5",
        ),
        (changed("players.2", ""), 'E_PLAYERS: players, player 2: must not be empty, got ""'),
        (changed("players.2", "   "), 'E_PLAYERS: players, player 2: must not be empty, got "   "'),
        (changed("players.2", 7), "E_PLAYERS: players, player 2: must be a name, got 7"),
        (
            changed("players.2", " Bikash"),
            'E_PLAYERS: players, player 2: " Bikash" has spaces before or after it',
        ),
        (
            changed("players.3", "asha"),
            'E_PLAYERS: players, player 3: "asha" is the same name as player 1, "Asha" '
            "(names must differ in more than case)",
        ),
        (
            changed("players.3", "Asha"),
            'E_PLAYERS: players, player 3: "Asha" is listed twice (as player 1 too)',
        ),
        (
            changed("players.3", "x" * 41),
            'E_PLAYERS: players, player 3: "xxxxxxxxxxxxxxxxxxxx…" is longer than 40 characters',
        ),
        (
            changed("players.3", "Cha\u200bndra"),
            "E_PLAYERS: players, player 3: Chandra contains an invisible character (U+200B, a "
            "zero-width or text-direction control); type the name again without it",
        ),
        # Stage 3: the rules (tests/callbreak/test_rules.py has every option).
        (
            C01 | {"rules": {"max_bid": 14}},
            "E_RULES: rules, max_bid: must be a whole number from 8 to 13, got 14",
        ),
        # Stage 4: the stake.
        (
            changed("stake", DELETE),
            'E_STAKE: stake: missing (a game has a stake unless its settlement is "none")',
        ),
        (changed("stake", "10.005"), 'E_STAKE: stake: at most 2 decimal places, got "10.005"'),
        (changed("stake", "-5"), 'E_STAKE: stake: must be more than 0, got "-5"'),
        (
            changed("stake", 10.5),
            'E_STAKE: stake: must be a money string such as "10.00", got 10.5',
        ),
        (changed("stake", 10), 'E_STAKE: stake: must be a money string such as "10.00", got 10'),
        (changed("stake", "0"), 'E_STAKE: stake: must be more than 0, got "0"'),
        (changed("stake", "0.00"), 'E_STAKE: stake: must be more than 0, got "0.00"'),
        (
            changed("stake", "1e3"),
            'E_STAKE: stake: must be a money string such as "10.00", got "1e3"',
        ),
        (
            changed("stake", " 10"),
            'E_STAKE: stake: must be a money string such as "10.00", got " 10"',
        ),
        (
            changed("stake", "१०"),
            'E_STAKE: stake: must be a money string such as "10.00", got "१०"',
        ),
        (
            changed("stake", "10000000.01"),
            'E_STAKE: stake: must be at most 10,000,000, got "10000000.01"',
        ),
        (
            changed("stake", None),
            'E_STAKE: stake: must be a money string such as "10.00", got null',
        ),
        # Stage 5: the deals.
        (changed("deals", DELETE), "E_DEALS: deals: missing"),
        (changed("deals", []), "E_DEALS: deals: must be a list of at least one deal, got […]"),
        (changed("deals", {}), "E_DEALS: deals: must be a list of at least one deal, got {…}"),
        (
            C01 | {"deals": C01["deals"][:4]},
            "E_DEALS: deals: the game is unfinished: 4 of its 5 deals recorded",
        ),
        (
            C01 | {"deals": [*C01["deals"], C01["deals"][0]]},
            "E_DEALS: deals: 6 deals recorded, but the game is 5 deals",
        ),
        (
            changed("deals.2", [1, 2]),
            "E_DEAL: deal 2: must be an object with bids and tricks, got […]",
        ),
        (
            changed("deals.2.score", 3),
            'E_DEAL: deal 2: unknown key "score" (a deal has only bids and tricks)',
        ),
        (changed("deals.2.bids", DELETE), "E_DEAL: deal 2, bids: missing"),
        (
            changed("deals.2.tricks", [4, 4, 1, 4]),
            "E_DEAL: deal 2, tricks: must be an object of each player's number, got […]",
        ),
        (
            changed("deals.3.bids", {"Asha": 3, "Bikash": 1, "Chandra": 1, "Dipak": 1}),
            'E_UNKNOWN_PLAYER: deal 3, bids: "Dipak" is not one of the players',
        ),
        (
            changed("deals.3.tricks", {"Asha": 2, "Bikash": 9, "Chandra": 2, "dipa": 0}),
            'E_UNKNOWN_PLAYER: deal 3, tricks: "dipa" is not one of the players (did you mean '
            '"Dipa"? names are exact)',
        ),
        (
            changed("deals.3.tricks.Dipa", DELETE),
            "E_MISSING_PLAYER: deal 3, tricks: no entry for Dipa",
        ),
        (
            changed("deals.1.bids.Asha", 0),
            "E_BID: deal 1, bids, Asha: must be a whole number from 1 to 13, got 0",
        ),
        (
            changed("deals.1.bids.Asha", 14),
            "E_BID: deal 1, bids, Asha: must be a whole number from 1 to 13, got 14",
        ),
        (
            changed("deals.1.bids.Asha", 3.0),
            "E_BID: deal 1, bids, Asha: must be a whole number from 1 to 13, got 3.0",
        ),
        (
            changed("deals.1.bids.Asha", "3"),
            'E_BID: deal 1, bids, Asha: must be a whole number from 1 to 13, got "3"',
        ),
        (
            changed("deals.1.bids.Asha", True),
            "E_BID: deal 1, bids, Asha: must be a whole number from 1 to 13, got true",
        ),
        (
            changed("deals.1.bids.Asha", None),
            "E_BID: deal 1, bids, Asha: must be a whole number from 1 to 13, got null",
        ),
        (
            changed("deals.1.tricks.Asha", -1),
            "E_TRICKS: deal 1, tricks, Asha: must be a whole number from 0 to 13, got -1",
        ),
        (
            changed("deals.1.tricks.Asha", 14),
            "E_TRICKS: deal 1, tricks, Asha: must be a whole number from 0 to 13, got 14",
        ),
        (changed("deals.3.tricks.Bikash", 8), "E_TRICKS_SUM: deal 3: tricks total 12, not 13"),
        (changed("deals.3.tricks.Bikash", 10), "E_TRICKS_SUM: deal 3: tricks total 14, not 13"),
        (
            C01 | {"rules": {"bids_total_min": 9}},
            "E_BIDS_TOTAL: deal 3: bids total 6, below the least of 9 (bids_total_min)",
        ),
        (
            C01 | {"rules": {"bids_total_max": 11}},
            "E_BIDS_TOTAL: deal 1: bids total 12, above the most of 11 (bids_total_max)",
        ),
    ],
)
def test_each_refusal_and_its_line(document, line):
    assert lines(document)[0] == line
    with pytest.raises(DocumentRefused) as refused:
        settle_document(document)
    assert str(refused.value) == line


def test_a_wrong_format_stops_at_once():
    document = {"format": "marriage-session/1", "players": [], "deals": 5, "extra": 1}
    assert lines(document) == [
        'E_DOC: format: must be "callbreak-game/1", got "marriage-session/1"'
    ]


def test_stages_1_to_3_are_all_checked_and_then_stop():
    document = C01 | {"extra": 1, "players": ["Asha"], "rules": {"max_bid": 99}, "stake": "x"}
    document["deals"] = "no deals"
    assert lines(document) == [
        'E_DOC: unknown key "extra"',
        "E_PLAYERS: players: must name exactly 4 players, got 1",
        "E_RULES: rules, max_bid: must be a whole number from 8 to 13, got 99",
    ]


def test_stages_4_and_5_report_every_problem_in_document_order():
    document = copy.deepcopy(C01)
    document["stake"] = "ten"
    document["deals"][0]["bids"]["Chandra"] = 0
    document["deals"][0]["tricks"]["Dipa"] = 5  # a total of 14
    document["deals"][2] = "skip"
    document["deals"][3]["tricks"]["Dipak"] = document["deals"][3]["tricks"].pop("Dipa")
    document["deals"][4]["bids"]["Asha"] = 14
    assert lines(document) == [
        'E_STAKE: stake: must be a money string such as "10.00", got "ten"',
        "E_BID: deal 1, bids, Chandra: must be a whole number from 1 to 13, got 0",
        "E_TRICKS_SUM: deal 1: tricks total 14, not 13",
        'E_DEAL: deal 3: must be an object with bids and tricks, got "skip"',
        'E_UNKNOWN_PLAYER: deal 4, tricks: "Dipak" is not one of the players',
        "E_MISSING_PLAYER: deal 4, tricks: no entry for Dipa",
        "E_BID: deal 5, bids, Asha: must be a whole number from 1 to 13, got 14",
    ]


def test_tricks_come_before_bids_when_the_document_says_so():
    first = C01["deals"][0]
    document = changed(
        "deals.1", {"tricks": first["tricks"] | {"Asha": 0}, "bids": first["bids"] | {"Asha": 0}}
    )
    assert lines(document) == [
        "E_TRICKS_SUM: deal 1: tricks total 9, not 13",
        "E_BID: deal 1, bids, Asha: must be a whole number from 1 to 13, got 0",
    ]


def test_a_total_is_checked_only_when_all_four_values_are_valid():
    document = changed("deals.1.tricks.Asha", 20)  # total 29, but one value is bad
    assert lines(document) == [
        "E_TRICKS: deal 1, tricks, Asha: must be a whole number from 0 to 13, got 20"
    ]
    document = changed("deals.1.bids.Asha", 0, C01 | {"rules": {"bids_total_max": 5}})
    assert (
        lines(document)[0]
        == "E_BID: deal 1, bids, Asha: must be a whole number from 1 to 13, got 0"
    )
    assert "E_BIDS_TOTAL: deal 1" not in " ".join(lines(document))


def test_a_deal_shape_problem_hides_its_values():
    document = changed("deals.2", {"bids": {"Asha": 99}, "tricks": [], "score": 1})
    assert lines(document) == [
        'E_DEAL: deal 2: unknown key "score" (a deal has only bids and tricks)',
        "E_DEAL: deal 2, tricks: must be an object of each player's number, got […]",
    ]


def test_a_bid_range_follows_the_rules():
    rules = {"min_bid": 2, "max_bid": 8}
    assert lines(C03 | {"rules": rules | {"deals_per_game": 2}}) == [
        "E_BID: deal 2, bids, Asha: must be a whole number from 2 to 8, got 1"
    ]


def test_the_end_of_the_game_is_checked_only_when_the_deals_read():
    # Four deals of five is unfinished, but a bad deal is named instead of the end.
    document = changed(
        "deals.2.tricks.Asha",
        7,
        C01 | {"deals": C01["deals"][:4], "rules": {"thirteen_wins_game": True}},
    )
    assert lines(document) == ["E_TRICKS_SUM: deal 2: tricks total 14, not 13"]


# --- the end of the game (§6.1) ------------------------------------------------------------

THIRTEEN = deal([13, 1, 1, 1], [13, 0, 0, 0])


def test_thirteen_ends_the_game_at_once():
    document = game(C01["deals"][0], THIRTEEN, deals_per_game=5, thirteen_wins_game=True)
    result = settle_document(document)
    assert result["deals_played"] == 2
    assert result["scores"] == {"Asha": 161, "Bikash": 30, "Chandra": -30, "Dipa": 21}
    # A deal after it is refused, naming it.
    after = game(
        C01["deals"][0], THIRTEEN, C01["deals"][1], deals_per_game=5, thirteen_wins_game=True
    )
    assert lines(after) == [
        "E_DEALS: deal 3: recorded after the game ended: Asha called and took all 13 in deal 2 "
        "(1 deals too many)"
    ]


def test_fewer_deals_with_thirteen_on_and_no_thirteen_is_unfinished():
    document = game(*C01["deals"][:3], deals_per_game=5, thirteen_wins_game=True)
    assert lines(document) == [
        "E_DEALS: deals: the game is unfinished: 3 of its 5 deals recorded, and nobody called "
        "and took all 13"
    ]


def test_a_target_game_ends_after_the_deal_that_reaches_it():
    # After deal 1 the top total is 40; after deal 2, Asha has 91.
    document = game(*C01["deals"][:2], target_score_tenths=90)
    assert settle_document(document)["deals_played"] == 2
    assert lines(game(*C01["deals"][:3], target_score_tenths=90)) == [
        "E_DEALS: deal 3: recorded after the game ended: a total reached the target of 9.0 in "
        "deal 2 (1 deals too many)"
    ]
    assert lines(game(*C01["deals"][:2], target_score_tenths=92)) == [
        "E_DEALS: deals: the game is unfinished: after 2 deals nobody's total has reached the "
        "target of 9.2"
    ]


def test_the_target_counts_exactly_reaching_it():
    assert settle_document(game(*C01["deals"][:2], target_score_tenths=91))["deals_played"] == 2


def test_a_target_game_can_be_long_but_not_endless():
    # Dipa's total goes 1.0, 0.0, 1.0 …; the others lose 5 points a deal.
    low = [deal([5, 5, 5, 1], [4, 4, 4, 1]), deal([5, 5, 5, 5], [4, 3, 3, 3])]
    document = game(*low * 500, target_score_tenths=10_000)
    assert lines(document) == [
        "E_DEALS: deals: the game is unfinished: after 1000 deals nobody's total has reached the "
        "target of 1000.0"
    ]
    assert lines(game(*low * 500, low[0], target_score_tenths=10_000)) == [
        "E_DEALS: deals: at most 1,000 deals in a game, got 1,001"
    ]


def test_settlement_none_needs_no_stake_but_a_given_one_is_checked():
    document = changed("stake", DELETE, C01 | {"rules": {"settlement": "none"}})
    result = settle_document(document)
    assert result["money"] == dict.fromkeys(PLAYERS, "0.00") and result["transfers"] == []
    assert lines(changed("stake", "0", document | {"stake": "1"})) == [
        'E_STAKE: stake: must be more than 0, got "0"'
    ]


def test_no_more_than_a_hundred_refusals():
    document = copy.deepcopy(C01)
    document["deals"][0]["bids"] |= {f"Guest {n}": 1 for n in range(500)}
    found = lines(document)
    assert len(found) == 100
    assert found[0] == 'E_UNKNOWN_PLAYER: deal 1, bids: "Guest 0" is not one of the players'


def test_a_name_is_exact_in_bids_and_tricks():
    """§8.9: names are case-sensitive keys; "Dipa" and "dipa" are never two players."""
    document = changed("deals.1.bids", {"Asha": 3, "Bikash": 4, "Chandra": 2, "DIPA": 3})
    assert lines(document) == [
        'E_UNKNOWN_PLAYER: deal 1, bids: "DIPA" is not one of the players (did you mean "Dipa"? '
        "names are exact)",
        "E_MISSING_PLAYER: deal 1, bids: no entry for Dipa",
    ]


# --- values in, values out ----------------------------------------------------------------


def test_a_document_read_as_values_and_written_back():
    document = C01 | {"note": "Dashain 2081, at Thulo Aama's"}
    read = read_game(document)
    assert read.players == tuple(PLAYERS)
    assert read.stake == Decimal("10.00")
    assert read.rules == Rules()
    assert read.deals[0] == Deal(bids=(3, 4, 2, 3), tricks=(4, 4, 1, 4))
    assert game_document(read) == document
    assert read_game(game_document(read)) == read


def test_a_game_built_in_code_is_checked_before_it_is_settled():
    good = read_game(C01)
    assert settle_game(good).scores == (72, 71, 54, 135)
    broken = Game(
        players=good.players,
        deals=(*good.deals[:2], Deal(bids=(1, 1, 1, 1), tricks=(3, 3, 3, 3)), *good.deals[3:]),
        rules=good.rules,
        stake=good.stake,
    )
    with pytest.raises(DocumentRefused) as refused:
        settle_game(broken)
    assert refused.value.lines() == ["E_TRICKS_SUM: deal 3: tricks total 12, not 13"]
    wrong_table = Game(
        players=good.players,
        deals=(Deal(bids=(1, 1, 1, 1, 1), tricks=(3, 3, 3, 3, 1)),) * 5,
        stake=good.stake,
    )
    with pytest.raises(DocumentRefused) as refused:
        settle_game(wrong_table)
    assert (
        str(refused.value) == 'E_UNKNOWN_PLAYER: deal 1, bids: "seat 5" is not one of the players'
    )


def test_game_money_for_the_purse():
    assert game_money(C01) == {
        "Asha": Decimal("-10.00"),
        "Bikash": Decimal("-20.00"),
        "Chandra": Decimal("-30.00"),
        "Dipa": Decimal("60.00"),
    }
    with pytest.raises(DocumentRefused, match=r"^E_STAKE: stake: missing"):
        game_money(changed("stake", DELETE))


def test_the_limits_are_one_value_checked_before_the_work():
    """docs/callbreak.md lists these; a list over its bound is refused before its
    items are looked at."""
    from callbreak.engine import LIMITS
    from pots.engine import LIMITS as POT_LIMITS

    assert (LIMITS.document_bytes, LIMITS.json_depth, LIMITS.name_length) == (12 * 1024**2, 20, 40)
    assert (LIMITS.players_low, LIMITS.players_high, LIMITS.items) == (4, 4, 1_000)
    assert (POT_LIMITS.players_low, POT_LIMITS.players_high, POT_LIMITS.items) == (2, 10, 1_000)
    assert LIMITS.money == POT_LIMITS.money == Decimal("10000000")
    assert lines(changed("players", [{"a": 1}] * 100_000)) == [
        "E_PLAYERS: players: must name exactly 4 players, got 100,000"
    ]
