"""Settling one round (RULES.md sections 2, 3 and 3a), with nets worked out by hand:
the worked example, the presets, and each house-rule option's exact numbers from
its wording (players who saw by dublees, the fewest players for a dublee win,
dhoos voiding maal, the dhoos amount and payee, unseen pairs, a dead hand, the
dublee player bonus); every problem of a round at once (`round_problems`), of
which `validate_round` raises the first."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scoring.engine import (
    Dhoos,
    Entry,
    RoundError,
    RoundInput,
    better_by_default,
    make_rules,
    settle_long_way,
    settle_round,
)
from scoring.engine.rules import (
    PRESETS,
)
from scoring.engine.settlement import (
    round_problems,
    validate_round,
)

PAGAT = make_rules("pagat")


def english(notes: tuple) -> tuple[str, ...]:
    """A result's notes (engine messages) as the English text they read as."""
    return tuple(str(note) for note in notes)


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


def test_the_worked_example_of_rules_md():
    result = settle_round(worked_example(), PAGAT)
    assert result.nets == {"A": 3, "B": -16, "C": 30, "D": -17}
    assert (result.n, result.total, result.multiplier, result.winner) == (4, 14, 1, "C")
    breakdown = {p.player: (p.points, p.w, p.n_s, p.pay, p.is_winner) for p in result.players}
    assert breakdown == {
        "A": (5, 3, 20, -3, False),  # C pays A 3
        "B": (2, 10, 8, 16, False),
        "C": (7, 0, 28, 0, True),
        "D": (0, 3, 0, 17, False),
    }
    assert all(p.notes == () for p in result.players)
    assert settle_long_way(worked_example(), PAGAT) == result.nets


# One round settled under each preset, by hand. A wins; B seen with a tunnel; C unseen
# with maal 4 and a tunnel of 5; D unseen with nothing. n = 4.
def preset_round(**round_options) -> RoundInput:
    return RoundInput(
        entries=(
            Entry("A", "seen", maal=5),
            Entry("B", "seen", maal=3, tunnel=10),
            Entry("C", "unseen", maal=4, tunnel=5),
            Entry("D", "unseen"),
        ),
        **({"winner": "A"} | round_options),
    )


@pytest.mark.parametrize(
    ("rules", "points", "total", "pays", "nets"),
    [
        # pagat: C's tunnel is void (tunnel pachaunu), his maal counts.
        # B: 22+3−52 = −27, C: 22+10−16 = 16, D: 22+10−0 = 32.
        (
            make_rules("pagat"),
            {"A": 5, "B": 13, "C": 4, "D": 0},
            22,
            {"B": -27, "C": 16, "D": 32},
            {"A": 21, "B": 27, "C": -16, "D": -32},
        ),
        # kidnap: C's tunnel is void, then A kidnaps his maal 4.
        # B: 22+3−52 = −27, C: 22+10 = 32, D: 32.
        (
            make_rules("kidnap"),
            {"A": 9, "B": 13, "C": 0, "D": 0},
            22,
            {"B": -27, "C": 32, "D": 32},
            {"A": 37, "B": 27, "C": -32, "D": -32},
        ),
        # kidnap with counted tunnels: A takes maal and tunnel, 9 (RULES.md Decision).
        # B: 27+3−52 = −22, C: 27+10 = 37, D: 37.
        (
            make_rules("kidnap", unseen_tunnel="count"),
            {"A": 14, "B": 13, "C": 0, "D": 0},
            27,
            {"B": -22, "C": 37, "D": 37},
            {"A": 52, "B": 22, "C": -37, "D": -37},
        ),
        # murder: C's maal and tunnel are void. B: 18+3−52 = −31, C: 28, D: 28.
        (
            make_rules("murder"),
            {"A": 5, "B": 13, "C": 0, "D": 0},
            18,
            {"B": -31, "C": 28, "D": 28},
            {"A": 25, "B": 31, "C": -28, "D": -28},
        ),
        # murder voids counted tunnels too.
        (
            make_rules("murder", unseen_tunnel="count"),
            {"A": 5, "B": 13, "C": 0, "D": 0},
            18,
            {"B": -31, "C": 28, "D": 28},
            {"A": 25, "B": 31, "C": -28, "D": -28},
        ),
        # wikipedia: an unseen player's tunnel counts. B: 27+3−52 = −22,
        # C: 27+10−36 = 1, D: 27+10 = 37.
        (
            make_rules("wikipedia"),
            {"A": 5, "B": 13, "C": 9, "D": 0},
            27,
            {"B": -22, "C": 1, "D": 37},
            {"A": 16, "B": 22, "C": -1, "D": -37},
        ),
    ],
    ids=["pagat", "kidnap", "kidnap-tunnel-count", "murder", "murder-tunnel-count", "wikipedia"],
)
def test_one_round_under_each_preset(rules, points, total, pays, nets):
    result = settle_round(preset_round(), rules)
    assert {p.player: p.points for p in result.players} == points
    assert result.total == total
    assert {p.player: p.pay for p in result.players if not p.is_winner} == pays
    assert result.nets == nets
    assert settle_long_way(preset_round(), rules) == nets


def test_the_notes_say_which_variant_changed_what():
    notes = {
        p.player: english(p.notes)
        for p in settle_round(preset_round(), make_rules("kidnap")).players
    }
    assert notes == {
        "A": ("kidnapped 4 from unseen players",),
        "B": (),
        "C": ("tunnel 5 void: unseen (tunnel pachaunu)", "maal 4 kidnapped by A"),
        "D": (),
    }
    murder = settle_round(preset_round(), make_rules("murder", unseen_tunnel="count"))
    assert english(murder.of("C").notes) == ("maal 9 void: unseen (murder)",)
    assert murder.of("C").counted_tunnel == 5
    assert settle_round(preset_round(), make_rules("pagat")).of("C").counted_tunnel == 0
    wikipedia = settle_round(preset_round(), make_rules("wikipedia"))
    assert all(p.notes == () for p in wikipedia.players)


def test_seen_players_keep_their_tunnels_under_every_preset():
    for preset in ("pagat", "kidnap", "murder", "wikipedia"):
        b = settle_round(preset_round(), make_rules(preset)).of("B")
        assert (b.maal, b.tunnel, b.counted_tunnel, b.points) == (3, 10, 10, 13)


def test_dublee_win_adds_the_bonus_to_every_w():
    # w = 3+5 seen, 10+5 unseen. A: 14+8−20 = 2, B: 14+15−8 = 21, D: 14+8 = 22.
    result = settle_round(worked_example(win_type="dublee"), PAGAT)
    assert {p.player: p.w for p in result.players} == {"A": 8, "B": 15, "C": 0, "D": 8}
    assert result.nets == {"A": -2, "B": -21, "C": 45, "D": -22}
    assert english(result.of("A").notes) == ("dublee win: +5 to w",)
    assert result.of("C").notes == ()
    bigger = settle_round(worked_example(win_type="dublee"), make_rules(dublee_bonus=10))
    assert bigger.nets == {"A": -7, "B": -26, "C": 60, "D": -27}


def test_dublee_win_under_murder_has_no_bonus():
    result = settle_round(worked_example(win_type="dublee"), make_rules("murder"))
    # B's maal 2 is void: T = 12. A: 12+3−20 = −5, B: 12+10 = 22, D: 12+3 = 15.
    assert result.nets == {"A": 5, "B": -22, "C": 32, "D": -15}
    assert all("dublee" not in str(note) for p in result.players for note in p.notes)


def test_better_multiplies_every_game_payment():
    result = settle_round(worked_example(better=True), PAGAT)
    assert result.multiplier == 2
    assert {p.player: p.pay for p in result.players} == {"A": -6, "B": 32, "C": 0, "D": 34}
    assert result.nets == {"A": 6, "B": -32, "C": 60, "D": -34}
    assert all(english(p.notes) == ("better: game payments × 2",) for p in result.players)
    triple = settle_round(worked_example(better=True), make_rules(better_multiplier=3))
    assert triple.nets == {"A": 9, "B": -48, "C": 90, "D": -51}
    # A multiplier of 1 makes better a plain round, and says nothing about it.
    plain = settle_round(worked_example(better=True), make_rules(better_multiplier=1))
    assert plain.nets == {"A": 3, "B": -16, "C": 30, "D": -17}
    assert all(p.notes == () for p in plain.players)


def test_seen_and_unseen_payments_are_options():
    rules = make_rules(seen_payment=5, unseen_payment=20)
    # A: 14+5−20 = −1, B: 14+20−8 = 26, D: 14+5 = 19.
    assert settle_round(worked_example(), rules).nets == {"A": 1, "B": -26, "C": 44, "D": -19}


def test_dhoos_is_paid_to_every_other_player_and_not_doubled_by_better():
    round_ = worked_example(better=True)
    entries = (*round_.entries[:3], Entry("D", "seen", maal=0, dhoos=True))
    result = settle_round(RoundInput(entries, winner="C", better=True), PAGAT)
    # The better nets (A +6, B −32, C +60, D −34), then D pays 15 to each of three.
    assert result.nets == {"A": 21, "B": -17, "C": 75, "D": -79}
    assert {p.player: p.dhoos_net for p in result.players} == {
        "A": 15,
        "B": 15,
        "C": 15,
        "D": -45,
    }
    assert english(result.of("D").notes) == (
        "dhoos: pays 15 to each of 3 players",
        "better: game payments × 2",
    )
    assert settle_long_way(RoundInput(entries, winner="C", better=True), PAGAT) == result.nets


def test_dhoos_penalty_is_an_option_and_the_winner_can_get_it():
    entries = (
        Entry("A", "seen", maal=5),
        Entry("B", "unseen", maal=2),
        Entry("C", "seen", maal=7, dhoos=True),
        Entry("D", "seen"),
    )
    result = settle_round(RoundInput(entries, winner="C"), make_rules(dhoos_penalty=20))
    assert result.nets == {"A": 3 + 20, "B": -16 + 20, "C": 30 - 60, "D": -17 + 20}


def test_a_round_without_a_winner_has_only_dhoos():
    entries = (
        Entry("A", "seen", maal=30, tunnel=20),
        Entry("B", "unseen", maal=12, dhoos=True),
        Entry("C", "seen"),
    )
    result = settle_round(RoundInput(entries, winner=None, better=True), make_rules("kidnap"))
    assert result.nets == {"A": 15, "B": -30, "C": 15}
    assert result.winner is None
    assert all((p.w, p.pay, p.is_winner) == (0, 0, False) for p in result.players)
    # Nothing is kidnapped when nobody won; better says nothing without a game payment.
    assert result.of("B").points == 12
    assert english(result.of("B").notes) == ("dhoos: pays 15 to each of 2 players",)
    assert result.of("A").notes == ()


def test_two_dhoos_in_a_round_without_a_winner():
    entries = (Entry("A", dhoos=True), Entry("B", dhoos=True), Entry("C"))
    result = settle_round(RoundInput(entries), PAGAT)
    assert result.nets == {"A": -15, "B": -15, "C": 30}


def test_a_round_without_a_winner_and_without_dhoos_is_all_zero():
    entries = (Entry("A", maal=9), Entry("B", "unseen", maal=3))
    assert settle_round(RoundInput(entries), PAGAT).nets == {"A": 0, "B": 0}


def test_two_players_and_eight_players():
    two = RoundInput((Entry("A", maal=3), Entry("B", "unseen", maal=10, tunnel=5)), winner="A")
    # T = 13, B: 13+10−20 = 3.
    assert settle_round(two, PAGAT).nets == {"A": 3, "B": -3}
    eight = RoundInput(tuple(Entry(f"P{i}", maal=i) for i in range(8)), winner="P7")
    nets = settle_round(eight, make_rules(max_players=8)).nets
    # T = 28; P_i pays 28+3−8i.
    assert nets == {f"P{i}": -(31 - 8 * i) for i in range(7)} | {
        "P7": sum(31 - 8 * i for i in range(7))
    }


def test_better_by_default_after_a_dublee_win():
    rules = make_rules(dublee_triggers_better=True)
    dublee = worked_example(win_type="dublee")
    assert better_by_default(dublee, rules) is True
    assert better_by_default(worked_example(), rules) is False
    assert better_by_default(None, rules) is False
    assert better_by_default(RoundInput(worked_example().entries), rules) is False
    assert better_by_default(dublee, PAGAT) is False


# --- rounds that cannot be settled -----------------------------------------------------------


def entries(*changes: Entry) -> tuple[Entry, ...]:
    base = {e.player: e for e in worked_example().entries}
    base.update({e.player: e for e in changes})
    return tuple(base.values())


@pytest.mark.parametrize(
    ("round_", "message", "field", "player"),
    [
        (
            RoundInput(entries(Entry("A", maal=-3)), winner="C"),
            "player A, maal: must not be negative, got -3",
            "maal",
            "A",
        ),
        (
            RoundInput(entries(Entry("B", "unseen", tunnel=2.5)), winner="C"),  # type: ignore[arg-type]
            "player B, tunnel: must be a whole number, got 2.5",
            "tunnel",
            "B",
        ),
        (
            RoundInput(entries(Entry("A", maal=True)), winner="C"),
            "player A, maal: must be a whole number, got True",
            "maal",
            "A",
        ),
        (
            RoundInput(entries(Entry("D", maal=10_001)), winner="C"),
            "player D, maal: 10001 is more than 10,000 points; check the number",
            "maal",
            "D",
        ),
        (
            RoundInput(entries(Entry("A", "blind")), winner="C"),  # type: ignore[arg-type]
            "player A, status: must be seen or unseen, got 'blind'",
            "status",
            "A",
        ),
        (
            RoundInput(entries(Entry("A", dhoos=1)), winner="C"),  # type: ignore[arg-type]
            "player A, dhoos: must be true or false, got 1",
            "dhoos",
            "A",
        ),
        (
            RoundInput((*entries(), Entry("A")), winner="C"),
            "player A, player: appears twice in the round",
            "player",
            "A",
        ),
        (
            RoundInput((Entry(""), Entry("B")), winner="B"),
            "player: every entry needs a player",
            "player",
            None,
        ),
        (
            RoundInput((Entry("A"),), winner="A"),
            "players: a round needs at least 2 players, got 1",
            "players",
            None,
        ),
        (
            RoundInput(tuple(Entry(name) for name in "ABCDEF"), winner="A"),
            "players: at most 5 players can play a round under these rules, got 6",
            "players",
            None,
        ),
        (
            RoundInput(entries(), winner="Z"),
            "player Z, winner: 'Z' has no entry in this round",
            "winner",
            "Z",
        ),
        (
            RoundInput(entries(), winner="B"),
            "player B, status: the winner must be seen: "
            "ending the round means having shown the pure sets",
            "status",
            "B",
        ),
        (
            RoundInput(entries(), winner="B", win_type="dublee"),
            "player B, status: a dublee winner must be seen (seven dublees show the tiplu)",
            "status",
            "B",
        ),
        (
            RoundInput(entries(), winner=None, win_type="dublee"),
            "win_type: a dublee win needs a winner",
            "win_type",
            None,
        ),
        (
            RoundInput(entries(), winner="C", win_type="triple"),  # type: ignore[arg-type]
            "win_type: must be normal or dublee, got 'triple'",
            "win_type",
            None,
        ),
        (
            RoundInput(entries(), winner="C", better="yes"),  # type: ignore[arg-type]
            "better: must be true or false, got 'yes'",
            "better",
            None,
        ),
    ],
)
def test_impossible_rounds_are_refused_by_field_and_player(round_, message, field, player):
    for settle in (settle_round, settle_long_way):
        with pytest.raises(RoundError) as error:
            settle(round_, PAGAT)
        assert str(error.value) == message
        assert (error.value.field, error.value.player) == (field, player)


def test_max_players_is_an_option():
    six = RoundInput(tuple(Entry(name) for name in "ABCDEF"), winner="A")
    assert settle_round(six, make_rules(max_players=6)).nets["A"] == 15
    assert settle_round(worked_example(), make_rules(max_players=4)).nets["C"] == 30
    with pytest.raises(RoundError, match=r"^players: at most 3 players can play a round"):
        settle_round(worked_example(), make_rules(max_players=3))


def test_ten_thousand_points_is_allowed():
    round_ = RoundInput(entries(Entry("C", maal=10_000)), winner="C")
    assert settle_round(round_, PAGAT).total == 10_000 + 5 + 2


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


def test_every_problem_in_the_order_validate_round_meets_them():
    rules = make_rules("pagat", dublee_min_players=4)
    round_ = RoundInput(
        entries=(
            Entry("Aama", maal=-1, tunnel=10_001),
            Entry("Buwa", status="unseen", dublees=True),
            Entry("Didi", status="unseen", maal=7),
        ),
        winner="Didi",
        win_type="dublee",
    )
    problems = round_problems(round_, rules)
    assert [str(p) for p in problems] == [
        "player Aama, maal: must not be negative, got -1",
        "player Aama, tunnel: 10001 is more than 10,000 points; check the number",
        "player Buwa, dublees: saw by dublees, so must be seen (dublees show the tiplu)",
        "player Didi, status: a dublee winner must be seen (seven dublees show the tiplu)",
        "win_type: a dublee win needs at least 4 players under these rules, got 3",
    ]
    assert [(p.player, p.field) for p in problems] == [
        ("Aama", "maal"),
        ("Aama", "tunnel"),
        ("Buwa", "dublees"),
        ("Didi", "status"),
        (None, "win_type"),
    ]
    with pytest.raises(RoundError) as raised:
        validate_round(round_, rules)
    assert str(raised.value) == str(problems[0])


def test_a_check_that_needs_another_is_left_out_when_it_failed():
    rules = make_rules("pagat")
    # No entry for the winner: nothing to say about the winner's status.
    lone = RoundInput(entries=(Entry("Aama"),), winner="Dai")
    assert [str(p) for p in round_problems(lone, rules)] == [
        "players: a round needs at least 2 players, got 1",
        "player Dai, winner: 'Dai' has no entry in this round",
    ]
    # A player given twice is told once, and then not judged again.
    twice = RoundInput(entries=(Entry("Aama"), Entry("Aama", maal=-1)), winner="Aama")
    assert [str(p) for p in round_problems(twice, rules)] == [
        "player Aama, player: appears twice in the round"
    ]


def test_a_playable_round_has_no_problems():
    round_ = RoundInput(entries=(Entry("Aama", maal=5), Entry("Buwa")), winner="Aama")
    assert round_problems(round_, make_rules("pagat")) == []
