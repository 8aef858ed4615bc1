"""Properties of the engine for any rules and any playable round (hypothesis)."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import (
    PRESETS,
    Entry,
    RoundInput,
    Rules,
    make_rules,
    money,
    settle_long_way,
    settle_round,
    settle_up,
)
from scoring.engine.rules import UNSEEN_MAAL_CHOICES, UNSEEN_TUNNEL_CHOICES

FAST = settings(max_examples=200, deadline=None)

points = st.one_of(st.integers(0, 60), st.integers(0, 10_000))


@st.composite
def any_rules(draw: st.DrawFn) -> Rules:
    return make_rules(
        draw(st.sampled_from(list(PRESETS))),
        seen_payment=draw(st.integers(0, 50)),
        unseen_payment=draw(st.integers(0, 200)),
        dublee_bonus=draw(st.integers(0, 20)),
        unseen_maal=draw(st.sampled_from(UNSEEN_MAAL_CHOICES)),
        unseen_tunnel=draw(st.sampled_from(UNSEEN_TUNNEL_CHOICES)),
        better_multiplier=draw(st.integers(1, 4)),
        dhoos_penalty=draw(st.integers(0, 50)),
        max_players=draw(st.integers(2, 8)),
    )


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
    entries = tuple(
        Entry(
            name,
            draw(st.sampled_from(("seen", "unseen"))),
            maal=draw(points),
            tunnel=draw(points),
            dhoos=draw(st.integers(0, 4)) == 0,
        )
        for name in names
    )
    seen = [e.player for e in entries if e.status == "seen"]
    winner = draw(st.one_of(st.none(), st.sampled_from(seen))) if seen else None
    return RoundInput(
        entries,
        winner=winner,
        win_type=draw(st.sampled_from(("normal", "dublee"))) if winner else "normal",
        better=draw(st.booleans()),
    )


@st.composite
def cases(draw: st.DrawFn) -> tuple[Rules, RoundInput]:
    rules = draw(any_rules())
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
@given(cases())
def test_kidnap_and_void_touch_only_unseen_players_and_the_kidnapper(case):
    rules, round_ = case
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
@given(cases())
def test_the_breakdown_adds_up(case):
    rules, round_ = case
    result = settle_round(round_, rules)
    n, total, m = result.n, result.total, result.multiplier
    assert n == len(round_.entries)
    assert total == sum(p.points for p in result.players)
    assert m == (rules.better_multiplier if round_.better else 1)
    dhoos_count = sum(1 for e in round_.entries if e.dhoos)
    for p in result.players:
        assert p.n_s == n * p.points
        others_dhoos = dhoos_count - p.dhoos
        penalty = rules.dhoos_penalty
        # Dhoos is never multiplied by better.
        assert p.dhoos_net == penalty * others_dhoos - (penalty * (n - 1) if p.dhoos else 0)
        if round_.winner is None or p.is_winner:
            assert (p.w, p.pay) == (0, 0)
            continue
        w = rules.seen_payment if p.status == "seen" else rules.unseen_payment
        if round_.win_type == "dublee":
            w += rules.dublee_bonus
        assert p.w == w
        assert p.pay == (total + p.w - p.n_s) * m
        assert p.net == -p.pay + p.dhoos_net
    if round_.winner is not None:
        winner = result.of(round_.winner)
        assert winner.net - winner.dhoos_net == sum(p.pay for p in result.players)
    else:
        assert all(p.net == p.dhoos_net for p in result.players)


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
