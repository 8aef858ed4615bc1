"""The record in a real browser: history filters update in place, charts fit a
phone, the language switch turns the page Nepali."""

from __future__ import annotations

import datetime
import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from scoring import services
from scoring.engine import Entry, RoundInput
from tests.samples import make_dashain, make_tihar

from ..web_helpers import make_session, played
from .hands import FIVE
from .test_axe import violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_history_filters_update_in_place_and_open_a_breakdown(logged_in_page, live_server):
    page, user = logged_in_page()
    dashain = make_dashain(user)
    make_tihar(user)
    page.goto(f"{live_server.url}/history/")
    status = page.locator("#history-results [role=status]")
    expect(status).to_have_text("4 rounds found")
    page.select_option("#id_winner", label="AAMA")
    expect(status).to_have_text("2 rounds found")
    expect(page).to_have_url(re.compile(r"winner=aama"))
    page.get_by_label("Dublee wins only").check()
    expect(status).to_have_text("1 round found")
    page.get_by_role("link", name="Dashain, round 2").click()
    round_2 = dashain.rounds.get(number=2)
    expect(page).to_have_url(f"{live_server.url}/sessions/{dashain.pk}/rounds/{round_2.pk}/")


def test_summary_chart_fits_a_phone(logged_in_page, live_server):
    page, user = logged_in_page()
    session = make_dashain(user)
    page.goto(f"{live_server.url}/sessions/{session.pk}/summary/")
    chart = page.locator("svg.chart")
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= 375
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    expect(page.get_by_role("button", name="Print")).to_be_visible()


def test_language_switch(logged_in_page, live_server):
    page, user = logged_in_page()
    make_dashain(user)
    page.goto(f"{live_server.url}/leaderboard/")
    expect(page.locator("h1")).to_have_text("Lifetime leaderboard")
    page.get_by_role("button", name="नेपाली").click()
    expect(page.locator("h1")).to_have_text("सबै खेलको लिडरबोर्ड")
    expect(page).to_have_url(f"{live_server.url}/leaderboard/")
    page.get_by_role("button", name="English").click()
    expect(page.locator("h1")).to_have_text("Lifetime leaderboard")


def test_history_filters_by_evening_and_by_dhoos(phone, live_server):
    page, user = phone
    dashain = make_session(user, players=FIVE, name="Dashain")
    tihar = make_session(user, players=FIVE, name="Tihar")
    type(dashain).objects.filter(pk=dashain.pk).update(played_on=datetime.date(2026, 10, 2))
    type(tihar).objects.filter(pk=tihar.pk).update(played_on=datetime.date(2026, 11, 9))
    played(dashain, ("Aama", {}), ("Buwa", {"Dai": True}), ("Didi", {}))
    played(tihar, ("Bhai", {"Aama": True}), ("Dai", {}))
    page.goto(f"{live_server.url}/history/")
    found = page.locator("#history-results [role=status]")
    expect(found).to_have_text("5 rounds found")
    page.get_by_label("Evening").select_option(label="Dashain · 2 Oct 2026")
    expect(found).to_have_text("3 rounds found")
    page.get_by_label("Rounds with dhoos only").tap()
    expect(found).to_have_text("1 round found")
    item = page.locator(".history-item")
    expect(item).to_contain_text("Dashain, round 2")
    expect(item.locator(".tag.dhoos")).to_have_text("Dai: dhoos")
    assert violations(page, Axe()) == [], "history filtered by evening and dhoos"
    page.get_by_label("Evening").select_option(label="Any evening")
    expect(found).to_have_text("2 rounds found")  # Dai's in Dashain, Aama's in Tihar


def test_a_players_sessions_fit_the_phone_in_both_languages(phone, live_server):
    """ne-review-2 (not language): a player's sessions table wrapped its name and
    dates over seven lines and cut the money column; the money now goes under the
    points on a phone, and the table needs no sideways swipe."""
    page, user = phone
    names = ("Hajurba", "Hajurama", "Thulo Buwa", "Sano Aama", "Kanchha")
    session = make_session(user, players=names, stake="1000", name="Dashain at Thulo Buwa's")
    services.add_round(
        session=session,
        round_input=RoundInput(entries=tuple(Entry(n, maal=30) for n in names), winner="Hajurama"),
    )
    for language in ("en", "ne"):
        page.goto(f"{live_server.url}/players/Hajurba/")
        if language == "ne":
            page.locator('.lang-switch button[value="ne"]').tap()
            expect(page.locator("html")).to_have_attribute("lang", "ne")
        table = page.locator(".player-sessions")
        widths = table.evaluate("e => [e.parentElement.scrollWidth, e.parentElement.clientWidth]")
        assert widths[0] <= widths[1], (language, widths)
        money = "NPR -3,000.00" if language == "en" else "रु. -3,000"  # 3 points lost
        expect(table.locator("tbody td").nth(3)).to_contain_text(money)
