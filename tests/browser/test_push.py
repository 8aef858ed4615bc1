"""Live pages by push, on a real app host (scripts/host, on the tests' database):
the tests' live server is WSGI and holds no stream, so these pages there poll
(test_live_pages.py, test_share_live.py); here they keep their stream. A seat
page, the share page and the scorer's open round form show what another phone
saves or sends; an idle seat page asks nothing more once its stream is open;
where the stream is blocked, polling still brings the save; a page in the
background keeps no stream and catches up when shown. Every wait is for a state
(expect), never for a time: the page's clock is moved on where time must pass."""

from __future__ import annotations

import os
import urllib.parse
from collections.abc import Iterator

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from benchmarks.hosts import free_port, start_host, stop, wait_until_up
from table import services as table_services

from ..web_helpers import WORKED, Phone, make_session, round_data
from .conftest import TOUCH_PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HIDE = """(hidden) => {
  Object.defineProperty(document, "hidden", { value: hidden, configurable: true });
  Object.defineProperty(document, "visibilityState",
    { value: hidden ? "hidden" : "visible", configurable: true });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


@pytest.fixture(scope="module")
def host(django_db_setup, django_db_blocker) -> Iterator[str]:
    """One app host on the tests' database, as `make run` starts one."""
    from django.db import connection

    name = connection.settings_dict["NAME"]
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env |= {
        "DJANGO_SETTINGS_MODULE": "tests.host_settings",
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "LOG_LEVEL": "ERROR",
    }
    if connection.vendor == "sqlite":
        env["SQLITE_PATH"] = name
        env.pop("DATABASE_URL", None)
    else:
        url = urllib.parse.urlsplit(env["DATABASE_URL"])
        env["DATABASE_URL"] = urllib.parse.urlunsplit(url._replace(path=f"/{name}"))
    port = free_port()
    server = start_host(port, env)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base + "/accounts/login/", server)
        yield base
    finally:
        stop(server)


def is_stream(response) -> bool:
    return urllib.parse.urlsplit(response.url).path.endswith("/stream/")


def is_poll(request) -> bool:
    return is_poll_url(request.url)


def is_poll_url(url: str) -> bool:
    """A page's poll: a live check, or the scorer's form asking the seats' feed."""
    path = urllib.parse.urlsplit(url).path
    return path.endswith("/live/") or path.endswith("/seats/feed/")


def seat_page(new_page, host, seat):
    """A seat's phone with its page open and its stream answered."""
    page = new_page(**TOUCH_PHONE)
    with page.expect_response(is_stream) as streamed:
        page.goto(host + reverse("seat_page", args=[seat.token]))
    assert streamed.value.status == 200
    expect(page.locator("#seat-now h2")).to_have_text("Round 1")
    return page


def test_seat_pages_show_a_round_saved_on_the_scorers_phone(new_page, host, owner):
    session = make_session(owner)
    seats = table_services.make_seats(session=session)
    phones = [seat_page(new_page, host, seat) for seat in seats[:3]]
    asked: list[str] = []
    for phone in phones:
        phone.on("request", lambda r: is_poll(r) and asked.append(r.url))

    status, _page = Phone(host, owner).post(
        reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi")
    )
    assert status == 302

    for phone in phones:
        expect(phone.locator("#seat-last")).to_contain_text("Didi won")
        expect(phone.locator("#seat-now h2")).to_have_text("Round 2")
    assert asked == []  # told by their streams, not by polling


def test_an_idle_seat_page_asks_nothing_while_its_stream_is_open(new_page, host, owner):
    session = make_session(owner)
    seat = table_services.make_seats(session=session)[0]
    page = new_page(**TOUCH_PHONE)
    page.clock.install()
    with page.expect_response(is_stream):
        page.goto(host + reverse("seat_page", args=[seat.token]))
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    page.clock.fast_forward("00:10")  # ten seconds of the page's time, idle
    page.clock.fast_forward("00:10")
    assert len(asked) <= 2 and not any(is_poll_url(url) for url in asked), asked
    # And the stream still carries the next save.
    Phone(host, owner).post(
        reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi")
    )
    expect(page.locator("#seat-last")).to_contain_text("Didi won")


def test_where_the_stream_is_blocked_polling_still_brings_the_save(new_page, host, owner):
    session = make_session(owner)
    seat = table_services.make_seats(session=session)[0]
    page = new_page(**TOUCH_PHONE)
    page.route("**/stream/", lambda route: route.abort())  # a proxy that refuses streams
    with page.expect_request(is_poll):
        page.goto(host + reverse("seat_page", args=[seat.token]))
    expect(page.locator("#seat-now h2")).to_have_text("Round 1")

    Phone(host, owner).post(
        reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi")
    )
    expect(page.locator("#seat-last")).to_contain_text("Didi won")
    expect(page.locator("#seat-now h2")).to_have_text("Round 2")


def test_the_share_page_follows_and_says_when_the_link_is_turned_off(new_page, host, owner):
    from scoring import services

    session = make_session(owner)
    token = services.create_share_link(session=session)
    guest = new_page(**TOUCH_PHONE)
    with guest.expect_response(is_stream):
        guest.goto(host + reverse("share_view", args=[token]))
    expect(guest.locator("#ledger .empty-state")).to_be_visible()

    scorer = Phone(host, owner)
    scorer.post(reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi"))
    didi = guest.locator('#standings tr[data-player="Didi"] td').nth(2)
    expect(didi).to_have_text("+30")

    scorer.post(reverse("share_revoke", args=[session.pk]), {})
    expect(guest.locator("#live")).to_contain_text("The owner has turned this share link off")


def test_the_scorers_form_takes_in_a_count_sent_from_a_seat(new_page, host, owner):
    session = make_session(owner)
    seats = {s.player.name: s for s in table_services.make_seats(session=session)}
    scorer = new_page(**TOUCH_PHONE)
    client = Client()
    client.force_login(owner)
    scorer.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": host}]
    )
    with scorer.expect_response(is_stream):
        scorer.goto(f"{host}/sessions/{session.pk}/rounds/new/")
    aama = seat_page(new_page, host, seats["Aama"])
    aama.locator('label:has(input[name$="-status"][value="seen"])').tap()
    aama.locator('input[name$="-maal"]').fill("5")
    aama.get_by_role("button", name="Send my count").tap()
    expect(aama.locator("#seat-sent")).to_contain_text("Your count was sent at")

    row = scorer.locator('.player-row[data-player="Aama"]')
    expect(row.locator('input[name$="-maal"]')).to_have_value("5")
    expect(row.locator("[data-seat-note]")).to_contain_text("Sent from Aama’s phone")


def test_a_page_in_the_background_keeps_no_stream_and_catches_up(new_page, host, owner):
    session = make_session(owner)
    seat = table_services.make_seats(session=session)[0]
    page = seat_page(new_page, host, seat)
    page.clock.install()
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    page.evaluate(HIDE, True)  # the phone is locked
    Phone(host, owner).post(
        reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi")
    )
    page.clock.fast_forward("00:30")
    assert asked == []
    expect(page.locator("#seat-now h2")).to_have_text("Round 1")  # its stream closed: not told
    with page.expect_response(is_stream):
        page.evaluate(HIDE, False)
    expect(page.locator("#seat-last")).to_contain_text("Didi won")
    expect(page.locator("#seat-now h2")).to_have_text("Round 2")


def test_a_member_link_follows_by_push_into_the_next_evening(new_page, host, owner):
    """A member's lasting link, open between evenings: the evening that starts
    (joined to the group on the scorer's phone) and its first round saved reach
    it by its stream, with no poll."""
    from groups import services as groups

    group = groups.create_group(
        owner=owner, name="Pokhara family", currency="NPR", members=["Aama", "Buwa", "Didi", "Dai"]
    )
    link = next(
        link for link in groups.make_member_links(group=group) if link.member.name == "Aama"
    )
    session = make_session(owner, players=("Aama", "Buwa", "Didi", "Dai"), name="Tihar 1")
    page = new_page(**TOUCH_PHONE)
    with page.expect_response(is_stream) as streamed:
        page.goto(host + reverse("member_seat", args=[link.token]))
    assert streamed.value.status == 200
    expect(page.get_by_text("No evening is being played now")).to_be_visible()
    asked: list[str] = []
    page.on("request", lambda r: is_poll(r) and asked.append(r.url))

    scorer = Phone(host, owner)
    added = scorer.post(reverse("group_evening_add", args=[group.pk]), {"session": str(session.pk)})
    assert added[0] == 302
    expect(page.locator("#seat-now h2")).to_have_text("Round 1")
    scorer.post(reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi"))
    expect(page.locator("#seat-last")).to_contain_text("Didi won")
    expect(page.locator("#seat-now h2")).to_have_text("Round 2")
    assert asked == []  # told by its stream, not by polling
