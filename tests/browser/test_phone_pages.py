"""The pages on a 390x844 touch phone: a top bar that cuts nothing off in either
language, 44 px tap targets, the ledger's short heads and tappable rows, the print
summary within the screen, the dark theme (the phone's setting and the remembered
switch) and the switch that keeps the screen awake."""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from playwright.sync_api import expect

from scoring import services
from scoring.engine import Entry, RoundInput

from ..web_helpers import make_session, played
from .conftest import TOUCH_PHONE, session_menu
from .hands import FIVE
from .test_axe import (
    CALLBREAK_OWNER_PAGES,
    OWNER_PAGES,
    POT_PAGES,
    PUBLIC_PAGES,
    TABLE_OWNER_PAGES,
    TABLE_PUBLIC_PAGES,
    a_family_group,
    a_played_session,
    a_pot_session,
    call_break_games,
    member_link_ids,
    violations,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH = TOUCH_PHONE["viewport"]["width"]

# Boxes of the elements that are not inside the screen's width, or are cut by a
# parent that hides its overflow.
OUTSIDE_JS = """(selector) => {
  const out = [];
  for (const el of document.querySelectorAll(selector)) {
    const box = el.getBoundingClientRect();
    if (!box.width) { out.push(`${el.textContent.trim()}: not shown`); continue; }
    if (box.left < 0 || box.right > document.documentElement.clientWidth)
      out.push(`${el.textContent.trim()}: ${box.left}-${box.right}`);
    for (let p = el.parentElement; p; p = p.parentElement) {
      const style = getComputedStyle(p);
      if (style.overflowX !== "visible" && p.scrollWidth > p.clientWidth)
        out.push(`${el.textContent.trim()}: cut by ${p.tagName}.${p.className}`);
    }
  }
  return out;
}"""

# Every visible control smaller than 44x44 px. A radio or checkbox is tapped
# through its label, so the label is measured.
SMALL_TARGETS_JS = """() => {
  const out = [];
  const seen = new Set();
  for (let el of document.querySelectorAll(
      "a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]")) {
    if (el.closest("[hidden], dialog:not([open])")) continue;
    const label = el.closest("label");
    if ((el.type === "radio" || el.type === "checkbox") && label) el = label;
    if (seen.has(el)) continue;
    seen.add(el);
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    const size = `${Math.round(box.width)}x${Math.round(box.height)}`;
    if (box.width < 44 || box.height < 44)
      out.push(`${el.tagName} "${el.textContent.trim().slice(0, 30)}" ${size}`);
  }
  return out;
}"""


def switch_language(page, code: str) -> None:
    page.locator(f'.lang-switch button[value="{code}"]').click()
    expect(page.locator("html")).to_have_attribute("lang", code)


@pytest.mark.parametrize("language", ["en", "ne"])
def test_the_top_bar_cuts_nothing_off(language, logged_in_page, new_page, live_server):
    page, user = logged_in_page(**TOUCH_PHONE)
    session, _round = a_played_session(user)
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    if language != "en":
        switch_language(page, language)
    bar = ".topbar .brand, .topbar-tools > :not([hidden])"
    assert page.evaluate(OUTSIDE_JS, bar) == []
    # The links fold under the menu button; open, each is whole and on the screen.
    links = page.locator("#topnav a, #topnav button")
    expect(links.first).to_be_hidden()
    page.locator("[data-menu-button]").click()
    expect(page.locator("[data-menu-button]")).to_have_attribute("aria-expanded", "true")
    for link in links.all():
        expect(link).to_be_visible()
    assert page.evaluate(OUTSIDE_JS, "#topnav a, #topnav button") == []
    assert page.evaluate("document.documentElement.scrollWidth") == WIDTH
    page.keyboard.press("Escape")
    expect(links.first).to_be_hidden()

    # Signed out: the two links stand in the bar itself.
    guest = new_page(**TOUCH_PHONE)
    guest.goto(f"{live_server.url}/accounts/login/")
    if language != "en":
        switch_language(guest, language)
    for link in guest.locator("#topnav a").all():
        expect(link).to_be_visible()
    assert guest.evaluate(OUTSIDE_JS, f"{bar}, #topnav a") == []


def test_tap_targets_are_44_px(logged_in_page, new_page, live_server):
    page, user = logged_in_page(**TOUCH_PHONE)
    session, round_ = a_played_session(user)
    group, member, payment = a_family_group(user, session)
    ids = {
        "s": session.pk,
        "r": round_.pk,
        "t": session.share_token,
        "seat": session.seats.first().token,
        "i": session.invites.first().token,
        "g": group.pk,
        "m": member.pk,
        "p": payment.pk,
        "q": f"from={payment.payer_id}&to={payment.payee_id}&amount=12.50",
        **member_link_ids(user, group),
        **a_pot_session(user, group, session.played_on),
        **call_break_games(user, group),
    }
    small = {}

    def measure(page, what: str, path: str) -> None:
        page.goto(live_server.url + path.format(**ids))
        if found := page.evaluate(SMALL_TARGETS_JS):
            small[what] = found

    # Every page but the round form (its own compact layout is tested with it).
    for what, path in [*OWNER_PAGES, *TABLE_OWNER_PAGES, *POT_PAGES, *CALLBREAK_OWNER_PAGES]:
        if what not in ("round form", "round edit"):
            measure(page, what, path)
    # The menu, open.
    page.locator("[data-menu-button]").click()
    if found := page.evaluate(SMALL_TARGETS_JS):
        small["menu"] = found
    guest = new_page(**TOUCH_PHONE)
    for what, path in [*PUBLIC_PAGES, *TABLE_PUBLIC_PAGES]:
        measure(guest, what, path)
    assert small == {}, small


def test_the_ledger_on_a_phone(logged_in_page, live_server):
    page, user = logged_in_page(**TOUCH_PHONE)
    session, round_ = a_played_session(user)
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    heads = page.locator("#ledger thead th")
    expect(heads.filter(has_text="Aama")).to_have_text("Aama")
    # Whether five players fit on the screen depends on the phone's font: the
    # cue says the table scrolls exactly when it is wider than the screen.
    shows_cue(page, wider=ledger_is_wider(page))
    # A long name is short in its head; the whole name is its title and shows on a tap.
    long_head = heads.filter(has=page.locator(".name-tip"))
    expect(long_head).to_have_attribute("title", "Bhanubhakta Acharya")
    expect(long_head.locator(".name-tip [aria-hidden]")).to_have_text("Bhanub…")
    popover = page.locator(".name-popover")
    expect(popover).to_be_hidden()
    long_head.locator(".name-tip").tap()
    expect(popover).to_be_visible()
    expect(popover).to_have_text("Bhanubhakta Acharya")
    page.keyboard.press("Escape")
    expect(popover).to_be_hidden()
    # The winner column stays narrow.
    winner = page.locator("#ledger thead th.col-winner").bounding_box()
    assert winner is not None and winner["width"] <= 100
    # A tap anywhere on a round's rows, not only on its number, opens the round.
    first = page.locator("#ledger tr.ledger-round").first
    first.locator("td").nth(3).tap()
    expect(page).to_have_url(f"{live_server.url}/sessions/{session.pk}/rounds/{round_.pk}/")
    page.go_back()
    page.locator("#ledger tr.running").first.locator("td").nth(2).tap()
    expect(page).to_have_url(f"{live_server.url}/sessions/{session.pk}/rounds/{round_.pk}/")


LEDGER_WIDER_JS = """() => {
  const scroller = document.querySelector("#ledger .table-scroll");
  return scroller.scrollWidth > scroller.clientWidth;
}"""


def ledger_is_wider(page) -> bool:
    """Measured, never assumed: how wide a column is depends on the font."""
    return page.evaluate(LEDGER_WIDER_JS)


def shows_cue(page, *, wider: bool) -> None:
    cue, scroller = page.locator("#ledger-cue"), page.locator("#ledger .table-scroll")
    more = re.compile(r"\bmore-right\b")
    if wider:
        expect(cue).to_be_visible()
        expect(scroller).to_have_class(more)
    else:
        expect(cue).to_be_hidden()
        expect(scroller).not_to_have_class(more)


def test_the_scroll_cue_when_the_ledger_is_wider_than_the_phone(logged_in_page, live_server):
    # Ten players' columns are wider than any phone's 390 px, whatever its font.
    page, user = logged_in_page(**TOUCH_PHONE)
    names = ("Aama", "Buwa", "Didi", "Dai", "Bahini", "Bhai", "Kaka", "Kaki", "Mama", "Maiju")
    session = make_session(user, players=names)
    entries = tuple(Entry(name, "seen", i) for i, name in enumerate(names[:5]))
    services.add_round(session=session, round_input=RoundInput(entries=entries, winner="Bahini"))
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    expect(page.locator("#ledger tr.ledger-round")).to_have_count(1)
    assert ledger_is_wider(page)
    shows_cue(page, wider=True)
    # Scrolled to its end, the shade moves to the other edge.
    page.locator("#ledger .table-scroll").evaluate("(s) => s.scrollTo(s.scrollWidth, 0)")
    expect(page.locator("#ledger .table-scroll")).to_have_class(re.compile(r"\bmore-left\b"))
    expect(page.locator("#ledger .table-scroll")).not_to_have_class(re.compile(r"\bmore-right\b"))


def test_no_scroll_cue_when_the_ledger_fits(logged_in_page, live_server):

    page, user = logged_in_page(**TOUCH_PHONE)
    session = make_session(user, players=("Aama", "Buwa", "Didi"))
    entries = (Entry("Aama", "seen", 3), Entry("Buwa", "seen", 0), Entry("Didi", "seen", 1))
    services.add_round(session=session, round_input=RoundInput(entries=entries, winner="Aama"))
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    expect(page.locator("#ledger tr.ledger-round")).to_have_count(1)
    assert not ledger_is_wider(page)
    shows_cue(page, wider=False)


def test_the_print_summary_fits_the_screen(logged_in_page, live_server):
    page, user = logged_in_page(**TOUCH_PHONE)
    session, _round = a_played_session(user)
    page.goto(f"{live_server.url}/sessions/{session.pk}/summary/")
    expect(page.locator(".summary-standings tbody tr")).to_have_count(5)
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    assert page.evaluate(OUTSIDE_JS, ".summary td, .summary th, .summary li") == []
    # Printed from a phone in the dark theme, it is dark ink on white paper.
    page.locator("[data-theme-switch]").click()
    assert paper(page) == DARK_PAPER
    page.emulate_media(media="print")
    assert paper(page) == "rgb(255, 255, 255)"
    assert page.evaluate("getComputedStyle(document.body).color") == "rgb(29, 29, 31)"


WIDEST_JS = """() => [...document.querySelectorAll("body *")]
  .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
  .slice(0, 5)
  .map((e) => e.tagName + "." + e.className + " " + Math.round(e.getBoundingClientRect().right))"""


@pytest.mark.parametrize("language", ["en", "ne"])
def test_the_seats_and_links_pages_fit_the_phone(language, logged_in_page, live_server):
    """Each player's code, link and buttons within the 390 px screen, in either
    language: no sideways scroll."""
    page, user = logged_in_page(**TOUCH_PHONE)
    session, _round = a_played_session(user)
    group, _member, _payment = a_family_group(user, session)
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    for path in (f"/sessions/{session.pk}/seats/", f"/groups/{group.pk}/links/"):
        page.goto(live_server.url + path)
        expect(page.locator(".seat-card").first).to_be_visible()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= WIDTH, (path, width, page.evaluate(WIDEST_JS))


def paper(page) -> str:
    return page.evaluate("getComputedStyle(document.body).backgroundColor")


LIGHT_PAPER = "rgb(251, 248, 243)"
DARK_PAPER = "rgb(20, 18, 16)"


def test_dark_theme_follows_the_phone(new_page, live_server):
    page = new_page(**TOUCH_PHONE, color_scheme="dark")
    page.goto(f"{live_server.url}/accounts/login/")
    assert paper(page) == DARK_PAPER
    expect(page.locator("[data-theme-switch]")).to_have_attribute("aria-pressed", "true")
    page.emulate_media(color_scheme="light")
    expect(page.locator("[data-theme-switch]")).to_have_attribute("aria-pressed", "false")
    assert paper(page) == LIGHT_PAPER


def test_the_theme_switch_is_remembered_without_a_flash(new_page, live_server):
    page = new_page(**TOUCH_PHONE, color_scheme="light")
    page.goto(f"{live_server.url}/accounts/login/")
    switch = page.locator("[data-theme-switch]")
    expect(switch).to_have_attribute("aria-pressed", "false")
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")
    assert paper(page) == DARK_PAPER
    # The choice outlives the page, and is applied by the blocking script in <head>
    # before the style sheet: with every deferred script refused, the next page is
    # dark from its first paint.
    page.route(re.compile(r"/static/js/ui\.js"), lambda route: route.abort())
    page.goto(f"{live_server.url}/accounts/signup/")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert paper(page) == DARK_PAPER
    order = page.evaluate(
        """() => [...document.head.querySelectorAll('script[src], link[rel=stylesheet]')]
              .map(e => e.tagName + (e.defer || e.async ? ' deferred' : ''))"""
    )
    assert order[:2] == ["SCRIPT", "LINK"]
    page.unroute(re.compile(r"/static/js/ui\.js"))
    page.goto(f"{live_server.url}/accounts/login/")
    page.locator("[data-theme-switch]").click()
    expect(page.locator("[data-theme-switch]")).to_have_attribute("aria-pressed", "false")
    page.reload()
    assert paper(page) == LIGHT_PAPER
    # Switched back to what the phone says, the page follows the phone again.
    assert page.evaluate("localStorage.getItem('theme')") is None
    page.emulate_media(color_scheme="dark")
    assert paper(page) == DARK_PAPER


# A stand-in for the Screen Wake Lock API that records what the page asks for in
# an attribute, which expect() waits on.
FAKE_WAKE_LOCK = """
const wakeLog = [];
const note = (what) => {
  wakeLog.push(what);
  document.documentElement.dataset.wakeLog = wakeLog.join(", ");
};
Object.defineProperty(navigator, "wakeLock", { value: {
  request(type) {
    note("request " + type);
    const sentinel = new EventTarget();
    sentinel.release = () => {
      note("release");
      sentinel.dispatchEvent(new Event("release"));
      return Promise.resolve();
    };
    return Promise.resolve(sentinel);
  } } });
"""


def expect_wake_log(page, log: str) -> None:
    expect(page.locator("html")).to_have_attribute("data-wake-log", log)


def test_the_screen_stays_awake_at_the_table(logged_in_page, live_server):
    page, user = logged_in_page(**TOUCH_PHONE)
    page.context.add_init_script(FAKE_WAKE_LOCK)
    session, _round = a_played_session(user)
    for path in (f"/sessions/{session.pk}/", f"/sessions/{session.pk}/rounds/new/"):
        page.goto(live_server.url + path)
        switch = page.locator("[data-wake-switch]")
        expect(switch).to_have_attribute("aria-pressed", "true")
        expect_wake_log(page, "request screen")
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "false")
    expect_wake_log(page, "request screen, release")
    # Remembered: the next page asks for nothing until switched on again (the
    # switch shows its state once the script has run, and it asks at once).
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    expect(page.locator("[data-wake-switch]")).to_have_attribute("aria-pressed", "false")
    expect(page.locator("html")).not_to_have_attribute("data-wake-log", re.compile("."))
    page.locator("[data-wake-switch]").click()
    expect_wake_log(page, "request screen")
    # A page away from the table has no switch and asks for nothing.
    page.goto(f"{live_server.url}/leaderboard/")
    expect(page.locator("h1")).to_be_visible()
    expect(page.locator("[data-wake-switch]")).to_have_count(0)
    expect(page.locator("html")).not_to_have_attribute("data-wake-log", re.compile("."))


def test_the_ledger_shows_five_players_without_a_sideways_swipe(phone, live_server):
    page, user = phone
    session = make_session(user, players=FIVE)
    played(session, ("Aama", {}), ("Bhai", {}))
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    scroll = page.locator("#ledger .table-scroll")
    widths = scroll.evaluate("e => [e.scrollWidth, e.clientWidth]")
    page.screenshot(path="/tmp/trips_ledger.png", full_page=True)
    assert widths[0] <= widths[1], widths
    expect(page.locator("#ledger thead th")).to_have_count(7)


def test_each_page_has_one_name_and_the_buttons_say_it(phone, live_server):
    """The round search and the change log are no longer both "History": each
    link names the page it opens, and no two of them share a title."""
    page, user = phone
    session = make_session(user, players=FIVE)
    (round_,) = played(session, ("Aama", {}))
    titles = {}
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    session_menu(page).get_by_role("link", name="Changes").tap()
    expect(page.locator("h1")).to_have_text("Changes")
    titles["changes"] = page.title()
    page.goto(f"{live_server.url}/sessions/{session.pk}/rounds/{round_.pk}/")
    page.get_by_role("link", name="Changes").tap()
    expect(page.locator("h1")).to_have_text("Changes to this round")
    page.locator("[data-menu-button]").tap()
    page.get_by_role("link", name="Find rounds").tap()
    expect(page.locator("h1")).to_have_text("Find rounds")
    titles["search"] = page.title()
    assert titles == {"changes": "Changes · Tihar night", "search": "Find rounds"}
    assert page.get_by_text("History", exact=True).count() == 0


def test_the_print_summary_lists_the_dhoos_still_owed(phone, live_server):
    page, user = phone
    session = make_session(user, players=FIVE, preset="nepal")
    played(session, ("Didi", {"Dai": True}))
    page.goto(f"{live_server.url}/sessions/{session.pk}/summary/")
    pending = page.locator(".pending-dhoos")
    expect(pending).to_contain_text("Dai owes 15 dhoos to the next winner")
    expect(pending).to_contain_text("given in round 1")
    page.emulate_media(media="print")
    expect(pending).to_be_visible()


def test_the_new_session_suggests_the_preset_played_last_or_nepal_in_nepali(phone, live_server):
    page, user = phone
    page.goto(f"{live_server.url}/sessions/new/")
    preset = page.locator("select[name=preset]")
    expect(preset).to_have_value("pagat")
    expect(page.locator(".preset-who li")).to_have_count(5)
    expect(page.locator('.preset-who li[data-preset="nepal"]')).to_contain_text(
        "what most families in Nepal play"
    )
    # In Nepali, with no session yet: nepal.
    page.locator('.lang-switch button[value="ne"]').tap()
    expect(page.locator("html")).to_have_attribute("lang", "ne")
    expect(preset).to_have_value("nepal")
    expect(page.locator("#preset-suggested")).to_be_visible()
    assert violations(page, Axe()) == [], "the new session in Nepali, nepal suggested"
    # The family played kidnap last: that is suggested, in either language.
    make_session(user, players=FIVE, preset="kidnap")
    page.reload()
    expect(preset).to_have_value("kidnap")
    page.locator('.lang-switch button[value="en"]').tap()
    expect(preset).to_have_value("kidnap")
    expect(page.locator("#preset-suggested")).to_have_text(
        "Suggested: kidnap, the rules of your last session."
    )
    # The options below follow the suggestion: kidnap's unseen maal.
    expect(page.locator("select[name=unseen_maal]")).to_have_value("kidnap")


def test_the_session_page_has_four_actions_above_the_standings_and_a_menu(phone, live_server):
    """The round's three actions and "More" above the standings; the session's
    other pages in the menu, a <details> that says whether it is open."""
    page, user = phone
    session = make_session(user, players=FIVE)
    played(session, ("Aama", {}))
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    standings = page.locator("#standings").bounding_box()
    above = page.evaluate(
        """(top) => [...document.querySelectorAll("main a[href], main button, main summary")]
          .filter((el) => {
            const box = el.getBoundingClientRect();
            return box.width && box.height && box.bottom <= top;
          })
          .map((el) => el.textContent.replace(/\\s+/g, " ").trim())""",
        standings["y"],
    )
    assert [a for a in above if a != "pagat rules"] == [
        "Enter round",
        "Settle up",
        "Undo last round",
        "More ▾",
    ]
    menu = page.locator("details.session-menu")
    expect(menu.get_by_role("link", name="Rules")).to_be_hidden()
    summary = menu.locator("summary")
    summary.tap()
    expect(menu).to_have_attribute("open", "")
    for name in ("Players", "Rules", "Share", "Seats", "Co-scorers", "Export file", "Changes"):
        expect(menu.get_by_role("link", name=name, exact=True)).to_be_visible()
    assert page.evaluate(SMALL_TARGETS_JS) == []
    summary.tap()
    expect(menu.get_by_role("link", name="Rules")).to_be_hidden()
