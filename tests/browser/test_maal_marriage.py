"""The maal calculator cannot count a marriage twice: a marriage is its three cards,
and the only way to add one is to add those cards (pagat table: marriage 10, 30;
poplu and jhiplu 2, 5, 10; tiplu 3, 7)."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.engine import Entry, RoundInput

from ..web_helpers import make_session
from .conftest import TOUCH_PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def count(calc, item: str):
    return calc.locator(f'.counter[data-item="{item}"] input')


def test_a_marriage_is_counted_once(logged_in_page, live_server):
    page, user = logged_in_page(**TOUCH_PHONE)
    session = make_session(user)
    page.goto(f"{live_server.url}/sessions/{session.pk}/maal/")
    calc = page.locator(".maal-calc")
    # The headings say what each group is.
    legends = calc.locator("legend")
    expect(legends.nth(1)).to_have_text("Maal cards in the hand: tap a card for each one held")
    expect(legends.nth(2)).to_have_text("Tunnels shown right after the deal")
    # No marriage count beside the cards: nothing to add a marriage twice with.
    expect(calc.locator('[name="n-marriages"]')).to_have_count(0)

    calc.locator(".ranks label", has_text="7").click()
    calc.locator(".suits label.suit-H").click()
    outcome = calc.locator(".maal-outcome")
    expect(outcome).to_have_attribute("data-tiplu", "7H")
    for item in ("tiplu", "poplu", "jhiplu"):
        calc.locator(f'.counter[data-item="{item}"] .maal-card').tap()
    # Tiplu, poplu and jhiplu held together are one marriage: 10, not 3 + 2 + 2 + 10.
    expect(outcome).to_have_attribute("data-maal", "10")
    expect(calc.locator(".maal-lines")).to_have_text("1 marriage = 10")

    # "+ a marriage" adds its three cards: two marriages, 30.
    calc.locator("[data-steps]").tap()
    for item in ("tiplu", "poplu", "jhiplu"):
        expect(count(calc, item)).to_have_value("2")
    expect(outcome).to_have_attribute("data-maal", "30")
    expect(calc.locator(".maal-lines")).to_have_text("2 marriages = 30")


def test_a_stored_marriage_reopens_as_its_cards(logged_in_page, live_server):
    page, user = logged_in_page(**TOUCH_PHONE)
    session = make_session(user)
    page.goto(f"{live_server.url}/sessions/{session.pk}/rounds/new/")
    # A count saved with a marriage and a poplu (12), reopened in the dialog: the
    # cards show 1 tiplu, 2 poplu, 1 jhiplu, and it still comes to 12.
    aama = page.locator('fieldset[data-player="Aama"]')
    page.locator("[data-maal-tiplu]").evaluate("input => { input.value = '7H'; }")
    aama.locator('input[name$="-maal_tally"]').evaluate(
        "(input, tally) => { input.value = tally; }", json.dumps({"marriages": 1, "poplu": 1})
    )
    aama.locator("[data-maal-open]").tap()
    dialog = page.locator("#maal-dialog")
    expect(dialog).to_be_visible()
    calc = dialog.locator(".maal-calc")
    expect(count(calc, "tiplu")).to_have_value("1")
    expect(count(calc, "poplu")).to_have_value("2")
    expect(count(calc, "jhiplu")).to_have_value("1")
    expect(calc.locator(".maal-outcome")).to_have_attribute("data-maal", "12")
    dialog.locator("[data-maal-use]").tap()
    expect(aama.locator('input[name$="-maal"]')).to_have_value("12")


def test_a_saved_round_with_a_marriage_is_unchanged(logged_in_page, live_server):
    """The stored tally of a round entered before keeps its marriage as saved."""
    page, user = logged_in_page(**TOUCH_PHONE)
    session = make_session(user)
    round_ = services.add_round(
        session=session,
        round_input=RoundInput(
            entries=(Entry("Aama", "seen", 12), Entry("Buwa", "seen", 0)),
            winner="Aama",
        ),
        tiplu="7H",
        tallies={"Aama": {"marriages": 1, "poplu": 1}},
    )
    page.goto(f"{live_server.url}/sessions/{session.pk}/rounds/{round_.pk}/")
    expect(page.locator(".maal-round")).to_contain_text("1 poplu = 2, 1 marriage = 10")
