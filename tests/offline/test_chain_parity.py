"""Rounds kept on the phone settle as the server will settle them.

The round form shown after rounds kept on the phone (offline, not sent yet)
settles the new round after them: static/js/session-chain.js carries the
next-winner dhoos and the better defaults from round to round, starting from
the state the server gave the form (`offline_chain`: the number, the dhoos
pending, the rotation counter). Hypothesis generates sessions of saved rounds
followed by rounds kept on the phone, under every preset, some with next-winner
dhoos, better after a rotation and after a dublee win on top. The engine's
settle_session settles the whole session; the browser settles the kept rounds
from the state after the saved ones; every kept round's nets and better
default, and the state after the last (what the next form says and books),
must be the engine's. Node missing is a failure, never a skip.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engine import Entry, RoundError, RoundInput
from scoring.engine.rules import PRESETS, make_rules
from scoring.engine.settlement import BetterDefault, WinType, better_defaults, settle_session
from scoring.templatetags.offline import chain_state
from scoring.templatetags.offline import round_data as js_round  # as the page sends it
from tests.node_runner import node, run_node
from tests.strategies import LOOKING_BACK, overrides

RUNNER = Path(__file__).parents[1] / "js" / "chain_runner.mjs"
# Each test checks at least this many sessions per preset (the assertions
# after each draw say so: a session the rules refuse is not counted).
SESSIONS_PER_PRESET = 150
NAMES = ["Aama", "Buwa", "Didi", "Dai", "Bhai"]


@st.composite
def a_round(draw: st.DrawFn) -> RoundInput:
    """A playable round: 2 to 5 of the players, most rounds won, some with
    dhoos, dublees, tunnels or a better mark set by hand."""
    count = draw(st.integers(2, 5))
    players = draw(st.permutations(NAMES))[:count]
    winner = None if draw(st.integers(0, 9)) == 0 else draw(st.sampled_from(players))
    entries = []
    for name in players:
        seen = name == winner or draw(st.booleans())
        entries.append(
            Entry(
                name,
                "seen" if seen else "unseen",
                maal=draw(st.integers(0, 30)) if seen else draw(st.integers(0, 6)),
                tunnel=draw(st.sampled_from([0, 0, 0, 3, 5])),
                dhoos=draw(st.integers(0, 5)) == 0,
                dublees=seen and name != winner and draw(st.integers(0, 7)) == 0,
            )
        )
    win_type: WinType = "dublee" if winner and draw(st.integers(0, 5)) == 0 else "normal"
    better = draw(st.sampled_from([None, None, None, True, False]))
    return RoundInput(tuple(entries), winner=winner, win_type=win_type, better=better)


def default_of(default: BetterDefault) -> dict[str, Any]:
    return {
        "better": default.better,
        "rotation": default.rotation,
        "dublee": default.dublee,
        "rounds": default.rounds,
        "players": default.players,
        "since": default.since,
    }


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_rounds_kept_on_the_phone_settle_as_the_server_will(preset: str) -> None:
    node()
    cases: list[dict[str, Any]] = []

    @settings(
        max_examples=SESSIONS_PER_PRESET,
        database=None,
        derandomize=True,  # the same sessions on every run
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(
        options=overrides(names=LOOKING_BACK, favour_looking_back=True),
        saved=st.lists(a_round(), max_size=9),
        kept=st.lists(a_round(), min_size=1, max_size=5),
    )
    def collect(options: dict[str, Any], saved: list[RoundInput], kept: list[RoundInput]):
        rules = make_rules(preset, **options)
        try:
            whole = settle_session([*saved, *kept], rules)
            before = settle_session(saved, rules)
        except RoundError:
            return  # a round the rules refuse (too many players, a dublee win too small)
        number = len(saved) + 1
        start = chain_state(number, better_defaults(saved, rules)[-1], before.pending)
        cases.append(
            {
                "input": {
                    "rules": rules.to_options(),
                    "start": start,
                    "rounds": [js_round(r) for r in kept],
                },
                "nets": [result.nets for result in whole.rounds[len(saved) :]],
                "defaults": [
                    default_of(result.better_default)
                    for result in whole.rounds[len(saved) :]
                    if result.better_default is not None
                ],
                "pending": [
                    {"player": d.player, "amount": d.amount, "from": d.round} for d in whole.pending
                ],
                "next": default_of(whole.next_better),
                "number": len(saved) + len(kept) + 1,
            }
        )

    collect()
    assert len(cases) >= SESSIONS_PER_PRESET, len(cases)
    answers = run_node(RUNNER, [case["input"] for case in cases])
    booked = carried = 0
    for case, answer in zip(cases, answers, strict=True):
        where = json.dumps(case["input"])
        assert answer["nets"] == case["nets"], where
        assert answer["defaults"] == case["defaults"], where
        assert answer["state"]["pending"] == case["pending"], where
        assert answer["state"]["number"] == case["number"], where
        assert answer["next"] == case["next"], where
        carried += bool(case["input"]["start"]["pending"])
        booked += any(d["better"] for d in case["defaults"])
    # The cases that matter were really there: dhoos pending from the saved
    # rounds into the kept ones, and kept rounds better by default.
    assert carried > 5, carried
    assert booked > 5, booked


def test_the_issues_evening_under_nepal() -> None:
    """Round 1 saved: Didi given dhoos (15 to the next winner). Round 2 kept on
    the phone, won by Dai: the phone books Didi's 15 to Dai, as the server does
    once it arrives (Didi -14 and Dai +40 rather than +1 and +25)."""
    rules = make_rules("nepal")
    first = RoundInput(
        (
            Entry("Didi", "seen", 0, dhoos=True),
            Entry("Dai", "seen", 3),
            Entry("Aama", "seen", 0),
        ),
        winner="Aama",
    )
    second = RoundInput(
        (Entry("Didi", "seen", 5), Entry("Dai", "seen", 2), Entry("Aama", "seen", 4)),
        winner="Dai",
    )
    whole = settle_session([first, second], rules)
    before = settle_session([first], rules)
    start = chain_state(2, better_defaults([first], rules)[-1], before.pending)
    assert start["pending"] == [{"player": "Didi", "amount": 15, "from": 1}]
    answer = run_node(
        RUNNER,
        [{"rules": rules.to_options(), "start": start, "rounds": [js_round(second)]}],
        timeout=60,
    )[0]
    assert answer["nets"] == [whole.rounds[1].nets]
    alone = settle_session([replace(second)], rules).rounds[0].nets
    assert whole.rounds[1].nets["Didi"] == alone["Didi"] - 15
    assert whole.rounds[1].nets["Dai"] == alone["Dai"] + 15
    assert answer["state"]["pending"] == []


FOLLOWER = Path(__file__).parents[1] / "js" / "next_round_runner.mjs"
IDS = {name: str(index + 1) for index, name in enumerate(NAMES)}


def seated(round_: RoundInput, better: bool | None) -> RoundInput:
    """The round as the server keeps it: entries in seat order, and `better`."""
    entries = tuple(sorted(round_.entries, key=lambda e: NAMES.index(e.player)))
    return replace(round_, entries=entries, better=better)


def fields_of(round_: RoundInput) -> list[list[str]]:
    """What a round form sends for `round_` (scoring/forms/rounds.py)."""
    fields = []
    for e in round_.entries:
        prefix = f"p-{IDS[e.player]}-"
        fields += [[prefix + "plays", "on"], [prefix + "status", e.status]]
        fields += [[prefix + "maal", str(e.maal)], [prefix + "tunnel", str(e.tunnel or "")]]
        if e.dhoos:
            fields.append([prefix + "dhoos", "on"])
        if e.dublees:
            fields.append([prefix + "dublees", "on"])
    fields.append(["winner", IDS[round_.winner] if round_.winner else "none"])
    fields.append(["win_type", round_.win_type])
    if round_.better:
        fields.append(["better", "on"])
    return fields


def state_before(rounds: list[RoundInput], rules: Any) -> dict[str, Any]:
    return chain_state(
        len(rounds) + 1, better_defaults(rounds, rules)[-1], settle_session(rounds, rules).pending
    )


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_edits_kept_on_the_phone_move_the_next_round_as_the_server_will(preset: str) -> None:
    """Saved rounds, edits of some of them kept on the phone (the last edit of
    a round wins; a round's edit form sends its better mark), then new rounds
    kept there: next-round.js's follower settles the saved rounds from the
    latest window's start with the edits applied, then the new rounds; the
    next round's number, the dhoos pending before it and its better default
    are the engine's for the session once everything is sent."""
    node()
    cases: list[dict[str, Any]] = []

    @settings(
        max_examples=SESSIONS_PER_PRESET,
        database=None,
        derandomize=True,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(
        options=overrides(names=LOOKING_BACK, favour_looking_back=True),
        saved=st.lists(a_round(), min_size=1, max_size=8),
        edits=st.lists(st.tuples(st.integers(0, 7), a_round(), st.booleans()), max_size=3),
        kept=st.lists(st.tuples(a_round(), st.booleans()), max_size=3),
        window=st.integers(1, 8),
    )
    def collect(options, saved, edits, kept, window):
        rules = make_rules(preset, **options)
        saved = [seated(r, r.better) for r in saved]
        first = max(0, len(saved) - window)
        edits = [(i, seated(r, better)) for i, r, better in edits if first <= i < len(saved)]
        kept = [seated(r, better) for r, better in kept]
        final = list(saved)
        for index, round_ in edits:
            final[index] = round_
        try:
            start = state_before(saved, rules)
            window_start = state_before(saved[:first], rules)
            whole = settle_session([*final, *kept], rules)
        except RoundError:
            return
        records = [
            {"key": f"e{n}", "url": f"/sessions/1/rounds/{100 + i}/edit/", "fields": fields_of(r)}
            for n, (i, r) in enumerate(edits)
        ] + [
            {"key": f"n{n}", "url": "/sessions/1/rounds/new/", "fields": fields_of(r)}
            for n, r in enumerate(kept)
        ]
        data = {
            "start": start,
            "seats": NAMES,
            "players": [{"id": IDS[name], "name": name} for name in NAMES],
            "saved": {
                "start": window_start,
                "rounds": [
                    {"id": str(100 + first + i), "round": js_round(r)}
                    for i, r in enumerate(saved[first:])
                ],
            },
        }
        cases.append(
            {
                "input": {"rules": rules.to_options(), "data": data, "records": records},
                "number": len(final) + len(kept) + 1,
                "pending": [
                    {"player": d.player, "amount": d.amount, "from": d.round} for d in whole.pending
                ],
                "next": default_of(whole.next_better),
                "edited": bool(edits),
                "followed": bool(edits or kept),
            }
        )

    collect()
    assert len(cases) >= SESSIONS_PER_PRESET, len(cases)
    answers = run_node(FOLLOWER, [case["input"] for case in cases])
    # The same with the edits left out (what the form did before it followed them).
    unedited = run_node(
        FOLLOWER,
        [
            {
                **c["input"],
                "records": [r for r in c["input"]["records"] if "/edit/" not in r["url"]],
            }
            for c in cases
        ],
    )
    moved = 0
    for case, answer, without in zip(cases, answers, unedited, strict=True):
        where = json.dumps(case["input"])
        assert answer["state"]["number"] == case["number"], where
        assert answer["state"]["pending"] == case["pending"], where
        assert answer["default"] == case["next"], where
        assert answer["followed"] == case["followed"], where
        assert (answer["edits"] > 0) == case["edited"], where
        moved += case["edited"] and answer["state"] != without["state"]
    # Edits that change what the next round starts with were really there.
    assert moved > 3, moved
