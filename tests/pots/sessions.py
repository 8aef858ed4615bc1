"""Pot sessions worked by hand: CALLBREAK.md §9's example, and a helper."""

from __future__ import annotations

import copy
from typing import Any

PLAYERS = ["Asha", "Bikash", "Chandra"]

# §9's example: a Teen Patti pot, then an In-Between pot carried into the next.
EXAMPLE: dict[str, Any] = {
    "format": "pot-session/1",
    "players": PLAYERS,
    "hands": [
        {
            "game": "teen_patti",
            "put_in": {"Asha": "10.00", "Bikash": "30.00", "Chandra": "10.00"},
            "winners": ["Bikash"],
        },
        {
            "game": "in_between",
            "put_in": {"Asha": "3.00", "Bikash": "3.00", "Chandra": "3.00"},
            "took": {"Bikash": "4.00"},
            "carry_out": "5.00",
        },
        {
            "game": "in_between",
            "put_in": {"Chandra": "1.00"},
            "carry_in": "5.00",
            "took": {"Chandra": "6.00"},
        },
    ],
}


def session(*hands: dict[str, Any], players: list[str] | None = None) -> dict[str, Any]:
    return {
        "format": "pot-session/1",
        "players": list(players or PLAYERS),
        "hands": [copy.deepcopy(hand) for hand in hands],
    }
