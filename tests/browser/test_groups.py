"""The family purse on a 390x844 touch phone: "Mark paid" then "Record payment"
on the group page records the suggested payment in two taps, the list of
payments to make shrinks, and Share falls back to copying the plain text."""

from __future__ import annotations

import json

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from playwright.sync_api import expect

from groups.models import Payment
from groups.services import import_group
from scoring.engine.groupfile import loads
from tests.samples import family

from .conftest import TOUCH_PHONE
from .test_axe import violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHARE_TEXT = (
    "Pokhara family\nAama pays Didi NPR 37.50\nBhai pays Hajurba NPR 18.00\n"
    "Bhai pays Didi NPR 15.00"
)


def test_a_part_payment_typed_over_the_suggested_amount(logged_in_page, live_server):
    """The amount box selects what it holds when tapped: typing 30 gives 30, not
    "37.5030"; the Nepali form names payer and payee (तिर्ने/पाउने)."""
    page, user = logged_in_page(**TOUCH_PHONE)
    group = import_group(doc=loads(json.dumps(family())), owner=user)
    page.goto(f"{live_server.url}/groups/{group.pk}/")
    page.locator(".to-pay li").first.get_by_role("link", name="Mark paid").tap()
    amount = page.locator("#id_amount")
    expect(amount).to_have_value("37.50")
    amount.tap()
    page.keyboard.type("30")
    expect(amount).to_have_value("30")
    page.get_by_role("button", name="Record payment").tap()
    page.wait_for_url(f"{live_server.url}/groups/{group.pk}/")
    expect(page.locator(".messages")).to_contain_text("Payment recorded: Aama paid Didi NPR 30.00.")
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "ne", "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/groups/{group.pk}/payments/new/")
    expect(page.locator('label[for="id_payer"]')).to_have_text("तिर्ने")
    expect(page.locator('label[for="id_payee"]')).to_have_text("पाउने")


def test_mark_paid_then_record_payment_shrinks_the_list(logged_in_page, live_server):
    page, user = logged_in_page(**TOUCH_PHONE)
    group = import_group(doc=loads(json.dumps(family())), owner=user)
    page.goto(f"{live_server.url}/groups/{group.pk}/")
    to_pay = page.locator(".to-pay li")
    assert to_pay.count() == 3
    assert to_pay.first.inner_text().startswith("Aama → Didi: NPR 37.50")
    # Tap 1: "Mark paid" opens the payment form filled in.
    to_pay.first.get_by_role("link", name="Mark paid").tap()
    assert page.locator("#id_amount").input_value() == "37.50"
    assert page.locator("#id_payer option:checked").inner_text() == "Aama"
    assert page.locator("#id_payee option:checked").inner_text() == "Didi"
    # Tap 2: "Record payment" saves it, back on the group page.
    page.get_by_role("button", name="Record payment").tap()
    page.wait_for_url(f"{live_server.url}/groups/{group.pk}/")
    assert "Payment recorded: Aama paid Didi NPR 37.50." in page.locator(".messages").inner_text()
    assert to_pay.count() == 2
    assert "Aama" not in page.locator(".to-pay").inner_text()
    paid = Payment.objects.filter(group=group).order_by("-id").first()
    assert (paid.payer.name, paid.payee.name, str(paid.amount)) == ("Aama", "Didi", "37.50")
    # The save button fits the phone's screen without scrolling sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_part_payment_from_mark_paid(logged_in_page, live_server):
    page, user = logged_in_page(**TOUCH_PHONE)
    group = import_group(doc=loads(json.dumps(family())), owner=user)
    page.goto(f"{live_server.url}/groups/{group.pk}/")
    page.locator(".to-pay li").nth(1).get_by_role("link", name="Mark paid").tap()
    page.locator("#id_amount").fill("10")
    page.get_by_role("button", name="Record payment").tap()
    page.wait_for_url(f"{live_server.url}/groups/{group.pk}/")
    assert "Bhai → Hajurba: NPR 8.00" in page.locator(".to-pay").inner_text()


def test_share_copies_the_plain_text_where_there_is_no_share_sheet(logged_in_page, live_server):
    page, user = logged_in_page(**TOUCH_PHONE)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    group = import_group(doc=loads(json.dumps(family())), owner=user)
    page.goto(f"{live_server.url}/groups/{group.pk}/")
    page.evaluate("delete Navigator.prototype.share")
    page.locator(".page-head").get_by_role("button", name="Share").tap()
    status = page.locator("#share-status")
    status.filter(has_text="Copied").wait_for()
    assert page.evaluate("navigator.clipboard.readText()") == (SHARE_TEXT)


@pytest.mark.parametrize(("theme", "language"), [("light", "en"), ("dark", "en"), ("dark", "ne")])
def test_the_group_page_has_no_axe_violation(theme, language, logged_in_page, live_server):
    page, user = logged_in_page(**TOUCH_PHONE, color_scheme=theme)
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    group = import_group(doc=loads(json.dumps(family())), owner=user)
    axe = Axe()
    found = {}
    for path in (f"/groups/{group.pk}/", "/groups/", f"/groups/{group.pk}/payments/new/"):
        page.goto(live_server.url + path)
        if problems := violations(page, axe):
            found[path] = problems
    assert not found, found


def test_the_group_page_is_read_offline_with_its_banner(logged_in_page, live_server):
    """Opened once with the network on, the group page is kept on the phone: with
    the network gone it shows the balances and who pays whom, under the banner."""
    from .test_offline import BANNER, Line, goto, open_kept

    page, user = logged_in_page(**TOUCH_PHONE)
    group = import_group(doc=loads(json.dumps(family())), owner=user)
    path = f"/groups/{group.pk}/"
    line = Line(page, live_server, "page")
    open_kept(page, live_server, path)
    line.down()
    goto(page, live_server.url + path)
    expect(page.locator("#offline-banner")).to_have_text(BANNER)
    expect(page.locator(".to-pay li").first).to_contain_text("Aama → Didi: NPR 37.50")
    line.up()
    expect(page.locator("#offline-banner")).to_be_hidden()
