"""Properties of the pot hands engine on random sessions (hypothesis), held to
the long way round of tests/pots/reference.py: the same money per hand and in
all; money that sums to exactly zero; transfers that reproduce it, the fewest
for up to five non-zero nets; a split that depends on seat order only for its
odd paisa; never a float."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pots.engine import read_session, refusals, settle_document, settle_session
from tests.callbreak.reference import fewest_transfers
from tests.pots import reference

FAST = settings(max_examples=300, deadline=None)


def text(paisa: int) -> str:
    return f"{paisa // 100}.{paisa % 100:02d}"


@st.composite
def any_sessions(draw: st.DrawFn, max_players: int = 10) -> dict[str, Any]:
    """A valid `pot-session/1` document: pots split or taken out, some carried on."""
    players = draw(
        st.lists(
            st.text("ABCDEFGHJK", min_size=1, max_size=3),
            min_size=2,
            max_size=max_players,
            unique=True,
        )
    )
    count = draw(st.integers(1, 6))
    hands = []
    carried = 0
    for number in range(1, count + 1):
        put = {
            name: draw(st.integers(0, 2_000))
            for name in draw(st.lists(st.sampled_from(players), min_size=1, unique=True))
        }
        if not sum(put.values()) and not carried:
            put[next(iter(put))] = draw(st.integers(1, 2_000))
        pot = sum(put.values()) + carried
        hand: dict[str, Any] = {"put_in": {name: text(amount) for name, amount in put.items()}}
        if carried:
            hand["carry_in"] = text(carried)
        last = number == count
        inside = [name for name in players if put.get(name)]
        shared = draw(st.booleans())
        if inside and shared:
            hand["winners"] = draw(st.lists(st.sampled_from(inside), min_size=1, unique=True))
            carried = 0 if last else draw(st.integers(0, pot - 1))
        else:
            carried = 0 if last else draw(st.integers(0, pot))
            left = pot - carried
            took: dict[str, int] = {}
            for name in draw(st.lists(st.sampled_from(players), unique=True)):
                took[name] = draw(st.integers(0, left))
                left -= took[name]
            if left:
                name = draw(st.sampled_from(players))
                took[name] = took.get(name, 0) + left
            hand["took"] = {name: text(amount) for name, amount in took.items()}
        if carried:
            hand["carry_out"] = text(carried)
        hands.append(hand)
    return {"format": "pot-session/1", "players": players, "hands": hands}


@FAST
@given(any_sessions())
def test_the_engine_agrees_with_the_long_way_round(document):
    assert refusals(document) == []
    result = settle_document(document)
    expected = reference.settle(document)
    assert result["money"] == {
        name: text_signed(amount) for name, amount in expected["money"].items()
    }
    assert result["per_hand"] == [
        {name: text_signed(amount) for name, amount in hand.items()}
        for hand in expected["per_hand"]
    ]


def text_signed(paisa: int) -> str:
    return ("-" if paisa < 0 else "") + text(abs(paisa))


@FAST
@given(any_sessions())
def test_money_sums_to_zero_and_the_transfers_clear_it(document):
    result = settle_document(document)
    nets = {name: reference.paisa(amount) for name, amount in result["money"].items()}
    assert sum(nets.values()) == 0
    for hand in result["per_hand"]:
        assert "-0.00" not in hand.values()
    left = dict(nets)
    for transfer in result["transfers"]:
        amount = reference.paisa(transfer["amount"])
        assert amount > 0 and nets[transfer["from"]] < 0 < nets[transfer["to"]]
        left[transfer["from"]] += amount
        left[transfer["to"]] -= amount
    assert set(left.values()) <= {0}
    non_zero = [value for value in nets.values() if value]
    assert len(result["transfers"]) <= max(len(non_zero) - 1, 0)
    if len(non_zero) <= 5:
        assert len(result["transfers"]) == fewest_transfers(non_zero)


@FAST
@given(any_sessions(max_players=6), st.data())
def test_seat_order_decides_only_a_split_pots_odd_paisa(document, data):
    seated = copy.deepcopy(document)
    seated["players"] = data.draw(st.permutations(document["players"]))
    before, after = settle_document(document), settle_document(seated)
    splits = sum(len(hand.get("winners", ())) > 1 for hand in document["hands"])
    for name in document["players"]:
        gap = abs(reference.paisa(before["money"][name]) - reference.paisa(after["money"][name]))
        assert gap <= splits
    if not splits:
        assert before["money"] == after["money"]


@FAST
@given(any_sessions())
def test_no_float_anywhere(document):
    settled = settle_session(read_session(document))
    values = [*settled.money, *(amount for hand in settled.per_hand for amount in hand)]
    assert all(type(value) is int for value in values)
    assert all(type(t.amount) is int for t in settled.transfers)
