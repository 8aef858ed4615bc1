"""RULES.md v3 (section 3a), exact figures from its worked examples and wording:
unseen_pairs, dhoos_pays_total, dublee_player_bonus and dhoos_payee =
next_round_winner; then hypothesis properties over every option together
(zero-sum, the long way round equals the streamlined formula, the order of the
players changes nothing, a session's dhoos all paid or pending)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import (
    BookedDhoos,
    Dhoos,
    Entry,
    RoundInput,
    Rules,
    make_rules,
    settle_long_way,
    settle_round,
    settle_session,
)
from scoring.engine.rules import (
    DHOOS_AMOUNT_CHOICES,
    DHOOS_PAYEE_CHOICES,
    PRESETS,
    UNSEEN_MAAL_CHOICES,
    UNSEEN_TUNNEL_CHOICES,
)
from scoring.engine.settlement import Status, WinType


def notes(result, player: str) -> list[str]:
    return [str(note) for note in result.of(player).notes]


# --- unseen_pairs ---------------------------------------------------------------------------

SKIP_EXAMPLE = RoundInput(
    (
        Entry("A", "seen", 20),
        Entry("B", "seen", 10),
        Entry("C", "unseen", 5),
        Entry("D", "unseen", 0),
    ),
    winner="A",
)


def test_unseen_pairs_skip_the_worked_example():
    """A wins seen with 20, B seen 10, C unseen 5, D unseen 0: T = 35, T_seen = 30, k = 2."""
    result = settle_round(SKIP_EXAMPLE, make_rules(unseen_pairs="skip"))
    assert (result.total, result.total_seen, result.seen_count) == (35, 30, 2)
    assert {p.player: (p.w, p.n_s, p.pay) for p in result.players if not p.is_winner} == {
        "B": (3, 40, -2),  # 35 + 3 − 40: a seen loser pays as in section 2
        "C": (10, 10, 30),  # 30 + 10 − 2·5
        "D": (10, 0, 40),  # 30 + 10 − 0
    }
    assert result.nets == {"A": 68, "B": 2, "C": -30, "D": -40}
    assert [p.seen_only for p in result.players] == [False, False, True, True]
    assert notes(result, "C") == ["unseen: settles with the 2 seen players only"]
    assert settle_long_way(SKIP_EXAMPLE, make_rules(unseen_pairs="skip")) == result.nets


def test_unseen_pairs_settle_is_section_2():
    result = settle_round(SKIP_EXAMPLE, make_rules())
    assert result.nets == {"A": 68, "B": 2, "C": -25, "D": -45}
    assert not any(p.seen_only for p in result.players)


def test_unseen_pairs_change_nothing_where_unseen_players_count_nothing():
    for preset in ("murder", "kidnap", "nepal"):
        plain = settle_round(SKIP_EXAMPLE, PRESETS[preset])
        skip = settle_round(SKIP_EXAMPLE, replace(PRESETS[preset], unseen_pairs="skip"))
        assert skip.nets == plain.nets, preset


def test_unseen_pairs_leave_t_for_a_round_total_dhoos():
    round_ = replace(
        SKIP_EXAMPLE, entries=(*SKIP_EXAMPLE.entries[:3], Entry("D", "unseen", 0, dhoos=True))
    )
    result = settle_round(round_, make_rules(unseen_pairs="skip", dhoos_amount="round_total"))
    assert result.dhoos_amount == 35  # T, not T_seen
    assert result.of("D").dhoos_net == -105
    assert result.of("D").net == -40 - 105


def test_unseen_pairs_a_better_round_multiplies_the_payment():
    result = settle_round(replace(SKIP_EXAMPLE, better=True), make_rules(unseen_pairs="skip"))
    assert result.nets == {"A": 136, "B": 4, "C": -60, "D": -80}


def test_unseen_pairs_with_no_winner_do_nothing():
    round_ = replace(SKIP_EXAMPLE, winner=None)
    result = settle_round(round_, make_rules(unseen_pairs="skip"))
    assert result.nets == {"A": 0, "B": 0, "C": 0, "D": 0}
    assert not any(p.seen_only or p.notes for p in result.players)


# --- dhoos_pays_total: a dead hand ------------------------------------------------------------

DEAD = RoundInput(
    (Entry("A", "seen", 5), Entry("B", "seen", 4, dhoos=True), Entry("C", "seen", 3)),
    winner="A",
)


def test_dead_hand_the_worked_example():
    """A wins seen with 5, B seen 4 given dhoos, C seen 3: B's 4 move to A (S = 9, 0, 3;
    T = 12); B pays 12, C pays 12 + 3 − 9 = 6: A +18, B −12, C −6, and B's dhoos."""
    rules = make_rules(dhoos_pays_total=True, dhoos_penalty=0)
    result = settle_round(DEAD, rules)
    assert [p.points for p in result.players] == [9, 0, 3]
    assert result.total == 12
    assert {p.player: (p.w, p.pay) for p in result.players if not p.is_winner} == {
        "B": (0, 12),
        "C": (3, 6),
    }
    assert result.nets == {"A": 18, "B": -12, "C": -6}
    assert result.of("B").dead_hand
    assert notes(result, "B") == [
        "dead hand: 4 to A",
        "dhoos: pays 0 to each of 2 players",
        "dead hand: no game payment",
    ]
    assert notes(result, "A") == ["4 from dead hands"]


def test_dead_hand_pays_its_dhoos_besides():
    result = settle_round(DEAD, make_rules(dhoos_pays_total=True))  # 15 to each other player
    assert result.nets == {"A": 18 + 15, "B": -12 - 30, "C": -6 + 15}
    to_winner = make_rules(dhoos_pays_total=True, dhoos_payee="winner")
    assert settle_round(DEAD, to_winner).nets == {"A": 33, "B": -27, "C": -6}
    later = settle_round(DEAD, make_rules(dhoos_pays_total=True, dhoos_payee="next_winner"))
    assert later.nets == {"A": 18, "B": -12, "C": -6}
    assert later.dhoos_deferred == (Dhoos("B", 15, 1),)


def test_a_dead_hand_is_off_by_default():
    assert settle_round(DEAD, make_rules(dhoos_penalty=0)).nets == {"A": 9, "B": -3, "C": -6}


def test_an_unseen_dead_hand_pays_no_unseen_payment():
    """A dead hand replaces w: an unseen fouler pays T alone (RULES.md: the apps' rule)."""
    round_ = replace(
        DEAD, entries=(DEAD.entries[0], Entry("B", "unseen", 4, dhoos=True), DEAD.entries[2])
    )
    rules = make_rules(dhoos_pays_total=True, dhoos_penalty=0)
    result = settle_round(round_, rules)
    assert result.of("B").pay == 12
    # Under unseen_pairs = skip: T_seen (A 9 + C 3), k = 2, S = 0.
    skip = settle_round(round_, replace(rules, unseen_pairs="skip"))
    assert (skip.total_seen, skip.of("B").pay) == (12, 12)


def test_a_dead_hand_on_a_dublee_win_keeps_the_dublee_bonus_and_better():
    round_ = replace(DEAD, win_type="dublee", better=True)
    result = settle_round(round_, make_rules(dhoos_pays_total=True, dhoos_penalty=0))
    # B: w = 5 (the dublee bonus only): (12 + 5) × 2; C: (12 + 3 + 5 − 9) × 2.
    assert {p.player: (p.w, p.pay) for p in result.players if not p.is_winner} == {
        "B": (5, 34),
        "C": (8, 22),
    }


def test_a_winner_given_dhoos_plays_no_dead_hand():
    round_ = RoundInput(
        (Entry("A", "seen", 5, dhoos=True), Entry("B", "seen", 4), Entry("C", "seen", 3)),
        winner="A",
    )
    rules = make_rules(dhoos_pays_total=True, dhoos_payee="winner")
    result = settle_round(round_, rules)
    plain = settle_round(round_, make_rules(dhoos_payee="winner"))
    assert result.nets == plain.nets
    assert not result.of("A").dead_hand


def test_a_dead_hand_with_dhoos_voids_maal_moves_nothing():
    rules = make_rules(dhoos_pays_total=True, dhoos_voids_maal=True, dhoos_penalty=0)
    result = settle_round(DEAD, rules)
    assert [p.points for p in result.players] == [5, 0, 3]
    assert result.of("B").pay == 8  # T = 8, no game payment


def test_an_unseen_dead_hand_under_kidnap_moves_once():
    round_ = replace(
        DEAD, entries=(DEAD.entries[0], Entry("B", "unseen", 4, dhoos=True), DEAD.entries[2])
    )
    result = settle_round(round_, make_rules("kidnap", dhoos_pays_total=True, dhoos_penalty=0))
    assert [p.points for p in result.players] == [9, 0, 3]
    assert notes(result, "A") == ["kidnapped 4 from unseen players"]


def test_with_no_winner_there_is_no_dead_hand():
    round_ = replace(DEAD, winner=None)
    result = settle_round(round_, make_rules(dhoos_pays_total=True))
    assert [p.points for p in result.players] == [5, 4, 3]
    assert result.nets == {"A": 15, "B": -30, "C": 15}


# --- dublee_player_bonus ----------------------------------------------------------------------

BY_DUBLEES = RoundInput(
    (
        Entry("A", "seen", 5, dublees=True),
        Entry("B", "unseen", 2),
        Entry("C", "seen", 7),
        Entry("D", "seen", 0),
    ),
    winner="C",
)


def test_dublee_player_bonus_comes_off_w():
    """The worked example with A seen by dublees and a bonus of 4: A's w = 3 − 4 = −1,
    so A pays 14 − 1 − 20 = −7 (C pays A 7)."""
    result = settle_round(BY_DUBLEES, make_rules(dublee_player_bonus=4))
    assert (result.of("A").w, result.of("A").pay) == (-1, -7)
    assert result.nets == {"A": 7, "B": -16, "C": 26, "D": -17}
    assert notes(result, "A") == ["saw by dublees: 4 off w"]
    assert result.dublee_player_bonus == 4


def test_dublee_player_bonus_after_dublee_players_pay_seen_and_with_a_dublee_win():
    rules = make_rules(dublee_player_bonus=4, dublee_players_pay_seen=False)
    assert settle_round(BY_DUBLEES, rules).of("A").w == -4
    dublee_win = replace(BY_DUBLEES, win_type="dublee", better=True)
    result = settle_round(dublee_win, make_rules(dublee_player_bonus=4))
    assert result.of("A").w == 3 - 4 + 5
    assert result.of("A").pay == (14 + 4 - 20) * 2


def test_the_winners_own_dublees_change_nothing():
    round_ = replace(BY_DUBLEES, winner="A")
    plain = settle_round(round_, make_rules())
    assert settle_round(round_, make_rules(dublee_player_bonus=4)).nets == plain.nets


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


# --- properties, every option together ----------------------------------------------------------

PROPERTIES = settings(max_examples=300, deadline=None)
NAMES = ("A", "B", "C", "D", "E", "F")


@st.composite
def v3_rules(draw: st.DrawFn) -> Rules:
    return make_rules(
        draw(st.sampled_from(list(PRESETS))),
        seen_payment=draw(st.integers(0, 30)),
        unseen_payment=draw(st.integers(0, 60)),
        dublee_bonus=draw(st.integers(0, 10)),
        unseen_maal=draw(st.sampled_from(UNSEEN_MAAL_CHOICES)),
        unseen_tunnel=draw(st.sampled_from(UNSEEN_TUNNEL_CHOICES)),
        better_multiplier=draw(st.integers(1, 4)),
        dhoos_penalty=draw(st.integers(0, 30)),
        dhoos_amount=draw(st.sampled_from(DHOOS_AMOUNT_CHOICES)),
        dhoos_payee=draw(st.sampled_from(DHOOS_PAYEE_CHOICES)),
        dhoos_voids_maal=draw(st.booleans()),
        dublee_players_pay_seen=draw(st.booleans()),
        unseen_pairs=draw(st.sampled_from(("settle", "skip"))),
        dhoos_pays_total=draw(st.booleans()),
        dublee_player_bonus=draw(st.integers(0, 10)),
        max_players=6,
    )


@st.composite
def v3_round(draw: st.DrawFn, names: tuple[str, ...] = NAMES) -> RoundInput:
    players = draw(st.lists(st.sampled_from(names), min_size=2, max_size=6, unique=True))
    statuses: list[Status] = [draw(st.sampled_from(("seen", "unseen"))) for _ in players]
    entries = tuple(
        Entry(
            player,
            status,
            maal=draw(st.integers(0, 40)),
            tunnel=draw(st.integers(0, 10)),
            dhoos=draw(st.integers(0, 3)) == 0,
            dublees=status == "seen" and draw(st.booleans()),
        )
        for player, status in zip(players, statuses, strict=True)
    )
    seen = [e.player for e in entries if e.status == "seen"]
    wins = bool(seen) and draw(st.integers(0, 5)) > 0
    winner: str | None = draw(st.sampled_from(seen)) if wins else None
    win_type: WinType = "dublee" if winner and draw(st.integers(0, 4)) == 0 else "normal"
    return RoundInput(entries, winner=winner, win_type=win_type, better=draw(st.booleans()))


@st.composite
def v3_pending(draw: st.DrawFn) -> tuple[Dhoos, ...]:
    return tuple(
        Dhoos(draw(st.sampled_from(NAMES)), draw(st.integers(1, 40)), draw(st.integers(1, 9)))
        for _ in range(draw(st.integers(0, 3)))
    )


@PROPERTIES
@given(v3_rules(), v3_round(), v3_pending())
def test_zero_sum_and_the_long_way_round(rules, round_, pending):
    """The streamlined pay_i equals every pair settling their difference (two unseen
    players not, under skip) plus w_i, then dhoos; and what is paid is received."""
    if rules.dhoos_payee not in ("next_winner", "next_round_winner"):
        pending = ()  # only those rules leave dhoos pending
    result = settle_round(round_, rules, pending=pending)
    nets = result.nets
    booked_outside = sum(d.amount for d in result.dhoos_outside)
    assert sum(p.net for p in result.players) == booked_outside
    assert sum(nets.values()) == 0
    assert settle_long_way(round_, rules, pending) == nets
    winner_take = sum(p.pay for p in result.players if not p.is_winner)
    for p in result.players:
        if p.is_winner:
            assert p.net - p.dhoos_net == winner_take
        elif round_.winner is None:
            assert (p.w, p.pay, p.seen_only, p.dead_hand) == (0, 0, False, False)
        else:
            base = result.total_seen if p.seen_only else result.total
            count = result.seen_count if p.seen_only else result.n
            assert p.n_s == count * p.points
            assert p.pay == (base + p.w - p.n_s) * result.multiplier


@PROPERTIES
@given(v3_rules(), v3_round(), st.randoms(use_true_random=False))
def test_the_order_of_the_players_changes_nothing(rules, round_, random):
    entries = list(round_.entries)
    random.shuffle(entries)
    shuffled = replace(round_, entries=tuple(entries))
    assert settle_round(shuffled, rules).nets == settle_round(round_, rules).nets


@PROPERTIES
@given(v3_rules(), st.lists(v3_round(), min_size=1, max_size=8))
def test_a_sessions_dhoos_is_all_paid_or_pending(rules, rounds):
    """Zero-sum over a session, rounds with a winner booking what waits; under
    next_round_winner nothing waits past a round with a winner."""
    session = settle_session(rounds, rules)
    for result in session.rounds:
        assert sum(result.nets.values()) == 0
    if rules.dhoos_payee == "next_round_winner" and rounds[-1].winner is not None:
        assert session.pending == tuple(d for d in session.rounds[-1].dhoos_deferred)
