"""The phone's Call Break figures (static/js/callbreak.js) are the engine's:
every deal's scores in tenths, where the game ends and the ranks, on random
games under random house options (tests/callbreak/strategies.py). Node runs
the phone's copy (tests/js/callbreak_runner.mjs); Node missing is a failure,
never a skip."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings

from callbreak.engine import deal_refusals, read_game, settle_game
from callbreak.engine.game import deal_scores, game_end
from tests.callbreak.strategies import any_games
from tests.node_runner import run_node

CASES = 400
RUNNER = Path(__file__).parents[1] / "js" / "callbreak_runner.mjs"


def run(cases: list[dict[str, Any]]) -> list[Any]:
    return run_node(RUNNER, cases)


def case_of(document: dict[str, Any]) -> dict[str, Any]:
    players = document["players"]
    return {
        "rules": document.get("rules", {}),
        "deals": [
            {
                "bids": [deal["bids"][name] for name in players],
                "tricks": [deal["tricks"][name] for name in players],
            }
            for deal in document["deals"]
        ],
    }


def drawn_games(count: int) -> list[dict[str, Any]]:
    """`count` games drawn by Hypothesis, so that Node runs once for them all."""
    found: list[dict[str, Any]] = []

    @settings(
        max_examples=count, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    @given(any_games())
    def collect(document: dict[str, Any]) -> None:
        found.append(document)

    collect()
    return found


def test_the_phones_scores_ends_and_ranks_are_the_engines() -> None:
    games = drawn_games(CASES)
    assert len(games) >= CASES // 2
    answers = run([case_of(document) for document in games])
    for document, answer in zip(games, answers, strict=True):
        game = read_game(document)
        result = settle_game(game)
        expected_scores = [list(deal_scores(deal, game.rules)) for deal in game.deals]
        assert answer["deal_scores"] == expected_scores, document
        end = game_end(game.deals, game.rules)
        assert end is not None
        assert answer["end"] == {"played": end.deals_played, "thirteen_winner": end.thirteen_winner}
        assert answer["ranks"] == list(result.ranks), document


def test_unfinished_game_goes_on_on_the_phone() -> None:
    answers = run([{"rules": {}, "deals": [{"bids": [3, 4, 2, 3], "tricks": [4, 4, 1, 4]}]}])
    assert answers == [{"deal_scores": [[31, 40, -20, 31]], "end": None, "ranks": [2, 1, 4, 2]}]


# The phone's problem codes, as the engine's refusal codes.
CODES = {
    "bid": "E_BID",
    "tricks": "E_TRICKS",
    "tricks_short": "E_TRICKS_SUM",
    "tricks_over": "E_TRICKS_SUM",
    "bids_low": "E_BIDS_TOTAL",
    "bids_high": "E_BIDS_TOTAL",
}


def test_the_phones_checks_of_a_deal_are_the_engines() -> None:
    """Deals with any four calls and hands, good or not (-1 to 15), under any
    house options: the phone finds the problems the engine refuses, by code."""
    rng = random.Random(33)
    cases, expected = [], []
    for document in drawn_games(60):
        rules = read_game(document).rules
        deals = []
        for _ in range(20):
            deals.append(
                {
                    "bids": [rng.randint(-1, 15) for _ in range(4)],
                    "tricks": [rng.randint(-1, 15) for _ in range(4)],
                }
            )
        cases.append({"rules": document.get("rules", {}), "deals": deals, "check": True})
        players = ("A", "B", "C", "D")
        expected.append(
            [
                sorted(
                    {
                        refusal.code
                        for refusal in deal_refusals(
                            {
                                "bids": dict(zip(players, deal["bids"], strict=True)),
                                "tricks": dict(zip(players, deal["tricks"], strict=True)),
                            },
                            1,
                            players,
                            rules,
                        )
                    }
                )
                for deal in deals
            ]
        )
    answers = run(cases)
    for case, answer, engine in zip(cases, answers, expected, strict=True):
        phone = [sorted({CODES[code] for code in codes}) for codes in answer["problems"]]
        for deal, mine, theirs in zip(case["deals"], phone, engine, strict=True):
            assert mine == theirs, (case["rules"], deal)
