"""A whole game night in a real Chromium on a phone-sized screen: sign up, create a
kidnap session with a house dhoos penalty, enter rounds watching the live preview,
edit a past round, settle up, and share the standings with a logged-out phone
that follows them live until the link is turned off.

Figures (preset kidnap, dhoos_penalty 20, NPR 2.50 a point):
round 1, Didi wins; Aama seen 5, Buwa unseen 2, Didi 7, Dai seen 0. Kidnap moves
Buwa's 2 to Didi: S = 5, 0, 9, 0; T = 14, n = 4. Aama pays 14 + 3 − 20 = −3,
Buwa 14 + 10 − 0 = 24, Dai 14 + 3 − 0 = 17: nets +3, −24, +38, −17.
round 2, Aama wins; all seen, Aama 10, Buwa 4, Didi 3, Dai 0 with dhoos. T = 17.
Buwa pays 4, Didi 8, Dai 20 (Aama +32); Dai's dhoos pays 20 to each of three:
nets +52, +16, +12, −80.
round 1 edited, Buwa seen: Buwa pays 14 + 3 − 8 = 9, Didi +23: nets +3, −9, +23, −17.
Totals: Aama 55, Buwa 7, Didi 35, Dai −97; Dai pays each of the others.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.engine import Entry, RoundInput
from scoring.models import GameSession

from .conftest import session_menu

pytestmark = pytest.mark.browser

SCREENSHOT = "/tmp/round_screen_375.png"
POLL_WAIT_MS = 15_000  # the public page polls every 10 s


def sign_up(page, base_url: str, username: str) -> None:
    page.goto(f"{base_url}/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_password1", "tihar-cards-2083")
    page.fill("#id_password2", "tihar-cards-2083")
    page.get_by_role("button", name="Sign up").click()
    expect(page.locator(".message")).to_have_text(f"Welcome, {username}.")


def player(page, name: str):
    return page.locator(f'.player-row[data-player="{name}"]')


def fill_player(page, name: str, status: str, maal: int, dhoos: bool = False) -> None:
    card = player(page, name)
    card.locator(".status label", has_text=re.compile(f"^\\s*{status}\\s*$")).click()
    card.locator('input[name$="-maal"]').fill(str(maal))
    if dhoos:
        card.locator("label.dhoos").click()  # a toggle on the player's line
        expect(card.locator(".dhoos input")).to_be_checked()


def pick_winner(page, name: str) -> None:
    page.locator("#winner-field .pick", has_text=re.compile(f"^\\s*{name}\\s*$")).click()


def expect_preview(page, nets: dict[str, str]) -> None:
    for name, net in nets.items():
        row = page.locator(f'#preview li.breakdown-player[data-player="{name}"]')
        expect(row.locator(".net")).to_have_text(net)


def standings(page) -> dict[str, str]:
    rows = page.locator("#standings tbody tr")
    expect(rows.first).to_be_visible()
    return {
        row.get_attribute("data-player"): row.locator("td").nth(2).inner_text().strip()
        for row in rows.all()
    }


def test_a_game_night_from_sign_up_to_shared_standings(new_page, live_server):
    base = live_server.url
    page = new_page()
    sign_up(page, base, "ram")

    # A kidnap session with the house's own dhoos penalty.
    page.get_by_role("link", name="New session").first.click()
    page.fill("#id_name", "Tihar night")
    page.fill("#id_stake_per_point", "2.50")
    page.fill("#id_players", "Aama\nBuwa\nDidi\nDai")
    page.select_option("#id_preset", "kidnap")
    page.locator(".rule-options summary").click()
    expect(page.locator("#id_unseen_maal")).to_have_value("kidnap")  # the preset filled it in
    page.fill("#id_dhoos_penalty", "20")
    page.get_by_role("button", name="Create session").click()
    expect(page.locator("h1")).to_have_text("Tihar night")
    session = GameSession.objects.get(name="Tihar night")
    assert session.owner.username == "ram"
    assert session.rules["unseen_maal"] == "kidnap"
    assert session.rules["dhoos_penalty"] == 20

    # Round 1: the preview follows every tap.
    page.get_by_role("link", name="Enter round").click()
    expect(page.locator("h1")).to_have_text("Enter round")
    pick_winner(page, "Didi")
    fill_player(page, "Aama", "seen", 5)
    fill_player(page, "Buwa", "unseen", 2)
    fill_player(page, "Didi", "seen", 7)
    fill_player(page, "Dai", "seen", 0)
    expect_preview(page, {"Aama": "+3", "Buwa": "-24", "Didi": "+38", "Dai": "-17"})
    buwa = page.locator('#preview li[data-player="Buwa"] .formula')
    expect(buwa).to_have_text("(14 + 10 − 0) × 1 = 24")
    page.screenshot(path=SCREENSHOT, full_page=True)
    page.locator("#preview").scroll_into_view_if_needed()
    page.screenshot(path=SCREENSHOT.replace(".png", "_preview.png"))
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".message")).to_have_text("Round 1 saved.")
    assert standings(page) == {"Didi": "+38", "Aama": "+3", "Dai": "-17", "Buwa": "-24"}

    # Round 2, on the form Save left open: a dhoos, paid to every other player
    # and not doubled.
    expect(page.locator(".next-round")).to_have_text("Round 2 · Buwa deals")
    pick_winner(page, "Aama")
    fill_player(page, "Aama", "seen", 10)
    fill_player(page, "Buwa", "seen", 4)
    fill_player(page, "Didi", "seen", 3)
    fill_player(page, "Dai", "seen", 0, dhoos=True)
    expect_preview(page, {"Aama": "+52", "Buwa": "+16", "Didi": "+12", "Dai": "-80"})
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".message")).to_have_text("Round 2 saved.")
    assert standings(page) == {"Aama": "+55", "Didi": "+50", "Buwa": "-8", "Dai": "-97"}

    # Edit round 1: Buwa was seen after all, so kidnap takes nothing.
    page.get_by_role("link", name="Tihar night").click()
    page.locator("#ledger tbody a", has_text=re.compile(r"^1$")).click()
    page.get_by_role("link", name="Edit round").click()
    expect(page.locator("h1")).to_have_text("Edit round 1")
    fill_player(page, "Buwa", "seen", 2)
    expect_preview(page, {"Aama": "+3", "Buwa": "-9", "Didi": "+23", "Dai": "-17"})
    page.get_by_role("button", name="Save changes").click()
    expect(page.locator(".message")).to_have_text("Round 1 changed.")
    page.screenshot(path="/tmp/session_detail_375.png", full_page=True)
    owner_standings = standings(page)
    assert owner_standings == {"Aama": "+55", "Didi": "+35", "Buwa": "+7", "Dai": "-97"}

    # Settle up: the fewest payments, in money.
    page.get_by_role("link", name="Tihar night").click()
    page.get_by_role("link", name="Settle up").click()
    payments = [
        re.sub(r"\s+", " ", text).strip()
        for text in page.locator(".payment-list li").all_inner_texts()
    ]
    assert payments == [
        "Dai pays Aama NPR 137.50 (55 points)",
        "Dai pays Didi NPR 87.50 (35 points)",
        "Dai pays Buwa NPR 17.50 (7 points)",
    ]

    # Share: create the link, open it on another phone, not logged in.
    page.get_by_role("link", name="Tihar night").click()
    session_menu(page).get_by_role("link", name="Share", exact=True).click()
    page.get_by_role("button", name="Create share link").click()
    expect(page.locator(".message")).to_contain_text("Share link created.")
    url = page.locator("#share-url").input_value()
    page.screenshot(path="/tmp/share_manage_375.png")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.get_by_role("button", name="Copy").click()
    expect(page.locator("#copy-status")).to_have_text("Copied.")
    assert page.evaluate("navigator.clipboard.readText()") == url
    assert re.fullmatch(re.escape(base) + r"/s/[A-Za-z0-9_-]{32,}/", url)

    guest = new_page()
    guest.goto(url)
    expect(guest.locator("h1")).to_have_text("Tihar night")
    expect(guest.get_by_role("link", name="Log in")).to_be_visible()
    assert standings(guest) == owner_standings
    guest.screenshot(path="/tmp/share_view_375.png", full_page=True)
    guest_payments = guest.locator("#payments li").all_inner_texts()
    assert [re.sub(r"\s+", " ", t).strip() for t in guest_payments] == payments
    expect(guest.locator("#ledger a")).to_have_count(0)  # read-only: no links into rounds

    # Nothing changed: the poll is answered 304 and the page stays as it is.
    with guest.expect_response(lambda r: "/live/" in r.url, timeout=POLL_WAIT_MS) as polled:
        pass
    assert polled.value.status == 304
    assert standings(guest) == owner_standings

    # A round saved at the table shows up on the guest's phone by itself.
    services.add_round(
        session=session,
        round_input=RoundInput(
            entries=(Entry("Aama", "seen", 0), Entry("Buwa", "seen", 0)), winner="Aama"
        ),
    )
    with guest.expect_response(lambda r: "/live/" in r.url, timeout=POLL_WAIT_MS) as polled:
        pass
    assert polled.value.status == 200
    expect(guest.locator('#standings tr[data-player="Aama"] td').nth(2)).to_have_text("+58")
    expect(guest.locator('#standings tr[data-player="Buwa"] td').nth(2)).to_have_text("+4")

    # Turning the link off: the guest's page says so at its next poll.
    page.get_by_role("button", name="Turn the link off").click()
    expect(page.locator(".message")).to_contain_text("Link turned off.")
    expect(guest.locator(".live-gone")).to_contain_text(
        "turned this share link off", timeout=POLL_WAIT_MS
    )
    expect(guest.locator("#standings")).to_have_count(0)
    assert new_page().goto(url).status == 404
