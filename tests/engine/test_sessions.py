"""A session settled as a sequence of rounds. By hand: next-winner and
next-round-winner dhoos pending until booked, better after a rotation, a round's
error named by its number, an evening under the nepal preset. Hypothesis:
zero-sum per round and per session, every next-winner dhoos accounted for, the
rotation's better rounds, and with every RULES.md v2 option at its default,
exactly the previous engine (tests/engine_v1.py) on random sessions and on every
session file we have."""

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
    BookedDhoos,
    Dhoos,
    Entry,
    RoundError,
    RoundInput,
    Rules,
    make_rules,
    settle_long_way,
    settle_round,
    settle_session,
    totals,
)
from scoring.engine.sessionfile import export_document, loads, parse_document
from scoring.engine.settlement import Status, better_defaults
from tests import engine_v1
from tests.engine.test_settlement import PAGAT, notes, worked_example
from tests.strategies import any_rules

SESSIONS = settings(max_examples=150, deadline=None)
NAMES = ("Aama", "Buwa", "Didi", "Dai", "Bhai", "Kaka")
# a_round seats at most every name: rules allowing more would count players it cannot seat.
SEATS = st.integers(2, len(NAMES))
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
# The options a session could have had before RULES.md v2.
OLDER_OPTIONS = (
    "seen_payment",
    "unseen_payment",
    "dublee_bonus",
    "unseen_maal",
    "unseen_tunnel",
    "better_multiplier",
    "dublee_triggers_better",
    "dhoos_penalty",
    "max_players",
)

points = st.one_of(st.integers(0, 40), st.integers(0, 10_000))


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
    rules = draw(any_rules(max_players=SEATS) if rules_strategy is None else rules_strategy)
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
@given(sessions(any_rules(presets=OLD_PRESETS, vary=OLDER_OPTIONS, max_players=SEATS)))
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
    return [*found, ("tests/samples.py night()", night())]


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


def _evening(fourth_winner: str = "B") -> list[RoundInput]:
    """Round 1: the worked example, D given dhoos. Round 2: D sits out, A wins.
    Round 3: D plays, nobody wins. Round 4: D plays, `fourth_winner` wins."""
    zero = ("A", "B", "C", "D")
    return [
        worked_example(dhoos="D"),
        RoundInput(tuple(Entry(p) for p in zero[:3]), winner="A"),
        RoundInput((Entry("A"), Entry("D"))),
        RoundInput(tuple(Entry(p) for p in ("A", "B", "D")), winner=fourth_winner),
    ]


def test_next_winner_dhoos_is_pending_until_the_player_plays_a_round_with_a_winner():
    rules = make_rules(dhoos_payee="next_winner")
    session = settle_session(_evening(), rules)
    first, second, third, fourth = session.rounds
    # Round 1: the dhoos is in nobody's net.
    assert first.nets == {"A": 3, "B": -16, "C": 30, "D": -17}
    assert first.dhoos_deferred == (Dhoos("D", 15, 1),)
    assert notes(first, "D") == ["dhoos: owes 15 to the next winner"]
    # Round 2 (D sits out) and round 3 (no winner) leave it pending.
    assert second.dhoos_pending == third.dhoos_pending == (Dhoos("D", 15, 1),)
    assert second.nets == {"A": 6, "B": -3, "C": -3}
    assert third.nets == {"A": 0, "D": 0} and third.dhoos_booked == ()
    # Round 4: booked, D pays B 15, and the breakdown names round 1.
    assert fourth.dhoos_booked == (BookedDhoos("D", 15, 1, "B"),)
    assert fourth.nets == {"A": -3, "B": 6 + 15, "D": -3 - 15}
    assert notes(fourth, "D") == ["dhoos from round 1: pays 15 to B"]
    assert notes(fourth, "B") == ["dhoos from round 1: 15 from D"]
    assert fourth.dhoos_pending == session.pending == ()
    assert totals(session.nets) == {"A": 6, "B": 2, "C": 27, "D": -35}


def test_next_winner_dhoos_lapses_if_the_player_wins_that_round():
    rules = make_rules(dhoos_payee="next_winner")
    session = settle_session(_evening(fourth_winner="D"), rules)
    fourth = session.rounds[3]
    assert fourth.dhoos_lapsed == (Dhoos("D", 15, 1),)
    assert fourth.dhoos_booked == () and session.pending == ()
    assert fourth.nets == {"A": -3, "B": -3, "D": 6}
    assert notes(fourth, "D") == ["dhoos of 15 from round 1 lapses: won this round"]


def test_pending_dhoos_is_shown_but_in_nobodys_totals():
    rules = make_rules(dhoos_payee="next_winner")
    session = settle_session(_evening()[:3], rules)
    assert session.pending == (Dhoos("D", 15, 1),)
    assert totals(session.nets) == {"A": 9, "B": -19, "C": 27, "D": -17}


def test_several_pending_dhoos_of_one_player_are_each_booked():
    rules = make_rules(dhoos_payee="next_winner", dhoos_amount="round_total")
    rounds = [
        worked_example(dhoos="D"),  # T = 14
        RoundInput((Entry("A", maal=4), Entry("D", maal=6, dhoos=True))),  # no winner: 10
        RoundInput((Entry("A"), Entry("D")), winner="A"),
    ]
    session = settle_session(rounds, rules)
    assert session.rounds[1].dhoos_pending == (Dhoos("D", 14, 1), Dhoos("D", 10, 2))
    last = session.rounds[2]
    assert last.dhoos_booked == (BookedDhoos("D", 14, 1, "A"), BookedDhoos("D", 10, 2, "A"))
    assert last.nets == {"A": 3 + 24, "D": -3 - 24}
    assert notes(last, "D") == [
        "dhoos from round 1: pays 14 to A",
        "dhoos from round 2: pays 10 to A",
    ]
    # Numbered as the table numbers them.
    renumbered = settle_session(rounds, rules, numbers=[4, 6, 7])
    assert renumbered.rounds[2].dhoos_booked[0] == BookedDhoos("D", 14, 4, "A")


# --- better after a rotation ----------------------------------------------------------------------


def _due(rounds, rules) -> list[int]:
    return [n for n, d in enumerate(better_defaults(rounds, rules)[:-1], start=1) if d.rotation]


def test_with_four_players_rounds_5_10_15_are_better():
    rules = make_rules(better_after_rotation=True)
    rounds = [worked_example(better=None)] * 16
    assert _due(rounds, rules) == [5, 10, 15]
    session = settle_session(rounds, rules)
    assert [r.number for r in session.rounds if r.better] == [5, 10, 15]
    # Round 5 settles doubled: A +6, B −32, C +60, D −34.
    assert session.rounds[4].nets == {"A": 6, "B": -32, "C": 60, "D": -34}
    assert session.rounds[3].nets == {"A": 3, "B": -16, "C": 30, "D": -17}
    # Round 17 is next: not due; after 19 rounds the 20th is.
    assert session.next_better.better is False
    assert settle_session(rounds[:4], rules).next_better.better is True


def test_with_two_players_rounds_3_6_9_are_better():
    rules = make_rules(better_after_rotation=True)
    two = RoundInput((Entry("A", maal=3), Entry("B")), winner="A", better=None)
    assert _due([two] * 10, rules) == [3, 6, 9]


def test_the_rotation_counts_the_players_of_the_round_before():
    rules = make_rules(better_after_rotation=True)
    three = RoundInput((Entry("A"), Entry("B"), Entry("C")), winner="A")
    four = worked_example()
    # c after rounds 1-4 is 4 ≥ 3 (round 4 had three players): round 5 is due.
    assert _due([four, four, four, three, four, four], rules) == [5]
    defaults = better_defaults([four, four, four, three], rules)
    assert (defaults[4].rounds, defaults[4].players, defaults[4].since) == (4, 3, None)


def test_rounds_without_a_winner_count_and_marks_do_not_move_the_counter():
    rules = make_rules(better_after_rotation=True)
    nobody = RoundInput(worked_example().entries)
    marked = worked_example(better=True)
    unmarked = worked_example(better=False)
    rounds = [nobody, marked, unmarked, nobody, unmarked, nobody, nobody, marked, nobody, nobody]
    assert _due(rounds, rules) == [5, 10]
    # An explicit mark wins over the default: round 5 was unmarked, round 10 takes it.
    session = settle_session(rounds, rules)
    assert [r.better for r in session.rounds] == [
        False, True, False, False, False, False, False, True, False, False,
    ]  # fmt: skip
    assert settle_session([*rounds[:9], worked_example(better=None)], rules).rounds[9].better


def test_the_reason_a_round_is_better():
    rules = make_rules(better_after_rotation=True, dublee_triggers_better=True)
    rounds = [worked_example()] * 4 + [worked_example(win_type="dublee")] * 5
    defaults = better_defaults(rounds, rules)
    fifth, sixth, tenth = defaults[4], defaults[5], defaults[9]
    assert (fifth.better, fifth.rotation, fifth.dublee) == (True, True, False)
    assert (sixth.better, sixth.rotation, sixth.dublee) == (True, False, True)
    assert (tenth.rotation, tenth.dublee, tenth.since, tenth.rounds) == (True, True, 5, 4)


def test_rotation_is_off_by_default():
    assert _due([worked_example()] * 12, PAGAT) == []
    assert not any(
        r.better for r in settle_session([worked_example(better=None)] * 12, PAGAT).rounds
    )


def test_a_round_error_in_a_session_names_the_round():
    rounds = [worked_example(), RoundInput((Entry("A"),), winner="A")]
    with pytest.raises(RoundError) as error:
        settle_session(rounds, PAGAT, numbers=[3, 4])
    assert error.value.number == 4


# --- the nepal preset -----------------------------------------------------------------------------


def test_an_evening_under_nepal():
    rules = make_rules("nepal")
    rounds = [
        # Murder: B's 2 is void. D saw by dublees: no seen payment. A given dhoos:
        # A's own 5 is void, and the 15 goes to the next winner.
        worked_example(dhoos="A", dublees="D"),
        RoundInput((Entry("A", maal=3), Entry("B", maal=8), Entry("C")), winner="B"),
    ]
    session = settle_session(rounds, rules)
    first, second = session.rounds
    # S = A 0, B 0, C 7, D 0; T = 7. A pays 7+3 = 10, B 7+10 = 17, D 7+0 = 7.
    assert first.nets == {"A": -10, "B": -17, "C": 34, "D": -7}
    # Round 2: T = 11; A pays 11+3−9 = 5, C 11+3 = 14; then A's dhoos to B.
    assert second.nets == {"A": -5 - 15, "B": 19 + 15, "C": -14}
    assert session.pending == ()


# --- dhoos_payee = next_round_winner -----------------------------------------------------------

NRW = make_rules(dhoos_payee="next_round_winner")


def _round(winner: str | None, *players: str, dhoos: str = "") -> RoundInput:
    return RoundInput(tuple(Entry(p, "seen", 0, dhoos=p == dhoos) for p in players), winner=winner)


def test_next_round_winner_is_paid_by_a_fouler_who_sits_the_round_out():
    rounds = [
        _round("A", "A", "B", "C", dhoos="C"),
        _round(None, "A", "B", "C"),  # no winner: passed over
        _round("B", "A", "B"),  # C sits out and pays B all the same
    ]
    session = settle_session(rounds, NRW)
    first, second, third = session.rounds
    assert first.dhoos_deferred == (Dhoos("C", 15, 1),)
    assert second.dhoos_pending == (Dhoos("C", 15, 1),)
    assert third.dhoos_booked == (BookedDhoos("C", 15, 1, "B"),)
    assert third.dhoos_outside == (BookedDhoos("C", 15, 1, "B"),)
    assert third.nets == {"A": -3, "B": 3 + 15, "C": -15}
    assert [p.player for p in third.players] == ["A", "B"]
    assert [str(n) for n in third.of("B").notes] == ["dhoos from round 1: 15 from C"]
    assert session.pending == ()
    # Under next_winner the dhoos waits for a round C plays.
    waiting = settle_session(rounds, make_rules(dhoos_payee="next_winner"))
    assert waiting.rounds[2].nets == {"A": -3, "B": 3}
    assert waiting.pending == (Dhoos("C", 15, 1),)


def test_next_round_winner_lapses_if_the_fouler_wins_it_and_is_never_doubled():
    rounds = [_round("A", "A", "B", dhoos="B"), replace(_round("B", "A", "B"), better=True)]
    session = settle_session(rounds, NRW)
    assert session.rounds[1].dhoos_lapsed == (Dhoos("B", 15, 1),)
    assert session.rounds[1].nets == {"A": -6, "B": 6}
    doubled = settle_session(
        [_round("A", "A", "B", "C", dhoos="C"), replace(_round("B", "A", "B"), better=True)], NRW
    )
    assert doubled.rounds[1].nets == {"A": -6, "B": 6 + 15, "C": -15}


def test_next_round_winner_books_each_pending_dhoos_and_the_round_total():
    rules = make_rules(dhoos_payee="next_round_winner", dhoos_amount="round_total")
    rounds = [
        RoundInput((Entry("A", "seen", 4), Entry("B", "seen", 6, dhoos=True)), winner="A"),
        RoundInput((Entry("A", "seen", 1), Entry("B", "seen", 2, dhoos=True)), winner=None),
        RoundInput((Entry("A", "seen"), Entry("C", "seen")), winner="C"),
    ]
    session = settle_session(rounds, rules)
    # Round 1's T is 10; round 2 has no winner: its maal + tunnel as entered, 3.
    assert session.rounds[2].dhoos_booked == (
        BookedDhoos("B", 10, 1, "C"),
        BookedDhoos("B", 3, 2, "C"),
    )
    assert session.rounds[2].nets == {"A": -3, "C": 3 + 13, "B": -13}
    assert settle_long_way(rounds[2], rules, session.rounds[1].dhoos_pending) == (
        session.rounds[2].nets
    )
