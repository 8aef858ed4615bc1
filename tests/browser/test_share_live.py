"""Live standings on a phone watching the share link, served here without
streams (the tests' live server is WSGI: the page polls, as where a stream
cannot open; tests/browser/test_push.py has them): a round saved by another
client shows within 3 s (the page polls every second while visible), the polls of
an unchanged session are bare 304s, a hidden page asks nothing and asks at once
when it is shown again. The page left open when the network goes, or hangs,
says so with the time of its last poll answered, and catches up when it returns
(README "Offline at the table"; Playwright's clock sets the page's time)."""

from __future__ import annotations

import contextlib
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Error, expect

from scoring.models import new_share_token
from scoring.web.live import POLL_SECONDS

from ..web_helpers import WORKED, make_session, round_data
from .conftest import TOUCH_PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOWN_WITHIN_MS = 3_000


def is_poll(response_or_request) -> bool:
    return "/live/" in response_or_request.url


def points(guest, name: str):
    return guest.locator(f'#standings tr[data-player="{name}"] td').nth(2)


def test_a_save_shows_on_the_share_page_within_3_seconds(new_page, live_server, owner):
    assert POLL_SECONDS <= 2
    session = make_session(owner)
    session.share_token = new_share_token()
    session.save(update_fields=["share_token"])
    guest = new_page(**TOUCH_PHONE)
    polls: list[int] = []
    guest.on("response", lambda r: "/live/" in r.url and polls.append(r.status))
    guest.goto(f"{live_server.url}/s/{session.share_token}/")
    expect(guest.locator("#ledger .empty-state")).to_be_visible()

    # Nothing changed: the polls are answered 304 and swap nothing.
    with guest.expect_response(lambda r: "/live/" in r.url) as polled:
        pass
    assert polled.value.status == 304

    # Another phone (the owner's) saves RULES.md's worked example.
    table = Client()
    table.force_login(owner)
    saved = table.post(reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi"))
    assert saved.status_code == 302
    expect(points(guest, "Didi")).to_have_text("+30", timeout=SHOWN_WITHIN_MS)
    expect(points(guest, "Buwa")).to_have_text("-16")
    assert polls.count(200) == 1


def test_a_hidden_page_asks_nothing_and_catches_up_when_shown(new_page, live_server, owner):
    session = make_session(owner)
    session.share_token = new_share_token()
    session.save(update_fields=["share_token"])
    guest = new_page(**TOUCH_PHONE)
    guest.clock.install()
    guest.goto(f"{live_server.url}/s/{session.share_token}/")
    with guest.expect_response(is_poll):
        guest.clock.fast_forward(1000)
    # The phone is locked: the page is hidden, and neither polls nor keeps a stream.
    hide = """(hidden) => {
      Object.defineProperty(document, "hidden", { value: hidden, configurable: true });
      Object.defineProperty(document, "visibilityState",
        { value: hidden ? "hidden" : "visible", configurable: true });
      document.dispatchEvent(new Event("visibilitychange"));
    }"""
    asked: list[str] = []
    guest.on("request", lambda r: r.url.endswith(("/live/", "/stream/")) and asked.append(r.url))
    guest.evaluate(hide, True)
    table = Client()
    table.force_login(owner)
    table.post(reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi"))
    guest.clock.fast_forward("00:30")  # half a minute in the pocket: nothing is asked
    assert asked == []
    expect(points(guest, "Didi")).not_to_have_text("+30")
    # Shown again: it asks at once, and the round is there.
    with guest.expect_response(is_poll) as polled:
        guest.evaluate(hide, False)
    assert polled.value.status == 200
    expect(points(guest, "Didi")).to_have_text("+30")


KATHMANDU = ZoneInfo("Asia/Kathmandu")
NINE_PM = datetime(2026, 11, 25, 21, 0, tzinfo=KATHMANDU)


def watched_at_nine(new_page, live_server, owner):
    """The share page open on a guest's phone since 21:00, and its last poll
    answered at 21:12 (the page's clock twelve minutes on)."""
    session = make_session(owner)
    session.share_token = new_share_token()
    session.save(update_fields=["share_token"])
    guest = new_page(**TOUCH_PHONE, timezone_id="Asia/Kathmandu")
    guest.clock.install(time=NINE_PM)
    with guest.expect_response(is_poll) as polled:
        guest.goto(f"{live_server.url}/s/{session.share_token}/")
    assert polled.value.status == 304
    with guest.expect_response(is_poll) as polled:
        guest.clock.fast_forward("12:00")
    assert polled.value.status == 304
    return guest, session


def test_an_open_share_page_that_loses_the_network_says_as_of_its_last_poll(
    new_page, live_server, owner
):
    guest, session = watched_at_nine(new_page, live_server, owner)
    banner = guest.locator("#offline-banner")
    expect(banner).to_be_hidden()
    guest.context.set_offline(True)
    # The standings are as of the last poll answered, not of the page's load.
    expect(banner).to_have_text("Offline — standings as of 21:12")
    table = Client()
    table.force_login(owner)
    saved = table.post(reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi"))
    assert saved.status_code == 302
    guest.context.set_offline(False)
    expect(points(guest, "Didi")).to_have_text("+30")
    expect(banner).to_be_hidden()
    expect(guest.locator("#live")).to_contain_text("1 round")


def test_an_open_share_page_whose_polls_hang_says_so_and_catches_up(new_page, live_server, owner):
    """The browser still says it is online, but the polls are never answered (a
    Playwright route holds them): once one has waited as long as the worker
    waits for a page (a minute in the tests), the banner says so."""
    guest, session = watched_at_nine(new_page, live_server, owner)
    hanging = [True]
    held = []

    def hold(route):
        if hanging[0]:
            held.append(route)
        else:
            route.continue_()

    guest.context.route("**/live/**", hold)
    with guest.expect_request(is_poll):
        guest.clock.fast_forward("05:00")  # 21:17: the poll is asked, never answered
    banner = guest.locator("#offline-banner")
    expect(banner).to_be_hidden()
    guest.clock.fast_forward("01:01")
    expect(banner).to_have_text("Offline — standings as of 21:12")
    assert guest.evaluate("() => navigator.onLine")
    table = Client()
    table.force_login(owner)
    table.post(reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi"))
    hanging[0] = False
    for route in held:
        with contextlib.suppress(Error):  # a poll the page gave up
            route.continue_()
    expect(points(guest, "Didi")).to_have_text("+30")
    expect(banner).to_be_hidden()
