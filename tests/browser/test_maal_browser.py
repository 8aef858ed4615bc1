"""The maal calculator in a real Chromium: counting a hand, and filling a round with it."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from scoring.models import Round

from ..web_helpers import make_session

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CHROMIUM = "/usr/lib/chromium/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def maal_chromium():
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def owner_page(maal_chromium, live_server):
    """A phone-sized page logged in as the owner of a fresh session."""
    user = get_user_model().objects.create_user("owner", password="pw-12345-long")
    client = Client()
    client.force_login(user)
    context = maal_chromium.new_context(viewport={"width": 390, "height": 844})
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page, user
    context.close()


def test_calculator_page_counts_a_hand(owner_page, live_server):
    page, user = owner_page
    session = make_session(user)
    page.goto(f"{live_server.url}/sessions/{session.pk}/maal/")
    calc = page.locator(".maal-calc")
    calc.locator(".ranks label", has_text="A").first.click()
    calc.locator(".suits label.suit-H").click()
    # The cards are relabelled for tiplu A♥: poplu 2♥, jhiplu K♥ (wrap-around).
    poplu = calc.locator('.counter[data-item="poplu"] .maal-card')
    jhiplu = calc.locator('.counter[data-item="jhiplu"] .maal-card')
    tiplu = calc.locator('.counter[data-item="tiplu"] .maal-card')
    page.wait_for_function(
        "document.querySelector('[data-face=poplu]').textContent.trim() === '2♥'"
    )
    assert jhiplu.locator(".face").text_content().strip() == "K♥"
    tiplu.click()
    poplu.click()
    jhiplu.click()
    poplu.click()
    result = calc.locator(".maal-result")
    page.wait_for_function("document.querySelector('.maal-outcome').dataset.maal === '12'")
    assert "1 poplu = 2" in result.inner_text()
    assert "1 marriage = 10" in result.inner_text()
    # A third tiplu is refused with the reason.
    tiplu.click()
    tiplu.click()
    page.wait_for_function("document.querySelector('.maal-error') !== null")
    assert "only 2 are in play" in result.inner_text()
    assert not Round.objects.exists()
