"""The phone's Call Break figures (static/js/callbreak.js) are the engine's:
every deal's scores in tenths, where the game ends and the ranks, on random
games under random house options (tests/callbreak/strategies.py). Node runs
the phone's copy (tests/js/callbreak_runner.mjs); Node missing is a failure,
never a skip."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings

from callbreak.engine import read_game, settle_game
from callbreak.engine.game import deal_scores, game_end
from tests.callbreak.strategies import any_games
from tests.offline.test_settlement_parity import node

CASES = 400
RUNNER = Path(__file__).parents[1] / "js" / "callbreak_runner.mjs"


def run(cases: list[dict[str, Any]]) -> list[Any]:
    done = subprocess.run(
        [node(), str(RUNNER)],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


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
