"""On a 390px phone: the wide ledger scrolls under a fixed round column, nothing on
the page 404s (the favicon), and a player is renamed and removed by tapping."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.engine import Entry, RoundInput
from scoring.models import Player
from tests.web_helpers import make_session

from .conftest import session_menu

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
NAMES = ("Aama", "Buwa", "Didi", "Dai", "Bhinaju", "Sanima", "Kanchha", "Thulo Buwa")


def test_wide_ledger_keeps_round_and_winner_in_view(logged_in_page, live_server):
    page, user = logged_in_page()
    page.set_viewport_size(PHONE)
    session = make_session(user, players=NAMES)
    for first in range(3):  # five seats a round, moving round the table
        seated = NAMES[first : first + 5]
        entries = tuple(Entry(player=n, status="seen", maal=i) for i, n in enumerate(seated))
        services.add_round(
            session=session, round_input=RoundInput(entries=entries, winner=seated[0])
        )
    failed: list[str] = []
    page.on("response", lambda r: r.status >= 400 and failed.append(f"{r.status} {r.url}"))
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    assert page.evaluate("document.documentElement.scrollWidth") == PHONE["width"]
    scroller = page.locator("#ledger .table-scroll")
    first_round = page.locator("#ledger tbody tr.ledger-round").first
    number, winner = first_round.locator("td").nth(0), first_round.locator("td").nth(1)
    aama = page.locator("#ledger thead th", has_text="Aama")
    before = (number.bounding_box(), winner.bounding_box(), aama.bounding_box())
    scroller.evaluate("el => { el.scrollLeft = 200; }")
    page.wait_for_function("document.querySelector('#ledger .table-scroll').scrollLeft > 0")
    assert number.bounding_box()["x"] == before[0]["x"]
    assert winner.bounding_box()["x"] == before[1]["x"]
    assert aama.bounding_box()["x"] < before[2]["x"]
    # The round link still works from the sticky column.
    number.get_by_role("link").click()
    expect(page.locator("h1")).to_have_text("Round 1")
    assert page.locator('link[rel="icon"]').get_attribute("href") == "/static/favicon.svg"
    assert failed == []


def test_rename_then_remove_a_player_by_tapping(logged_in_page, live_server):
    page, user = logged_in_page()
    session = make_session(user)
    Player.objects.create(session=session, name="Bhai", position=9)
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    session_menu(page).get_by_role("link", name="Players").click()
    page.get_by_role("link", name="Rename or remove Bhai").click()
    page.fill("#id_name", "  Sano   Bhai ")
    page.get_by_role("button", name="Save name").click()
    expect(page.locator(".message")).to_have_text("Bhai is now called Sano Bhai.")
    page.get_by_role("link", name="Rename or remove Sano Bhai").click()
    page.get_by_role("button", name="Remove Sano Bhai").click()
    expect(page.locator(".message")).to_have_text("Sano Bhai removed from the session.")
    expect(page.locator(".player-list li")).to_have_count(4)
