"""An evening under the nepal preset in a real Chromium on a phone: a dhoos paid to
the next winner (pending, then booked), and a better round by rotation, with a
player who saw by dublees.

Figures (preset nepal, better_after_rotation on; Aama, Buwa, Didi):
round 1, Aama wins; Aama seen 5, Buwa seen 3 with dhoos, Didi unseen 4. Murder
voids Didi's 4, the dhoos voids Buwa's 3: S = 5, 0, 0; T = 5, n = 3. Buwa pays
5 + 3 = 8, Didi 5 + 10 = 15: nets +23, −8, −15. Buwa owes 15 to the next winner.
round 2, Didi wins, nobody holds maal: Aama and Buwa pay 3 each, and Buwa's
dhoos is booked: nets −3, −18, +21.
round 3, Aama wins, no maal: +6, −3, −3.
round 4 is due (three rounds dealt by three players): better × 2. Aama wins with
5; Buwa saw by dublees (no seen payment under nepal): Buwa pays (5 + 0) × 2 = 10,
Didi (5 + 3) × 2 = 16: nets +26, −10, −16.
Totals: Aama +52, Buwa −39, Didi −13.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.models import Round
from tests.browser.conftest import TOUCH_PHONE
from tests.browser.test_game_night import (
    expect_preview,
    fill_player,
    pick_winner,
    player,
)
from tests.web_helpers import make_session

pytestmark = pytest.mark.browser


def enter_round(page, winner: str, rows: dict[str, tuple], nets: dict[str, str], number: int):
    """The round on the form Save left open (the first from the session page)."""
    if page.locator("#round-form").count() == 0:
        page.get_by_role("link", name="Enter round").click()
    expect(page.locator("h1")).to_have_text("Enter round")
    expect(page.locator(".next-round")).to_contain_text(f"Round {number}")
    pick_winner(page, winner)
    for name, (status, maal, *more) in rows.items():
        fill_player(page, name, status, maal, dhoos="dhoos" in more)
        if "dublees" in more:  # the toggle beside seen/unseen, which it ticks
            player(page, name).locator("label.dublees").tap()
            expect(player(page, name).locator('input[value="seen"]')).to_be_checked()
    expect_preview(page, nets)
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".message")).to_have_text(f"Round {number} saved.")


def test_an_evening_under_nepal(logged_in_page, live_server):
    page, owner = logged_in_page(**TOUCH_PHONE)
    session = make_session(
        owner, players=("Aama", "Buwa", "Didi"), preset="nepal", better_after_rotation=True
    )
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    expect(page.locator(".next-round")).to_contain_text("Aama deals")

    enter_round(
        page,
        "Aama",
        {"Aama": ("seen", 5), "Buwa": ("seen", 3, "dhoos"), "Didi": ("unseen", 4)},
        {"Aama": "+23", "Buwa": "-8", "Didi": "-15"},
        1,
    )
    # The next round's form says what it books to its winner.
    expect(page.locator("#pending-line")).to_have_text("Buwa owes 15 dhoos to the next winner")
    expect(page.locator(".next-round")).to_contain_text("Buwa deals")

    # Round 2: the preview already books the dhoos to Didi.
    enter_round(
        page,
        "Didi",
        {"Aama": ("seen", 0), "Buwa": ("seen", 0), "Didi": ("seen", 0)},
        {"Aama": "-3", "Buwa": "-18", "Didi": "+21"},
        2,
    )
    expect(page.locator("#pending-line")).to_be_hidden()

    enter_round(
        page,
        "Aama",
        {"Aama": ("seen", 0), "Buwa": ("seen", 0), "Didi": ("seen", 0)},
        {"Aama": "+6", "Buwa": "-3", "Didi": "-3"},
        3,
    )
    # Round 4 is better by rotation, and the form says why.
    expect(page.locator(".next-round")).to_contain_text("Better (double) round")
    expect(page.locator(".next-round")).to_contain_text(
        "a full rotation of the deal: 3 rounds since the start, 3 players"
    )
    expect(page.locator('input[name="better"]')).to_be_checked()
    enter_round(
        page,
        "Aama",
        {"Aama": ("seen", 5), "Buwa": ("seen", 0, "dublees"), "Didi": ("seen", 0)},
        {"Aama": "+26", "Buwa": "-10", "Didi": "-16"},
        4,
    )
    totals = {
        row.get_attribute("data-player"): row.locator("td").nth(2).inner_text().strip()
        for row in page.locator("#standings tbody tr").all()
    }
    assert totals == {"Aama": "+52", "Didi": "-13", "Buwa": "-39"}
    fourth = Round.objects.get(session=session, number=4)
    assert (fourth.better, fourth.better_mark) == (True, None)
