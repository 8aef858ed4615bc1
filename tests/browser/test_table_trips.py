"""What the table still tripped on (issue 23, point 4), each on the phone the
issue measures with: 390×844, touch.

Figures (pagat: seen 3, unseen 10, dublee bonus 5; five players, all seen):
Didi wins; Aama 5, Buwa 2, Didi 7, Dai 0, Bhai 3. T = 17, n = 5.
A normal win: nets +5, −10, +30, −20, −5 (tests/browser/test_round_table.py).
A dublee win adds the bonus 5 to each loser's w = 8: Aama 17 + 8 − 25 = 0,
Buwa 17 + 8 − 10 = 15, Dai 17 + 8 − 0 = 25, Bhai 17 + 8 − 15 = 10; Didi +50.
"""

from __future__ import annotations

import datetime

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from scoring import services
from scoring.engine import Entry, RoundInput
from scoring.models import Round

from ..web_helpers import make_session
from .test_axe import violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
TOUCH = {"has_touch": True, "is_mobile": True}
FIVE = ("Aama", "Buwa", "Didi", "Dai", "Bhai")
HAND = {"Aama": 5, "Buwa": 2, "Didi": 7, "Dai": 0, "Bhai": 3}
DUBLEE_NETS = {"Aama": "0", "Buwa": "-15", "Didi": "+50", "Dai": "-25", "Bhai": "-10"}
NORMAL_NETS = {"Aama": "+5", "Buwa": "-10", "Didi": "+30", "Dai": "-20", "Bhai": "-5"}


@pytest.fixture
def phone(logged_in_page):
    page, user = logged_in_page(viewport=PHONE, **TOUCH)
    return page, user


def row(page, name: str):
    return page.locator(f'.player-row[data-player="{name}"]')


def type_hand(page) -> None:
    for name, points in HAND.items():
        if points:
            row(page, name).locator('input[name$="-maal"]').tap()
            page.keyboard.type(str(points))


def played(session, *rounds: tuple[str | None, dict[str, bool]]) -> list[Round]:
    """Rounds with every player seen and maal 0: (winner, {name: dhoos})."""
    names = [p.name for p in session.players.all()]
    return [
        services.add_round(
            session,
            RoundInput(
                entries=tuple(Entry(n, dhoos=dhoos.get(n, False)) for n in names),
                winner=winner,
            ),
        )
        for winner, dhoos in rounds
    ]


# --- the dublee mix-up --------------------------------------------------------------------------


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


def test_without_the_script_the_mix_up_is_refused_at_the_win_type(phone, live_server):
    """No script (the server alone): the winner's dublees with the win type left at
    Normal is refused, the message beside the win type and in the summary."""
    page, user = phone
    session = make_session(user, players=FIVE)
    page.context.route("**/static/js/round.js*", lambda route: route.fulfill(body=""))
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


# --- after Save ---------------------------------------------------------------------------------


def test_after_save_every_player_and_what_the_round_changed_come_first(phone, live_server):
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
    # Every player on the first screen, above the buttons.
    for name in FIVE:
        box = standings.locator(f'tr[data-player="{name}"]').bounding_box()
        assert box is not None and box["y"] + box["height"] <= 844, name
    enter = page.get_by_role("link", name="Enter round")
    assert standings.bounding_box()["y"] < enter.bounding_box()["y"]
    # What round 2 changed, and the totals after it (Didi +30 and −3 from round 1).
    changed = {"Aama": "+5", "Buwa": "-10", "Didi": "+30", "Dai": "-20", "Bhai": "-5"}
    totals = {"Aama": "+17", "Buwa": "-13", "Didi": "+27", "Dai": "-23", "Bhai": "-8"}
    for name in FIVE:
        cells = standings.locator(f'tr[data-player="{name}"] td')
        expect(cells.nth(2)).to_have_text(totals[name])
        expect(cells.nth(3)).to_have_text(changed[name])
    expect(standings.locator("th").nth(3)).to_have_text("Round 2")
    assert violations(page, Axe()) == [], "the session page right after a save"
    # The standings show once; a later visit (no message) shows the usual page.
    assert page.locator(".standings").count() == 1
    page.reload()
    expect(page.locator(".standings-saved")).to_have_count(0)
    expect(page.locator("#standings")).to_be_visible()


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


# --- delete and restore -------------------------------------------------------------------------


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


# --- one name per page --------------------------------------------------------------------------


def test_each_page_has_one_name_and_the_buttons_say_it(phone, live_server):
    """The round search and the change log are no longer both "History": each
    link names the page it opens, and no two of them share a title."""
    page, user = phone
    session = make_session(user, players=FIVE)
    (round_,) = played(session, ("Aama", {}))
    titles = {}
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    page.get_by_role("link", name="Changes").tap()
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


# --- history filters ----------------------------------------------------------------------------


def test_history_filters_by_evening_and_by_dhoos(phone, live_server):
    page, user = phone
    dashain = make_session(user, players=FIVE, name="Dashain")
    tihar = make_session(user, players=FIVE, name="Tihar")
    type(dashain).objects.filter(pk=dashain.pk).update(played_on=datetime.date(2026, 10, 2))
    type(tihar).objects.filter(pk=tihar.pk).update(played_on=datetime.date(2026, 11, 9))
    played(dashain, ("Aama", {}), ("Buwa", {"Dai": True}), ("Didi", {}))
    played(tihar, ("Bhai", {"Aama": True}), ("Dai", {}))
    page.goto(f"{live_server.url}/history/")
    found = page.locator("#history-results [role=status]")
    expect(found).to_have_text("5 rounds found")
    page.get_by_label("Evening").select_option(label="Dashain · 2 Oct 2026")
    expect(found).to_have_text("3 rounds found")
    page.get_by_label("Rounds with dhoos only").tap()
    expect(found).to_have_text("1 round found")
    item = page.locator(".history-item")
    expect(item).to_contain_text("Dashain, round 2")
    expect(item.locator(".tag.dhoos")).to_have_text("Dai: dhoos")
    assert violations(page, Axe()) == [], "history filtered by evening and dhoos"
    page.get_by_label("Evening").select_option(label="Any evening")
    expect(found).to_have_text("2 rounds found")  # Dai's in Dashain, Aama's in Tihar


# --- paid and pending dhoos ---------------------------------------------------------------------


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


# --- the maal box and names ---------------------------------------------------------------------


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


# --- the new session's preset -------------------------------------------------------------------


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


def test_a_players_sessions_fit_the_phone_in_both_languages(phone, live_server):
    """ne-review-2 (not language): a player's sessions table wrapped its name and
    dates over seven lines and cut the money column; the money now goes under the
    points on a phone, and the table needs no sideways swipe."""
    page, user = phone
    names = ("Hajurba", "Hajurama", "Thulo Buwa", "Sano Aama", "Kanchha")
    session = make_session(user, players=names, stake="1000", name="Dashain at Thulo Buwa's")
    services.add_round(
        session,
        RoundInput(entries=tuple(Entry(n, maal=30) for n in names), winner="Hajurama"),
    )
    for language in ("en", "ne"):
        page.goto(f"{live_server.url}/players/Hajurba/")
        if language == "ne":
            page.locator('.lang-switch button[value="ne"]').tap()
            expect(page.locator("html")).to_have_attribute("lang", "ne")
        table = page.locator(".player-sessions")
        widths = table.evaluate("e => [e.parentElement.scrollWidth, e.parentElement.clientWidth]")
        assert widths[0] <= widths[1], (language, widths)
        money = "NPR -3,000.00" if language == "en" else "रु. -3,000"  # 3 points lost
        expect(table.locator("tbody td").nth(3)).to_contain_text(money)
