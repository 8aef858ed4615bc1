"""An evening of a family group at the table, on a 390x844 touch phone, in
English and in Nepali (issue 33): a five-deal Call Break game started for the
group (one deal entered with no network, sent exactly once when it returns)
and three pot hands of the same group; the group's page then shows the money
of both games in its balances, the evening's total and who pays whom.

Call Break is CALLBREAK.md's C01 seat for seat (Aama -10.00, Bhai -20.00,
Didi -30.00, Hajurba +60.00); the pot hands are tests/browser/test_pot_hands's
(Aama -27.50, Bhai -5.00, Didi +32.50). The balances: Aama -37.50,
Bhai -25.00, Didi +2.50, Hajurba +60.00.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from playwright.sync_api import expect

from callbreak.models import CallBreakDeal, CallBreakGame
from groups.services import create_group
from pots.models import PotHand, PotSession
from scoring.models import SavedKey
from tests.groups.samples import C01 as C01_SEATS

from .conftest import TIMEOUT_MS, TOUCH_PHONE
from .test_callbreak import WORDS, enter_deal
from .test_offline import wait_until
from .test_pot_hands import money, save

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEATS = ["Aama", "Bhai", "Didi", "Hajurba"]
C01 = [(tuple(bid for bid, _t in deal), tuple(tricks for _b, tricks in deal)) for deal in C01_SEATS]
OFFLINE_DEAL = 3
BALANCES = {"Aama": "-37.50", "Bhai": "-25.00", "Didi": "2.50", "Hajurba": "60.00"}


def play_call_break(page, live_server, group, language) -> CallBreakGame:
    words = WORDS[language]
    page.goto(live_server.url + "/callbreak/new/")
    for seat, name in enumerate(SEATS):
        page.fill(f"#id_player_{seat}", name)
    page.fill("#id_stake", "10")
    page.locator("#id_group").select_option(str(group.pk))
    page.get_by_role("button", name=words["start"]).tap()
    expect(page.locator("#cb-deal-form")).to_be_visible()
    expect(page.locator("#cb-group")).to_contain_text("Pokhara family")
    game = CallBreakGame.objects.get(group=group)
    wait_until(page, "async () => Boolean(navigator.serviceWorker.controller)")
    for number, (bids, tricks) in enumerate(C01, start=1):
        offline = number == OFFLINE_DEAL
        if offline:
            page.context.set_offline(True)
        enter_deal(page, words, bids, tricks)
        if offline:
            expect(page.locator("#cb-status")).to_contain_text(words["queued"])
            expect(page.locator("tr.cb-on-phone")).to_have_count(1)
            assert game.deals.count() == OFFLINE_DEAL - 1
            page.context.set_offline(False)
        expect(page.locator(f"#cb-deal-{number}")).to_be_visible(timeout=TIMEOUT_MS * 2)
        expect(page.locator("tr.cb-on-phone")).to_have_count(0)
    # Sent once: five deals, five one-time keys, whatever the queue retried.
    assert CallBreakDeal.objects.filter(game=game).count() == 5
    assert SavedKey.objects.filter(kind="cb_deal").count() == 5
    result = page.locator("#cb-result")
    expect(result.locator('[data-standing="Hajurba"] [data-money]')).to_have_text("+60.00")
    expect(result.locator('[data-standing="Aama"] [data-money]')).to_have_text("-10.00")
    return game


def play_pot_hands(page, live_server, group) -> PotSession:
    page.goto(f"{live_server.url}/pots/")
    page.locator("#id_name").fill("Flash at midnight")
    page.locator("#id_players").fill("Aama\nBhai\nDidi")
    page.locator("#id_group").select_option(str(group.pk))
    page.locator("form button[type=submit]").last.tap()
    page.wait_for_url(f"{live_server.url}/pots/*/")
    session = PotSession.objects.get(group=group)
    # A boot of 10 for all, Bhai raised to 30 and took it.
    page.locator("[data-boot='10']").tap()
    page.locator("[name=put_1]").fill("30")
    page.locator("label.pot-winner", has_text="Bhai").tap()
    save(page)
    expect(page.locator("#pot-hands ol.pot-hands > li")).to_have_count(1)
    # 5 each, Aama and Didi split the pot.
    page.locator("[data-boot='5']").tap()
    page.locator("label.pot-winner", has_text="Aama").tap()
    page.locator("label.pot-winner", has_text="Didi").tap()
    save(page)
    expect(page.locator("#pot-hands ol.pot-hands > li")).to_have_count(2)
    # 20 each, Didi takes it.
    page.locator("[data-boot='20']").tap()
    page.locator("label.pot-winner", has_text="Didi").tap()
    save(page)
    expect(page.locator("#pot-hands ol.pot-hands > li")).to_have_count(3)
    assert money(page) == ["-27.50", "-5.00", "+32.50"]
    assert PotHand.objects.filter(session=session).count() == 3
    return session


@pytest.mark.parametrize("language", ["en", "ne"])
def test_call_break_and_pot_hands_of_an_evening_reach_the_groups_balances(
    logged_in_page, live_server, language
):
    page, user = logged_in_page(**TOUCH_PHONE)
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    group = create_group(
        owner=user, name="Pokhara family", currency="NPR", members=["Aama", "Bhai"]
    )
    game = play_call_break(page, live_server, group, language)
    play_pot_hands(page, live_server, group)

    page.goto(f"{live_server.url}/groups/{group.pk}/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    balances = page.locator("section[aria-labelledby=balances-title]")
    for name, amount in BALANCES.items():
        expect(balances).to_contain_text(f"{name} {amount}")
    # Who pays whom: the fewest payments clear both games at once.
    to_pay = page.locator("ul.to-pay li > span")
    expect(to_pay).to_have_count(3)
    for row, (payer, payee, amount) in enumerate(
        (("Aama", "Hajurba", "37.50"), ("Bhai", "Hajurba", "22.50"), ("Bhai", "Didi", "2.50"))
    ):
        expect(to_pay.nth(row)).to_contain_text(f"{payer} → {payee}: ")
        expect(to_pay.nth(row)).to_contain_text(amount)
    shown = " ".join(page.locator("main").inner_text().split())
    # The evening lists each game's money, with a link to the Call Break game.
    expect(page.locator(f"a[href='/callbreak/{game.pk}/']").first).to_be_visible()
    assert "Aama -10.00 · Bhai -20.00 · Didi -30.00 · Hajurba 60.00" in shown.replace(" :", ":")
    assert "Aama -27.50 · Bhai -5.00 · Didi 32.50" in shown
    assert "Aama -37.50 · Bhai -25.00 · Didi 2.50 · Hajurba 60.00" in shown
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
