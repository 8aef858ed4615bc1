"""The browser tests' own smoke test: a person signs up through the real form."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_sign_up_through_the_form(new_page, live_server):
    page = new_page()
    page.goto(live_server.url)
    page.get_by_role("link", name="Sign up").first.click()
    expect(page).to_have_url(re.compile(r"/accounts/signup/$"))
    page.fill("#id_username", "didi")
    page.fill("#id_password1", "tihar-cards-2083")
    page.fill("#id_password2", "tihar-cards-2083")
    page.get_by_role("button", name="Sign up").click()
    expect(page.locator(".message")).to_have_text("Welcome, didi.")
    expect(page.locator("h1")).to_have_text("Your sessions")
    assert get_user_model().objects.filter(username="didi").exists()
