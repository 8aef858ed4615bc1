"""The hand the table tests type: five players at 390x844 with touch, Didi
winning with Aama 5, Buwa 2, Didi 7, Dai 0, Bhai 3 (pagat: seen 3, dublee
bonus 5, all seen). T = 17, n = 5.

A normal win: nets +5, −10, +30, −20, −5. A dublee win adds the bonus 5 to each
loser's w = 8: Aama 17 + 8 − 25 = 0, Buwa 17 + 8 − 10 = 15, Dai 17 + 8 − 0 = 25,
Bhai 17 + 8 − 15 = 10; Didi +50."""

from __future__ import annotations

PHONE = {"width": 390, "height": 844}
TOUCH = {"has_touch": True, "is_mobile": True}
FIVE = ("Aama", "Buwa", "Didi", "Dai", "Bhai")
HAND = {"Aama": 5, "Buwa": 2, "Didi": 7, "Dai": 0, "Bhai": 3}
NORMAL_NETS = {"Aama": "+5", "Buwa": "-10", "Didi": "+30", "Dai": "-20", "Bhai": "-5"}
DUBLEE_NETS = {"Aama": "0", "Buwa": "-15", "Didi": "+50", "Dai": "-25", "Bhai": "-10"}


def row(page, name: str):
    return page.locator(f'.player-row[data-player="{name}"]')


def type_hand(page) -> None:
    for name, points in HAND.items():
        if points:
            row(page, name).locator('input[name$="-maal"]').tap()
            page.keyboard.type(str(points))
