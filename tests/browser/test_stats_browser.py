"""The record in a real browser: history filters update in place, charts fit a
phone, the language switch turns the page Nepali."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.samples import make_dashain, make_tihar

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
