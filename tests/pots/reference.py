"""Pot hands the long way round, apart from the engine: each hand's money
counted out paisa by paisa, and the session summed player by player."""

from __future__ import annotations

from decimal import Decimal
from typing import Any


def paisa(text: str) -> int:
    return int(Decimal(text) * 100)


def hand_money(hand: dict[str, Any], players: list[str]) -> dict[str, int]:
    put = {name: paisa(hand["put_in"].get(name, "0")) for name in players}
    taken = dict.fromkeys(players, 0)
    if "took" in hand:
        for name, amount in hand["took"].items():
            taken[name] += paisa(amount)
    else:
        left = (
            sum(put.values()) + paisa(hand.get("carry_in", "0")) - paisa(hand.get("carry_out", "0"))
        )
        winners = [name for name in players if name in hand["winners"]]  # seat order
        turn = 0
        while left:  # one paisa at a time, round the winners from the earliest seat
            taken[winners[turn % len(winners)]] += 1
            left -= 1
            turn += 1
    return {name: taken[name] - put[name] for name in players}


def settle(document: dict[str, Any]) -> dict[str, Any]:
    players = document["players"]
    per_hand = [hand_money(hand, players) for hand in document["hands"]]
    money = {name: sum(hand[name] for hand in per_hand) for name in players}
    return {"per_hand": per_hand, "money": money}
