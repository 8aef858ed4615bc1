"""Settling one round (RULES.md sections 2 and 3), with nets worked out by hand."""

from __future__ import annotations

import pytest

from scoring.engine import (
    Entry,
    RoundError,
    RoundInput,
    better_by_default,
    make_rules,
    settle_long_way,
    settle_round,
)

PAGAT = make_rules("pagat")


def english(notes: tuple) -> tuple[str, ...]:
    """A result's notes (engine messages) as the English text they read as."""
    return tuple(str(note) for note in notes)


def worked_example(**round_options) -> RoundInput:
    """RULES.md section 2: C wins; A seen 5, B unseen 2, C 7, D seen 0."""
    return RoundInput(
        entries=(
            Entry("A", "seen", maal=5),
            Entry("B", "unseen", maal=2),
            Entry("C", "seen", maal=7),
            Entry("D", "seen", maal=0),
        ),
        **({"winner": "C"} | round_options),
    )


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
