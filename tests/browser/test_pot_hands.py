"""Pot hands at the table on a 390x844 touch phone, in English and Nepali: a
pot session started for the family's group, three hands recorded in a few
taps (a boot for all with one raised, a split, a winner), the second with no
network: it waits on the phone, its running money shown at once, and is sent
exactly once when the network is back. The money reaches the group's
balances."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings
from playwright.sync_api import expect

from groups.services import create_group
from pots.models import PotHand, PotSession
from scoring.models import SavedKey

from .conftest import TOUCH_PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def money(page) -> list[str]:
    """The running money as the page shows it, seat by seat."""
    return [cell.strip() for cell in page.locator("#pot-running td[data-seat]").all_inner_texts()]


def save(page) -> None:
    page.locator("#pot-hand-form button[type=submit]").tap()


@pytest.mark.parametrize("language", ["en", "ne"])
def test_three_pot_hands_one_offline_reach_the_groups_balances(
    logged_in_page, live_server, language
):
    page, user = logged_in_page(**TOUCH_PHONE)
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    group = create_group(
        owner=user, name="Pokhara family", currency="NPR", members=["Aama", "Bhai", "Didi"]
    )
    page.goto(f"{live_server.url}/pots/")
    page.locator("#id_name").fill("Flash at midnight")
    page.locator("#id_players").fill("Aama\nBhai\nDidi")
    page.locator("#id_group").select_option(str(group.pk))
    page.locator("form button[type=submit]").last.tap()
    page.wait_for_url(f"{live_server.url}/pots/*/")
    session = PotSession.objects.get(owner=user)
    assert session.group_id == group.pk
    expect(page.locator("html")).to_have_attribute("lang", language)

    # Hand 1: the boot of 10 for all in one tap, Bhai raised to 30 and took it.
    page.locator("[data-boot='10']").tap()
    expect(page.locator("[name=put_2]")).to_have_value("10")
    page.locator("[name=put_1]").fill("30")
    page.locator("label.pot-winner", has_text="Bhai").tap()
    expect(page.locator("[data-preview]")).to_contain_text(
        "Aama -10.00 · Bhai +20.00 · Didi -10.00"
    )
    save(page)
    expect(page.locator("#pot-hands ol.pot-hands > li")).to_have_count(1)
    assert money(page) == ["-10.00", "+20.00", "-10.00"]
    expect(page.locator("[data-pending-note]")).to_be_hidden()
    expect(page.locator("[data-replaced-note]")).to_be_hidden()

    # Hand 2 with no network: 5 each, Aama and Didi split the pot of 15.
    page.context.set_offline(True)
    page.locator("[data-boot='5']").tap()
    page.locator("label.pot-winner", has_text="Aama").tap()
    page.locator("label.pot-winner", has_text="Didi").tap()
    save(page)
    expect(page.locator("[data-queued-note]")).to_be_visible()
    expect(page.locator("[data-pending-note]")).to_be_visible()
    assert money(page) == ["-7.50", "+15.00", "-7.50"]
    assert PotHand.objects.filter(session=session).count() == 1

    # The network is back: the waiting hand goes, once, and the server's page shows it.
    page.context.set_offline(False)
    expect(page.locator("#pot-hands ol.pot-hands > li")).to_have_count(2)
    expect(page.locator("[data-queued-note]")).to_be_hidden()
    expect(page.locator("[data-pending-note]")).to_be_hidden()
    assert money(page) == ["-7.50", "+15.00", "-7.50"]
    assert PotHand.objects.filter(session=session).count() == 2
    assert SavedKey.objects.filter(user=user, kind="pothand").count() == 2

    # Hand 3: 20 each, Didi takes it.
    page.locator("[data-boot='20']").tap()
    page.locator("label.pot-winner", has_text="Didi").tap()
    save(page)
    expect(page.locator("#pot-hands ol.pot-hands > li")).to_have_count(3)
    assert money(page) == ["-27.50", "-5.00", "+32.50"]
    assert PotHand.objects.filter(session=session).count() == 3
    # The whole page fits the phone: nothing to swipe sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # The group's balances count the evening's pots.
    page.goto(f"{live_server.url}/groups/{group.pk}/")
    balances = page.locator("section[aria-labelledby=balances-title]")
    for name, amount in (("Aama", "-27.50"), ("Bhai", "-5.00"), ("Didi", "32.50")):
        expect(balances).to_contain_text(f"{name} {amount}")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_another_phone_follows_the_hands_as_they_are_saved(logged_in_page, new_page, live_server):
    """The scorer's second phone (the same owner, another browser) shows each
    hand's money without a reload."""
    from pots import services

    page, user = logged_in_page(**TOUCH_PHONE)
    session = services.create_session(
        owner=user, name="Flash", players=["Aama", "Bhai"], played_on=datetime.date(2026, 10, 2)
    )
    other = new_page(**TOUCH_PHONE)
    other.context.add_cookies(page.context.cookies())
    other.goto(f"{live_server.url}/pots/{session.pk}/")
    page.goto(f"{live_server.url}/pots/{session.pk}/")
    page.locator("[data-boot='10']").tap()
    page.locator("label.pot-winner", has_text="Aama").tap()
    save(page)
    expect(other.locator("#pot-hands ol.pot-hands > li")).to_have_count(1)
    assert money(other) == ["+10.00", "-10.00"]
