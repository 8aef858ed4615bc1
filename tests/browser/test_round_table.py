"""The round at the table, on a phone (390×844, touch): two screens at most for
five players, numbers that take what is typed, every tap target 8 px from the
next, one save per tap, Save answered in place with the standings and the next
round's form, and a refused save's errors where the eye is.

Figures (pagat: seen 3, unseen 10 to the winner, 5 players, all seen unless said):
Didi wins; Aama 5, Buwa 2, Didi 7, Dai 0, Bhai 3. T = 17, n = 5.
Aama pays 17 + 3 − 25 = −5 (receives 5), Buwa 17 + 3 − 10 = 10,
Dai 17 + 3 − 0 = 20, Bhai 17 + 3 − 15 = 5; Didi +30: nets +5, −10, +30, −20, −5.
"""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from playwright.sync_api import expect

from scoring.models import Round

from ..web_helpers import make_session, played
from .hands import DUBLEE_NETS, FIVE, HAND, NORMAL_NETS, PHONE, TOUCH, row, type_hand
from .test_axe import a_played_session, violations
from .test_phone_pages import SMALL_TARGETS_JS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MAX_HEIGHT = 1688  # two phone screens


@pytest.fixture
def table(logged_in_page, live_server):
    """A 5-player session and the owner's phone on its new-round form."""
    page, user = logged_in_page(viewport=PHONE, **TOUCH)
    session = make_session(user, players=FIVE)
    page.goto(f"{live_server.url}/sessions/{session.pk}/rounds/new/")
    return page, session


def maal(page, name: str):
    return row(page, name).locator('input[name$="-maal"]')


def page_height(page) -> int:
    return page.evaluate("document.documentElement.scrollHeight")


class Taps:
    """Counts what the scorer's finger does on the screen (typed digits aside)."""

    def __init__(self, page) -> None:
        self.page = page
        self.count = 0

    def tap(self, locator) -> None:
        locator.tap()
        self.count += 1


def play_the_hand(page, taps: Taps) -> None:
    taps.tap(page.locator(".pick", has_text="Didi"))
    for name, points in HAND.items():
        if points:
            taps.tap(maal(page, name))
            page.keyboard.type(str(points))
    for name, net in NORMAL_NETS.items():
        expect(page.locator(f'#preview li[data-player="{name}"] .net')).to_have_text(net)


def test_five_players_fit_two_screens_and_a_round_takes_six_taps(table):
    """A plain five-player round: the winner, four maal boxes, Save. Save
    leaves the scorer on the next round's form, so the round after costs the
    same, with no trip to the session page and back."""
    page, session = table
    assert page_height(page) <= MAX_HEIGHT
    for number in (1, 2):
        taps = Taps(page)
        expect(page.locator(".next-round")).to_contain_text(f"Round {number}")
        play_the_hand(page, taps)
        if number == 1:
            page.screenshot(path="/tmp/round_form_390.png", full_page=True)
            assert page_height(page) <= MAX_HEIGHT
        taps.tap(page.get_by_role("button", name="Save round"))
        expect(page.locator(".message")).to_have_text(f"Round {number} saved.")
        assert taps.count <= 6, number
        assert taps.count <= 7  # the bound (issue 28)
    assert Round.objects.filter(session=session).count() == 2
    assert page.url.endswith(f"/sessions/{session.pk}/rounds/new/")


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
    tunnel = row(page, "Buwa").locator('input[name$="-tunnel"]')
    tunnel.tap()
    page.keyboard.type("12")
    box.tap()
    page.keyboard.type("7")
    expect(box).to_have_value("7")
    tunnel.tap()
    page.keyboard.type("3")
    expect(tunnel).to_have_value("3")
    # Next on the phone's keyboard goes on to the next player's maal (a tunnel
    # is tapped when there is one), never saves.
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
    """The first tap saves the round and empties the form for the next; the
    second, a few milliseconds later, meets a form with nothing in it: nothing
    is sent, nothing is said against it."""
    page, session = table
    page.locator(".pick", has_text="Didi").tap()
    for name, points in HAND.items():
        maal(page, name).fill(str(points))
    expect(page.locator('#preview li[data-player="Didi"] .net')).to_have_text("+30")
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.method) if r.url.endswith("/rounds/new/") else None)
    save = page.get_by_role("button", name="Save round")
    box = save.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y)
    page.touchscreen.tap(x, y)  # the second tap, a few milliseconds later
    expect(page.locator(".message")).to_have_text("Round 1 saved.")
    expect(page.locator(".next-round")).to_have_text("Round 2 · Buwa deals")
    assert Round.objects.filter(session=session).count() == 1
    assert posts == ["POST"]
    expect(page.locator("#form-errors, #round-saved-alert li")).to_have_count(0)
    expect(page.locator("#err-winner li")).to_have_count(0)
    expect(maal(page, "Aama")).to_have_value("")


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
    row(page, "Dai").locator('input[name$="-tunnel"]').fill("-3")
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
    # On the player's line, beside seen/unseen.
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


def test_every_tap_target_of_the_round_form_and_its_edit_is_44_px(logged_in_page, live_server):
    page, user = logged_in_page(viewport=PHONE, **TOUCH)
    session, round_ = a_played_session(user)
    small = {}
    for what, path in (("new", "rounds/new/"), ("edit", f"rounds/{round_.pk}/edit/")):
        page.goto(f"{live_server.url}/sessions/{session.pk}/{path}")
        if found := page.evaluate(SMALL_TARGETS_JS):
            small[what] = found
    assert small == {}


# Every pair of the round form's tap targets closer than 8 px: a checkbox or
# radio counts as the label the finger taps. Targets nested in one another
# (a box inside its label) are one target.
CLOSE_TARGETS_JS = """(gap) => {
  const form = document.getElementById("round-form");
  const found = [];
  for (let el of form.querySelectorAll("a[href], button, input:not([type=hidden]), summary")) {
    const label = el.closest("label");
    if ((el.type === "radio" || el.type === "checkbox") && label) el = label;
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height || el.closest("[hidden]")) continue;
    if (!found.some((seen) => seen.el === el)) found.push({ el, box });
  }
  const name = (el) => (el.id || el.getAttribute("for") || el.textContent.trim().slice(0, 20) ||
    el.className) + "@" + (el.closest("[data-player]") || {dataset: {}}).dataset.player;
  const close = [];
  for (let i = 0; i < found.length; i++) {
    for (let j = i + 1; j < found.length; j++) {
      const a = found[i], b = found[j];
      if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
      const dx = Math.max(0, b.box.left - a.box.right, a.box.left - b.box.right);
      const dy = Math.max(0, b.box.top - a.box.bottom, a.box.top - b.box.bottom);
      const apart = Math.hypot(dx, dy);
      if (apart < gap - 0.5) close.push(`${name(a.el)} / ${name(b.el)}: ${apart.toFixed(1)}`);
    }
  }
  return close;
}"""


@pytest.mark.parametrize("language", ["en", "ne"])
def test_tap_targets_of_the_round_form_are_8_px_apart(logged_in_page, live_server, language):
    """Seen, unseen and dublees, maal, tunnel, dhoos and the calculator, the
    winner's names and the round's options: each tap target at least 8 px
    from every other (the sticky Save bar aside, which floats over them)."""
    page, user = logged_in_page(viewport=PHONE, **TOUCH)
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    session, round_ = a_played_session(user)
    for path in ("rounds/new/", f"rounds/{round_.pk}/edit/"):
        page.goto(f"{live_server.url}/sessions/{session.pk}/{path}")
        expect(page.locator("html")).to_have_attribute("lang", language)
        page.evaluate("document.querySelector('.sticky-save').style.position = 'static'")
        assert page.evaluate(CLOSE_TARGETS_JS, 8) == [], path


def test_tunnel_and_dhoos_are_on_the_players_line(table):
    """At 390 px, each player's tunnel box and dhoos toggle are in view on
    their line, tapped without opening anything first."""
    page, _session = table
    for name in FIVE:
        tunnel = row(page, name).locator('input[name$="-tunnel"]')
        dhoos = row(page, name).locator("label.dhoos")
        for target in (tunnel, dhoos):
            expect(target).to_be_visible()
            box = target.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390, name
    row(page, "Buwa").locator("label.dhoos").tap()
    expect(row(page, "Buwa").locator('input[name$="-dhoos"]')).to_be_checked()
    row(page, "Dai").locator('input[name$="-tunnel"]').tap()
    page.keyboard.type("3")
    expect(row(page, "Dai").locator('input[name$="-tunnel"]')).to_have_value("3")


# Whether any of the player lines' names is cut: more text than its box shows.
CUT_NAMES_JS = """() => [...document.querySelectorAll('.player-row .name')]
  .filter(n => n.scrollHeight > n.clientHeight + 1 || n.scrollWidth > n.clientWidth + 1)
  .map(n => n.textContent)"""


def test_long_names_are_shown_whole_on_their_lines(logged_in_page, live_server):
    # Two players who differ only after the fifth letter must not read the same.
    page, user = logged_in_page(viewport=PHONE, **TOUCH)
    names = ("Thulo Buwa", "Thulo Aama", "Sano Buwa", "Bhanji Sunita", "भान्जी सुनिता")
    session = make_session(user, players=names)
    page.goto(f"{live_server.url}/sessions/{session.pk}/rounds/new/")
    for name in names:
        expect(row(page, name).locator(".name")).to_have_text(name)
    assert page.evaluate(CUT_NAMES_JS) == []
    # On two lines at most, within the line's 44 px: measured (the lines of any
    # font, Latin or Devanagari, fit their box above).
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
    for name, net in NORMAL_NETS.items():
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


def test_the_winners_dublees_make_it_a_dublee_win(phone, live_server):
    """Tapping "dublees" on the winner's row instead of the win type: the round
    becomes a Dublee win (the winner went out with the eighth dublee), the preview
    books the bonus, and it is saved so; Normal takes the winner's dublees off."""
    page, user = phone
    session = make_session(user, players=FIVE)
    page.goto(f"{live_server.url}/sessions/{session.pk}/rounds/new/")
    page.locator(".pick", has_text="Didi").tap()
    type_hand(page)
    row(page, "Didi").locator(".toggle.dublees").tap()
    expect(page.locator("#win_type-dublee")).to_be_checked()
    for name, net in DUBLEE_NETS.items():
        expect(page.locator(f'#preview li[data-player="{name}"] .net')).to_have_text(net)
    # Back to Normal: the winner's dublees go with it, and the preview follows.
    page.locator(".win-type label", has_text="Normal").tap()
    expect(row(page, "Didi").locator('input[name$="-dublees"]')).not_to_be_checked()
    for name, net in NORMAL_NETS.items():
        expect(page.locator(f'#preview li[data-player="{name}"] .net')).to_have_text(net)
    # Picking a winner who already saw by dublees: a Dublee win too.
    page.locator(".pick", has_text="Buwa").tap()
    row(page, "Didi").locator(".toggle.dublees").tap()
    expect(page.locator("#win_type-normal")).to_be_checked()  # Didi is no longer the winner
    page.locator(".pick", has_text="Didi").tap()
    expect(page.locator("#win_type-dublee")).to_be_checked()
    page.get_by_role("button", name="Save round").tap()
    expect(page.locator(".message")).to_contain_text("Round 1 saved.")
    saved = Round.objects.get(session=session)
    assert saved.win_type == "dublee"
    assert {e.player.name: e.net for e in saved.entries.all()} == {
        "Aama": 0,
        "Buwa": -15,
        "Didi": 50,
        "Dai": -25,
        "Bhai": -10,
    }


def test_without_the_script_the_mix_up_is_refused_at_the_win_type(logged_in_page, live_server):
    """No script (the server alone): the winner's dublees with the win type left at
    Normal is refused, the message beside the win type and in the summary."""
    page, user = logged_in_page(viewport=PHONE, java_script_enabled=False, **TOUCH)
    session = make_session(user, players=FIVE)
    page.goto(f"{live_server.url}/sessions/{session.pk}/rounds/new/")
    page.locator(".pick", has_text="Didi").tap()
    type_hand(page)
    row(page, "Didi").locator(".toggle.dublees").tap()
    expect(page.locator("#win_type-normal")).to_be_checked()
    page.get_by_role("button", name="Save round").tap()
    said = (
        "win_type: Didi won and saw by dublees, so it is a Dublee win: "
        "choose Dublee (eight dublees), or untick Didi's dublees"
    )
    expect(page.locator("#form-errors")).to_contain_text(said)
    expect(page.locator("#err-win_type")).to_have_text(said)
    assert not Round.objects.filter(session=session).exists()


def test_after_save_every_player_and_what_the_round_changed_come_first(phone, live_server):
    """Save answers on the form: every player's total and what the round
    changed, on the first screen, above the next round's form."""
    page, user = phone
    session = make_session(user, players=FIVE)
    played(session, ("Aama", {}))  # nets: Aama +12 (3 × 4), everyone else −3
    page.goto(f"{live_server.url}/sessions/{session.pk}/rounds/new/")
    page.locator(".pick", has_text="Didi").tap()
    type_hand(page)
    page.get_by_role("button", name="Save round").tap()
    expect(page.locator(".message")).to_have_text("Round 2 saved.")
    standings = page.locator("#standings")
    expect(standings.locator("tbody tr")).to_have_count(5)
    # Every player on the first screen, above the next round's form.
    for name in FIVE:
        box = standings.locator(f'tr[data-player="{name}"]').bounding_box()
        assert box is not None and box["y"] + box["height"] <= 844, name
    who_won = page.locator("#winner-field")
    assert standings.bounding_box()["y"] < who_won.bounding_box()["y"]
    # What round 2 changed, and the totals after it (Didi +30 and −3 from round 1).
    changed = {"Aama": "+5", "Buwa": "-10", "Didi": "+30", "Dai": "-20", "Bhai": "-5"}
    totals = {"Aama": "+17", "Buwa": "-13", "Didi": "+27", "Dai": "-23", "Bhai": "-8"}
    for name in FIVE:
        cells = standings.locator(f'tr[data-player="{name}"] td')
        expect(cells.nth(2)).to_have_text(totals[name])
        expect(cells.nth(3)).to_have_text(changed[name])
    expect(standings.locator("th").nth(3)).to_have_text("Round 2")
    # Once the server confirmed it, the round's own page is a tap away.
    round_2 = Round.objects.filter(session=session).order_by("number").last()
    expect(standings.locator("th a")).to_have_attribute(
        "href", f"/sessions/{session.pk}/rounds/{round_2.pk}/"
    )
    expect(page.locator(".next-round")).to_have_text("Round 3 · Didi deals")
    assert violations(page, Axe()) == [], "the round form right after a save"
    # The standings show once; the form opened again shows none.
    page.reload()
    expect(page.locator("#round-saved")).to_be_hidden()


def test_without_the_script_save_opens_the_session_page_on_the_standings(
    logged_in_page, live_server
):
    """The form posted as it is (no script): the server's redirect, and its
    session page with every player and what the round changed first."""
    page, user = logged_in_page(viewport=PHONE, java_script_enabled=False, **TOUCH)
    session = make_session(user, players=FIVE)
    played(session, ("Aama", {}))
    page.goto(f"{live_server.url}/sessions/{session.pk}/rounds/new/")
    page.locator(".pick", has_text="Didi").tap()
    type_hand(page)
    page.get_by_role("button", name="Save round").tap()
    expect(page.locator(".message")).to_have_text("Round 2 saved.")
    assert page.url.endswith(f"/sessions/{session.pk}/")
    standings = page.locator("#standings")
    expect(standings.locator('tr[data-player="Didi"] td').nth(2)).to_have_text("+27")
    expect(standings.locator('tr[data-player="Didi"] td').nth(3)).to_have_text("+30")
    enter = page.get_by_role("link", name="Enter round")
    assert standings.bounding_box()["y"] < enter.bounding_box()["y"]


def test_the_delete_message_restores_the_round_in_one_tap(phone, live_server):
    page, user = phone
    session = make_session(user, players=FIVE)
    rounds = played(session, ("Aama", {}), ("Buwa", {}), ("Didi", {}))
    page.goto(f"{live_server.url}/sessions/{session.pk}/rounds/{rounds[1].pk}/delete/")
    page.get_by_role("button", name="Delete round").tap()
    message = page.locator(".message")
    expect(message).to_contain_text("Round 2 deleted.")
    assert Round.objects.filter(session=session).count() == 2
    restore = message.get_by_role("button", name="Restore")
    box = restore.bounding_box()
    assert box["height"] >= 44 and box["y"] + box["height"] <= 844
    assert violations(page, Axe()) == [], "the delete message with its Restore"
    restore.tap()
    expect(page.locator(".message")).to_have_text("Round restored as round 2.")
    kept = Round.objects.filter(session=session).order_by("number")
    assert list(kept.values_list("pk", flat=True)) == [r.pk for r in rounds]
    # The undo of the last round says so, with its Restore too.
    page.goto(f"{live_server.url}/sessions/{session.pk}/undo/")
    page.get_by_role("button", name="Undo round").tap()
    expect(page.locator(".message")).to_contain_text("Round 3 undone.")
    page.locator(".message").get_by_role("button", name="Restore").tap()
    expect(page.locator(".message")).to_have_text("Round restored as round 3.")
    assert Round.objects.filter(session=session).count() == 3


def test_a_rounds_page_says_its_dhoos_was_paid_and_by_which_round(phone, live_server):
    """Under nepal, Dai's dhoos of round 1 (15) is owed to the next winner; Buwa
    wins round 2 with Dai playing: round 1's page says it was paid, to Buwa, in
    round 2, and links there. Round 3's dhoos is still owed."""
    page, user = phone
    session = make_session(user, players=FIVE, preset="nepal")
    rounds = played(session, ("Didi", {"Dai": True}), ("Buwa", {}), ("Aama", {"Bhai": True}))
    page.goto(f"{live_server.url}/sessions/{session.pk}/rounds/{rounds[0].pk}/")
    body = page.locator("main")
    expect(body).to_contain_text("dhoos: 15, paid to Buwa in round 2")
    expect(body).not_to_contain_text("owes 15 to the next winner")
    page.locator(".dhoos-paid a").tap()
    expect(page.locator("h1")).to_have_text("Round 2")
    page.goto(f"{live_server.url}/sessions/{session.pk}/rounds/{rounds[2].pk}/")
    expect(page.locator("main")).to_contain_text("dhoos: owes 15 to the next winner")


def test_the_maal_box_shows_five_digits_and_names_keep_whole(phone, live_server):
    """99999 fits the maal box; "Hajurba" stays one word on the round form (it
    fits its line), while a name too long for any line may still break."""
    page, user = phone
    names = ("Hajurba", "Hajurama", "Thulo Buwa", "Sano Aama", "Kanchha")
    session = make_session(user, players=names)
    page.goto(f"{live_server.url}/sessions/{session.pk}/rounds/new/")
    box = row(page, "Hajurba").locator('input[name$="-maal"]')
    box.tap()
    page.keyboard.type("99999")
    expect(box).to_have_value("99999")
    page.screenshot(path="/tmp/trips_round_form.png", full_page=True)
    fits = box.evaluate("e => e.scrollWidth <= e.clientWidth")
    assert fits
    # The text's own width inside the box: five digits need no scrolling.
    width = box.evaluate(
        """e => { const s = getComputedStyle(e); const c = document.createElement('canvas')
          .getContext('2d'); c.font = s.font; return [c.measureText(e.value).width,
          e.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight)]; }"""
    )
    assert width[0] <= width[1], width
    for name in names:
        lines = (
            row(page, name)
            .locator(".name")
            .evaluate(
                """e => { const r = document.createRange(); r.selectNodeContents(e);
              const tops = new Set([...r.getClientRects()].map(x => Math.round(x.top)));
              return tops.size; }"""
            )
        )
        words = len(name.split())
        assert lines <= words, (name, lines)
    page.screenshot(path="/tmp/trips_round_form.png", full_page=True)


# --- Save answered in place: the phone shows the round at once, the server confirms it ---


class HeldSaves:
    """Every save POSTed to `path` is held until `release()` (a server whose
    answers are late): the test sees what the phone shows meanwhile."""

    def __init__(self, page, path: str) -> None:
        self.held: list = []
        self.releasing = False
        page.context.route(f"**{path}", self._route)

    def _route(self, route) -> None:
        if route.request.method != "POST" or self.releasing:
            route.continue_()
        else:
            self.held.append(route)

    def release(self) -> None:
        self.releasing = True
        for route in self.held:
            route.continue_()


def standings_shown(page) -> dict[str, tuple[str, str]]:
    """Each player's points and what the round changed, as the standings show them."""
    rows = page.locator("#round-saved #standings tr[data-player]")
    return {
        row.get_attribute("data-player"): (
            row.locator("td").nth(2).inner_text().strip(),
            row.locator("td").nth(3).inner_text().strip(),
        )
        for row in rows.all()
    }


def test_save_shows_the_standings_and_the_next_form_before_the_server_answers(phone, live_server):
    """With the server's answer held, Save already shows the round's result,
    the standings after it and round 2's empty form (its number, dealer); the
    answer, let go, confirms it; the server has the round once, with the
    reference nets."""
    page, user = phone
    session = make_session(user, players=FIVE)
    form = f"/sessions/{session.pk}/rounds/new/"
    page.goto(live_server.url + form)
    saves = HeldSaves(page, form)
    page.locator(".pick", has_text="Didi").tap()
    type_hand(page)
    page.get_by_role("button", name="Save round").tap()
    expect(page.locator("#round-saved-status")).to_have_text(
        "Round 1 saved on this phone; sending it…"
    )
    shown = {name: (net, net) for name, net in NORMAL_NETS.items()}
    expect(page.locator("#round-saved #standings th").nth(3)).to_have_text("Round 1")
    assert standings_shown(page) == shown
    # The leader first, and the money (stake 2.50) beside the points.
    first = page.locator("#round-saved #standings tbody tr").first
    expect(first).to_have_attribute("data-player", "Didi")
    expect(first.locator("td").nth(4)).to_have_text("75.00")
    expect(page.locator(".next-round")).to_have_text("Round 2 · Buwa deals")
    expect(page.locator('input[name="number"]')).to_have_value("2")
    expect(page.locator('input[name="winner"]:checked')).to_have_count(0)
    for name in FIVE:
        expect(maal(page, name)).to_have_value("")
    expect(page.locator("#preview")).to_contain_text("Fill in the round")
    assert saves.held and not Round.objects.filter(session=session).exists()
    # The screen's top is where the eye goes: the answer is said there.
    expect(page.locator("#round-saved-status")).to_be_in_viewport()
    saves.release()
    expect(page.locator("#round-saved-status")).to_have_text("Round 1 saved.")
    expect(page.locator("#round-saved-alert")).to_be_empty()
    assert standings_shown(page) == shown
    saved = Round.objects.get(session=session)
    assert {e.player.name: e.net for e in saved.entries.select_related("player")} == {
        name: int(net) for name, net in NORMAL_NETS.items()
    }
    assert violations(page, Axe()) == [], "the round form after Save, confirmed"


def test_the_servers_figures_replace_the_phones_and_say_so(phone, live_server):
    """Another phone saved a round while this save was on its way: the server
    saves this one as round 2. The screen says its figures differ, shows the
    server's standings and goes on from round 3."""
    page, user = phone
    session = make_session(user, players=FIVE)
    form = f"/sessions/{session.pk}/rounds/new/"
    page.goto(live_server.url + form)
    saves = HeldSaves(page, form)
    page.locator(".pick", has_text="Didi").tap()
    type_hand(page)
    page.get_by_role("button", name="Save round").tap()
    expect(page.locator(".next-round")).to_have_text("Round 2 · Buwa deals")
    played(session, ("Aama", {}))  # the other phone: Aama +12, everyone else −3
    saves.release()
    alert = page.locator("#round-saved-alert")
    expect(alert).to_contain_text(
        "The server's figures differ from what this phone showed: here they are as the server "
        "saved them."
    )
    expect(page.locator("#round-saved-status")).to_have_text("Round 2 saved.")
    expect(page.locator("#round-saved #standings th").nth(3)).to_have_text("Round 2")
    totals = {"Aama": "+17", "Buwa": "-13", "Didi": "+27", "Dai": "-23", "Bhai": "-8"}
    assert {name: points for name, (points, _) in standings_shown(page).items()} == totals
    expect(page.locator(".next-round")).to_have_text("Round 3 · Didi deals")
    expect(page.locator('input[name="number"]')).to_have_value("3")
    assert Round.objects.filter(session=session).count() == 2
    assert violations(page, Axe()) == [], "the round form, the server's figures shown"


def test_a_round_the_server_refuses_is_said_at_the_top_with_fix_and_discard(phone, live_server):
    """The rules changed while the save was on its way (at most 3 players a
    round): the server refuses it. The top of the screen says so with the
    server's message; the standings the phone showed go. Discard takes the
    round off the phone, and the form is round 1's again."""
    from scoring.engine import make_rules

    page, user = phone
    session = make_session(user, players=FIVE)
    form = f"/sessions/{session.pk}/rounds/new/"
    page.goto(live_server.url + form)
    saves = HeldSaves(page, form)
    page.locator(".pick", has_text="Didi").tap()
    type_hand(page)
    page.get_by_role("button", name="Save round").tap()
    expect(page.locator(".next-round")).to_have_text("Round 2 · Buwa deals")
    session.rules = make_rules("pagat", max_players=3).to_options()
    session.save()
    saves.release()
    alert = page.locator("#round-saved-alert")
    expect(alert.locator("h2")).to_have_text("Round 1 was not saved:")
    expect(alert.locator("li")).to_contain_text(["at most 3 players"])
    expect(page.locator("#round-saved #standings")).to_have_count(0)
    expect(alert).to_be_in_viewport()
    assert violations(page, Axe()) == [], "the round form, a round refused"
    expect(alert.get_by_role("link", name="Fix")).to_be_visible()
    alert.get_by_role("button", name="Discard").tap()
    expect(alert).to_be_empty()
    expect(page.locator(".next-round")).to_have_text("Round 1 · Aama deals")
    assert not Round.objects.filter(session=session).exists()


def test_an_edit_answers_in_place(phone, live_server):
    """An edit of a saved round: one round trip, no redirect, the standings
    after it on the same page, and the form ready for another change (its
    version moved with it)."""
    page, user = phone
    session = make_session(user, players=FIVE)
    (first,) = played(session, ("Aama", {}))
    edit = f"/sessions/{session.pk}/rounds/{first.pk}/edit/"
    page.goto(live_server.url + edit)
    requests: list[str] = []

    def navigations(request) -> None:
        if request.is_navigation_request():
            requests.append(f"{request.method} {request.url}")

    page.on("request", navigations)
    maal(page, "Buwa").fill("4")  # Buwa 4: T = 4; Buwa pays 4 + 3 − 20
    page.get_by_role("button", name="Save changes").tap()
    expect(page.locator("#round-saved-status")).to_have_text("Round 1 changed.")
    assert page.url == live_server.url + edit
    assert requests == []  # answered in place: no page loaded
    expect(page.locator("#round-saved #standings th").nth(3)).to_have_text("Round 1")
    expect(page.locator("#round-saved #standings tr[data-player='Buwa'] td").nth(2)).to_have_text(
        "+13"
    )
    expect(page.locator('input[name="version"]')).to_have_value("2")
    maal(page, "Buwa").fill("5")
    page.get_by_role("button", name="Save changes").tap()
    expect(page.locator("#round-saved-status")).to_have_text("Round 1 changed.")
    expect(page.locator('input[name="version"]')).to_have_value("3")
    assert {e.player.name: e.maal for e in first.entries.all()}["Buwa"] == 5


def test_the_winner_is_asked_for_as_soon_as_a_seat_sends_its_count(phone, live_server):
    """A seat's count arrives before the scorer has picked the winner: the
    red message beside "Who won?" says so at once, before any save."""
    from table import services as table_services

    page, user = phone
    session = make_session(user, players=FIVE)
    seat = table_services.make_seats(session=session)[1]
    page.goto(f"{live_server.url}/sessions/{session.pk}/rounds/new/")
    expect(page.locator("#err-winner li")).to_have_count(0)
    table_services.send_entry(
        seat=seat,
        position=1,
        values=table_services.SeatValues(
            status="seen", maal=5, tunnel=0, dhoos=False, dublees=False, maal_tally=None, tiplu=""
        ),
    )
    said = 'winner: choose the winner, or "no winner"'
    expect(page.locator("#err-winner")).to_have_text(said)
    expect(page.locator("#preview .errorlist li").first).to_have_text(said)
    expect(page.locator("#form-errors")).to_have_count(0)  # no save was tried
    page.locator(".pick", has_text="Didi").tap()
    expect(page.locator("#err-winner li")).to_have_count(0)


def test_a_count_from_a_seat_is_credited_to_its_phone_in_the_rounds_history(phone, live_server):
    """Buwa's seat sent his line; the scorer saves the round: the history
    names the scorer, and says Buwa's values came from Buwa's phone."""
    from table import services as table_services

    page, user = phone
    session = make_session(user, players=FIVE)
    seat = table_services.make_seats(session=session)[1]
    page.goto(f"{live_server.url}/sessions/{session.pk}/rounds/new/")
    table_services.send_entry(
        seat=seat,
        position=1,
        values=table_services.SeatValues(
            status="seen", maal=2, tunnel=0, dhoos=False, dublees=False, maal_tally=None, tiplu=""
        ),
    )
    expect(row(page, "Buwa").locator("[data-seat-note]")).to_contain_text("Sent from Buwa’s phone")
    page.locator(".pick", has_text="Didi").tap()
    type_hand(page)
    page.get_by_role("button", name="Save round").tap()
    expect(page.locator("#round-saved-status")).to_have_text("Round 1 saved.")
    expect(row(page, "Buwa").locator("[data-seat-note]")).to_have_count(0)  # the next round's
    round_ = Round.objects.get(session=session)
    page.goto(f"{live_server.url}/sessions/{session.pk}/rounds/{round_.pk}/changes/")
    change = page.locator(".change-create")
    expect(change).to_contain_text(user.username)
    expect(change.locator('tr:has(th:text-is("Buwa")) .from-seat')).to_have_text(
        "from Buwa’s phone: seen · maal 2"
    )
    expect(change.locator(".from-seat")).to_have_count(1)
