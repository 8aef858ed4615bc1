"""Live standings on a phone watching the share link: a round saved by another
client shows within 3 s (the page polls every 1.5 s while visible), the polls of
an unchanged session are bare 304s, a hidden page stops polling and asks at once
when it is shown again."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import new_share_token
from scoring.views.share import POLL_SECONDS

from ..web_helpers import WORKED, make_session, round_data
from .conftest import TOUCH_PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOWN_WITHIN_MS = 3_000


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


def test_a_hidden_page_stops_polling_and_catches_up_when_shown(new_page, live_server, owner):
    session = make_session(owner)
    session.share_token = new_share_token()
    session.save(update_fields=["share_token"])
    guest = new_page(**TOUCH_PHONE)
    guest.goto(f"{live_server.url}/s/{session.share_token}/")
    with guest.expect_response(lambda r: "/live/" in r.url):
        pass
    # The phone is locked: the page is hidden and its polls are held back.
    hide = """(hidden) => {
      Object.defineProperty(document, "hidden", { value: hidden, configurable: true });
      Object.defineProperty(document, "visibilityState",
        { value: hidden ? "hidden" : "visible", configurable: true });
      document.dispatchEvent(new Event("visibilitychange"));
    }"""
    # Each poll's fate, noted after static/js/live.js has had its say.
    guest.evaluate(
        """() => document.addEventListener("htmx:beforeRequest", (event) => {
          if (!event.detail.elt.hasAttribute("data-live-poll")) return;
          document.documentElement.dataset.lastPoll = event.defaultPrevented ? "held" : "sent";
        })"""
    )
    sent: list[str] = []
    guest.on("request", lambda r: "/live/" in r.url and sent.append(r.url))
    guest.evaluate(hide, True)
    expect(guest.locator("html")).to_have_attribute("data-last-poll", "held")
    sent.clear()
    table = Client()
    table.force_login(owner)
    table.post(reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi"))
    # The next tick is held back too: nothing is asked, the old standings stay.
    guest.evaluate("() => { delete document.documentElement.dataset.lastPoll; }")
    expect(guest.locator("html")).to_have_attribute("data-last-poll", "held")
    assert sent == []
    expect(points(guest, "Didi")).not_to_have_text("+30")
    # Shown again: one request at once brings the round.
    with guest.expect_response(lambda r: "/live/" in r.url) as polled:
        guest.evaluate(hide, False)
    assert polled.value.status == 200
    expect(points(guest, "Didi")).to_have_text("+30")
