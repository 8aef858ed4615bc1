"""Hypothesis strategies for Call Break: any valid rules (every option drawn
from its declaration in callbreak/engine/rules.py, then made to go together),
and any finished game under them."""

from __future__ import annotations

from typing import Any

from hypothesis import assume
from hypothesis import strategies as st

from callbreak.engine.rules import OPTIONS
from tests.callbreak import reference

STAKES = st.one_of(
    st.sampled_from(["0.01", "0.05", "0.25", "1", "2.50", "10.00", "10", "100"]),
    st.integers(1, 10_000_000).map(lambda paisa: f"{paisa // 100}.{paisa % 100:02d}"),
)
# A target is drawn low, so a game reaches it in a few deals.
MAX_DEALS = 12


def _whole(name: str, high: int | None = None) -> st.SearchStrategy[int]:
    option = OPTIONS[name]
    return st.integers(option.low, option.high if high is None else min(high, option.high))


@st.composite
def multipliers(draw: st.DrawFn) -> list[int]:
    """Four whole numbers, not increasing, that sum to 0: the gaps between
    places are drawn, and the 4th place's multiplier is what makes the sum 0."""
    gap_3, gap_2 = draw(st.integers(0, 5)), draw(st.integers(0, 5))
    gap_1 = -(3 * gap_3 + 2 * gap_2) % 4 + 4 * draw(st.integers(0, 3))
    fourth = -(3 * gap_3 + 2 * gap_2 + gap_1) // 4
    return [fourth + gap_3 + gap_2 + gap_1, fourth + gap_3 + gap_2, fourth + gap_3, fourth]


@st.composite
def any_options(draw: st.DrawFn) -> dict[str, Any]:
    """A `rules` object that is valid: only options that apply, as a family writes them."""
    options: dict[str, Any] = {}

    def maybe(name: str, value: st.SearchStrategy[Any]) -> None:
        if draw(st.booleans()):
            options[name] = draw(value)

    maybe("min_bid", _whole("min_bid"))
    maybe("max_bid", _whole("max_bid"))
    maybe("overtrick_tenths", _whole("overtrick_tenths"))
    maybe("overtrick_cap", st.none() | _whole("overtrick_cap"))
    maybe("excess_fails", st.sampled_from(OPTIONS["excess_fails"].choices))
    maybe("fail_penalty", st.sampled_from(OPTIONS["fail_penalty"].choices))
    max_bid = options.get("max_bid", 13)
    maybe("bonus_bid_threshold", st.integers(5, max_bid))
    if options.get("bonus_bid_threshold") is not None:
        maybe("bonus_bid_score", st.sampled_from(OPTIONS["bonus_bid_score"].choices))
    if max_bid == 13:
        maybe("thirteen_wins_game", st.booleans())
    if draw(st.booleans()):
        options["deals_per_game"] = draw(st.integers(1, 8))
    else:
        options["deals_per_game"] = None
        options["target_score_tenths"] = draw(st.integers(10, 150))
    maybe("bids_total_min", st.integers(4, 10))
    maybe("bids_total_max", st.integers(max(options.get("bids_total_min", 4), 10), 52))
    settlement = draw(st.sampled_from(OPTIONS["settlement"].choices))
    options["settlement"] = settlement
    if settlement == "by_rank":
        maybe("rank_multipliers", multipliers())
    if settlement in ("by_rank", "winner_takes"):
        maybe("negative_pays_double", st.booleans())
        maybe("big_win_tenths", st.integers(10, 400))
    return options


def _tricks(draw: st.DrawFn) -> list[int]:
    """Four tricks totalling 13: three cuts of 0 … 13."""
    cuts = sorted(draw(st.integers(0, 13)) for _ in range(3))
    return [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 13 - cuts[2]]


@st.composite
def any_games(draw: st.DrawFn, players: list[str] | None = None) -> dict[str, Any]:
    """A finished, valid `callbreak-game/1` document under any rules."""
    options = draw(any_options())
    rules = reference.DEFAULTS | options
    names = players or draw(
        st.lists(
            st.text("ABCDEFGHJK", min_size=1, max_size=4),
            min_size=4,
            max_size=4,
            unique_by=str.casefold,
        )
    )
    low, high = rules["min_bid"], rules["max_bid"]
    deals: list[dict[str, Any]] = []
    totals = dict.fromkeys(names, 0)
    for _ in range(MAX_DEALS if rules["deals_per_game"] is None else rules["deals_per_game"]):
        tricks = _tricks(draw)
        if rules["thirteen_wins_game"] and draw(st.integers(0, 9)) == 0:
            lucky = draw(st.integers(0, 3))
            tricks = [13 if seat == lucky else 0 for seat in range(4)]
        # Bids near the tricks taken, as a table calls them.
        bids = [
            min(high, max(low, took + draw(st.integers(-2, 2))))
            if draw(st.integers(0, 3))
            else draw(st.integers(low, high))
            for took in tricks
        ]
        if tricks.count(13) and rules["thirteen_wins_game"] and draw(st.booleans()):
            bids[tricks.index(13)] = 13
        total_min = rules["bids_total_min"] or 0
        total_max = rules["bids_total_max"] or 52
        while sum(bids) < total_min and min(bids) < high:
            bids[bids.index(min(bids))] += 1
        while sum(bids) > total_max and max(bids) > low:
            bids[bids.index(max(bids))] -= 1
        assume(total_min <= sum(bids) <= total_max)
        deals.append(
            {
                "bids": dict(zip(names, bids, strict=True)),
                "tricks": dict(zip(names, tricks, strict=True)),
            }
        )
        for name, bid, took in zip(names, bids, tricks, strict=True):
            totals[name] += reference.score(bid, took, rules)
        if rules["thirteen_wins_game"] and any(
            b == t == 13 for b, t in zip(bids, tricks, strict=True)
        ):
            break
        if (
            rules["target_score_tenths"] is not None
            and max(totals.values()) >= rules["target_score_tenths"]
        ):
            break
    else:  # no break: a fixed game played out, or a target game not reached in MAX_DEALS
        assume(rules["deals_per_game"] is not None)
    document: dict[str, Any] = {"format": "callbreak-game/1", "players": names, "rules": options}
    if options["settlement"] != "none" or draw(st.booleans()):
        document["stake"] = draw(STAKES)
    document["deals"] = deals
    return document
