"""One truth: the browser's settlement (static/js/settlement.js, used by the
offline preview) agrees with the engine to the point on generated rounds.

For each preset, hypothesis generates at least 1,000 rounds, valid and not, some
under the preset as it is and some with options changed on top. Each is settled
by the engine here; then the whole batch goes through Node in one run
(tests/js/settle_runner.mjs) and every figure is compared: nets, T, n, m, and per
player w, n·S, S, pay and dhoos, and each player's notes (message ids and values,
in order); a round one side refuses the other must refuse, naming the same field
and player with the same message, and both list the same problems in the same
order (round_problems, the preview's list of everything to fix); and each
player's payment in words (static/js/breakdown-words.js against
scoring/words/breakdown_words.py) is the same, word for word, in English and Nepali.
Some rounds come with next-winner dhoos pending before them. The ids the
browser gives must be the engine's, so that the page's catalogue
(`offline_catalogue`) has their Nepali. Node missing is a failure, never a skip.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engine.messages import Message
from scoring.engine.rules import OPTION_NAMES, OPTIONS, PRESETS, Rules, make_rules
from scoring.engine.settlement import (
    Dhoos,
    Entry,
    RoundError,
    RoundInput,
    round_problems,
    settle_round,
)
from scoring.templatetags.offline import offline_catalogue, offline_number_format, rules_data
from scoring.words.breakdown_words import MINUS_PLAYERS, outside_sentence, round_sentences
from scoring.words.offline_words import ENGINE_IDS, PHRASES
from tests.node_runner import node, run_node
from tests.site.test_i18n import engine_msgids
from tests.strategies import overrides

RUNNER = Path(__file__).parents[1] / "js" / "settle_runner.mjs"
ROUNDS_PER_PRESET = 1_000
NAMES = ["Aama", "Buwa", "Didi", "Dai", "Bhai", "Bahini", "Kaka", "Maiju", "Mama"]
ENTRY_FIELDS = {field.name for field in dataclasses.fields(Entry)}
# Options of the maal calculator (section 4) do not change a round's settlement.
SETTLEMENT_OPTIONS = [name for name in OPTION_NAMES if OPTIONS[name].settles]


def run_js(
    batch: list[dict[str, Any]], words: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """The batch settled by settlement.js; with `words` ({language: {catalogue,
    format}}), each result's payments in words in each language too."""
    return run_node(RUNNER, {"batch": batch, "words": words} if words else batch)


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


def pending_dhoos(draw: st.DrawFn, names: list[str]) -> list[dict[str, Any]]:
    """Next-winner dhoos pending before the round: booked, lapsed (its player won)
    or still waiting (no winner, or its player is not in this round)."""
    return [
        {
            "player": draw(st.sampled_from([*names, "Ghost"])),
            "amount": draw(st.integers(1, 60)),
            "from": draw(st.integers(1, 30)),
        }
        for _ in range(draw(st.integers(1, 3)) if names and rare(draw, 20) else 0)
    ]


@st.composite
def valid_rounds(draw: st.DrawFn, rules: Rules) -> dict[str, Any]:
    """A round `rules` settle, by construction: two players up to the rules'
    limit, well-typed table-sized figures, a seen winner (or none), a dublee win
    only with the players the rules ask, dublees only on a seen player."""
    count = draw(st.integers(2, min(6, rules.max_players)))
    names = draw(st.permutations(NAMES))[:count]
    round_entries = []
    for index, name in enumerate(names):
        status = "seen" if index == 0 else draw(st.sampled_from(["seen", "unseen"]))
        entry: dict[str, Any] = {
            "player": name,
            "status": status,
            "maal": draw(st.integers(0, 60)),
            "tunnel": draw(st.integers(0, 60)) if rare(draw, 40) else 0,
            "dhoos": rare(draw, 15),
        }
        if "dublees" in ENTRY_FIELDS:
            entry["dublees"] = status == "seen" and rare(draw, 20)
        round_entries.append(entry)
    seen = [e["player"] for e in round_entries if e["status"] == "seen"]
    winner = None if rare(draw, 10) else draw(st.sampled_from(seen))
    dublee = winner is not None and count >= rules.dublee_min_players and rare(draw, 20)
    return {
        "entries": round_entries,
        "winner": winner,
        "win_type": "dublee" if dublee else "normal",
        "better": rare(draw, 25),
        "pending": pending_dhoos(draw, names),
    }


@st.composite
def rounds(draw: st.DrawFn) -> dict[str, Any]:
    """Any round a phone might send, bad ones included."""
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
    return {
        "entries": round_entries,
        "winner": winner,
        "win_type": win_type,
        "better": better,
        "pending": pending_dhoos(draw, names),
    }


def engine_round(round_: dict[str, Any]) -> RoundInput:
    return RoundInput(
        entries=tuple(Entry(**entry) for entry in round_["entries"]),
        winner=round_["winner"],
        win_type=round_["win_type"],
        better=round_["better"],
    )


def engine_pending(round_: dict[str, Any]) -> list[Dhoos]:
    return [Dhoos(d["player"], d["amount"], d["from"]) for d in round_["pending"]]


def said(text: Message) -> dict[str, Any]:
    """A message as settlement.js gives it: {id, params}."""
    return {"id": text.id, "params": dict(text.params)}


LANGUAGES = ("en", "ne")


def page_words() -> dict[str, Any]:
    """What a round form page gives the phone for its words, per language."""
    words = {}
    for language in LANGUAGES:
        with translation.override(language):
            words[language] = {
                "catalogue": json.loads(offline_catalogue()),
                "format": json.loads(offline_number_format()),
            }
    return words


def python_outcome(rules_options: dict[str, Any], round_: dict[str, Any]) -> dict[str, Any]:
    rules = make_rules(**rules_options)
    try:
        result = settle_round(engine_round(round_), rules, pending=engine_pending(round_))
    except RoundError as error:
        return {"error": {"field": error.field, "player": error.player, **said(error.problem)}}
    sentences: dict[str, dict[str, Any]] = {}
    for language in LANGUAGES:
        with translation.override(language):
            sentences[language] = dict(round_sentences(result))
            outside = [outside_sentence(owed) for owed in result.dhoos_outside]
            if outside:
                sentences[language]["(outside)"] = outside
    return {
        "sentences": sentences,
        "total": result.total,
        "n": result.n,
        "multiplier": result.multiplier,
        # RULES.md 3a: T_seen and k, and the nets of players who sit the round out
        # (a next_round_winner dhoos booked from them).
        "total_seen": result.total_seen,
        "seen_count": result.seen_count,
        "nets": result.nets,
        "outside": [
            {"player": d.player, "amount": d.amount, "from": d.round} for d in result.dhoos_outside
        ],
        "players": [
            {
                "player": p.player,
                "points": p.points,
                "w": p.w,
                "n_s": p.n_s,
                "pay": p.pay,
                "dhoos_net": p.dhoos_net,
                "net": p.net,
                "notes": [said(note) for note in p.notes],
                "seen_only": p.seen_only,
                "dead_hand": p.dead_hand,
            }
            for p in result.players
        ],
    }


def js_outcome(answer: dict[str, Any]) -> dict[str, Any]:
    if "error" in answer:
        error = answer["error"]
        return {"error": {key: error[key] for key in ("field", "player", "id", "params")}}
    result = answer["result"]
    keys = (
        *("player", "points", "w", "n_s", "pay", "dhoos_net", "net", "notes"),
        *("seen_only", "dead_hand"),
    )
    return {
        "sentences": answer["sentences"],
        "total": result["total"],
        "n": result["n"],
        "multiplier": result["multiplier"],
        "total_seen": result["total_seen"],
        "seen_count": result["seen_count"],
        "nets": result["nets"],
        "outside": result["outside"],
        "players": [{key: p[key] for key in keys} for p in result["players"]],
    }


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_browser_settlement_agrees_with_the_engine(preset: str) -> None:
    node()  # fail at once, not after generating the rounds
    cases: list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]] = []
    valid: list[bool] = []  # whether each case is a round valid by construction

    @settings(
        max_examples=ROUNDS_PER_PRESET,
        database=None,
        derandomize=True,  # the same rounds on every CI run
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(overrides=overrides(at_most=4, near=25, anywhere=False), data=st.data())
    def collect(overrides: dict[str, Any], data: st.DataObject) -> None:
        options = {"preset": preset, **overrides}
        # About half the rounds valid under these rules by construction, the
        # rest any round a phone might send.
        is_valid = data.draw(st.booleans())
        if is_valid:
            round_ = data.draw(valid_rounds(make_rules(preset, **overrides)))
        else:
            round_ = data.draw(rounds())
        cases.append((options, round_, python_outcome(options, round_)))
        valid.append(is_valid)

    collect()
    assert len(cases) >= ROUNDS_PER_PRESET
    batch = []
    for options, round_, _ in cases:
        rules_options = dict(options)
        rules = make_rules(rules_options.pop("preset"), **rules_options)
        round_ = dict(round_)
        booked = round_.pop("pending")
        # As the round form's page gives them: the options' schema and the values.
        batch.append({"rules": rules_data(rules), "round": round_, "booked": booked})
    answers = run_js(batch, page_words())
    assert len(answers) == len(cases)
    refused = 0
    refused_valid = 0
    errors: set[str] = set()
    notes: set[str] = set()
    listed = 0
    for (options, round_, expected), answer, is_valid in zip(cases, answers, valid, strict=True):
        got = js_outcome(answer)
        assert got == expected, f"rules {options}, round {json.dumps(round_)}"
        refused += "error" in expected
        refused_valid += is_valid and "error" in expected
        # Every problem at once (the preview's list), the same and in the same order.
        rules_options = dict(options)
        rules = make_rules(rules_options.pop("preset"), **rules_options)
        problems = [
            {"field": e.field, "player": e.player, **said(e.problem)}
            for e in round_problems(engine_round(round_), rules)
        ]
        assert answer["problems"] == problems, f"rules {options}, round {json.dumps(round_)}"
        listed += len(problems) > 1
        if "error" in got:
            errors.add(got["error"]["id"])
        else:
            notes |= {note["id"] for p in got["players"] for note in p["notes"]}
    # Both kinds were really exercised, and notes with them: the valid rounds
    # all settle (so at least as many settle as were built valid), and the
    # others give refusals; neither count depends on how many options there are.
    assert refused_valid == 0, refused_valid
    assert sum(valid) > 0.3 * len(cases), sum(valid)
    assert refused > 0.1 * len(cases), refused
    assert listed > 0.02 * len(cases), listed  # rounds with more than one problem
    assert len(notes) >= 3, notes
    # Every id the browser gave is one the page's catalogue carries.
    assert sorted((errors | notes) - set(ENGINE_IDS)) == []


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


def test_the_browser_takes_each_default_from_the_engines_schema() -> None:
    """settlement.js keeps no copy of the defaults: an option the page's values
    omit takes the default of the schema the engine declares."""
    round_ = table(*FOUR_ROUND, winner="C")
    data = rules_data(PRESETS["pagat"])
    answers = run_js(
        [
            {"rules": {**data, "values": {}}, "round": round_},
            {"rules": PRESETS["pagat"].to_options(), "round": round_},
        ]
    )
    assert answers[0]["result"] == answers[1]["result"]
    assert {p["player"]: p["net"] for p in answers[0]["result"]["players"]} == {
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
        "id": "the winner must be seen: ending the round means having shown the pure sets",
        "params": {},
    }


def player(
    name: str,
    status: Any = "seen",
    maal: Any = 0,
    tunnel: Any = 0,
    dhoos: Any = False,
    dublees: Any = False,
) -> dict[str, Any]:
    return {
        "player": name,
        "status": status,
        "maal": maal,
        "tunnel": tunnel,
        "dhoos": dhoos,
        "dublees": dublees,
    }


def table(*entries: dict[str, Any], **given: Any) -> dict[str, Any]:
    """A round of `entries`; winner, win_type, better and pending as given."""
    round_ = {"winner": None, "win_type": "normal", "better": False, "pending": [], **given}
    return {"entries": list(entries), **round_}


FOUR = (player("A", maal=5), player("B", maal=2), player("C", maal=7), player("D"))
FOUR_ROUND = (player("A", maal=5), player("B", "unseen", 2), player("C", maal=7), player("D"))

# Hand-made rounds that give every note and every refusal settlement.js knows:
# some are rare among the generated rounds (a dhoos paid to the winner, a winner
# with no entry, too few players for a dublee win).
EXAMPLES: list[tuple[dict[str, Any], dict[str, Any]]] = [
    (
        # murder, tunnel pachaunu, dhoos voids maal, better, a dublee win, one who
        # saw by dublees, next-winner dhoos booked from one player and lapsing for
        # the winner; the dhoos of this round paid to all.
        {"preset": "nepal", "dhoos_payee": "all"},
        table(
            player("A", maal=5),
            player("B", "unseen", maal=4, tunnel=3),
            player("C", maal=2, dublees=True),
            player("D", "unseen", maal=1, tunnel=2, dhoos=True),
            winner="A",
            win_type="dublee",
            better=True,
            pending=[
                {"player": "C", "amount": 7, "from": 2},
                {"player": "A", "amount": 15, "from": 3},
                {"player": "Ghost", "amount": 15, "from": 3},
            ],
        ),
    ),
    (
        {"preset": "kidnap", "dhoos_payee": "winner"},
        table(
            player("A", maal=3), player("B", "unseen", maal=6), player("C", dhoos=True), winner="A"
        ),
    ),
    ({"preset": "nepal"}, table(*FOUR[:3], player("D", dhoos=True), winner="C")),
    ({"preset": "pagat"}, table(*FOUR, winner="Ghost")),
    ({"preset": "pagat"}, table(player("A", maal=10_001), *FOUR[1:], winner="C")),
    ({"preset": "pagat"}, table(*FOUR, win_type="dublee")),
    ({"preset": "pagat", "dublee_min_players": 4}, table(*FOUR[:3], winner="C", win_type="dublee")),
    ({"preset": "pagat"}, table(player("A", "unseen"), *FOUR[1:], winner="A", win_type="dublee")),
    ({"preset": "pagat"}, table(player("A", "unseen"), *FOUR[1:], winner="A")),
    ({"preset": "pagat"}, table(player("A"), winner="A")),
    ({"preset": "pagat"}, table(*FOUR, player("A"), winner="C")),
    ({"preset": "pagat"}, table(*FOUR, player("E"), player("F"), winner="C")),
    ({"preset": "pagat"}, table(player(""), *FOUR[1:], winner="C")),
    ({"preset": "pagat"}, table(player("A", maal="5"), *FOUR[1:], winner="C")),
    ({"preset": "pagat"}, table(*FOUR, winner="C", win_type="triple")),
    ({"preset": "pagat"}, table(player("A", "Seen"), *FOUR[1:], winner="C")),
    ({"preset": "pagat"}, table(player("A", dhoos="yes"), *FOUR[1:], winner="C")),
    ({"preset": "pagat"}, table(player("A", maal=-1), *FOUR[1:], winner="C")),
    ({"preset": "pagat"}, table(player("A", "unseen", dublees=True), *FOUR[1:], winner="C")),
    # RULES.md 3a: two unseen players who do not settle with each other, a dead
    # hand (its points to the winner), a dublee player bonus, and a dhoos booked
    # under next_round_winner from a player who sits the round out.
    (
        {
            "preset": "pagat",
            "unseen_pairs": "skip",
            "dhoos_pays_total": True,
            "dublee_player_bonus": 2,
            "dhoos_payee": "next_round_winner",
        },
        table(
            player("A", maal=20),
            player("B", maal=10, dublees=True),
            player("C", "unseen", maal=5),
            player("D", "unseen", maal=0),
            player("E", maal=4, dhoos=True),
            winner="A",
            pending=[{"player": "Ghost", "amount": 9, "from": 1}],
        ),
    ),
]


def test_every_note_and_refusal_of_the_browser_says_what_the_engine_says() -> None:
    """Each id settlement.js can give, reached at least once, with the engine's
    values: the notes of the offline preview are the server preview's."""
    batch = []
    for options, round_ in EXAMPLES:
        rules_options = dict(options)
        rules = make_rules(rules_options.pop("preset"), **rules_options)
        js_round = {k: v for k, v in round_.items() if k != "pending"}
        batch.append({"rules": rules.to_options(), "round": js_round, "booked": round_["pending"]})
    ids: set[str] = set()
    for (options, round_), answer in zip(EXAMPLES, run_js(batch, page_words()), strict=True):
        expected = python_outcome(options, round_)
        assert js_outcome(answer) == expected, f"rules {options}, round {json.dumps(round_)}"
        if "error" in expected:
            ids.add(expected["error"]["id"])
        else:
            ids |= {note["id"] for p in expected["players"] for note in p["notes"]}
    assert sorted(set(ENGINE_IDS) - ids) == []
    assert sorted(ids - set(ENGINE_IDS)) == []


def test_every_note_and_message_of_the_browser_is_the_engines() -> None:
    """Each id settlement.js can give (the offline catalogue's table of them,
    scoring/words/offline_words.py) is a message the engine marks: a renamed or reworded id
    could never be translated, and the preview would leave its note out."""
    ids = set(ENGINE_IDS)
    assert "maal %(points)s kidnapped by %(name)s" in ids
    assert "saw by dublees: no seen payment" in ids
    assert len(ids) >= 25
    assert sorted(ids - set(engine_msgids())) == []


def test_the_offline_catalogue_has_nepali_for_every_browser_id() -> None:
    """Every engine message has Nepali (tests/site/test_i18n.py); here the page's
    catalogue itself carries each id settlement.js can give, so no note is left out
    on a Nepali page."""
    with translation.override("ne"):
        catalogue = json.loads(offline_catalogue())
    assert sorted(set(ENGINE_IDS) - set(catalogue)) == []
    # And the payments in words: every phrase, both forms of the plural one.
    phrases = {*PHRASES, *MINUS_PLAYERS}
    assert sorted(phrases - set(catalogue)) == []
    assert len(phrases) >= 18
    assert catalogue["maal %(points)s kidnapped by %(name)s"] == (
        "माल %(points)s %(name)s ले किडन्याप गर्नुभयो"
    )
    with translation.override("en"):
        assert json.loads(offline_catalogue()) == {}
