"""The round at the table, on a phone (390×844, touch): one screen and a half for
five players, numbers that take what is typed, one save per tap, and a refused
save's errors where the eye is.

Figures (pagat: seen 3, unseen 10 to the winner, 5 players, all seen unless said):
Didi wins; Aama 5, Buwa 2, Didi 7, Dai 0, Bhai 3. T = 17, n = 5.
Aama pays 17 + 3 − 25 = −5 (receives 5), Buwa 17 + 3 − 10 = 10,
Dai 17 + 3 − 0 = 20, Bhai 17 + 3 − 15 = 5; Didi +30: nets +5, −10, +30, −20, −5.
"""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from scoring.models import Round

from ..web_helpers import make_session
from .test_axe import a_played_session, violations
from .test_phone_pages import SMALL_TARGETS_JS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
TOUCH = {"has_touch": True, "is_mobile": True}
FIVE = ("Aama", "Buwa", "Didi", "Dai", "Bhai")
MAX_HEIGHT = 1266  # one phone screen and a half
HAND = {"Aama": 5, "Buwa": 2, "Didi": 7, "Dai": 0, "Bhai": 3}
NETS = {"Aama": "+5", "Buwa": "-10", "Didi": "+30", "Dai": "-20", "Bhai": "-5"}


@pytest.fixture
def table(logged_in_page, live_server):
    """A 5-player session and the owner's phone on its new-round form."""
    page, user = logged_in_page(viewport=PHONE, **TOUCH)
    session = make_session(user, players=FIVE)
    page.goto(f"{live_server.url}/sessions/{session.pk}/rounds/new/")
    return page, session


def row(page, name: str):
    return page.locator(f'.player-row[data-player="{name}"]')


def maal(page, name: str):
    return row(page, name).locator('input[name$="-maal"]')


def page_height(page) -> int:
    return page.evaluate("document.documentElement.scrollHeight")


def test_five_players_fit_a_screen_and_a_half_and_a_round_takes_six_taps(table):
    page, session = table
    assert page_height(page) <= MAX_HEIGHT
    taps = 0
    page.locator(".pick", has_text="Didi").tap()
    taps += 1
    for name, points in HAND.items():
        if points:
            maal(page, name).tap()
            taps += 1
            page.keyboard.type(str(points))
    for name, net in NETS.items():
        expect(page.locator(f'#preview li[data-player="{name}"] .net')).to_have_text(net)
    page.screenshot(path="/tmp/round_form_390.png", full_page=True)
    assert page_height(page) <= MAX_HEIGHT
    # The settlement shows without scrolling far: its top is within the first screen.
    assert page.locator("#preview").bounding_box()["y"] < 844
    page.get_by_role("button", name="Save round").tap()
    taps += 1
    expect(page.locator(".message")).to_have_text("Round 1 saved.")
    assert taps <= 6
    assert Round.objects.filter(session=session).count() == 1


def to_nepali(page) -> None:
    page.locator('.lang-switch button[value="ne"]').click()
    expect(page.locator("html")).to_have_attribute("lang", "ne")


@pytest.mark.parametrize("language", ["en", "ne"])
def test_tapping_a_box_and_typing_5_gives_5(table, live_server, language):
    page, _session = table
    if language == "ne":
        to_nepali(page)
    box = maal(page, "Aama")
    expect(box).to_have_value("")  # empty means 0, shown as a 0 placeholder
    assert box.get_attribute("placeholder") == "0"
    assert box.get_attribute("inputmode") == "numeric"
    box.tap()
    page.keyboard.type("5")
    expect(box).to_have_value("5")
    # A box with a number in it: the tap selects it, so typing replaces it.
    tunnel_more = row(page, "Buwa").locator("summary")
    tunnel_more.tap()
    tunnel = row(page, "Buwa").locator('input[name$="-tunnel"]')
    tunnel.tap()
    page.keyboard.type("12")
    box.tap()
    page.keyboard.type("7")
    expect(box).to_have_value("7")
    tunnel.tap()
    page.keyboard.type("3")
    expect(tunnel).to_have_value("3")
    # Next on the phone's keyboard goes on to the next box, never saves.
    maal(page, "Didi").tap()
    page.keyboard.type("4")
    page.keyboard.press("Enter")
    expect(maal(page, "Dai")).to_be_focused()
    page.keyboard.type("९" if language == "ne" else "9")  # a Nepali keyboard's digits count too
    page.locator(".pick", has_text="Didi").tap()
    expect(page.locator('#preview li[data-player="Dai"] .calc')).to_contain_text("S = 9")
    expect(page.locator('#preview li[data-player="Aama"] .calc')).to_contain_text("S = 7")
    expect(page.locator('#preview li[data-player="Buwa"] .calc')).to_contain_text("S = 3")
    assert Round.objects.count() == 0


def test_a_double_tap_on_save_saves_one_round(table):
    page, session = table
    page.locator(".pick", has_text="Didi").tap()
    for name, points in HAND.items():
        maal(page, name).fill(str(points))
    expect(page.locator('#preview li[data-player="Didi"] .net')).to_have_text("+30")
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.url.endswith("/rounds/new/") else None)
    # The page notes the Save button as each submit leaves it; the note outlives
    # the page (locators and evaluate wait while a navigation is pending).
    page.evaluate(
        """() => window.addEventListener("submit", (event) => {
          const b = document.querySelector(".sticky-save button");
          const notes = JSON.parse(sessionStorage.notes || "[]");
          notes.push([event.defaultPrevented, b.disabled, b.textContent]);
          sessionStorage.notes = JSON.stringify(notes);
        })"""
    )
    save = page.get_by_role("button", name="Save round")
    box = save.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y)
    page.touchscreen.tap(x, y)  # the second tap, a few milliseconds later
    expect(page.locator(".message")).to_have_text("Round 1 saved.")
    assert Round.objects.filter(session=session).count() == 1
    assert len(posts) == 1
    # One submit went out, leaving the button disabled and saying so; the second
    # tap met a disabled button.
    assert page.evaluate("() => JSON.parse(sessionStorage.notes)") == [[False, True, "Saving…"]]


def status(page, name: str, which: str):
    return row(page, name).locator(f'input[name$="-status"][value="{which}"]')


def tap_status(page, name: str, which: str) -> None:
    """Taps a player's "seen" or "unseen" (the label: the radio itself is hidden)."""
    box = page.locator(f'input[name$="-status"][value="{which}"]')
    row(page, name).locator("label", has=box).tap()


def test_a_refused_save_shows_every_error_at_the_top_in_view(table):
    page, _session = table
    # Buwa wins but is then marked unseen; Aama's maal has a typo, and Dai's
    # tunnel behind "more". All three are told at once, not one save at a time.
    page.locator(".pick", has_text="Buwa").tap()
    tap_status(page, "Buwa", "unseen")
    maal(page, "Aama").fill("5x")
    row(page, "Dai").locator("summary").tap()
    row(page, "Dai").locator('input[name$="-tunnel"]').fill("-3")
    row(page, "Dai").locator("summary").tap()  # closed again
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.get_by_role("button", name="Save round").tap()
    alert = page.get_by_role("alert")
    expect(alert).to_be_visible()
    expect(alert).to_be_in_viewport()
    expect(alert).to_be_focused()
    items = [" ".join(t.split()) for t in alert.locator("li").all_inner_texts()]
    assert items == [
        "Aama, maal: must be a whole number, got '5x'",
        "Buwa, status: the winner must be seen: ending the round means having shown the pure sets",
        "Dai, tunnel: must not be negative, got -3",
    ]
    # The preview, below, says the same.
    expect(page.locator("#preview .errorlist li")).to_have_text(items)
    # Each message also stays beside its field, and each item leads to it.
    expect(row(page, "Aama").locator('[id$="-maal"].errorlist')).to_contain_text("whole number")
    expect(row(page, "Dai").locator("details.more")).to_have_attribute("open", "")
    alert.get_by_role("link", name="Dai, tunnel: must not be negative, got -3").tap()
    expect(row(page, "Dai").locator('input[name$="-tunnel"]')).to_be_focused()
    alert.get_by_role("link", name=items[1]).tap()
    expect(status(page, "Buwa", "unseen")).to_be_focused()
    expect(status(page, "Buwa", "unseen")).to_be_checked()
    assert Round.objects.count() == 0


def test_picking_a_winner_marks_them_seen_and_playing(table):
    page, _session = table
    buwa = row(page, "Buwa")
    tap_status(page, "Aama", "unseen")
    buwa.locator("label.plays").tap()
    expect(status(page, "Aama", "unseen")).to_be_checked()
    expect(buwa.locator('input[name$="-plays"]')).not_to_be_checked()
    expect(buwa.locator(".sits-out")).to_be_visible()
    page.locator(".pick", has_text="Aama").tap()
    expect(status(page, "Aama", "seen")).to_be_checked()
    page.locator(".pick", has_text="Buwa").tap()
    expect(buwa.locator('input[name$="-plays"]')).to_be_checked()
    expect(status(page, "Buwa", "seen")).to_be_checked()
    expect(buwa.locator(".sits-out")).to_be_hidden()
    expect(page.locator('#preview li[data-player="Buwa"] .tag.win')).to_have_text("winner")


def middle(locator) -> float:
    box = locator.bounding_box()
    return box["y"] + box["height"] / 2


def test_the_dublees_toggle_sits_beside_seen_and_means_seen(table):
    page, session = table
    buwa = row(page, "Buwa")
    dublees = buwa.locator('input[name$="-dublees"]')
    toggle = buwa.locator("label.dublees")
    # On the player's line, beside seen/unseen, not behind "more" (closed).
    expect(buwa.locator("details.more")).not_to_have_attribute("open", "")
    expect(toggle).to_be_visible()
    assert middle(toggle) == pytest.approx(middle(buwa.locator(".status")), abs=2)
    # Unseen, then dublees: seen again. Unseen again: no dublees.
    tap_status(page, "Buwa", "unseen")
    toggle.tap()
    expect(dublees).to_be_checked()
    expect(status(page, "Buwa", "seen")).to_be_checked()
    page.locator(".pick", has_text="Didi").tap()
    expect(page.locator('#preview li[data-player="Buwa"] .who')).to_contain_text("seen")
    expect(page.locator('#preview li[data-player="Buwa"] .who')).to_contain_text("by dublees")
    tap_status(page, "Buwa", "unseen")
    expect(dublees).not_to_be_checked()
    expect(page.locator('#preview li[data-player="Buwa"] .who')).not_to_contain_text("by dublees")
    expect(page.locator('#preview li[data-player="Buwa"] .who')).to_contain_text("unseen")
    # With no network the phone settles it, and dublees count as seen there too,
    # even on a row left marked unseen (the page's script is what ticks "seen").
    page.context.set_offline(True)
    toggle.tap()
    expect(page.locator("#preview .offline-note")).to_be_visible()
    page.evaluate(
        """() => {
          const row = (name) => document.querySelector(`.player-row[data-player="${name}"]`);
          row("Buwa").querySelector('input[value="unseen"]').checked = true;
          row("Aama").querySelector('input[name$="-maal"]')
            .dispatchEvent(new Event("input", { bubbles: true }));
        }"""
    )
    buwa_result = page.locator('#preview li[data-player="Buwa"] .who')
    expect(buwa_result).to_contain_text("by dublees")
    expect(buwa_result.locator(".tag").nth(0)).to_have_text("seen")
    page.context.set_offline(False)
    # Saved under the toggle's own field name: Buwa seen by dublees.
    tap_status(page, "Buwa", "seen")
    expect(dublees).to_be_checked()
    page.get_by_role("button", name="Save round").tap()
    expect(page.locator(".message")).to_have_text("Round 1 saved.")
    entry = Round.objects.get(session=session).entries.get(player__name="Buwa")
    assert (entry.status, entry.dublees) == ("seen", True)


def open_every_more(page) -> None:
    """Opens "⋯" on each playing player's line (a player sitting out has none)."""
    closed = page.locator(".player-row:has(.plays input:checked) details.more:not([open])")
    for _ in range(closed.count()):
        closed.first.locator("summary").tap()
    expect(closed).to_have_count(0)
    expect(page.locator("details.more[open]").first).to_be_visible()


def test_every_tap_target_of_the_round_form_and_its_edit_is_44_px(logged_in_page, live_server):
    page, user = logged_in_page(viewport=PHONE, **TOUCH)
    session, round_ = a_played_session(user)
    small = {}
    for what, path in (("new", "rounds/new/"), ("edit", f"rounds/{round_.pk}/edit/")):
        page.goto(f"{live_server.url}/sessions/{session.pk}/{path}")
        open_every_more(page)
        if found := page.evaluate(SMALL_TARGETS_JS):
            small[what] = found
    assert small == {}


# Whether any of the player lines' names is cut: more text than its box shows.
CUT_NAMES_JS = """() => [...document.querySelectorAll('.player-row .name')]
  .filter(n => n.scrollHeight > n.clientHeight + 1 || n.scrollWidth > n.clientWidth + 1)
  .map(n => n.textContent)"""


def test_long_names_are_shown_whole_on_their_lines(logged_in_page, live_server):
    # Two players who differ only after the fifth letter must not read the same.
    page, user = logged_in_page(viewport=PHONE, **TOUCH)
    names = ("Thulo Buwa", "Thulo Aama", "Sano Buwa", "Bhanji Sunita", "Hajurama")
    session = make_session(user, players=names)
    page.goto(f"{live_server.url}/sessions/{session.pk}/rounds/new/")
    for name in names:
        expect(row(page, name).locator(".name")).to_have_text(name)
    assert page.evaluate(CUT_NAMES_JS) == []
    # On two lines at most, within the line's 44 px, so five players still fit.
    heights = [row(page, name).locator(".plays").bounding_box()["height"] for name in names]
    assert heights == [44] * len(names)
    assert page_height(page) <= MAX_HEIGHT


def test_in_words_opens_on_the_first_tap_after_typing(table):
    # The tap that opens "In words" also ends the typing in Bhai's box: its
    # change must not replace the preview (and close it) under the finger.
    page, _session = table
    page.locator(".pick", has_text="Didi").tap()
    for name, points in HAND.items():
        if points:
            maal(page, name).tap()
            page.keyboard.type(str(points))
    for name, net in NETS.items():
        expect(page.locator(f'#preview li[data-player="{name}"] .net')).to_have_text(net)
    words = page.locator("#preview details.in-words-all")
    words.locator("summary").tap()
    expect(words).to_have_attribute("open", "")
    expect(words.locator(".in-words").first).to_be_visible()
    assert violations(page, Axe()) == [], "the round form's preview, in words open"
    # Still open when the round changes and the preview is worked out again.
    maal(page, "Aama").tap()
    page.keyboard.type("0")
    expect(page.locator('#preview li[data-player="Aama"] .net')).not_to_have_text("+5")
    expect(page.locator("#preview details.in-words-all")).to_have_attribute("open", "")
