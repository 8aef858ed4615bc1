"""Call Break games worked by hand: CALLBREAK.md §11's examples as documents,
and helpers to write a document briefly."""

from __future__ import annotations

import copy
from typing import Any

PLAYERS = ["Asha", "Bikash", "Chandra", "Dipa"]


def deal(bids: list[int], tricks: list[int]) -> dict[str, Any]:
    """A deal of the four PLAYERS: bids and tricks in seat order."""
    return {
        "bids": dict(zip(PLAYERS, bids, strict=True)),
        "tricks": dict(zip(PLAYERS, tricks, strict=True)),
    }


def game(*deals: dict[str, Any], stake: str | None = "10.00", **rules: Any) -> dict[str, Any]:
    """A document of these deals; `deals_per_game` is their count unless given."""
    options = {"deals_per_game": len(deals)} | rules
    if options.get("target_score_tenths") is not None and "deals_per_game" not in rules:
        options["deals_per_game"] = None
    if options["deals_per_game"] == 5:
        del options["deals_per_game"]  # the default, as a family writes it
    document: dict[str, Any] = {"format": "callbreak-game/1", "players": list(PLAYERS)}
    if options:
        document["rules"] = options
    if stake is not None:
        document["stake"] = stake
    document["deals"] = [copy.deepcopy(d) for d in deals]
    return document


# C01 (defaults, stake 10): five deals, the first as §6.6 shows it (Asha 31,
# Bikash 40, Chandra -20, Dipa 31). Totals A 72, B 71, C 54, D 135.
C01_DEALS = [
    deal([3, 4, 2, 3], [4, 4, 1, 4]),  # 31, 40, -20, 31
    deal([6, 1, 1, 2], [6, 4, 0, 3]),  # 60, 13, -10, 21
    deal([3, 1, 1, 1], [2, 9, 2, 0]),  # -30, 18, 11, -10
    deal([1, 1, 2, 7], [0, 0, 4, 9]),  # -10, -10, 22, 72
    deal([2, 1, 5, 2], [3, 1, 6, 3]),  # 21, 10, 51, 21
]
C01 = game(*C01_DEALS)

# C03 (a tie for 1st and for 3rd, stake 10): totals 71, 71, 50, 50.
C03 = game(
    deal([6, 3, 2, 2], [6, 3, 2, 2]),  # 60, 30, 20, 20
    deal([1, 4, 3, 3], [2, 5, 3, 3]),  # 11, 41, 30, 30
)

# C09 (a tie for 1st, stake 0.05): totals 60, 60, 20, 40; Chandra is 4th and
# pays 3 × 0.05, Dipa 3rd pays 2 × 0.05, the two first share 0.25.
C09 = game(
    deal([1, 5, 6, 2], [0, 5, 6, 2]),  # -10, 50, 60, 20
    deal([7, 1, 4, 2], [7, 1, 3, 2]),  # 70, 10, -40, 20
    stake="0.05",
)
