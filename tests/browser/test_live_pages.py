"""The owner's other pages follow a change made on another phone, as the session
page does (docs/lan.md "Live everywhere"): settle-up, a round's page and the
changes, each open on a 390x844 phone, show a round edited elsewhere within
2 s, without a reload. Every wait is for a state (expect), never for a time."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring import services
from scoring.engine import Entry, RoundInput

from ..web_helpers import make_session
from .conftest import TOUCH_PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WITHIN_MS = 2_000  # as a seat page and the session page (issue 21)


def worked(aama_maal: int) -> RoundInput:
    """RULES.md section 2's worked example, Aama's maal as given."""
    return RoundInput(
        entries=(
            Entry("Aama", "seen", aama_maal),
            Entry("Buwa", "unseen", 2),
            Entry("Didi", "seen", 7),
            Entry("Dai", "seen", 0),
        ),
        winner="Didi",
    )


def test_settle_up_the_round_and_its_changes_follow_an_edit_made_elsewhere(
    logged_in_page, live_server
):
    settle, owner = logged_in_page(**TOUCH_PHONE)
    session = make_session(owner)
    round_ = services.add_round(session=session, round_input=worked(5), user=owner)
    url = live_server.url
    settle.goto(url + reverse("settle_up", args=[session.pk]))
    round_page = settle.context.new_page()
    round_page.goto(url + reverse("round_detail", args=[session.pk, round_.pk]))
    changes = settle.context.new_page()
    changes.goto(url + reverse("session_changes", args=[session.pk]))
    didi = settle.locator('#standings tr[data-player="Didi"] td').nth(2)
    expect(didi).to_have_text("+30")
    aama_net = round_page.locator('.breakdown-player[data-player="Aama"] .net')
    expect(aama_net).to_have_text("+3")
    expect(changes.locator(".change")).to_have_count(1)

    # Another phone changes Aama's maal from 5 to 6: T = 15, Didi takes
    # 17 + 18 − 6 = 29 and Aama receives 15 + 3 − 4×6 = −6.
    services.replace_round(round_=round_, given=worked(6), user=owner)

    expect(didi).to_have_text("+29", timeout=WITHIN_MS)
    expect(aama_net).to_have_text("+6", timeout=WITHIN_MS)
    expect(round_page.locator('.breakdown-player[data-player="Didi"] .net')).to_have_text("+29")
    expect(changes.locator(".change")).to_have_count(2, timeout=WITHIN_MS)
    expect(changes.locator(".change").first).to_contain_text("round 1")


def test_a_page_still_follows_after_a_swap_brings_its_script_again(logged_in_page, live_server):
    """follow.js is a module: a swap that brings scoring/_follow.html again (its
    #follow and its <script>) does not run it again, and it follows the new
    #follow, read at each poll (here one asking with a mark in its address)."""
    page, owner = logged_in_page(**TOUCH_PHONE)
    session = make_session(owner)
    round_ = services.add_round(session=session, round_input=worked(5), user=owner)
    page.goto(live_server.url + reverse("settle_up", args=[session.pk]))
    didi = page.locator('#standings tr[data-player="Didi"] td').nth(2)
    expect(didi).to_have_text("+30")
    with page.expect_request(lambda request: "swapped=1" in request.url):
        page.evaluate(
            """() => {
              const follow = document.getElementById("follow");
              const script = document.querySelector('script[src$="js/follow.js"]');
              const fresh = follow.cloneNode();
              fresh.dataset.follow += "?swapped=1";
              htmx.swap(follow, fresh.outerHTML + script.outerHTML, { swapStyle: "outerHTML" });
            }"""
        )
    expect(page.locator('script[src$="js/follow.js"]')).to_have_count(2)  # run once all the same

    services.replace_round(round_=round_, given=worked(6), user=owner)
    expect(didi).to_have_text("+29", timeout=WITHIN_MS)


def test_a_round_page_says_so_when_the_round_is_deleted_elsewhere(logged_in_page, live_server):
    page, owner = logged_in_page(**TOUCH_PHONE)
    session = make_session(owner)
    round_ = services.add_round(session=session, round_input=worked(5), user=owner)
    page.goto(live_server.url + reverse("round_detail", args=[session.pk, round_.pk]))
    expect(page.locator('.breakdown-player[data-player="Aama"] .net')).to_have_text("+3")

    services.delete_round(round_=round_, user=owner)  # on another phone

    expect(page.get_by_role("alert")).to_contain_text(
        "This round was deleted by someone else since you opened it.", timeout=WITHIN_MS
    )
    expect(page.get_by_role("link", name="Changes")).to_be_visible()
