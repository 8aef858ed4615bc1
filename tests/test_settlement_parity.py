"""One truth: the browser's settlement (static/js/settlement.js, used by the
offline preview) agrees with the engine to the point on generated rounds.

For each preset, hypothesis generates at least 1,000 rounds, valid and not, some
under the preset as it is and some with options changed on top. Each is settled
by the engine here; then the whole batch goes through Node in one run
(tests/js/settle_runner.mjs) and every figure is compared: nets, T, n, m, and per
player w, n·S, S, pay and dhoos; a round one side refuses the other must refuse,
naming the same field and player. Node missing is a failure, never a skip.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engine import rules as rules_module
from scoring.engine.rules import OPTION_NAMES, PRESETS, make_rules
from scoring.engine.settlement import Entry, RoundError, RoundInput, settle_round

RUNNER = Path(__file__).parent / "js" / "settle_runner.mjs"
ROUNDS_PER_PRESET = 1_000
NAMES = ["Aama", "Buwa", "Didi", "Dai", "Bhai", "Bahini", "Kaka", "Maiju", "Mama"]
ENTRY_FIELDS = {field.name for field in dataclasses.fields(Entry)}
# Options of the maal calculator (section 4) do not change a round's settlement.
SETTLEMENT_OPTIONS = [
    name
    for name in OPTION_NAMES
    if name not in {"maal_table", "alter", "printed_jokers", "printed_joker_value", "master_card"}
    and name != "master_card_value"
]


def node() -> str:
    path = shutil.which("node")
    if path is None:
        pytest.fail("node is missing: the settlement parity test needs Node.js (Debian: nodejs)")
    return path


def run_js(batch: list[dict[str, Any]]) -> list[dict[str, Any]]:
    done = subprocess.run(
        [node(), str(RUNNER)],
        input=json.dumps(batch),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@st.composite
def points(draw: st.DrawFn) -> Any:
    """Mostly table-sized points; sometimes the edges and what a bad file holds."""
    kind = draw(st.integers(0, 99))
    if kind < 85:
        return draw(st.integers(0, 60))
    if kind < 93:
        return draw(st.sampled_from([0, 9_999, 10_000, 10_001, -1, -7, 250]))
    return draw(st.sampled_from(["5", "", None, True, False]))


def rare(draw: st.DrawFn, percent: int) -> bool:
    return draw(st.integers(0, 99)) < percent


@st.composite
def entries(draw: st.DrawFn) -> list[dict[str, Any]]:
    count = draw(st.integers(0, 9) if rare(draw, 10) else st.integers(2, 6))
    names = draw(st.permutations(NAMES))[:count]
    if names and rare(draw, 3):
        names[-1] = names[0]  # a player twice
    if names and rare(draw, 2):
        names[0] = ""
    result = []
    for name in names:
        status: str | None = draw(st.sampled_from(["seen", "unseen"]))
        if rare(draw, 2):
            status = draw(st.sampled_from(["Seen", "", None]))
        entry: dict[str, Any] = {
            "player": name,
            "status": status,
            "maal": draw(points()),
            "tunnel": draw(points()) if rare(draw, 40) else 0,
            "dhoos": rare(draw, 15),
        }
        if rare(draw, 2):
            entry["dhoos"] = draw(st.sampled_from([None, "yes", 1]))
        if "dublees" in ENTRY_FIELDS:
            entry["dublees"] = status == "seen" and rare(draw, 20)
            if rare(draw, 3):
                entry["dublees"] = True  # also on an unseen player: refused
        result.append(entry)
    return result


@st.composite
def rounds(draw: st.DrawFn) -> dict[str, Any]:
    round_entries = draw(entries())
    names = [entry["player"] for entry in round_entries]
    seen = [e["player"] for e in round_entries if e["status"] == "seen"]
    if rare(draw, 12) or not names:
        winner = None
    elif rare(draw, 6):
        winner = draw(st.sampled_from([*names, "Ghost"]))  # maybe unseen, maybe absent
    else:
        winner = draw(st.sampled_from(seen or names))
    win_type = "dublee" if rare(draw, 20) else "normal"
    if rare(draw, 2):
        win_type = "triple"
    better: bool | str | None = rare(draw, 25)
    if rare(draw, 2):
        better = draw(st.sampled_from([None, "on"]))
    return {"entries": round_entries, "winner": winner, "win_type": win_type, "better": better}


@st.composite
def option_overrides(draw: st.DrawFn) -> dict[str, Any]:
    """Half the rounds under the preset itself, half with a few options changed."""
    if draw(st.booleans()):
        return {}
    chosen = draw(st.lists(st.sampled_from(SETTLEMENT_OPTIONS), max_size=4, unique=True))
    overrides: dict[str, Any] = {}
    for name in chosen:
        if name in rules_module._CHOICES:
            overrides[name] = draw(st.sampled_from(rules_module._CHOICES[name]))
        elif name in rules_module._BOOLS:
            overrides[name] = draw(st.booleans())
        elif name in rules_module._INT_RANGES:
            low, high = rules_module._INT_RANGES[name]
            overrides[name] = draw(st.integers(low, min(high, low + 25)))
    return overrides


def engine_round(round_: dict[str, Any]) -> RoundInput:
    return RoundInput(
        entries=tuple(Entry(**entry) for entry in round_["entries"]),
        winner=round_["winner"],
        win_type=round_["win_type"],
        better=round_["better"],
    )


def python_outcome(rules_options: dict[str, Any], round_: dict[str, Any]) -> dict[str, Any]:
    rules = make_rules(**rules_options)
    try:
        result = settle_round(engine_round(round_), rules)
    except RoundError as error:
        return {"error": {"field": error.field, "player": error.player}}
    return {
        "total": result.total,
        "n": result.n,
        "multiplier": result.multiplier,
        "players": [
            {
                "player": p.player,
                "points": p.points,
                "w": p.w,
                "n_s": p.n_s,
                "pay": p.pay,
                "dhoos_net": p.dhoos_net,
                "net": p.net,
            }
            for p in result.players
        ],
    }


def js_outcome(answer: dict[str, Any]) -> dict[str, Any]:
    if "error" in answer:
        return {"error": {"field": answer["error"]["field"], "player": answer["error"]["player"]}}
    result = answer["result"]
    keys = ("player", "points", "w", "n_s", "pay", "dhoos_net", "net")
    return {
        "total": result["total"],
        "n": result["n"],
        "multiplier": result["multiplier"],
        "players": [{key: p[key] for key in keys} for p in result["players"]],
    }


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_browser_settlement_agrees_with_the_engine(preset: str) -> None:
    node()  # fail at once, not after generating the rounds
    cases: list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]] = []

    @settings(
        max_examples=ROUNDS_PER_PRESET,
        database=None,
        derandomize=True,  # the same rounds on every CI run
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(overrides=option_overrides(), round_=rounds())
    def collect(overrides: dict[str, Any], round_: dict[str, Any]) -> None:
        options = {"preset": preset, **overrides}
        cases.append((options, round_, python_outcome(options, round_)))

    collect()
    assert len(cases) >= ROUNDS_PER_PRESET
    batch = []
    for options, round_, _ in cases:
        rules_options = dict(options)
        rules = make_rules(rules_options.pop("preset"), **rules_options)
        batch.append({"rules": rules.to_options(), "round": round_})
    answers = run_js(batch)
    assert len(answers) == len(cases)
    refused = 0
    for (options, round_, expected), answer in zip(cases, answers, strict=True):
        got = js_outcome(answer)
        assert got == expected, f"rules {options}, round {json.dumps(round_)}"
        refused += "error" in expected
    # Both kinds were really exercised.
    assert 0.1 * len(cases) < refused < 0.8 * len(cases), refused


def test_the_worked_example_in_the_browser() -> None:
    """RULES.md section 2's worked example, and its breakdown, in the browser module."""
    round_ = {
        "entries": [
            {"player": "A", "status": "seen", "maal": 5, "tunnel": 0, "dhoos": False},
            {"player": "B", "status": "unseen", "maal": 2, "tunnel": 0, "dhoos": False},
            {"player": "C", "status": "seen", "maal": 7, "tunnel": 0, "dhoos": False},
            {"player": "D", "status": "seen", "maal": 0, "tunnel": 0, "dhoos": False},
        ],
        "winner": "C",
        "win_type": "normal",
        "better": False,
    }
    [answer] = run_js([{"rules": PRESETS["pagat"].to_options(), "round": round_}])
    result = answer["result"]
    assert result["total"] == 14
    assert {p["player"]: p["pay"] for p in result["players"]} == {
        "A": -3,
        "B": 16,
        "C": 0,
        "D": 17,
    }
    assert {p["player"]: p["net"] for p in result["players"]} == {
        "A": 3,
        "B": -16,
        "C": 30,
        "D": -17,
    }


def test_a_refusal_carries_the_engines_message() -> None:
    round_ = {
        "entries": [
            {"player": "A", "status": "unseen", "maal": 5, "tunnel": 0, "dhoos": False},
            {"player": "B", "status": "seen", "maal": 2, "tunnel": 0, "dhoos": False},
        ],
        "winner": "A",
        "win_type": "normal",
        "better": False,
    }
    [answer] = run_js([{"rules": PRESETS["pagat"].to_options(), "round": round_}])
    assert answer["error"] == {
        "field": "status",
        "player": "A",
        "message": "the winner must be seen: ending the round means having shown the pure sets",
    }
