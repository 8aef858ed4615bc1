"""A session settled as a sequence (hypothesis): zero-sum per round and per
session, every next-winner dhoos accounted for, the rotation's better rounds,
and with every RULES.md v2 option at its default, exactly the previous engine
(tests/engine_v1.py) on random sessions and on every session file we have."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import (
    PRESETS,
    Entry,
    RoundInput,
    Rules,
    make_rules,
    settle_long_way,
    settle_round,
    settle_session,
    totals,
)
from scoring.engine.rules import (
    DHOOS_AMOUNT_CHOICES,
    DHOOS_PAYEE_CHOICES,
    UNSEEN_MAAL_CHOICES,
    UNSEEN_TUNNEL_CHOICES,
)
from scoring.engine.sessionfile import export_document, loads, parse_document
from scoring.engine.settlement import Status, better_defaults
from tests import engine_v1

SESSIONS = settings(max_examples=150, deadline=None)
NAMES = ("Aama", "Buwa", "Didi", "Dai", "Bhai", "Kaka")
ROOT = Path(__file__).resolve().parents[2]
# Every option RULES.md v2 added, at the value that keeps the old behaviour.
NEWER_DEFAULTS = {
    "dhoos_amount": "fixed",
    "dhoos_payee": "all",
    "dhoos_voids_maal": False,
    "dublee_players_pay_seen": True,
    "dublee_min_players": 2,
    "better_after_rotation": False,
    "master_card_value": 5,
    # and every option of RULES.md v3 (section 3a)
    "unseen_pairs": "settle",
    "dhoos_pays_total": False,
    "dublee_player_bonus": 0,
}
OLD_PRESETS = ("pagat", "kidnap", "murder", "wikipedia")

points = st.one_of(st.integers(0, 40), st.integers(0, 10_000))


@st.composite
def older_rules(draw: st.DrawFn) -> Rules:
    """Rules a session could have had before RULES.md v2."""
    return make_rules(
        draw(st.sampled_from(OLD_PRESETS)),
        seen_payment=draw(st.integers(0, 20)),
        unseen_payment=draw(st.integers(0, 60)),
        dublee_bonus=draw(st.integers(0, 10)),
        unseen_maal=draw(st.sampled_from(UNSEEN_MAAL_CHOICES)),
        unseen_tunnel=draw(st.sampled_from(UNSEEN_TUNNEL_CHOICES)),
        better_multiplier=draw(st.integers(1, 4)),
        dublee_triggers_better=draw(st.booleans()),
        dhoos_penalty=draw(st.integers(0, 30)),
        max_players=draw(st.integers(2, 6)),
    )


@st.composite
def any_rules(draw: st.DrawFn) -> Rules:
    return replace(
        draw(older_rules()),
        dhoos_amount=draw(st.sampled_from(DHOOS_AMOUNT_CHOICES)),
        dhoos_payee=draw(st.sampled_from(DHOOS_PAYEE_CHOICES)),
        dhoos_voids_maal=draw(st.booleans()),
        dublee_players_pay_seen=draw(st.booleans()),
        dublee_min_players=draw(st.integers(2, 5)),
        better_after_rotation=draw(st.booleans()),
    )


@st.composite
def a_round(draw: st.DrawFn, rules: Rules, dublees: bool = True) -> RoundInput:
    count = draw(st.integers(2, rules.max_players))
    names = draw(st.permutations(NAMES))[:count]
    entries = []
    for name in names:
        status: Status = draw(st.sampled_from(("seen", "seen", "unseen")))
        entries.append(
            Entry(
                name,
                status,
                maal=draw(points),
                tunnel=draw(points),
                dhoos=draw(st.integers(0, 3)) == 0,
                dublees=dublees and status == "seen" and draw(st.integers(0, 3)) == 0,
            )
        )
    seen = [e.player for e in entries if e.status == "seen"]
    winner = draw(st.one_of(st.none(), st.sampled_from(seen))) if seen else None
    dublee_win = winner is not None and count >= rules.dublee_min_players
    return RoundInput(
        tuple(entries),
        winner=winner,
        win_type=draw(st.sampled_from(("normal", "dublee"))) if dublee_win else "normal",
        better=draw(st.sampled_from((None, True, False))),
    )


@st.composite
def sessions(draw: st.DrawFn, rules_strategy=None) -> tuple[Rules, list[RoundInput]]:
    rules = draw(any_rules() if rules_strategy is None else rules_strategy)
    return rules, draw(st.lists(a_round(rules), min_size=0, max_size=12))


@SESSIONS
@given(sessions())
def test_every_round_and_the_session_are_zero_sum(case):
    rules, rounds = case
    session = settle_session(rounds, rules)
    assert all(sum(result.nets.values()) == 0 for result in session.rounds)
    assert sum(totals(session.nets).values()) == 0


@SESSIONS
@given(sessions())
def test_each_round_equals_the_long_way_round_with_what_is_pending(case):
    rules, rounds = case
    session = settle_session(rounds, rules)
    pending = ()
    for round_, result in zip(rounds, session.rounds, strict=True):
        resolved = replace(round_, better=result.better)
        assert result.nets == settle_long_way(resolved, rules, pending)
        assert (
            result.nets == settle_round(resolved, rules, number=result.number, pending=pending).nets
        )
        pending = result.dhoos_pending


@SESSIONS
@given(sessions())
def test_every_next_winner_dhoos_is_booked_lapsed_or_pending(case):
    rules, rounds = case
    session = settle_session(rounds, replace(rules, dhoos_payee="next_winner"))
    given_ = Counter(d for r in session.rounds for d in r.dhoos_deferred)
    booked = Counter((b.player, b.amount, b.round) for r in session.rounds for b in r.dhoos_booked)
    lapsed = Counter(d for r in session.rounds for d in r.dhoos_lapsed)
    pending = Counter(session.pending)
    as_tuples = Counter({(d.player, d.amount, d.round): n for d, n in given_.items()})
    assert as_tuples == booked + Counter(
        {(d.player, d.amount, d.round): n for d, n in (lapsed + pending).items()}
    )
    # In money: pending + booked = given, less what lapsed when the player won.
    given_points = sum(d.amount for d in given_.elements())
    booked_points = sum(b.amount for r in session.rounds for b in r.dhoos_booked)
    pending_points = sum(d.amount for d in session.pending)
    lapsed_points = sum(d.amount for d in lapsed.elements())
    assert pending_points + booked_points == given_points - lapsed_points
    # Each is booked to the winner of a later round the player played, and only there.
    for result in session.rounds:
        for booked_dhoos in result.dhoos_booked:
            assert booked_dhoos.round < result.number
            assert booked_dhoos.payee == result.winner != booked_dhoos.player
            assert booked_dhoos.player in result.nets
    # Pending dhoos is in nobody's totals: the booked ones are all the dhoos there is.
    dhoos_total = sum(p.dhoos_net for r in session.rounds for p in r.players if p.dhoos_net > 0)
    assert dhoos_total == booked_points


@SESSIONS
@given(sessions(), st.randoms(use_true_random=False))
def test_a_session_does_not_depend_on_the_order_of_players(case, random):
    rules, rounds = case
    shuffled = []
    for round_ in rounds:
        entries = list(round_.entries)
        random.shuffle(entries)
        shuffled.append(replace(round_, entries=tuple(entries)))
    before, after = settle_session(rounds, rules), settle_session(shuffled, rules)
    assert before.nets == after.nets
    # Pending dhoos of one round are listed in its entries' order.
    assert Counter(before.pending) == Counter(after.pending)


@SESSIONS
@given(st.integers(2, 8), st.integers(0, 40))
def test_the_rotation_marks_every_players_plus_one_round(players, count):
    """With four players every round, rounds 5, 10, 15 …; with two, 3, 6, 9 …"""
    rules = make_rules(better_after_rotation=True, max_players=8)
    round_ = RoundInput(tuple(Entry(f"P{i}") for i in range(players)), better=None)
    session = settle_session([round_] * count, rules)
    better = [r.number for r in session.rounds if r.better]
    assert better == list(range(players + 1, count + 1, players + 1))
    assert session.next_better.better == ((count + 1) % (players + 1) == 0)


@SESSIONS
@given(sessions())
def test_explicit_marks_override_the_default_and_never_move_the_counter(case):
    rules, rounds = case
    defaults = better_defaults(rounds, rules)
    unmarked = [replace(r, better=None) for r in rounds]
    assert better_defaults(unmarked, rules) == defaults
    for round_, result, default in zip(
        rounds, settle_session(rounds, rules).rounds, defaults, strict=False
    ):
        assert result.better == (default.better if round_.better is None else round_.better)


# --- with every newer option at its default: the previous engine exactly ------------------------


def _old_round(round_: RoundInput) -> engine_v1.RoundInput:
    return engine_v1.RoundInput(
        tuple(
            engine_v1.Entry(e.player, e.status, e.maal, e.tunnel, e.dhoos) for e in round_.entries
        ),
        round_.winner,
        round_.win_type,
        bool(round_.better),
    )


def assert_settles_as_before(rounds: list[RoundInput], rules: Rules) -> None:
    """Every figure of every round, the old engine's (round by round) and the new
    one's (as a session)."""
    assert {k: getattr(rules, k) for k in NEWER_DEFAULTS} == NEWER_DEFAULTS
    session = settle_session(rounds, rules)
    assert session.pending == ()
    for round_, new in zip(rounds, session.rounds, strict=True):
        old = engine_v1.settle_round(_old_round(round_), rules)
        assert (new.nets, new.total, new.n, new.multiplier, new.better) == (
            old.nets,
            old.total,
            old.n,
            old.multiplier,
            old.better,
        )
        for new_player, old_player in zip(new.players, old.players, strict=True):
            assert [str(note) for note in new_player.notes] == list(old_player.notes)
            for figure in ("points", "counted_tunnel", "w", "n_s", "pay", "dhoos_net", "net"):
                assert getattr(new_player, figure) == getattr(old_player, figure), figure
        assert new.dhoos_booked == new.dhoos_deferred == new.dhoos_lapsed == ()


@SESSIONS
@given(sessions(older_rules()))
def test_with_the_newer_options_at_their_defaults_every_session_settles_as_before(case):
    rules, rounds = case
    # Sessions saved before v2 have an explicit better on every round and no dublees.
    rounds = [
        replace(
            r,
            better=bool(r.better),
            entries=tuple(replace(e, dublees=False) for e in r.entries),
        )
        for r in rounds
    ]
    assert_settles_as_before(rounds, rules)


def _session_files() -> list[tuple[str, dict]]:
    """Every session document the project holds: the demo files and the tests'."""
    from tests.samples import night

    found = [
        (str(path.relative_to(ROOT)), json.loads(path.read_text(encoding="utf-8")))
        for path in sorted([*ROOT.glob("scoring/demo/*.json"), *ROOT.glob("tests/**/*.json")])
    ]
    return [*found, ("tests/test_commands.py night()", night())]


@pytest.mark.parametrize("preset", OLD_PRESETS)
@pytest.mark.parametrize(("name", "document"), _session_files(), ids=lambda v: str(v)[:40])
def test_every_session_file_settles_as_before_under_every_older_preset(name, document, preset):
    document = dict(document, rules={**document.get("rules", {}), "preset": preset})
    doc = parse_document(document)
    assert doc.rounds, name
    assert_settles_as_before(list(doc.rounds), doc.rules)
    # The export's totals are the old engine's sums, and reading it back changes nothing.
    exported = export_document(doc)
    old = totals(
        (engine_v1.settle_round(_old_round(r), doc.rules).nets for r in doc.rounds), doc.players
    )
    assert exported["totals"] == old
    assert "dhoos_pending" not in exported
    assert loads(json.dumps(exported)) == doc


def test_the_body_of_sessions_is_not_empty():
    names = [name for name, _ in _session_files()]
    assert "scoring/demo/dashain.json" in names
    assert len(names) >= 2
    assert set(PRESETS) >= set(OLD_PRESETS)
