"""Real Chromium through Playwright's sync API, against pytest-django's live_server.

A missing browser or Playwright is a test failure, never a skip: these tests are
the only proof that the pages work in a browser.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

# Playwright's sync API runs an event loop in this thread; Django refuses ORM
# calls under a running loop unless told the code is in fact synchronous.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# Debian's Chromium by default; CHROMIUM=path runs the suite on another (make
# test-browsers CHROMIUM=path), e.g. an older one unpacked beside it.
CHROMIUM = os.environ.get("CHROMIUM") or "/usr/lib/chromium/chromium"
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
PHONE = {"width": 375, "height": 812}
# The phone the issues measure on: 390x844 with a touch screen. new_page(**TOUCH_PHONE).
TOUCH_PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
}
TIMEOUT_MS = 10_000


@pytest.fixture(autouse=True, scope="session")
def _expect_waits_as_long_as_pages():
    """expect() waits as long as page actions do (its own default is 5 s): CI runs on
    a busy machine, where a reload after the network returns can take longer."""
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT_MS)


@pytest.fixture(scope="module")
def chromium():
    """One browser per test module. Module scope, not session: another module may
    start its own Playwright, and two sync Playwrights cannot run at once."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is missing at {CHROMIUM} (install the Debian chromium package)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as error:  # pragma: no cover - a broken environment
        pytest.fail(f"Playwright is not installed: {error}")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_page(chromium, request) -> Iterator[Callable[..., object]]:
    """Open a page in a fresh browser context (its own cookies: a separate person).
    Any uncaught JavaScript error on any page fails the test. The pages' Content
    Security Policy is enforced, except in a module setting BYPASS_CSP = True
    (page.wait_for_function evaluates its string with eval, which the policy forbids)."""
    contexts = []
    errors: list[str] = []
    bypass_csp = getattr(request.module, "BYPASS_CSP", False)

    def open_page(viewport: dict[str, int] | None = None, **options):
        context = chromium.new_context(viewport=viewport or PHONE, bypass_csp=bypass_csp, **options)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert errors == [], f"JavaScript errors: {errors}"


@pytest.fixture
def logged_in_page(new_page, live_server):
    """A phone-sized page already logged in as a new user (signing up through the
    form is tested once, in test_smoke)."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    def open_page(username: str = "ram", **options):
        user = get_user_model().objects.create_user(username, password="tihar-cards-2083")
        client = Client()
        client.force_login(user)
        page = new_page(**options)
        page.context.add_cookies(
            [
                {
                    "name": "sessionid",
                    "value": client.cookies["sessionid"].value,
                    "url": live_server.url,
                }
            ]
        )
        return page, user

    return open_page


@pytest.fixture
def phone(logged_in_page):
    """(page, user): a new user's phone, logged in, 390x844 with touch."""
    return logged_in_page(**TOUCH_PHONE)


def session_menu(page):
    """The session page's "More" menu, opened: the session's pages beyond the
    round's three actions (templates/scoring/sessions/detail.html)."""
    menu = page.locator("details.session-menu")
    if menu.get_attribute("open") is None:
        menu.locator("summary").click()
    return menu
