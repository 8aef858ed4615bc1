"""A Call Break game at the table, in a real Chromium on a 390x844 touch phone,
in English and in Nepali: the game started from the form, five deals entered
(calls before play, hands after), one of them with no network and sent once
when it returns, and the result the user sees: ranks, money and who pays whom
(CALLBREAK.md's C01 game: Dipa 1st +60.00, Asha -10.00, Bikash -20.00,
Chandra -30.00).

Each deal is counted: the taps on the screen (tapping the first call, "Calls
set: play", and Save) must be at most 6; digits, and the keyboard's Next key
after a "1" (which could still become 10 to 13), are typing, not taps.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.conf import settings
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from callbreak import services as callbreak_services
from callbreak.engine import Rules
from callbreak.models import CallBreakDeal, CallBreakGame
from scoring.models import SavedKey

from .conftest import TIMEOUT_MS, TOUCH_PHONE
from .test_offline import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Asha", "Bikash", "Chandra", "Dipa"]
C01 = [
    ((3, 4, 2, 3), (4, 4, 1, 4)),
    ((6, 1, 1, 2), (6, 4, 0, 3)),
    ((3, 1, 1, 1), (2, 9, 2, 0)),
    ((1, 1, 2, 7), (0, 0, 4, 9)),
    ((2, 1, 5, 2), (3, 1, 6, 3)),
]
OFFLINE_DEAL = 3
MAX_TAPS = 6
WORDS = {
    "en": {
        "start": "Start the game",
        "play": "Calls set: play",
        "save": "Save deal",
        "queued": "Deal 3 saved on this phone",
        "pays": "{payer} pays {payee} {amount}",
    },
    "ne": {
        "start": "गेम सुरु गर्नुहोस्",
        "play": "कल भयो: खेल्नुहोस्",
        "save": "राउन्ड सुरक्षित गर्नुहोस्",
        "queued": "राउन्ड 3 यो फोनमा सुरक्षित भयो",
        "pays": "{payer}ले {payee}लाई {amount} तिर्ने",
    },
}


class Taps:
    """Taps on the screen, counted (page.tap is a touch)."""

    def __init__(self, page) -> None:
        self.page = page
        self.count = 0

    def tap(self, locator) -> None:
        locator.tap()
        self.count += 1


def type_number(page, value: int) -> None:
    """Digits as the keyboard types them; after a "1", the keyboard's Next key
    (a 1 could still become 10 to 13, so the field waits)."""
    page.keyboard.type(str(value))
    if value == 1:
        page.keyboard.press("Enter")


def enter_deal(page, words, bids, tricks) -> int:
    taps = Taps(page)
    taps.tap(page.locator("#bid_0"))
    for bid in bids:
        type_number(page, bid)
    expect(page.locator("#cb-play")).to_be_focused()
    taps.tap(page.locator("#cb-play"))
    expect(page.locator("#tricks_0")).to_be_focused()
    for value in tricks[:-1]:
        type_number(page, value)
    page.keyboard.type(str(tricks[-1]))
    expect(page.locator("#cb-sum")).not_to_have_class("cb-sum-bad")
    taps.tap(page.get_by_role("button", name=words["save"]))
    return taps.count


@pytest.mark.parametrize("language", ["en", "ne"])
def test_a_five_deal_game_with_one_deal_offline(language, phone, new_page, live_server):
    page, user = phone
    words = WORDS[language]
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    page.goto(live_server.url + "/callbreak/new/")
    for seat, name in enumerate(PLAYERS):
        page.fill(f"#id_player_{seat}", name)
    page.fill("#id_stake", "10")
    page.get_by_role("button", name=words["start"]).tap()
    expect(page.locator("#cb-deal-form")).to_be_visible()
    game = CallBreakGame.objects.get(owner=user)
    # Another phone at the table follows the game by its watch link, read only.
    watcher = new_page(**TOUCH_PHONE)
    watcher.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    watcher.goto(page.locator(".cb-watch-url a").get_attribute("href"))
    expect(watcher.locator("#cb-rows tr")).to_have_count(0)
    # The service worker controls the page, so the offline deal takes the
    # phone's own way (the queue), as at the table.
    wait_until(page, "async () => Boolean(navigator.serviceWorker.controller)")
    taps = []
    for number, (bids, tricks) in enumerate(C01, start=1):
        offline = number == OFFLINE_DEAL
        if offline:
            page.context.set_offline(True)
        taps.append(enter_deal(page, words, bids, tricks))
        row = page.locator("#cb-rows tr").nth(number - 1)
        expect(row).to_contain_text(f"{bids[0]}/{tricks[0]}")
        if offline:
            expect(page.locator("#cb-status")).to_contain_text(words["queued"])
            expect(page.locator("tr.cb-on-phone")).to_have_count(1)
            assert game.deals.count() == OFFLINE_DEAL - 1
            page.context.set_offline(False)
        # The server's answer replaces the phone's row with its own.
        expect(page.locator(f"#cb-deal-{number}")).to_be_visible(timeout=TIMEOUT_MS * 2)
        expect(page.locator("tr.cb-on-phone")).to_have_count(0)
    assert taps == [3] * len(C01), taps  # within the 6 (MAX_TAPS)
    assert max(taps) <= MAX_TAPS
    assert CallBreakDeal.objects.filter(game=game).count() == 5
    assert SavedKey.objects.filter(user=user, kind="cb_deal").count() == 5
    result = page.locator("#cb-result")
    expect(result).to_be_visible()
    expect(page.locator("#cb-deal-form")).to_be_hidden()
    expect(result.locator('[data-standing="Dipa"]')).to_contain_text("1")
    expect(result.locator('[data-standing="Dipa"] [data-money]')).to_have_text("+60.00")
    expect(result.locator('[data-standing="Asha"] [data-money]')).to_have_text("-10.00")
    expect(result.locator('[data-standing="Bikash"] [data-money]')).to_have_text("-20.00")
    expect(result.locator('[data-standing="Chandra"] [data-money]')).to_have_text("-30.00")
    transfers = result.locator("#cb-transfers li")
    expect(transfers).to_have_text(
        [
            words["pays"].format(payer="Chandra", payee="Dipa", amount="30.00"),
            words["pays"].format(payer="Bikash", payee="Dipa", amount="20.00"),
            words["pays"].format(payer="Asha", payee="Dipa", amount="10.00"),
        ]
    )
    expect(page.locator("#cb-table tfoot")).to_contain_text("13.5")
    # The other phone has followed every deal, and shows the same result.
    expect(watcher.locator("#cb-rows tr")).to_have_count(5)
    expect(watcher.locator('[data-standing="Dipa"] [data-money]')).to_have_text("+60.00")
    expect(watcher.locator("#cb-transfers li")).to_have_count(3)
    expect(watcher.locator("#cb-deal-form")).to_have_count(0)


def test_the_servers_figures_replace_the_phones_where_they_differ(phone, live_server):
    """The phone shows its own figures at once; an answer whose scores differ
    (here, altered on the way) replaces them and says so above the table."""
    page, user = phone
    game = callbreak_services.start_game(
        owner=user, players=PLAYERS, rules=Rules(), stake=Decimal("10")
    )

    def altered(route):
        response = route.fetch()
        answer = response.json()
        answer["scores"] = [0, 0, 0, 0]
        route.fulfill(response=response, json=answer)

    page.route(f"**/callbreak/{game.pk}/deals/", altered)
    page.goto(f"{live_server.url}/callbreak/{game.pk}/")
    enter_deal(page, WORDS["en"], *C01[0])
    expect(page.locator("#cb-alert")).to_have_text(
        "The server worked out different scores for deal 1; its figures are shown."
    )
    expect(page.locator("#cb-deal-1")).to_contain_text("3.1")


def test_a_deal_the_server_refuses_comes_back_into_the_form(phone, live_server):
    """The game ended on another phone meanwhile: the deal typed here is refused
    with the server's words, and its numbers are back in the form."""
    page, user = phone
    game = callbreak_services.start_game(
        owner=user, players=PLAYERS, rules=Rules(deals_per_game=1), stake=Decimal("10")
    )
    page.goto(f"{live_server.url}/callbreak/{game.pk}/")
    callbreak_services.add_deal(game=game, user=user, bids=C01[0][0], tricks=C01[0][1])
    enter_deal(page, WORDS["en"], *C01[1])
    alert = page.locator("#cb-alert")
    expect(alert).to_contain_text("Deal 1 was not saved:")
    expect(alert).to_contain_text("E_DEALS: deal 2: the game ended after deal 1")
    expect(page.locator("#bid_0")).to_have_value("6")
    expect(page.locator("#tricks_1")).to_have_value("4")
    assert game.deals.count() == 1


def test_a_deal_changed_deleted_and_put_back(phone, live_server):
    """A deal is changed from its number in the table (the hands' total checked
    as they are typed), deleted, and put back from the history."""
    page, user = phone
    game = callbreak_services.start_game(
        owner=user, players=PLAYERS, rules=Rules(), stake=Decimal("10")
    )
    for bids, tricks in C01[:2]:
        callbreak_services.add_deal(game=game, user=user, bids=bids, tricks=tricks)
    page.goto(f"{live_server.url}/callbreak/{game.pk}/")
    page.get_by_role("link", name="Change deal 1").tap()
    page.fill('input[name="tricks_0"]', "3")
    expect(page.locator("#cb-sum")).to_have_text("Hands total 12, not 13: 1 missing")
    page.fill('input[name="tricks_1"]', "5")
    expect(page.locator("#cb-sum")).to_have_text("Hands: 13 of 13")
    page.get_by_role("button", name="Save the change").tap()
    # Asha called 3 and took 3 (3.0), Bikash called 4 and took 5 (4.1).
    expect(page.locator("#cb-deal-1 td").nth(0)).to_have_text("3/3 3.0")
    expect(page.locator("#cb-deal-1 td").nth(1)).to_have_text("4/5 4.1")
    page.get_by_role("link", name="Change deal 1").tap()
    page.get_by_role("link", name="Delete this deal").tap()
    page.get_by_role("button", name="Delete").tap()
    expect(page.locator("#cb-rows tr")).to_have_count(1)
    page.get_by_role("link", name="History").tap()
    page.locator(".change").first.get_by_role("button").tap()
    expect(page.locator("#cb-rows tr")).to_have_count(2)
    expect(page.locator("#cb-deal-1")).to_contain_text("3/3")


def test_a_deal_refused_while_its_page_was_closed_is_said_on_it(phone, live_server):
    """A deal kept on the phone that the server refused while the game's page
    was closed (another page, or the worker, sent it): the page, opened again,
    says why, puts its numbers back in the form, and takes it out of the
    queue, where it would hold back the deals after it."""
    page, user = phone
    game = callbreak_services.start_game(
        owner=user, players=PLAYERS, rules=Rules(), stake=Decimal("10")
    )
    callbreak_services.add_deal(game=game, user=user, bids=C01[0][0], tricks=C01[0][1])
    url = f"{live_server.url}/callbreak/{game.pk}/"
    page.goto(url)
    fields = [["bid_0", "6"], ["bid_1", "1"], ["bid_2", "1"], ["bid_3", "2"]]
    fields += [["tricks_0", "6"], ["tricks_1", "4"], ["tricks_2", "0"], ["tricks_3", "2"]]
    page.evaluate(
        """async ([session, path, fields]) => {
          const queue = await import("/static/js/offline-queue.js");
          const user = document.getElementById("offline-strings").dataset.user;
          await queue.put({
            key: "refused-while-closed", user, session, url: path, fields, summary: null,
            created: Date.now(), status: "refused",
            messages: ["E_TRICKS_SUM: deal 2: tricks total 12, not 13"],
          });
        }""",
        [f"cb{game.pk}", f"/callbreak/{game.pk}/deals/", fields],
    )
    page.goto(url)
    alert = page.locator("#cb-alert")
    expect(alert).to_contain_text("Deal 2 was not saved:")
    expect(alert).to_contain_text("E_TRICKS_SUM: deal 2: tricks total 12, not 13")
    expect(page.locator("#bid_0")).to_have_value("6")
    expect(page.locator("#tricks_3")).to_have_value("2")
    expect(page.locator("#cb-sum")).to_have_text("Hands total 12, not 13: 1 missing")
    expect(page.locator("tr.cb-on-phone")).to_have_count(0)
    wait_until(page, QUEUE_EMPTY)
    assert game.deals.count() == 1


QUEUE = """async () => {
  const db = await new Promise((ok) => {
    const opened = indexedDB.open("marriage-offline", 1);
    opened.onsuccess = () => ok(opened.result);
  });
  return new Promise((ok) => {
    const read = db.transaction("rounds").objectStore("rounds").getAll();
    read.onsuccess = () => ok(read.result);
  });
}"""
QUEUE_EMPTY = f"async () => (await ({QUEUE})()).length === 0"


def test_a_deal_changed_with_no_network_is_sent_once_later(phone, live_server):
    page, user = phone
    game = callbreak_services.start_game(
        owner=user, players=PLAYERS, rules=Rules(), stake=Decimal("10")
    )
    callbreak_services.add_deal(game=game, user=user, bids=C01[0][0], tricks=C01[0][1])
    page.goto(f"{live_server.url}/callbreak/{game.pk}/")
    wait_until(page, "async () => Boolean(navigator.serviceWorker.controller)")
    page.get_by_role("link", name="Change deal 1").tap()
    page.context.set_offline(True)
    page.fill('input[name="tricks_0"]', "5")
    page.fill('input[name="tricks_1"]', "3")
    page.get_by_role("button", name="Save the change").tap()
    expect(page.locator("#cb-status")).to_have_text(
        "Change to deal 1 kept on this phone: sent when the network returns."
    )
    assert game.deals.get().tricks == [4, 4, 1, 4]
    page.context.set_offline(False)
    wait_until(page, QUEUE_EMPTY)
    # The page was the copy kept on the phone: back online, it may reload
    # itself (static/js/offline.js) as the test opens it again.
    for _attempt in range(3):
        try:
            page.goto(f"{live_server.url}/callbreak/{game.pk}/")
            break
        except PlaywrightError as error:
            if "ERR_ABORTED" not in str(error) and "interrupted" not in str(error):
                raise
            page.wait_for_load_state()
    expect(page.locator("#cb-deal-1 td").nth(0)).to_have_text("3/5 3.2")
    deal = game.deals.get()
    assert deal.tricks == [5, 3, 1, 4]
    assert game.changes.filter(action="edited").count() == 1
