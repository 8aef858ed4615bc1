"""The Content Security Policy in a real Chromium: the pages run (htmx, the app's
scripts, the maal dialog, the share page) without the browser refusing anything."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scoring.services import create_share_link

from ..web_helpers import WORKED, make_session

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_no_page_breaks_the_policy(logged_in_page, new_page, live_server):
    page, user = logged_in_page()
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Security Policy" in m.text else None)
    session = make_session(user)
    token = create_share_link(session=session)
    base = f"{live_server.url}/sessions/{session.pk}"
    for path in ("/", "/sessions/new/", "/sessions/import/"):
        page.goto(live_server.url + path)
    page.goto(f"{base}/rounds/new/")
    # Fill the worked example through the form: the htmx preview must run.
    page.locator("#winner-field .pick", has_text="Didi").click()
    for name, (status, maal) in WORKED.items():
        card = page.locator(f'.player-row[data-player="{name}"]')
        card.locator(".status label", has_text=re.compile(f"^\\s*{status}\\s*$")).click()
        card.locator('input[name$="-maal"]').fill(str(maal))
    expect(page.locator('#preview li[data-player="Didi"]')).to_contain_text("+30")
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".message")).to_have_text("Round 1 saved.")
    for path in ("/", "/settle/", "/rules/", "/share/", "/maal/"):
        page.goto(base + path)
    viewer = new_page()
    viewer.on("console", lambda m: refused.append(m.text) if "Security Policy" in m.text else None)
    viewer.goto(f"{live_server.url}/s/{token}/")
    viewer.locator("#standings").wait_for()
    assert refused == []
