"""Properties of the engine for any rules and any playable round (hypothesis):
zero-sum, the long way round equals the streamlined formula, the order of the
players changes nothing, a session's dhoos all paid or pending."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from decimal import Decimal

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.engine import (
    Dhoos,
    Entry,
    RoundError,
    RoundInput,
    Rules,
    at_stake,
    make_rules,
    money,
    money_by_round,
    settle_long_way,
    settle_round,
    settle_session,
    settle_up,
)
from scoring.engine.maal import Tally, score
from scoring.engine.settlement import Status, WinType, game_payment
from tests.strategies import any_rules

FAST = settings(max_examples=200, deadline=None)

points = st.one_of(st.integers(0, 60), st.integers(0, 10_000))
# The options of RULES.md section 3a at the values under which sections 2 and 3
# state a round's figures: the properties that check those figures pin them (the
# properties at the end hold with every option together).
WITHOUT_3A = {"unseen_pairs": "settle", "dhoos_pays_total": False, "dublee_player_bonus": 0}


@st.composite
def rounds_under(draw: st.DrawFn, rules: Rules) -> RoundInput:
    count = draw(st.integers(2, rules.max_players))
    names = draw(
        st.lists(
            st.text("ABCDEFGHIJ", min_size=1, max_size=3),
            min_size=count,
            max_size=count,
            unique=True,
        )
    )
    statuses: list[Status] = [draw(st.sampled_from(("seen", "unseen"))) for _ in names]
    entries = tuple(
        Entry(
            name,
            status,
            maal=draw(points),
            tunnel=draw(points),
            dhoos=draw(st.integers(0, 4)) == 0,
            dublees=status == "seen" and draw(st.integers(0, 3)) == 0,
        )
        for name, status in zip(names, statuses, strict=True)
    )
    seen = [e.player for e in entries if e.status == "seen"]
    winner = draw(st.one_of(st.none(), st.sampled_from(seen))) if seen else None
    dublee_win = winner is not None and count >= rules.dublee_min_players
    return RoundInput(
        entries,
        winner=winner,
        win_type=draw(st.sampled_from(("normal", "dublee"))) if dublee_win else "normal",
        better=draw(st.booleans()),
    )


@st.composite
def cases(draw: st.DrawFn, **pinned) -> tuple[Rules, RoundInput]:
    rules = draw(any_rules(**pinned))
    return rules, draw(rounds_under(rules))


@FAST
@given(cases())
def test_every_round_is_zero_sum(case):
    rules, round_ = case
    assert sum(settle_round(round_, rules).nets.values()) == 0


@FAST
@given(cases())
def test_streamlined_equals_pairwise(case):
    rules, round_ = case
    assert settle_round(round_, rules).nets == settle_long_way(round_, rules)


@FAST
@given(cases(), st.randoms(use_true_random=False))
def test_the_order_of_players_does_not_matter(case, random):
    rules, round_ = case
    shuffled = list(round_.entries)
    random.shuffle(shuffled)
    before = settle_round(round_, rules)
    after = settle_round(
        RoundInput(tuple(shuffled), round_.winner, round_.win_type, round_.better), rules
    )
    assert after.nets == before.nets
    assert (after.total, after.n, after.multiplier) == (before.total, before.n, before.multiplier)
    for entry in round_.entries:
        assert after.of(entry.player) == before.of(entry.player)


@FAST
@given(cases(**WITHOUT_3A))
def test_kidnap_and_void_touch_only_unseen_players_and_the_kidnapper(case):
    rules, round_ = case
    rules = replace(rules, dhoos_voids_maal=False)  # its own property, below
    result = settle_round(round_, rules)
    plain = settle_round(round_, make_rules(**(rules.to_options() | _NO_VARIANTS)))
    kidnapping = rules.unseen_maal == "kidnap" and round_.winner is not None
    changed = {
        p.player for p in result.players if (p.points, p.counted_tunnel) != _plain_of(plain, p)
    }
    unseen = {e.player for e in round_.entries if e.status == "unseen"}
    assert changed <= unseen | ({round_.winner} if kidnapping else set())
    # What the unseen players still count, and where it goes.
    still_counted = 0
    for entry in round_.entries:
        mine = result.of(entry.player)
        if entry.status == "seen":
            assert mine.counted_tunnel == entry.tunnel
            continue
        tunnel = entry.tunnel if rules.unseen_tunnel == "count" else 0
        assert mine.counted_tunnel == tunnel
        if rules.unseen_maal == "void" or kidnapping:
            assert mine.points == 0
            still_counted += entry.maal + tunnel
        else:
            assert mine.points == entry.maal + tunnel
    for entry in round_.entries:
        if entry.status == "seen":
            own = entry.maal + entry.tunnel
            extra = still_counted if kidnapping and entry.player == round_.winner else 0
            assert result.of(entry.player).points == own + extra


_NO_VARIANTS = {"unseen_maal": "count", "unseen_tunnel": "count"}


def _plain_of(plain, player):
    other = plain.of(player.player)
    return other.points, other.counted_tunnel


@FAST
@given(cases(**WITHOUT_3A))
def test_the_breakdown_adds_up(case):
    rules, round_ = case
    result = settle_round(round_, rules)
    n, total, m = result.n, result.total, result.multiplier
    assert n == len(round_.entries)
    assert total == sum(p.points for p in result.players)
    assert m == (rules.better_multiplier if round_.better else 1)
    # Dhoos is never multiplied by better.
    if rules.dhoos_amount == "fixed":
        amount = rules.dhoos_penalty
    elif round_.winner is None:
        amount = sum(e.maal + e.tunnel for e in round_.entries)
    else:
        amount = total
    expected_dhoos = {e.player: 0 for e in round_.entries}
    for e in round_.entries:
        if not e.dhoos or rules.dhoos_payee in ("next_winner", "next_round_winner"):
            continue
        if rules.dhoos_payee == "winner" and round_.winner not in (None, e.player):
            expected_dhoos[round_.winner] += amount
            expected_dhoos[e.player] -= amount
        else:
            for other in expected_dhoos:
                expected_dhoos[other] += amount
            expected_dhoos[e.player] -= amount * n
    deferred = [e.player for e in round_.entries if e.dhoos] * (
        rules.dhoos_payee in ("next_winner", "next_round_winner")
    )
    assert [d.player for d in result.dhoos_deferred] == deferred
    for p in result.players:
        assert p.n_s == n * p.points
        assert p.dhoos_net == expected_dhoos[p.player]
        if round_.winner is None or p.is_winner:
            assert (p.w, p.pay) == (0, 0)
            continue
        if p.status == "unseen":
            w = rules.unseen_payment
        elif p.dublees and not rules.dublee_players_pay_seen:
            w = 0
        else:
            w = rules.seen_payment
        if round_.win_type == "dublee":
            w += rules.dublee_bonus
        assert p.w == w == game_payment(round_.entry(p.player), round_, rules)
        assert p.pay == (total + p.w - p.n_s) * m
        assert p.net == -p.pay + p.dhoos_net
    if round_.winner is not None:
        winner = result.of(round_.winner)
        assert winner.net - winner.dhoos_net == sum(p.pay for p in result.players)
    else:
        assert all(p.net == p.dhoos_net for p in result.players)


@FAST
@given(cases(**WITHOUT_3A))
def test_dhoos_voids_maal_touches_only_dhoos_players_and_the_kidnapper(case):
    rules, round_ = case
    voiding = settle_round(round_, replace(rules, dhoos_voids_maal=True))
    counting = settle_round(round_, replace(rules, dhoos_voids_maal=False))
    kidnapper = round_.winner if rules.unseen_maal == "kidnap" else None
    for entry in round_.entries:
        mine, before = voiding.of(entry.player), counting.of(entry.player)
        if entry.dhoos and entry.player != kidnapper:
            assert (mine.points, mine.counted_tunnel) == (0, 0)
        elif entry.dhoos:
            # The kidnapper keeps only what it kidnapped from players without dhoos.
            assert mine.points <= before.points
        elif entry.player != kidnapper:
            assert (mine.points, mine.counted_tunnel) == (before.points, before.counted_tunnel)


@st.composite
def dublee_wins(draw: st.DrawFn) -> tuple[Rules, RoundInput]:
    """Any rules with any `dublee_min_players`, and a playable round won by dublees
    with any number of players up to `max_players`."""
    rules = draw(any_rules())
    round_ = draw(rounds_under(replace(rules, dublee_min_players=2)))
    assume(round_.winner is not None)
    minimum = draw(st.integers(2, 8))
    return replace(rules, dublee_min_players=minimum), replace(round_, win_type="dublee")


@FAST
@given(dublee_wins())
def test_a_dublee_win_needs_at_least_dublee_min_players(case):
    rules, round_ = case
    count = len(round_.entries)
    if count < rules.dublee_min_players:
        with pytest.raises(RoundError) as error:
            settle_round(round_, rules)
        assert error.value.field == "win_type"
        assert str(error.value) == (
            f"win_type: a dublee win needs at least {rules.dublee_min_players} players "
            f"under these rules, got {count}"
        )
    else:
        result = settle_round(round_, rules)
        assert result.win_type == "dublee"
        assert sum(result.nets.values()) == 0


@st.composite
def tallies(draw: st.DrawFn, extras: bool) -> Tally:
    """A hand one player can hold (copies in play, at most 20 cards), without the
    master card; alter and printed jokers only with `extras` (the rules turn them on)."""
    marriages = draw(st.integers(0, 1))
    poplu_tunnels = 0 if marriages else draw(st.integers(0, 1))
    jhiplu_tunnels = 0 if marriages else draw(st.integers(0, 1))
    alter_tunnels = draw(st.integers(0, 1)) if extras else 0
    return Tally(
        tiplu=draw(st.integers(0, 2 - marriages)),
        poplu=draw(st.integers(0, 3 - marriages - 3 * poplu_tunnels)),
        jhiplu=draw(st.integers(0, 3 - marriages - 3 * jhiplu_tunnels)),
        marriages=marriages,
        alter=draw(st.integers(0, 3 - 3 * alter_tunnels)) if extras else 0,
        printed_jokers=draw(st.integers(0, 2)) if extras else 0,
        tunnels=draw(st.integers(0, 1)),
        joker_tunnels=draw(st.integers(0, 1)),
        poplu_tunnels=poplu_tunnels,
        jhiplu_tunnels=jhiplu_tunnels,
        alter_tunnels=alter_tunnels,
    )


@st.composite
def master_card_cases(draw: st.DrawFn) -> tuple[Rules, Tally]:
    extras = draw(st.booleans())
    rules = draw(any_rules(master_card=True, alter=extras, printed_jokers=extras))
    return rules, draw(tallies(extras))


@FAST
@given(master_card_cases())
def test_the_master_card_is_worth_master_card_value_on_every_preset_table(case):
    rules, tally = case
    value = rules.master_card_value
    alone = score(Tally(master_card=1), rules)
    assert (alone.maal, alone.tunnel) == (value, 0)
    # Beside any other maal, the master card adds exactly its value, all of it maal.
    without = score(tally, rules)
    held = score(replace(tally, master_card=1), rules)
    assert (held.maal, held.tunnel) == (without.maal + value, without.tunnel)


# --- settle-up -------------------------------------------------------------------------------


@st.composite
def balances(draw: st.DrawFn, least: int = 0, most: int = 7, size: int = 8) -> dict[str, int]:
    values = draw(st.lists(st.integers(-size, size), min_size=least, max_size=most))
    values.append(-sum(values))
    return {f"P{i}": value for i, value in enumerate(values)}


def _partitions(items: list[int]) -> Iterator[list[list[int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in _partitions(rest):
        for index in range(len(partition)):
            yield [*partition[:index], [first, *partition[index]], *partition[index + 1 :]]
        yield [[first], *partition]


def most_zero_sum_groups(values: list[int]) -> int:
    """Brute force: every way of splitting the values into groups."""
    return max(
        len(partition)
        for partition in _partitions(values)
        if all(sum(group) == 0 for group in partition)
    )


def _apply(balance: dict[str, int], transfers) -> dict[str, int]:
    left = dict(balance)
    for t in transfers:
        left[t.payer] += t.points
        left[t.payee] -= t.points
    return left


@FAST
@given(balances())
def test_settle_up_clears_every_balance_with_the_fewest_payments(balance):
    transfers = settle_up(balance)
    assert all(value == 0 for value in _apply(balance, transfers).values())
    assert all(t.points > 0 and t.payer != t.payee for t in transfers)
    # Debtors only pay and creditors only receive.
    assert all(balance[t.payer] < 0 < balance[t.payee] for t in transfers)
    nonzero = [value for value in balance.values() if value]
    assert len(transfers) <= max(len(nonzero) - 1, 0)
    assert len(transfers) == len(nonzero) - (most_zero_sum_groups(nonzero) if nonzero else 0)


@FAST
@given(balances(), st.randoms(use_true_random=False))
def test_settle_up_does_not_depend_on_the_order_of_players(balance, random):
    items = list(balance.items())
    random.shuffle(items)
    assert settle_up(dict(items)) == settle_up(balance)


@settings(max_examples=20, deadline=None)
@given(balances(least=17, most=24, size=1000))
def test_settle_up_beyond_the_exact_limit_still_clears_everything(balance):
    transfers = settle_up(balance)
    assert all(value == 0 for value in _apply(balance, transfers).values())
    nonzero = sum(1 for value in balance.values() if value)
    assert len(transfers) <= max(nonzero - 1, 0)


@FAST
@given(balances(), st.decimals(min_value=0, max_value=1000, places=2))
def test_money_is_exact_and_zero_sum(balance, stake):
    amounts = money(balance, stake)
    assert sum(amounts.values()) == 0
    assert all(amounts[p] == Decimal(balance[p]) * stake for p in balance)
    assert all(t.money(stake) == t.points * stake for t in settle_up(balance))


STAKES = st.decimals(min_value=0, max_value=1000, places=2)


@FAST
@given(st.lists(st.tuples(st.integers(-10_000, 10_000), STAKES), max_size=60))
def test_money_by_round_is_each_rounds_points_at_its_stake(rounds):
    amount = money_by_round(rounds)
    assert isinstance(amount, Decimal)
    # Exact, round by round (a float would drift over a long evening).
    assert amount == sum((Decimal(points) * stake for points, stake in rounds), Decimal(0))
    # Split anywhere (a stake changed from round N on), the parts add up.
    half = len(rounds) // 2
    assert money_by_round(rounds[:half]) + money_by_round(rounds[half:]) == amount


@FAST
@given(st.lists(st.integers(-10_000, 10_000), max_size=60), STAKES)
def test_one_stake_money_is_the_points_added_up_at_it(nets, stake):
    """While a session has one stake, the sum of its points at that stake (what
    the pages and the group's SQL sums pass) is the money round by round."""
    assert at_stake(sum(nets), stake) == money_by_round((net, stake) for net in nets)
    assert str(at_stake(sum(nets), stake)) == str(sum(nets) * stake)


# --- properties, every option together ----------------------------------------------------------

PROPERTIES = settings(max_examples=300, deadline=None)
NAMES = ("A", "B", "C", "D", "E", "F")


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
@given(any_rules(max_players=6, dublee_min_players=2), v3_round(), v3_pending())
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
@given(
    any_rules(max_players=6, dublee_min_players=2), v3_round(), st.randoms(use_true_random=False)
)
def test_the_order_of_the_players_changes_nothing(rules, round_, random):
    entries = list(round_.entries)
    random.shuffle(entries)
    shuffled = replace(round_, entries=tuple(entries))
    assert settle_round(shuffled, rules).nets == settle_round(round_, rules).nets


@PROPERTIES
@given(any_rules(max_players=6, dublee_min_players=2), st.lists(v3_round(), min_size=1, max_size=8))
def test_a_sessions_dhoos_is_all_paid_or_pending(rules, rounds):
    """Zero-sum over a session, rounds with a winner booking what waits; under
    next_round_winner nothing waits past a round with a winner."""
    session = settle_session(rounds, rules)
    for result in session.rounds:
        assert sum(result.nets.values()) == 0
    if rules.dhoos_payee == "next_round_winner" and rounds[-1].winner is not None:
        assert session.pending == tuple(d for d in session.rounds[-1].dhoos_deferred)
