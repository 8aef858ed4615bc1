"""A family's group file whose `other_games` hold a Call Break game and a pot
session (CALLBREAK.md §12), with the money each adds, worked by hand."""

from __future__ import annotations

from tests.samples import family

SEATS = ("Aama", "Bhai", "Didi", "Hajurba")
# CALLBREAK.md's C01 (docs/callbreak.md, "A worked game"), seat for seat:
# Aama 72, Bhai 71, Didi 54, Hajurba 135 → Aama −10, Bhai −20, Didi −30, Hajurba +60.
C01 = [
    ((3, 4), (4, 4), (2, 1), (3, 4)),
    ((6, 6), (1, 4), (1, 0), (2, 3)),
    ((3, 2), (1, 9), (1, 2), (1, 0)),
    ((1, 0), (1, 0), (2, 4), (7, 9)),
    ((2, 3), (1, 1), (5, 6), (2, 3)),
]


def callbreak_game() -> dict:
    return {
        "format": "callbreak-game/1",
        "players": list(SEATS),
        "stake": "10.00",
        "deals": [
            {
                "bids": {p: bid for p, (bid, _t) in zip(SEATS, deal, strict=True)},
                "tricks": {p: tricks for p, (_b, tricks) in zip(SEATS, deal, strict=True)},
            }
            for deal in C01
        ],
    }


def pot_session() -> dict:
    """CALLBREAK.md §9's example: Aama −13.00, Bhai +21.00, Didi −8.00."""
    return {
        "format": "pot-session/1",
        "players": ["Aama", "Bhai", "Didi"],
        "hands": [
            {
                "game": "teen_patti",
                "put_in": {"Aama": "10.00", "Bhai": "30.00", "Didi": "10.00"},
                "winners": ["Bhai"],
            },
            {
                "game": "in_between",
                "put_in": {"Aama": "3.00", "Bhai": "3.00", "Didi": "3.00"},
                "took": {"Bhai": "4.00"},
                "carry_out": "5.00",
            },
            {
                "game": "in_between",
                "put_in": {"Didi": "1.00"},
                "carry_in": "5.00",
                "took": {"Didi": "6.00"},
            },
        ],
    }


def mixed_family() -> dict:
    data = family()
    data["other_games"] = [
        {"name": "Call Break after dinner", "played_on": "2026-10-02", "game": callbreak_game()},
        {"name": "Flash at midnight", "played_on": "2026-10-02", "game": pot_session()},
    ]
    return data


# tests.samples.EXPECTED (Aama −37.50, Bhai −33.00, Didi +52.50, Hajurba +18.00)
# + Call Break (−10, −20, −30, +60) + pots (−13, +21, −8, 0).
MIXED_BALANCES = {"Aama": "-60.50", "Bhai": "-32.00", "Didi": "14.50", "Hajurba": "78.00"}
