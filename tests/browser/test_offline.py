"""Offline at the table (README), in a real Chromium with the network cut by
Playwright (`context.set_offline`): installable (the manifest, a service worker
controlling the page), the session page shown from the phone with its banner, a
round saved with no network sent once when it returns, a round the server
refuses kept with its message, the preview worked out on the phone, and the
copies gone at log-out or for another user; a network that hangs (a request held
by a Playwright route, never answered until the test lets it go) shows the kept
page after the worker's short wait and keeps a hanging save on the phone, saved
once. The pages' Content Security Policy
is enforced throughout (waits poll inside the page: wait_for_function would eval).

Figures (pagat: seen 3 to the winner; all seen): Didi wins; Aama 5, Buwa 2,
Didi 7, Dai 0. T = 14, n = 4. Aama pays 14 + 3 - 20 = -3, Buwa 14 + 3 - 8 = 9,
Dai 14 + 3 - 0 = 17; Didi +23: nets +3, -9, +23, -17.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.contrib.staticfiles.storage import StaticFilesStorage
from django.test import Client
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from scoring import services
from scoring.engine import Entry, RoundInput, make_rules
from scoring.models import Round, RoundChange, SavedKey
from scoring.web import offline

from ..web_helpers import make_session
from .conftest import TIMEOUT_MS, TOUCH_PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND = {"Aama": 5, "Buwa": 2, "Didi": 7, "Dai": 0}
NETS = {"Aama": "+3", "Buwa": "-9", "Didi": "+23", "Dai": "-17"}
BANNER = re.compile(r"^Offline — standings as of \d\d:\d\d$")


def wait_until(page, function_body: str, timeout: int = TIMEOUT_MS) -> None:
    """Waits until the async arrow `function_body` (evaluated as page.evaluate's
    function, so no eval) resolves truthy; polls inside the page."""
    script = f"""async (timeout) => {{
      const check = {function_body};
      const end = Date.now() + timeout;
      while (Date.now() < end) {{
        try {{ if (await check()) return true; }} catch (error) {{}}
        await new Promise((resolve) => setTimeout(resolve, 50));
      }}
      return false;
    }}"""
    for _attempt in range(3):
        try:
            answered = page.evaluate(script, timeout)
        except PlaywrightError as error:
            # The page went on meanwhile (a reload once the rounds are sent): ask the new one.
            if "context was destroyed" not in str(error):
                raise
            page.wait_for_load_state()
            continue
        assert answered, f"never true: {function_body}"
        return
    raise AssertionError(f"the page kept navigating: {function_body}")


def goto(page, url: str) -> None:
    """page.goto that lands. Under Playwright's network emulation on a loaded
    machine, Chromium now and then drops a navigation the service worker answers
    with no network: goto returns None and the page goes back to where it was
    (seen about one time in four with both cores busy, never on a quiet machine;
    not traced to the app, whose pages are the same either way). Asked again, as a
    person would tap again."""
    for _attempt in range(3):
        page.goto(url)
        if page.url == url:
            return
    assert page.url == url, f"never reached {url}, still at {page.url}"


def reload(page) -> None:
    """page.reload, after any navigation the page makes by itself (it reloads
    once its rounds are sent): asked again if that one cut it short."""
    for _attempt in range(3):
        try:
            page.reload()
            return
        except PlaywrightError as error:
            if "ERR_ABORTED" not in str(error) and "context was destroyed" not in str(error):
                raise
            page.wait_for_load_state()
    page.reload()


CONTROLLED = "async () => Boolean(navigator.serviceWorker.controller)"


def kept(path: str) -> str:
    """True once the worker keeps `path` in this user's pages."""
    return f"""async () => {{
      for (const name of await caches.keys()) {{
        if (!name.startsWith("marriage-pages-")) continue;
        const cache = await caches.open(name);
        if (await cache.match(location.origin + "{path}")) return true;
      }}
      return false;
    }}"""


def session_page(session) -> re.Pattern[str]:
    """The session's page, where a save kept on the phone lands: from the page's
    script, or from the worker's redirect (`?queued=`, which the page then
    takes out of the address), whichever kept it."""
    return re.compile(rf"/sessions/{session.pk}/(\?queued=[^#]*)?$")


def open_kept(page, live_server, *paths: str) -> None:
    """Opens each page with the network on and waits until the phone keeps it."""
    for path in paths:
        goto(page, live_server.url + path)
        wait_until(page, CONTROLLED)
        wait_until(page, kept(path))


def wait_until_all_sent(page) -> None:
    """Waits until nothing waits on the phone to be sent for the current user."""
    wait_until(
        page,
        "async () => (await (await import('/static/js/offline-queue.js')).list("
        "document.getElementById('offline-strings').dataset.user)).length === 0",
    )


def queued_count(page) -> int:
    return page.evaluate(
        """async () => {
          const user = document.getElementById("offline-strings").dataset.user;
          if (!user) return -1;
          return (await (await import('/static/js/offline-queue.js')).list(user)).length;
        }"""
    )


@pytest.fixture
def table(logged_in_page, live_server):
    page, user = logged_in_page(**TOUCH_PHONE)
    session = make_session(user, players=tuple(HAND))
    return page, user, session


def fill_hand(page) -> None:
    page.locator(".pick", has_text="Didi").tap()
    for name, points in HAND.items():
        if points:
            page.locator(f'.player-row[data-player="{name}"] input[name$="-maal"]').fill(
                str(points)
            )


# Save answered in place with the round kept on the phone (static/js/round-save.js).
KEPT = re.compile(
    r"^(Round \d+ saved on this phone\. It is sent by itself when the network returns\."
    r"|राउन्ड \d+ यो फोनमा सुरक्षित भयो। नेटवर्क फर्केपछि आफैँ पठाइन्छ।)$"
)


def saved_here(page) -> None:
    """Save tapped with the round kept on the phone: the form says so at its
    top (in English or Nepali), the next round's form below it."""
    page.locator('.sticky-save button[type="submit"]').tap()
    expect(page.locator("#round-saved-status")).to_have_text(KEPT)


def to_the_session(page, live_server, session) -> None:
    """The session's page, as the scorer opens it (from the phone with no network)."""
    goto(page, live_server.url + f"/sessions/{session.pk}/")


def kept_on_the_phone(page) -> None:
    """The session page's list of rounds waiting shows the round kept on the
    phone, whichever part of the phone kept it: the page's script at once, or
    the worker once its wait for the network is over."""
    expect(page.locator(".offline-queue .queued-round")).to_have_count(1)


REFUSED = ".offline-queue .queued-round.refused"


def refused_shown(page, problem: str) -> str:
    """The round the server refused, as the phone shows it, whichever path
    sent it: "queue", kept in the list of rounds waiting with the message and
    its Fix and Discard; or "form", the round form itself refused with the
    message, its hand still filled in (a Chromium that held the save until
    the network came back posts it then as the page). Both say "not saved"."""
    shown = page.locator(f"{REFUSED}, #form-errors")
    expect(shown.first).to_contain_text("not saved")
    expect(shown.first).to_contain_text(problem)
    return "queue" if page.locator(REFUSED).count() else "form"


def test_installable_manifest_and_a_worker_controlling_the_page(table, live_server):
    page, _user, _session = table
    goto(page, live_server.url + "/")
    manifest_url = page.locator('link[rel="manifest"]').get_attribute("href")
    manifest = page.request.get(live_server.url + manifest_url).json()
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/"
    assert manifest["name"] and manifest["short_name"]
    sizes = {(icon["sizes"], icon.get("purpose", "any")) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:
        assert page.request.get(live_server.url + icon["src"]).ok
    themes = page.locator('meta[name="theme-color"]')
    expect(themes).to_have_count(2)
    wait_until(page, CONTROLLED)
    # wait_for_function, not evaluate: a promise that never settles fails in
    # its timeout rather than hang the run.
    ready = "async () => (await navigator.serviceWorker.ready).scope"
    scope = page.wait_for_function(ready).json_value()
    assert scope == live_server.url + "/"
    assert any(worker.url.endswith("/sw.js") for worker in page.context.service_workers)
    # Static files are precached: the style sheet is there before anyone asks twice.
    wait_until(
        page,
        """async () => {
          const names = (await caches.keys()).filter((n) => n.startsWith("marriage-static-"));
          return names.length === 1 && Boolean(await caches.match("/static/css/app.css"));
        }""",
    )


def test_the_session_page_is_shown_offline_with_its_banner(table, live_server):
    page, _user, session = table
    line = Line(page, live_server, "page")  # the `online` event, whatever Chromium's emulation
    path = f"/sessions/{session.pk}/"
    open_kept(page, live_server, path, f"/sessions/{session.pk}/settle/")
    line.down()
    goto(page, live_server.url + path)
    expect(page.locator("h1")).to_have_text(session.name)
    expect(page.locator("#offline-banner")).to_have_text(BANNER)
    goto(page, live_server.url + f"/sessions/{session.pk}/settle/")
    expect(page.locator("#offline-banner")).to_be_visible()
    # A page never opened on this phone: said so, not a browser error.
    goto(page, live_server.url + f"/sessions/{session.pk}/changes/")
    expect(page.locator("h1")).to_have_text("Offline")
    # The network returns: the offline page becomes the page asked for, by itself.
    line.up()
    expect(page.locator("h1")).not_to_have_text("Offline")
    expect(page.locator("#offline-banner")).to_be_hidden()
    goto(page, live_server.url + path)
    expect(page.locator("#offline-banner")).to_be_hidden()


# What the page believes of the network, whatever Chromium's own emulation
# makes navigator.onLine say (it has changed between versions): "page", the
# phone knows it is offline (navigator.onLine false while the line is down, an
# `online` event when it is back), so the page's script keeps the round;
# "lie-fi", the phone thinks it is online all along (navigator.onLine true, no
# events) while requests fail, so the save goes out and the worker keeps it.
BELIEF = """(() => {
  const belief = %s;
  const real = Object.getOwnPropertyDescriptor(Navigator.prototype, "onLine");
  Object.defineProperty(Navigator.prototype, "onLine", {
    configurable: true,
    get() {
      if (belief === "lie-fi") return true;
      return !/(?:^|; )test-line=down(?:;|$)/.test(document.cookie) && real.get.call(this);
    },
  });
  if (belief === "lie-fi") {
    for (const type of ["online", "offline"]) {
      window.addEventListener(type, (event) => event.stopImmediatePropagation(), true);
    }
  }
})();"""


class Line:
    """The phone's network, down and back up, as `belief` has the page see it."""

    def __init__(self, page, live_server, belief: str) -> None:
        self.page = page
        self.url = live_server.url
        self.belief = belief
        page.context.add_init_script(BELIEF % f'"{belief}"')
        self._mark("up")

    def _mark(self, state: str) -> None:
        self.page.context.add_cookies([{"name": "test-line", "value": state, "url": self.url}])

    def down(self) -> None:
        self._mark("down")
        self.page.context.set_offline(True)

    def up(self) -> None:
        self._mark("up")
        self.page.context.set_offline(False)
        if self.belief == "page":
            # The event Chromium sends when its own navigator.onLine changes (at
            # most twice: the page's handlers take it again harmlessly).
            try:
                self.page.evaluate("() => window.dispatchEvent(new Event('online'))")
            except PlaywrightError as error:  # the real event came first and reloaded the page
                if "context was destroyed" not in str(error):
                    raise


def saves_seen(page, form: str) -> list[str]:
    """The method of every request for `form` the phone sends from now on (the
    page's or the worker's), whether or not the network answers."""
    seen: list[str] = []
    page.context.on(
        "request",
        lambda request: seen.append(request.method) if urlsplit(request.url).path == form else None,
    )
    return seen


@pytest.mark.parametrize("belief", ["page", "lie-fi"])
def test_a_round_saved_offline_is_listed_and_sent_once_whichever_kept_it(
    belief, table, live_server
):
    """With the page knowing it is offline, its script keeps the round; on a
    line that looks online but fails, it is sent at once, fails, and stays
    kept. Either way the user sees the same: the form says the round waits on
    the phone, and the session's page lists it with its winner and each
    player's net; when the network is back it is sent once and the ledger has
    it."""
    page, user, session = table
    form = f"/sessions/{session.pk}/rounds/new/"
    line = Line(page, live_server, belief)
    open_kept(page, live_server, f"/sessions/{session.pk}/", form)
    line.down()
    goto(page, live_server.url + form)  # from the phone
    expect(page.locator("#offline-banner")).to_be_visible()
    fill_hand(page)
    # The preview is worked out on the phone, to the server's figures.
    for name, net in NETS.items():
        expect(page.locator(f'#preview li[data-player="{name}"] .net')).to_have_text(net)
    seen = saves_seen(page, form)
    saved_here(page)
    # On lie-fi the page tried to send it (and failed); knowing, it did not try.
    assert ("POST" in seen) == (belief == "lie-fi"), seen
    to_the_session(page, live_server, session)
    waiting = page.locator(".offline-queue .queued-round")
    expect(waiting).to_have_count(1)
    expect(waiting.locator(".queued-status")).to_have_text("waiting to send")
    expect(waiting.locator(".queued-head")).to_contain_text("Didi won")
    expect(waiting.locator(".num-line")).to_have_text("Aama +3 · Buwa -9 · Didi +23 · Dai -17")
    assert Round.objects.filter(session=session).count() == 0
    line.up()
    # Sent by itself; the page then shows the ledger with it.
    expect(page.locator(".offline-queue .queued-round")).to_have_count(0)
    expect(page.locator(".ledger-table, table").first).to_contain_text("23")
    expect(page.locator("#offline-banner")).to_be_hidden()
    assert Round.objects.filter(session=session).count() == 1
    assert queued_count(page) == 0
    # The next page load sends nothing again.
    reload(page)
    expect(page.locator("h1")).to_have_text(session.name)
    assert Round.objects.filter(session=session).count() == 1
    assert SavedKey.objects.filter(user=user).count() == 1


@pytest.mark.parametrize("belief", ["page", "lie-fi"])
def test_a_refused_round_is_listed_whichever_kept_it(belief, table, live_server):
    """A round refused when it arrives (the rules changed meanwhile) is listed
    with the server's message, whoever kept it, and never sent twice."""
    page, _user, session = table
    form = f"/sessions/{session.pk}/rounds/new/"
    line = Line(page, live_server, belief)
    open_kept(page, live_server, f"/sessions/{session.pk}/", form)
    line.down()
    goto(page, live_server.url + form)
    fill_hand(page)
    saved_here(page)
    to_the_session(page, live_server, session)
    expect(page.locator(".offline-queue .queued-round")).to_contain_text("Didi won")
    session.rules = make_rules("pagat", max_players=3).to_options()
    session.save()
    line.up()
    refused = page.locator(".offline-queue .queued-round.refused")
    expect(refused.locator(".queued-status")).to_have_text("not saved: the server refused it")
    expect(refused.locator(".errorlist")).to_contain_text("at most 3 players")
    expect(refused.locator(".num-line")).to_have_text("Aama +3 · Buwa -9 · Didi +23 · Dai -17")
    assert Round.objects.filter(session=session).count() == 0
    reload(page)
    expect(refused).to_have_count(1)
    assert Round.objects.filter(session=session).count() == 0


def test_on_a_line_that_hangs_the_round_waits_and_shows_within_2_seconds(
    table, live_server, settings
):
    """Lie-fi as it usually is: the browser says online, and the save is sent
    and never answered. The phone gives up (after 600 ms here) and keeps the
    round; the session page comes from the phone (after 300 ms), listing it
    with its winner and nets. Once the line answers, the round is sent (once:
    the held save arrives too, and the second is answered as the first) and
    the page shows it in its ledger within 2 s, with no `online` event to help
    (the first check whether the network answers is the usual 5 s away: the
    rounds waiting make the page ask every second)."""
    settings.OFFLINE_NAVIGATION_TIMEOUT_MS = 300
    settings.OFFLINE_SAVE_TIMEOUT_MS = 600
    page, user, session = table
    path = f"/sessions/{session.pk}/"
    form = f"/sessions/{session.pk}/rounds/new/"
    Line(page, live_server, "lie-fi")
    open_kept(page, live_server, path, form)
    network = Hang(page, path, form)
    goto(page, live_server.url + form)
    expect(page.locator("#offline-banner")).to_have_text(BANNER)
    fill_hand(page)
    saved_here(page)
    to_the_session(page, live_server, session)
    expect(page.locator("#offline-banner")).to_have_text(BANNER)
    waiting = page.locator(".offline-queue .queued-round")
    expect(waiting.locator(".queued-head")).to_contain_text("Didi won")
    expect(waiting.locator(".num-line")).to_have_text("Aama +3 · Buwa -9 · Didi +23 · Dai -17")
    assert Round.objects.filter(session=session).count() == 0
    network.answer()
    expect(page.locator(".ledger-table, table").first).to_contain_text("23", timeout=2_000)
    expect(page.locator(".offline-queue .queued-round")).to_have_count(0)
    wait_until_all_sent(page)
    assert Round.objects.filter(session=session).count() == 1
    assert SavedKey.objects.filter(user=user).count() == 1


def test_a_round_the_server_refuses_is_kept_with_its_message(table, live_server):
    page, _user, session = table
    form = f"/sessions/{session.pk}/rounds/new/"
    open_kept(page, live_server, f"/sessions/{session.pk}/", form)
    page.context.set_offline(True)
    goto(page, live_server.url + form)
    fill_hand(page)
    saved_here(page)
    to_the_session(page, live_server, session)
    kept_on_the_phone(page)
    # Meanwhile, on another phone, the rules changed: at most 3 players a round.
    session.rules = make_rules("pagat", max_players=3).to_options()
    session.save()
    page.context.set_offline(False)
    kept = refused_shown(page, "at most 3 players")
    assert Round.objects.filter(session=session).count() == 0
    if kept == "queue":
        refused = page.locator(REFUSED)
        expect(refused.locator(".errorlist")).to_contain_text("at most 3 players")
        # Kept: a reload still shows it, and nothing is sent.
        reload(page)
        expect(refused).to_have_count(1)
        assert Round.objects.filter(session=session).count() == 0
        refused.get_by_role("link", name="Fix").click()
        expect(page.locator(".fixing-note")).to_contain_text("at most 3 players")
    # Fixed from the form with the hand still in it: Dai sits out, and it goes.
    expect(page.locator('input[name$="-maal"]').first).to_have_value("5")
    page.locator('.player-row[data-player="Dai"] label.plays').click()
    page.get_by_role("button", name="Save round").tap()
    # Sent under its own key, and answered in place; the form is the next round's.
    expect(page.locator("#round-saved-status")).to_have_text("Round 1 saved.")
    expect(page.locator(".next-round")).to_have_text("Round 2 · Buwa deals")
    assert "fix=" not in page.url
    assert Round.objects.filter(session=session).count() == 1
    assert queued_count(page) == 0


def test_a_refused_round_can_be_discarded(table, live_server):
    page, _user, session = table
    form = f"/sessions/{session.pk}/rounds/new/"
    open_kept(page, live_server, f"/sessions/{session.pk}/", form)
    page.context.set_offline(True)
    goto(page, live_server.url + form)
    fill_hand(page)
    saved_here(page)
    to_the_session(page, live_server, session)
    kept_on_the_phone(page)
    session.rules = make_rules("pagat", max_players=3).to_options()
    session.save()
    page.context.set_offline(False)
    if refused_shown(page, "at most 3 players") == "queue":
        page.locator(REFUSED).get_by_role("button", name="Discard").click()
    else:  # refused as the page itself: leaving it is all there is to discard
        goto(page, live_server.url + f"/sessions/{session.pk}/")
    expect(page.locator(".offline-queue")).to_have_count(0)
    assert queued_count(page) == 0
    assert Round.objects.filter(session=session).count() == 0


def test_log_out_clears_this_users_copies(table, live_server):
    page, _user, session = table
    path = f"/sessions/{session.pk}/"
    open_kept(page, live_server, path)
    page.locator("[data-menu-button]").click()
    page.get_by_role("button", name="Log out").click()
    expect(page.locator("#topnav").get_by_role("link", name="Log in")).to_be_visible()
    wait_until(
        page,
        """async () => (await caches.keys()).every((n) => !n.startsWith("marriage-pages-u"))""",
    )
    page.context.set_offline(True)
    goto(page, live_server.url + path)
    expect(page.locator("h1")).to_have_text("Offline")
    expect(page.get_by_text(session.name)).to_have_count(0)


def test_another_user_on_the_same_phone_never_sees_them(table, live_server):
    page, _user, session = table
    path = f"/sessions/{session.pk}/"
    open_kept(page, live_server, path)
    # Someone else signs in on this phone (the first never logged out).
    other = get_user_model().objects.create_user("sita", password="tihar-cards-2083")
    client = Client()
    client.force_login(other)
    page.context.clear_cookies()
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    goto(page, live_server.url + "/")
    wait_until(
        page,
        """async () =>
          (await caches.keys()).filter((n) => n.startsWith("marriage-pages-u")).length === 0""",
    )
    page.context.set_offline(True)
    goto(page, live_server.url + path)
    expect(page.locator("h1")).to_have_text("Offline")
    expect(page.get_by_text(session.name)).to_have_count(0)


def test_a_share_viewer_keeps_the_standings_and_catches_up(
    new_page, live_server, django_user_model
):
    from scoring import services
    from scoring.engine import Entry, RoundInput

    owner = django_user_model.objects.create_user("aama", password="tihar-cards-2083")
    session = make_session(owner, players=tuple(HAND))
    services.create_share_link(session=session)
    session.refresh_from_db()
    page = new_page(**TOUCH_PHONE)
    path = f"/s/{session.share_token}/"
    open_kept(page, live_server, path)
    page.context.set_offline(True)
    reload(page)
    expect(page.locator("#offline-banner")).to_have_text(BANNER)
    expect(page.locator("h1")).to_have_text(session.name)
    entries = tuple(Entry(name, "seen", HAND[name]) for name in HAND)
    services.add_round(
        session=session,
        round_input=RoundInput(entries=entries, winner="Didi"),
        players=list(session.players.all()),
    )
    page.context.set_offline(False)
    expect(page.locator("#offline-banner")).to_be_hidden()
    expect(page.locator("#live")).to_contain_text("1 round")


def a_page_from_before_saves_in_place(page) -> None:
    """The round form as a page kept before saves were answered in place has
    it: its form posts (round-save.js is not there), through the worker."""
    page.context.route(
        "**/static/js/round-save.js*",
        lambda route: route.fulfill(body="", content_type="text/javascript"),
    )


def test_a_save_lost_on_the_way_is_kept_by_the_worker(table, live_server):
    """The phone thinks it is online, but a form's post never reaches the
    server (a dead spot): the service worker keeps the round and opens the
    session page. (A page kept before saves were answered in place posts its
    form; today's form keeps its rounds itself.)"""
    page, _user, session = table
    form = f"/sessions/{session.pk}/rounds/new/"
    a_page_from_before_saves_in_place(page)
    open_kept(page, live_server, f"/sessions/{session.pk}/", form)
    dropped = []

    def drop_saves(route):
        if route.request.method == "POST" and not dropped:
            dropped.append(route.request.url)
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.context.route(f"**{form}", drop_saves)
    goto(page, live_server.url + form)
    fill_hand(page)
    page.get_by_role("button", name="Save round").tap()
    expect(page).to_have_url(session_page(session))
    assert dropped
    # Kept, and sent at once (the network is there): one round, the list empty.
    expect(page.locator("h1")).to_have_text(session.name)
    wait_until_all_sent(page)
    assert Round.objects.filter(session=session).count() == 1


def test_log_out_asks_first_then_deletes_the_rounds_waiting(table, live_server):
    from scoring.web.offline import user_bucket

    page, user, session = table
    form = f"/sessions/{session.pk}/rounds/new/"
    open_kept(page, live_server, f"/sessions/{session.pk}/", form)
    page.context.set_offline(True)
    goto(page, live_server.url + form)
    fill_hand(page)
    saved_here(page)
    to_the_session(page, live_server, session)
    kept_on_the_phone(page)
    session.rules = make_rules("pagat", max_players=3).to_options()
    session.save()
    page.context.set_offline(False)
    # Kept on the phone, it is sent from there, refused, and waits to be fixed.
    assert refused_shown(page, "at most 3 players") == "queue"
    questions = []

    def answer(dialog):
        questions.append(dialog.message)
        dialog.accept()

    page.on("dialog", answer)
    page.locator("[data-menu-button]").click()
    page.get_by_role("button", name="Log out").click()
    expect(page.locator("#topnav").get_by_role("link", name="Log in")).to_be_visible()
    assert questions and "not been sent" in questions[0]
    left = page.evaluate(
        "async (user) => (await (await import('/static/js/offline-queue.js')).list(user)).length",
        user_bucket(user),
    )
    assert left == 0


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_banner_and_a_refused_round_pass_axe(theme, logged_in_page, live_server):
    from axe_playwright_python.sync_playwright import Axe

    from .test_axe import violations

    page, user = logged_in_page(**TOUCH_PHONE, color_scheme=theme)
    session = make_session(user, players=tuple(HAND))
    form = f"/sessions/{session.pk}/rounds/new/"
    path = f"/sessions/{session.pk}/"
    open_kept(page, live_server, path, form)
    line = Line(page, live_server, "page")  # offline as a phone knows it, on any Chromium
    line.down()
    goto(page, live_server.url + form)
    fill_hand(page)
    expect(page.locator("#preview .offline-note")).to_be_visible()
    # The whole hand worked out (not a box's part of it), then "In words" opened.
    for name, net in NETS.items():
        expect(page.locator(f'#preview li[data-player="{name}"] .net')).to_have_text(net)
    page.locator("#preview details.in-words-all summary").tap()
    expect(page.locator("#preview .in-words").first).to_be_visible()
    assert violations(page, Axe()) == [], "round form, preview worked out on the phone"
    saved_here(page)
    expect(page.locator("#standings tr[data-player]")).to_have_count(4)
    assert violations(page, Axe()) == [], "round form, the round kept on the phone"
    to_the_session(page, live_server, session)
    kept_on_the_phone(page)
    session.rules = make_rules("pagat", max_players=3).to_options()
    session.save()
    line.up()
    assert refused_shown(page, "at most 3 players") == "queue"
    line.down()
    reload(page)
    expect(page.locator("#offline-banner")).to_be_visible()
    expect(page.locator(".queued-round.refused")).to_have_count(1)
    assert violations(page, Axe()) == [], "session page offline, with a refused round"


# What a page shown from the phone asks (through the worker) to learn whether
# the network answers again: while the browser says it is online, and at once
# on the `online` event.
CHECK = "/manifest.webmanifest"


def hold_the_first_save(page, user, form: str, state) -> list:
    """The first POST to `form` never answers (a save that hangs); it reaches the
    server all the same just before the phone sends it again, and the list
    returned gets (its status, `state()` just after it) once it has."""
    held: list = []
    arrived: list = []

    def route_it(route) -> None:
        if route.request.method != "POST":
            route.continue_()
        elif not held:
            held.append((route.request.post_data_buffer, route.request.headers["content-type"]))
        else:
            if not arrived:
                client = Client()
                client.force_login(user)
                body, content_type = held[0]
                response = client.generic("POST", form, body, content_type=content_type)
                arrived.append((response.status_code, state()))
            route.continue_()

    page.context.route(f"**{form}", route_it)
    return arrived


def stored_at(path: str) -> str:
    """When the phone kept its copy of `path` (X-Offline-Stored, ms), 0 if it has none."""
    return f"""async () => {{
      for (const name of await caches.keys()) {{
        if (!name.startsWith("marriage-pages-")) continue;
        const hit = await (await caches.open(name)).match(location.origin + "{path}");
        if (hit) return Number(hit.headers.get("X-Offline-Stored"));
      }}
      return 0;
    }}"""


def test_a_kept_page_is_shown_from_the_phone_when_the_network_hangs(table, live_server, settings):
    """One bar of signal: the request never answers. The kept copy is shown after
    the worker's short wait (made 300 ms here), not after the browser gives up;
    the answer, when it comes, is kept for the next visit."""
    from scoring import services
    from scoring.engine import Entry, RoundInput

    settings.OFFLINE_NAVIGATION_TIMEOUT_MS = 300
    page, _user, session = table
    path = f"/sessions/{session.pk}/"
    open_kept(page, live_server, path)
    before = page.evaluate(stored_at(path))
    assert before > 0
    held = []
    # The worker's fetch of the page is held until the test lets it go (and the
    # page's own check whether the network answers again, for good).
    page.context.route(f"**{path}", lambda route: held.append(route))
    page.context.route(f"**{CHECK}", lambda route: held.append(route))
    goto(page, live_server.url + path)
    expect(page.locator("h1")).to_have_text(session.name)
    expect(page.locator("#offline-banner")).to_have_text(BANNER)
    assert held  # shown while the network has still not answered
    # Meanwhile a round is saved; then the network answers, late.
    entries = tuple(Entry(name, "seen", HAND[name]) for name in HAND)
    services.add_round(
        session=session,
        round_input=RoundInput(entries=entries, winner="Didi"),
        players=list(session.players.all()),
    )
    held[0].continue_()
    wait_until(page, f"async () => (await ({stored_at(path)})()) > {before}")
    # The next visit with no network shows the copy kept from that late answer.
    page.context.set_offline(True)
    goto(page, live_server.url + path)
    expect(page.locator("#offline-banner")).to_have_text(BANNER)
    expect(page.locator(".ledger-table, table").first).to_contain_text("23")


def test_a_save_that_hangs_is_kept_on_the_phone_and_saved_once(table, live_server, settings):
    """The save is sent and never answered: the phone gives up (after 600 ms
    here) and keeps the round. The held save did reach the server; the round
    sent again from the phone is answered as that first save, and nothing is
    saved twice. The form said it waited, then says it is saved."""
    from scoring.models import SavedKey

    settings.OFFLINE_SAVE_TIMEOUT_MS = 600
    page, user, session = table
    form = f"/sessions/{session.pk}/rounds/new/"
    open_kept(page, live_server, f"/sessions/{session.pk}/", form)
    arrived = hold_the_first_save(
        page, user, form, lambda: Round.objects.filter(session=session).count()
    )
    goto(page, live_server.url + form)
    fill_hand(page)
    page.get_by_role("button", name="Save round").tap()
    # Kept on the phone while the first save is unanswered, sent again soon (the
    # phone is online) and answered as the first save.
    expect(page.locator("#round-saved-status")).to_have_text("Round 1 saved.")
    wait_until_all_sent(page)
    assert arrived == [(302, 1)]  # the held save, saved first
    assert Round.objects.filter(session=session).count() == 1
    expect(page.locator('#standings tr[data-player="Didi"] td').nth(2)).to_have_text("+23")
    to_the_session(page, live_server, session)
    expect(page.locator(".ledger-table, table").first).to_contain_text("23")
    assert Round.objects.filter(session=session).count() == 1
    assert SavedKey.objects.filter(user=user).count() == 1


# An edit of the round HAND saves: Aama's maal was 9, not 5. T = 18, n = 4: Aama
# 36 - 21 = +15, Buwa 8 - 21 = -13, Dai 0 - 21 = -21; Didi 13 + 21 - 15 = +19.
EDITED_NETS = {"Aama": "+15", "Buwa": "-13", "Didi": "+19", "Dai": "-21"}


def saved_round(session) -> Round:
    entries = tuple(Entry(name, "seen", HAND[name]) for name in HAND)
    return services.add_round(
        session=session,
        round_input=RoundInput(entries=entries, winner="Didi"),
        players=list(session.players.all()),
    )


def edited_once(round_: Round) -> tuple[int, int, dict[str, int]]:
    """The round's version, how many edits its history lists, and its nets."""
    round_.refresh_from_db()
    nets = {e.player.name: e.net for e in round_.entries.select_related("player")}
    return (
        round_.version,
        RoundChange.objects.filter(round_pk=round_.pk, action="edit").count(),
        nets,
    )


EDITED = (2, 1, {"Aama": 15, "Buwa": -13, "Didi": 19, "Dai": -21})


def test_an_edit_made_offline_is_sent_once_when_the_network_returns(table, live_server):
    """The edit form open on the phone when the network goes: the edit is kept
    under the form's one-time key, listed as waiting, and saved once when the
    network returns."""
    page, _user, session = table
    round_ = saved_round(session)
    open_kept(page, live_server, f"/sessions/{session.pk}/")
    goto(page, live_server.url + f"/sessions/{session.pk}/rounds/{round_.pk}/edit/")
    expect(page.locator("h1")).to_have_text("Edit round 1")
    key = page.locator('input[name="save_key"]').input_value()
    assert re.fullmatch(r"[0-9a-f-]{36}", key)
    page.context.set_offline(True)
    expect(page.locator("#offline-banner")).to_be_visible()
    page.locator('.player-row[data-player="Aama"] input[name$="-maal"]').fill("9")
    for name, net in EDITED_NETS.items():
        expect(page.locator(f'#preview li[data-player="{name}"] .net')).to_have_text(net)
    page.get_by_role("button", name="Save changes").tap()
    expect(page).to_have_url(session_page(session))
    waiting = page.locator(".offline-queue .queued-round")
    expect(waiting).to_have_count(1)
    expect(waiting).to_have_attribute("data-key", key)  # the form's key, not a made-up one
    expect(waiting).to_contain_text("waiting to send")
    expect(waiting).to_contain_text("Didi won")
    expect(waiting).to_contain_text("Aama +15 · Buwa -13 · Didi +19 · Dai -21")
    assert edited_once(round_)[:2] == (1, 0)
    page.context.set_offline(False)
    # Sent by itself on the online event; the page then shows the ledger with it.
    expect(page.locator(".offline-queue")).to_have_count(0)
    expect(page.locator("#offline-banner")).to_be_hidden()
    expect(page.locator(".ledger-table, table").first).to_contain_text("+19")
    assert edited_once(round_) == EDITED
    assert queued_count(page) == 0
    # The next page load sends nothing again.
    reload(page)
    expect(page.locator("h1")).to_have_text(session.name)
    assert edited_once(round_) == EDITED
    assert list(SavedKey.objects.values_list("key", "kind")) == [(key, "edit")]


def test_an_edit_that_hangs_is_kept_on_the_phone_and_saved_once(table, live_server, settings):
    """Like a new round's: the edit is sent and never answered, the worker gives
    up (after 600 ms here) and keeps it. The held edit did reach the server; sent
    again from the phone with its key and its old version, it is answered as that
    first save, not refused as a conflict, and the round is changed once."""
    settings.OFFLINE_SAVE_TIMEOUT_MS = 600
    page, user, session = table
    round_ = saved_round(session)
    form = f"/sessions/{session.pk}/rounds/{round_.pk}/edit/"
    open_kept(page, live_server, f"/sessions/{session.pk}/")
    arrived = hold_the_first_save(page, user, form, lambda: edited_once(round_))
    goto(page, live_server.url + form)
    key = page.locator('input[name="save_key"]').input_value()
    page.locator('.player-row[data-player="Aama"] input[name$="-maal"]').fill("9")
    expect(page.locator('#preview li[data-player="Didi"] .net')).to_have_text("+19")
    page.get_by_role("button", name="Save changes").tap()
    # Kept on the phone by the worker, under the form's key, while the edit is unanswered.
    expect(page).to_have_url(session_page(session))
    expect(page.locator("h1")).to_have_text(session.name)
    # Sent again at once (the phone is online) and answered as the first save.
    wait_until_all_sent(page)
    assert arrived == [(302, EDITED)]  # the held edit, saved first
    expect(page.locator(".offline-queue .queued-round")).to_have_count(0)
    assert edited_once(round_) == EDITED
    expect(page.locator(".ledger-table")).to_contain_text("+19")
    page.wait_for_load_state()
    reload(page)
    expect(page.locator(".ledger-table, table").first).to_contain_text("+19")
    assert edited_once(round_) == EDITED
    assert list(SavedKey.objects.filter(user=user).values_list("key", "kind")) == [(key, "edit")]


class Hang:
    """A network that hangs: every request for `paths` (with any query) and for
    offline.js's check is held, never answered, until `answer()` lets them go
    and answers every later one. With `drop_posts`, a form sent meanwhile fails
    at once instead (a save lost on the way), so the phone keeps it."""

    def __init__(self, page, *paths: str, drop_posts: bool = False) -> None:
        self.paths = {*paths, CHECK}
        self.drop_posts = drop_posts
        self.answering = False
        self.held: list = []
        page.context.route(lambda url: urlsplit(url).path in self.paths, self._route)

    def _route(self, route) -> None:
        if self.answering:
            route.continue_()
        elif self.drop_posts and route.request.method == "POST":
            route.abort("timedout")
        else:
            self.held.append(route)

    def answer(self) -> None:
        self.answering = True
        for route in self.held:
            try:
                route.continue_()
            except Exception:  # given up by the phone meanwhile: nothing to answer
                continue


def is_check(request) -> bool:
    """The check's request (the worker's, held like the page itself)."""
    return urlsplit(request.url).path == CHECK


def hung_network_settings(settings) -> None:
    """The worker shows a kept page after 300 ms, and the page checks the
    network after 200 ms, then 400, 800 and every 1.2 s."""
    settings.OFFLINE_NAVIGATION_TIMEOUT_MS = 300
    settings.OFFLINE_RECHECK_MS = 200


def test_a_page_shown_because_the_network_hung_reloads_when_it_answers(
    table, live_server, settings
):
    """The network hangs, so the kept copy is shown with its banner; the browser
    never went offline, so no `online` event will come. The page checks on its
    own, and when the network answers it reloads by itself, with the round saved
    meanwhile on another phone."""
    hung_network_settings(settings)
    page, _user, session = table
    path = f"/sessions/{session.pk}/"
    open_kept(page, live_server, path)
    network = Hang(page, path)
    banner = page.locator("#offline-banner")
    with page.context.expect_event("request", predicate=is_check):
        goto(page, live_server.url + path)
    expect(banner).to_have_text(BANNER)
    assert network.held  # the page, and the check, unanswered
    saved_round(session)
    expect(page.locator(".ledger-table, table").first).not_to_contain_text("23")
    network.answer()
    expect(page.locator(".ledger-table, table").first).to_contain_text("23")
    expect(banner).to_be_hidden()
    expect(page.locator("h1")).to_have_text(session.name)


def test_a_round_kept_while_the_network_hung_is_sent_when_it_answers(table, live_server, settings):
    """A save lost on the way while the network hangs is kept on the phone and
    listed on the kept session page; the network answers: it is sent once, and
    the page reloads with it in the ledger. (Today's form keeps the round
    itself; a page kept before that posted its form: both are listed alike.)"""
    hung_network_settings(settings)
    page, _user, session = table
    path = f"/sessions/{session.pk}/"
    form = f"/sessions/{session.pk}/rounds/new/"
    open_kept(page, live_server, path, form)
    network = Hang(page, path, form, drop_posts=True)
    goto(page, live_server.url + form)
    expect(page.locator("#offline-banner")).to_have_text(BANNER)
    fill_hand(page)
    saved_here(page)
    to_the_session(page, live_server, session)
    expect(page.locator("#offline-banner")).to_have_text(BANNER)
    waiting = page.locator(".offline-queue .queued-round")
    expect(waiting).to_contain_text("waiting to send")
    # Listed with its winner and nets.
    expect(waiting).to_contain_text("Didi won")
    expect(waiting.locator(".num-line")).to_have_text("Aama +3 · Buwa -9 · Didi +23 · Dai -17")
    assert Round.objects.filter(session=session).count() == 0
    network.answer()
    expect(page.locator(".ledger-table, table").first).to_contain_text("23")
    expect(page.locator(".offline-queue")).to_have_count(0)
    expect(page.locator("#offline-banner")).to_be_hidden()
    assert queued_count(page) == 0
    assert Round.objects.filter(session=session).count() == 1


def back_online(page):
    """The banner saying the network is back, and its button."""
    banner = page.locator("#offline-banner")
    expect(banner).to_have_text("Back online. Show the latest")
    expect(banner).to_have_attribute("role", "status")
    button = banner.get_by_role("button", name="Show the latest")
    expect(button).to_be_visible()  # the text may come a moment before its button shows
    box = button.bounding_box()
    assert box and box["height"] >= 44 and box["width"] >= 44
    return button


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_round_form_being_filled_in_stays_when_the_network_answers(
    theme, logged_in_page, live_server, settings
):
    """The round form shown from the phone while the network hangs, half filled
    in: when the network answers it is not reloaded (what was typed stays); the
    banner says the network is back, and its button shows the form as it is now,
    with what was typed (the draft kept on the phone)."""
    from axe_playwright_python.sync_playwright import Axe

    from .test_axe import violations

    hung_network_settings(settings)
    page, user = logged_in_page(**TOUCH_PHONE, color_scheme=theme)
    session = make_session(user, players=tuple(HAND))
    form = f"/sessions/{session.pk}/rounds/new/"
    open_kept(page, live_server, f"/sessions/{session.pk}/", form)
    network = Hang(page, form)
    goto(page, live_server.url + form)
    expect(page.locator("#offline-banner")).to_have_text(BANNER)
    fill_hand(page)
    page.evaluate("() => { window.typedHere = true; }")
    network.answer()
    button = back_online(page)
    aama = page.locator('.player-row[data-player="Aama"] input[name$="-maal"]')
    expect(aama).to_have_value("5")
    assert page.evaluate("() => window.typedHere === true")  # never reloaded
    # The preview settled (it is faded while the server works it out).
    expect(page.locator('#preview li[data-player="Didi"] .net')).to_have_text("+23")
    expect(page.locator("#round-form")).not_to_have_class(re.compile(r"\bhtmx-request\b"))
    assert violations(page, Axe()) == [], "round form, the network back"
    button.tap()
    expect(page.locator("#offline-banner")).to_be_hidden()
    # The form as the server has it now, with what was typed: the draft kept on the phone.
    expect(page.locator("#offline-banner")).to_be_hidden()
    assert page.evaluate("() => window.typedHere === undefined")
    expect(aama).to_have_value("5")
    expect(page.locator('#preview li[data-player="Didi"] .net')).to_have_text("+23")


def test_a_kept_round_form_says_the_network_is_back_on_the_online_event(table, live_server):
    """Offline, then online: the round form shown from the phone keeps what was
    typed, and says the network is back (it no longer just hides the banner)."""
    page, _user, session = table
    line = Line(page, live_server, "page")  # the `online` event, whatever Chromium's emulation
    form = f"/sessions/{session.pk}/rounds/new/"
    open_kept(page, live_server, f"/sessions/{session.pk}/", form)
    line.down()
    goto(page, live_server.url + form)
    expect(page.locator("#offline-banner")).to_have_text(BANNER)
    fill_hand(page)
    page.evaluate("() => { window.typedHere = true; }")
    line.up()
    back_online(page)
    expect(page.locator('.player-row[data-player="Aama"] input[name$="-maal"]')).to_have_value("5")
    assert page.evaluate("() => window.typedHere === true")


def keep_as_before_the_check(path: str) -> str:
    """Makes the phone's copy of `path` one kept before pages said what to check
    (no data-check in #offline-strings), as copies kept before that deploy are:
    the HTML as it was then. True once done."""
    return f"""async () => {{
      for (const name of await caches.keys()) {{
        if (!name.startsWith("marriage-pages-")) continue;
        const cache = await caches.open(name);
        const url = location.origin + "{path}";
        const hit = await cache.match(url);
        if (!hit) continue;
        const html = (await hit.text()).replace(/ data-check="[^"]*"/, "");
        await cache.put(url, new Response(html, {{ status: hit.status, headers: hit.headers }}));
        return !(await (await cache.match(url)).text()).includes("data-check=");
      }}
      return false;
    }}"""


def test_a_page_kept_before_the_check_still_catches_up_when_the_network_returns(table, live_server):
    """A copy kept before this deploy has no data-check, so it cannot ask whether
    the network answers: on the `online` event it does what pages did then. The
    banner goes, the round waiting is sent, and the page reloads with it."""
    page, _user, session = table
    line = Line(page, live_server, "page")  # the `online` event, whatever Chromium's emulation
    path = f"/sessions/{session.pk}/"
    form = f"/sessions/{session.pk}/rounds/new/"
    open_kept(page, live_server, path, form)
    wait_until(page, keep_as_before_the_check(path))
    line.down()
    goto(page, live_server.url + form)
    fill_hand(page)
    saved_here(page)
    to_the_session(page, live_server, session)
    expect(page.locator(".offline-queue .queued-round")).to_contain_text("waiting to send")
    expect(page.locator("#offline-banner")).to_have_text(BANNER)
    assert not page.evaluate("() => 'check' in document.getElementById('offline-strings').dataset")
    line.up()
    expect(page.locator(".ledger-table, table").first).to_contain_text("23")
    expect(page.locator(".offline-queue")).to_have_count(0)
    expect(page.locator("#offline-banner")).to_be_hidden()
    assert queued_count(page) == 0
    assert Round.objects.filter(session=session).count() == 1


# A second round: Aama wins; Aama 3, Buwa 0, Didi 4, Dai 1, all seen.
SECOND = {"Aama": 3, "Buwa": 0, "Didi": 4, "Dai": 1}


def enter_offline(page, live_server, session, winner: str, hand: dict, sits_out: str = "") -> None:
    """With no network: the round form from the phone, the round entered and
    saved, and the session's page listing it."""
    before = queued_count(page) if page.url.startswith(live_server.url) else 0
    goto(page, live_server.url + f"/sessions/{session.pk}/rounds/new/")
    expect(page.locator("#offline-banner")).to_have_text(BANNER)
    page.locator(".pick", has_text=winner).tap()
    for name, points in hand.items():
        if points:
            page.locator(f'.player-row[data-player="{name}"] input[name$="-maal"]').fill(
                str(points)
            )
    if sits_out:
        page.locator(f'.player-row[data-player="{sits_out}"] label.plays').click()
    saved_here(page)
    to_the_session(page, live_server, session)
    expect(page.locator(".offline-queue .queued-round")).to_have_count(before + 1)


def queued_keys(page) -> list[str]:
    return page.evaluate(
        """async () => (await (await import('/static/js/offline-queue.js')).list(
          document.getElementById("offline-strings").dataset.user)).map((r) => r.key)"""
    )


def test_rounds_saved_offline_go_in_the_order_they_were_saved_each_once(table, live_server):
    """Two rounds entered from the phone's copy of the round form: each has its
    own key (the copy's key is not reused), both wait, and when the network
    returns they are saved once each, as rounds 1 and 2 in the order entered."""
    page, user, session = table
    open_kept(page, live_server, f"/sessions/{session.pk}/", f"/sessions/{session.pk}/rounds/new/")
    page.context.set_offline(True)
    enter_offline(page, live_server, session, "Didi", HAND)
    enter_offline(page, live_server, session, "Aama", SECOND)
    waiting = page.locator(".offline-queue .queued-round")
    expect(waiting.nth(0)).to_contain_text("Didi won")
    expect(waiting.nth(1)).to_contain_text("Aama won")
    expect(waiting).to_contain_text(["waiting to send", "waiting to send"])
    keys = queued_keys(page)
    assert len(set(keys)) == 2
    assert Round.objects.filter(session=session).count() == 0
    page.context.set_offline(False)
    expect(page.locator(".offline-queue")).to_have_count(0)
    expect(page.locator("#offline-banner")).to_be_hidden()
    assert queued_count(page) == 0
    rounds = Round.objects.filter(session=session).order_by("number")
    assert [(r.number, r.winner.name) for r in rounds] == [(1, "Didi"), (2, "Aama")]
    assert rounds[0].created_at < rounds[1].created_at
    assert sorted(SavedKey.objects.filter(user=user).values_list("key", flat=True)) == sorted(keys)
    reload(page)
    expect(page.locator("h1")).to_have_text(session.name)
    assert Round.objects.filter(session=session).count() == 2


def test_the_rounds_after_a_refused_one_wait_behind_it(table, live_server):
    """Round 1 is refused when it arrives (at most 3 players now); round 2, which
    the new rules allow (Dai sits out), is held behind it, not sent before it.
    Round 1 discarded, round 2 goes, as round 1."""
    page, _user, session = table
    open_kept(page, live_server, f"/sessions/{session.pk}/", f"/sessions/{session.pk}/rounds/new/")
    page.context.set_offline(True)
    enter_offline(page, live_server, session, "Didi", HAND)
    enter_offline(page, live_server, session, "Aama", SECOND, sits_out="Dai")
    session.rules = make_rules("pagat", max_players=3).to_options()
    session.save()
    page.context.set_offline(False)
    waiting = page.locator(".offline-queue .queued-round")
    expect(waiting.nth(0)).to_have_class(re.compile(r"\brefused\b"))
    expect(waiting.nth(0).locator(".queued-status")).to_have_text(
        "not saved: the server refused it"
    )
    expect(waiting.nth(0).locator(".errorlist")).to_contain_text("at most 3 players")
    expect(waiting.nth(1).locator(".queued-status")).to_have_text(
        "waiting to send, after the round before it"
    )
    expect(waiting.nth(1)).not_to_have_class(re.compile(r"\brefused\b"))
    assert Round.objects.filter(session=session).count() == 0
    assert queued_count(page) == 2
    waiting.nth(0).get_by_role("button", name="Discard").click()
    expect(page.locator(".offline-queue")).to_have_count(0)
    expect(page.locator(".ledger-table, table").first).to_contain_text("Aama")
    assert queued_count(page) == 0
    rounds = Round.objects.filter(session=session)
    assert [(r.number, r.winner.name, r.entries.count()) for r in rounds] == [(1, "Aama", 3)]


def test_a_round_whose_winner_was_removed_meanwhile_is_kept_with_its_message(table, live_server):
    """Meanwhile, on another phone, Didi (who won the round waiting) is removed
    from the session: the round is refused, listed with the server's message,
    and kept."""
    from scoring.services import remove_player

    page, _user, session = table
    open_kept(page, live_server, f"/sessions/{session.pk}/", f"/sessions/{session.pk}/rounds/new/")
    page.context.set_offline(True)
    enter_offline(page, live_server, session, "Didi", HAND)
    remove_player(player=session.players.get(name="Didi"))
    page.context.set_offline(False)
    refused = page.locator(".offline-queue .queued-round.refused")
    expect(refused.locator(".queued-status")).to_have_text("not saved: the server refused it")
    expect(refused.locator(".errorlist li")).to_have_text(
        [
            "A player in this round is no longer in the session (removed since the round was "
            "entered). Check the players and enter the round again.",
            "winner: not a player of this session",
        ]
    )
    assert Round.objects.filter(session=session).count() == 0
    reload(page)
    expect(refused).to_have_count(1)
    expect(refused).to_contain_text("Didi won")
    assert queued_count(page) == 1
    assert Round.objects.filter(session=session).count() == 0


def test_a_round_saved_offline_asks_for_background_sync(table, live_server):
    """Where the browser has Background Sync (Chromium does), a round kept on the
    phone registers the worker's sync, so it goes even with the app closed."""
    page, _user, session = table
    open_kept(page, live_server, f"/sessions/{session.pk}/", f"/sessions/{session.pk}/rounds/new/")
    page.context.set_offline(True)
    enter_offline(page, live_server, session, "Didi", HAND)
    tags = page.wait_for_function(
        """async () => {
          const registration = await navigator.serviceWorker.ready;
          return registration.sync ? await registration.sync.getTags() : null;
        }"""
    ).json_value()
    assert tags == ["marriage-send-rounds"]


def test_background_sync_sends_the_rounds_with_the_app_closed(table, live_server):
    """The worker's sync event (dispatched here through the DevTools protocol, as
    the browser does once the network returns) sends the rounds waiting with no
    page of the app open."""
    page, _user, session = table
    form = f"/sessions/{session.pk}/rounds/new/"
    open_kept(page, live_server, f"/sessions/{session.pk}/", form)
    page.context.set_offline(True)
    enter_offline(page, live_server, session, "Didi", HAND)
    cdp = page.context.new_cdp_session(page)
    registrations: list[dict] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda params: registrations.extend(params["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    page.goto("about:blank")  # the app closed
    scope = live_server.url + "/"
    ours = [r for r in registrations if r["scopeURL"] == scope and not r["isDeleted"]]
    assert ours, registrations
    sent = page.context.expect_event(
        "requestfinished", predicate=lambda r: r.method == "POST" and r.url.endswith(form)
    )
    with sent:
        page.context.set_offline(False)
        cdp.send(
            "ServiceWorker.dispatchSyncEvent",
            {
                "origin": live_server.url,
                "registrationId": ours[0]["registrationId"],
                "tag": "marriage-send-rounds",
                "lastChance": False,
            },
        )
    assert Round.objects.filter(session=session).count() == 1
    goto(page, live_server.url + f"/sessions/{session.pk}/")
    expect(page.locator(".ledger-table, table").first).to_contain_text("23")
    expect(page.locator(".offline-queue")).to_have_count(0)
    assert queued_count(page) == 0
    assert Round.objects.filter(session=session).count() == 1


class DeployedStatic(StaticFilesStorage):
    """Static files named per deploy, as the hashed names of production are
    (`?v=` here: live_server serves the file whatever the query)."""

    deploy = "1"

    def url(self, name: str | None) -> str:
        return f"{super().url(name)}?v={DeployedStatic.deploy}"


def test_a_page_kept_before_a_deploy_still_has_its_scripts_offline(
    table, live_server, settings, monkeypatch, request
):
    page, _user, session = table
    # The precache list is worked out once per process: built again after this test.
    request.addfinalizer(offline._build_once.cache_clear)
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": f"{__name__}.DeployedStatic"},
    }
    monkeypatch.setattr(DeployedStatic, "deploy", "1")
    offline._build_once.cache_clear()
    path = f"/sessions/{session.pk}/"
    open_kept(page, live_server, path)
    expect(page.locator('script[src$="js/offline.js?v=1"]')).to_have_count(1)
    # A deploy: new static names and a new worker, which makes its own cache.
    monkeypatch.setattr(DeployedStatic, "deploy", "2")
    offline._build_once.cache_clear()
    built = offline.precache()
    monkeypatch.setattr(offline, "precache", lambda: (built[0], built[1] + "-deploy-2"))
    page.wait_for_function(
        """async () => {
          const changed = new Promise((resolve) =>
            navigator.serviceWorker.addEventListener("controllerchange", resolve));
          await (await navigator.serviceWorker.getRegistration()).update();
          await changed;
          return true;
        }"""
    )
    wait_until(page, 'async () => (await caches.keys()).some((n) => n.endsWith("-deploy-2"))')
    # The page kept before it, opened with no network: its own scripts run (the
    # banner is theirs), from the phone's caches, not the browser's.
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    page.context.set_offline(True)
    goto(page, live_server.url + path)
    expect(page.locator('script[src$="js/offline.js?v=1"]')).to_have_count(1)
    expect(page.locator("#offline-banner")).to_have_text(BANNER)


def test_a_kept_page_never_shows_the_message_its_request_was_given(table, live_server):
    """ "Round 1 deleted." is said to the request that deleted it; the phone's
    copy of that page, shown later with no network, does not say it again."""
    page, _user, session = table
    rounds = [saved_round(session), saved_round(session)]
    path = f"/sessions/{session.pk}/"
    open_kept(page, live_server, path)
    goto(page, live_server.url + f"/sessions/{session.pk}/rounds/{rounds[0].pk}/delete/")
    page.get_by_role("button", name="Delete round").tap()
    expect(page.locator(".message")).to_contain_text("Round 1 deleted.")
    wait_until(page, kept_copy_with(path, "Round 1 deleted."))
    page.context.set_offline(True)
    goto(page, live_server.url + path)
    expect(page.locator("#offline-banner")).to_have_text(BANNER)
    expect(page.locator("h1")).to_have_text(session.name)
    expect(page.locator(".messages")).to_have_count(0)
    expect(page.get_by_text("Round 1 deleted.")).to_have_count(0)


def kept_copy_with(path: str, text: str) -> str:
    """True once the phone's copy of `path` has `text` in it."""
    return f"""async () => {{
      for (const name of await caches.keys()) {{
        if (!name.startsWith("marriage-pages-")) continue;
        const hit = await (await caches.open(name)).match(location.origin + "{path}");
        if (hit && (await hit.text()).includes({text!r})) return true;
      }}
      return false;
    }}"""
