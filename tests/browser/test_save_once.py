"""Every save exactly once, on a phone (390×844, touch): a double tap on the
new-session and add-player forms, a round's POST and a round edit's POST sent
again, an evening imported twice, and a round edited on two phones at once."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from scoring import services
from scoring.models import GameSession, Round, RoundChange

from ..web_helpers import WORKED, make_session, worked_round
from .conftest import TOUCH_PHONE
from .test_axe import violations
from .test_phone_pages import SMALL_TARGETS_JS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DEMO = Path(__file__).resolve().parents[2] / "scoring" / "demo" / "dashain.json"


def double_tap(page, button) -> None:
    """Two taps on the button, a few milliseconds apart, nothing waited for between."""
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y)
    page.touchscreen.tap(x, y)


def send_again(page, url: str, body: str):
    """The same form POST sent again byte for byte, as a phone retrying on a bad line."""
    return page.request.post(
        url, data=body, headers={"Content-Type": "application/x-www-form-urlencoded"}
    )


def test_a_double_tap_on_create_session_makes_one_session(logged_in_page, live_server):
    page, user = logged_in_page(**TOUCH_PHONE)
    page.goto(f"{live_server.url}/sessions/new/")
    page.fill("#id_name", "Tihar night")
    page.fill("#id_players", "Aama\nBuwa\nDidi\nDai")
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    double_tap(page, page.get_by_role("button", name="Create session"))
    expect(page.locator(".message")).to_have_text(
        "Session created. Enter the first round when it ends."
    )
    expect(page.locator("h1")).to_have_text("Tihar night")
    assert GameSession.objects.filter(owner=user).count() == 1
    assert len(posts) == 1  # the second tap met a disabled button


def test_a_double_tap_on_add_player_adds_one_player(logged_in_page, live_server):
    page, user = logged_in_page(**TOUCH_PHONE)
    session = make_session(user)
    page.goto(f"{live_server.url}/sessions/{session.pk}/players/add/")
    page.fill("#id_name", "Hajurba")
    double_tap(page, page.get_by_role("button", name="Add player"))
    expect(page.locator(".message")).to_have_text("Hajurba joins from the next round.")
    assert list(session.players.values_list("name", flat=True)) == [
        "Aama",
        "Buwa",
        "Didi",
        "Dai",
        "Hajurba",
    ]


def test_a_round_post_sent_again_saves_nothing_and_answers_as_the_first(
    logged_in_page, live_server
):
    """The phone's POST replayed byte for byte (a retry on a bad line): the server
    knows its key, saves nothing and answers with the round saved first."""
    page, user = logged_in_page(**TOUCH_PHONE)
    session = make_session(user)
    page.goto(f"{live_server.url}/sessions/{session.pk}/rounds/new/")
    page.locator(".pick", has_text="Didi").tap()
    for name, (status, points) in WORKED.items():
        row = page.locator(f'.player-row[data-player="{name}"]')
        if status == "unseen":
            row.locator("label", has_text="unseen").tap()
        row.locator('input[name$="-maal"]').fill(str(points))
    expect(page.locator('#preview li[data-player="Didi"] .net')).to_have_text("+30")
    with page.expect_request(
        lambda r: r.method == "POST" and r.url.endswith("/rounds/new/")
    ) as sent:
        page.get_by_role("button", name="Save round").tap()
    expect(page.locator(".message")).to_have_text("Round 1 saved.")
    body = sent.value.post_data
    assert body is not None and "save_key=" in body
    again = send_again(page, sent.value.url, body)
    assert again.ok and again.url == f"{live_server.url}/sessions/{session.pk}/"
    assert "Round 1 saved." in again.text()
    assert Round.objects.filter(session=session).count() == 1


def test_an_edit_post_sent_again_saves_nothing_and_answers_as_the_first(
    logged_in_page, live_server
):
    """An edit's POST replayed byte for byte, version 1 and all: the server knows
    its key and answers as the edit was answered, not as a stale edit."""
    page, user = logged_in_page(**TOUCH_PHONE)
    session = make_session(user)
    round_ = services.add_round(session=session, round_input=worked_round(), user=user)
    page.goto(f"{live_server.url}/sessions/{session.pk}/rounds/{round_.pk}/edit/")
    page.locator('.player-row[data-player="Aama"] input[name$="-maal"]').fill("9")
    # T = 18: Aama 36 - 21 = +15, Buwa unseen 2·4 - 28 = -20, Dai -21; Didi +26.
    expect(page.locator('#preview li[data-player="Didi"] .net')).to_have_text("+26")
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/edit/")) as sent:
        page.get_by_role("button", name="Save changes").tap()
    expect(page.locator(".message")).to_have_text("Round 1 changed.")
    body = sent.value.post_data
    assert body is not None and "save_key=" in body and "version=1" in body
    again = send_again(page, sent.value.url, body)
    assert again.ok and again.url == f"{live_server.url}/sessions/{session.pk}/"
    assert "Round 1 changed." in again.text()
    assert "changed by someone else" not in again.text()
    round_.refresh_from_db()
    assert round_.version == 2
    assert RoundChange.objects.filter(round_pk=round_.pk, action="edit").count() == 1


def test_an_evening_imported_twice_is_asked_about_first(logged_in_page, live_server):
    page, user = logged_in_page(**TOUCH_PHONE)
    page.goto(f"{live_server.url}/sessions/import/")
    page.set_input_files("#id_file", str(DEMO))
    page.get_by_role("button", name="Import", exact=True).tap()
    expect(page.locator(".message")).to_have_text(
        "Imported Dashain 2026 (demo): 4 players, 4 rounds."
    )
    page.goto(f"{live_server.url}/sessions/import/")
    page.set_input_files("#id_file", str(DEMO))
    page.get_by_role("button", name="Import", exact=True).tap()
    question = page.locator(".import-again")
    expect(question).to_have_attribute("role", "alert")
    expect(question).to_contain_text("You already have this evening: Dashain 2026 (demo), 4 rounds")
    expect(question).to_be_in_viewport()
    assert GameSession.objects.filter(owner=user).count() == 1
    assert violations(page, Axe()) == []
    assert page.evaluate(SMALL_TARGETS_JS) == []
    double_tap(page, question.get_by_role("button", name="Import a second copy"))
    expect(page.locator(".message")).to_have_text(
        "Imported Dashain 2026 (demo): 4 players, 4 rounds."
    )
    assert GameSession.objects.filter(owner=user).count() == 2


def test_a_stale_edit_links_to_the_round_as_it_is_now(logged_in_page, live_server):
    page, user = logged_in_page(**TOUCH_PHONE)
    session = make_session(user)
    round_ = services.add_round(session=session, round_input=worked_round(), user=user)
    page.goto(f"{live_server.url}/sessions/{session.pk}/rounds/{round_.pk}/edit/")
    aama = page.locator('.player-row[data-player="Aama"] input[name$="-maal"]')
    aama.fill("9")
    # Meanwhile another phone saves its own change of the round: Aama 6.
    theirs = worked_round()
    entries = tuple(replace(e, maal=6) if e.player == "Aama" else e for e in theirs.entries)
    services.replace_round(
        round_=round_, given=replace(theirs, entries=entries), user=user, expected_version=1
    )
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.get_by_role("button", name="Save changes").tap()
    alert = page.get_by_role("alert")
    expect(alert).to_be_in_viewport()
    expect(alert).to_contain_text(
        "This round was changed by someone else since you opened it; reload to see their version."
    )
    assert violations(page, Axe()) == []
    alert.get_by_role("link", name="Reload to see their version").tap()
    expect(page.locator("h1")).to_have_text("Edit round 1")
    expect(aama).to_have_value("6")
    expect(page.locator('input[name="version"]')).to_have_value("2")
