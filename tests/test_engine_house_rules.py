"""RULES.md v2 house rules, exact numbers from its wording: dhoos amount and payee
(next_winner across rounds), dhoos voiding maal, players who saw by dublees,
the fewest players for a dublee win, better after a rotation, the nepal preset."""

from __future__ import annotations

import pytest

from scoring.engine import (
    BookedDhoos,
    Dhoos,
    Entry,
    RoundError,
    RoundInput,
    make_rules,
    settle_long_way,
    settle_round,
    settle_session,
    totals,
)
from scoring.engine.settlement import better_defaults

PAGAT = make_rules()


def worked_example(*, dhoos: str = "", dublees: str = "", **round_options) -> RoundInput:
    """RULES.md section 2: C wins; A seen 5, B unseen 2, C 7, D seen 0. `dhoos` and
    `dublees` name the players given dhoos / who saw by dublees."""
    entries = (
        Entry("A", "seen", maal=5, dhoos="A" in dhoos, dublees="A" in dublees),
        Entry("B", "unseen", maal=2, dhoos="B" in dhoos),
        Entry("C", "seen", maal=7, dhoos="C" in dhoos, dublees="C" in dublees),
        Entry("D", "seen", maal=0, dhoos="D" in dhoos, dublees="D" in dublees),
    )
    return RoundInput(entries, **({"winner": "C"} | round_options))


def notes(result, player: str) -> list[str]:
    return [str(note) for note in result.of(player).notes]


def check(round_, rules, pending=()) -> dict[str, int]:
    """The nets, checked against the long way round and zero-sum."""
    nets = settle_round(round_, rules, pending=pending).nets
    assert nets == settle_long_way(round_, rules, pending)
    assert sum(nets.values()) == 0
    return nets


# --- dublee_players_pay_seen --------------------------------------------------------------------


def test_a_player_who_saw_by_dublees_pays_the_seen_payment_by_default():
    assert check(worked_example(dublees="D"), PAGAT) == {"A": 3, "B": -16, "C": 30, "D": -17}


def test_dublee_players_pay_no_seen_payment_when_the_option_is_off():
    rules = make_rules(dublee_players_pay_seen=False)
    result = settle_round(worked_example(dublees="D"), rules)
    # D: 14 + 0 − 0 = 14 instead of 17.
    assert result.of("D").w == 0
    assert result.nets == {"A": 3, "B": -16, "C": 27, "D": -14}
    assert notes(result, "D") == ["saw by dublees: no seen payment"]
    assert check(worked_example(dublees="D"), rules) == result.nets


def test_the_dublee_bonus_is_still_added_for_a_dublee_player():
    rules = make_rules(dublee_players_pay_seen=False)
    round_ = worked_example(dublees="D", win_type="dublee")
    # w: A 3 + 5, B 10 + 5, D 0 + 5. A pays 14+8−20 = 2, B 14+15−8 = 21, D 14+5 = 19.
    assert check(round_, rules) == {"A": -2, "B": -21, "C": 42, "D": -19}
    assert check(round_, PAGAT) == {"A": -2, "B": -21, "C": 45, "D": -22}


def test_a_winner_who_saw_by_dublees_is_just_the_winner():
    rules = make_rules(dublee_players_pay_seen=False)
    assert check(worked_example(dublees="C"), rules) == {"A": 3, "B": -16, "C": 30, "D": -17}


def test_dublees_on_an_unseen_player_is_refused():
    round_ = RoundInput((Entry("A", maal=3), Entry("B", "unseen", dublees=True)), winner="A")
    with pytest.raises(RoundError) as error:
        settle_round(round_, PAGAT)
    assert str(error.value) == (
        "player B, dublees: saw by dublees, so must be seen (dublees show the tiplu)"
    )
    assert (error.value.field, error.value.player) == ("dublees", "B")
    with pytest.raises(RoundError, match="must be true or false, got 'yes'"):
        settle_round(RoundInput((Entry("A"), Entry("B", dublees="yes")), "A"), PAGAT)


# --- dublee_min_players ---------------------------------------------------------------------------


def test_a_dublee_win_with_fewer_players_than_the_option_is_refused():
    rules = make_rules(dublee_min_players=4)
    three = RoundInput((Entry("A", maal=3), Entry("B"), Entry("C")), winner="A", win_type="dublee")
    with pytest.raises(RoundError) as error:
        settle_round(three, rules)
    assert str(error.value) == (
        "win_type: a dublee win needs at least 4 players under these rules, got 3"
    )
    # Four players may; a normal win with three may; the default is 2.
    assert check(worked_example(win_type="dublee"), rules)["C"] == 45
    assert check(RoundInput(three.entries, winner="A"), rules) == {"A": 12, "B": -6, "C": -6}
    assert check(three, PAGAT) == {"A": 22, "B": -11, "C": -11}


# --- dhoos_voids_maal -----------------------------------------------------------------------------


def test_dhoos_voids_the_players_own_maal():
    rules = make_rules(dhoos_voids_maal=True)
    result = settle_round(worked_example(dhoos="A"), rules)
    # S: A 0 (void), B 2, C 7, D 0; T = 9. A pays 9+3−0 = 12, B 9+10−8 = 11, D 12.
    assert (result.of("A").points, result.total) == (0, 9)
    assert [p.pay for p in result.players] == [12, 11, 0, 12]
    # Then A's dhoos, 15 to each of three.
    assert result.nets == {"A": -12 - 45, "B": -11 + 15, "C": 35 + 15, "D": -12 + 15}
    assert notes(result, "A") == [
        "maal and tunnel 5 void: dhoos",
        "dhoos: pays 15 to each of 3 players",
    ]
    assert check(worked_example(dhoos="A"), rules) == result.nets
    # Off (the default), the maal counts.
    assert settle_round(worked_example(dhoos="A"), PAGAT).of("A").points == 5


def test_dhoos_voids_an_unseen_players_maal_before_kidnap():
    rules = make_rules("kidnap", dhoos_voids_maal=True)
    result = settle_round(worked_example(dhoos="B"), rules)
    # Nothing of B's moves to C: S = A 5, B 0, C 7, D 0; T = 12.
    assert [p.points for p in result.players] == [5, 0, 7, 0]
    assert result.nets == {"A": 5 + 15, "B": -22 - 45, "C": 32 + 15, "D": -15 + 15}
    assert check(worked_example(dhoos="B"), rules) == result.nets


def test_a_winner_given_dhoos_still_takes_what_kidnap_moves():
    rules = make_rules("kidnap", dhoos_voids_maal=True)
    result = settle_round(worked_example(dhoos="C"), rules)
    # C's own 7 is void, B's 2 is kidnapped: S = A 5, B 0, C 2, D 0; T = 7.
    assert [p.points for p in result.players] == [5, 0, 2, 0]
    assert result.nets == {"A": 10 + 15, "B": -17 + 15, "C": 17 - 45, "D": -10 + 15}
    assert check(worked_example(dhoos="C"), rules) == result.nets


# --- dhoos_amount ---------------------------------------------------------------------------------


def test_dhoos_of_the_round_total():
    rules = make_rules(dhoos_amount="round_total")
    result = settle_round(worked_example(dhoos="D"), rules)
    # T = 14: D pays 14 to each of three.
    assert result.dhoos_amount == 14
    assert result.nets == {"A": 3 + 14, "B": -16 + 14, "C": 30 + 14, "D": -17 - 42}
    assert notes(result, "D") == ["dhoos: pays 14 to each of 3 players"]
    assert check(worked_example(dhoos="D"), rules) == result.nets


def test_dhoos_of_the_round_total_counts_t_after_the_rules():
    rules = make_rules("murder", dhoos_amount="round_total")
    round_ = RoundInput(
        (Entry("A", maal=5), Entry("B", "unseen", maal=20, dhoos=True), Entry("C", maal=7)),
        winner="C",
    )
    # B's 20 is murdered: T = 12.
    assert settle_round(round_, rules).dhoos_amount == 12


def test_dhoos_of_the_round_total_without_a_winner_is_the_points_as_entered():
    rules = make_rules("kidnap", dhoos_amount="round_total")
    round_ = RoundInput(
        (
            Entry("A", "seen", maal=30, tunnel=20),
            Entry("B", "unseen", maal=12, tunnel=4, dhoos=True),
            Entry("C", "seen"),
        )
    )
    # 30 + 20 + 12 + 4 (B's tunnel too: no rule of section 3 applies).
    assert check(round_, rules) == {"A": 66, "B": -132, "C": 66}


# --- dhoos_payee ----------------------------------------------------------------------------------


def test_dhoos_paid_to_the_winner_once():
    rules = make_rules(dhoos_payee="winner")
    result = settle_round(worked_example(dhoos="D"), rules)
    assert result.nets == {"A": 3, "B": -16, "C": 30 + 15, "D": -17 - 15}
    assert notes(result, "D") == ["dhoos: pays 15 to C, the winner"]
    assert check(worked_example(dhoos="D"), rules) == result.nets


def test_dhoos_paid_to_the_winner_goes_to_all_when_the_winner_is_given_it():
    rules = make_rules(dhoos_payee="winner")
    assert check(worked_example(dhoos="C"), rules) == {"A": 18, "B": -1, "C": -15, "D": -2}
    no_winner = RoundInput((Entry("A", dhoos=True), Entry("B"), Entry("C")))
    assert check(no_winner, rules) == {"A": -30, "B": 15, "C": 15}


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
