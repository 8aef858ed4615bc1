"""The preview worked out on the phone (static/js/offline-preview.js) gives each
player the notes the server's preview gives, word for word, on a Nepali page too:
settlement.js gives the engine's own message ids, which the page's catalogue
translates (a note without words in the page's language would be left out).
Every payment in words is the server's, word for word, and so is the whole
breakdown (a tunnel held unseen, a round with no winner). A round with several
problems gets the server's list of them, line for line, and numbers are grouped
as the server groups them.

Nepal rules (murder, dhoos to the next winner, no seen payment for who saw by
dublees). Round 1: Dai given dhoos, Didi wins. Round 2, on the form: Aama wins
with 5; Buwa unseen with 4 (murdered); Didi 7, saw by dublees; Dai 0 pays the
dhoos of round 1 to Aama.

Further down, RULES.md v3 (section 3a) in the phone's preview: under
`unseen_pairs = skip` and a dead hand (`dhoos_pays_total`) the phone's
breakdown is the server's, figure for figure (T_seen and k·S on an unseen
loser's line, the dead hand's points moved to the winner), and so are the
notes and the payments in words, in English and Nepali, at 390×844.

Round on the form: Aama wins with 20; Buwa unseen with 5, Didi unseen with 3
(the two do not settle with each other); Dai seen with 4, given dhoos (a dead
hand: his 4 go to Aama).

Last, one breakdown markup: the preview worked out on the phone with no network
(static/js/offline-preview.js fills the server's own _breakdown.html, rendered
into a <template>) reads, word for word and figure for figure, as the
round's page the server renders once that round is saved: every figure, tag,
formula, note, dhoos line and payment in words. At 390×844 with touch.

Each round is entered with the network cut, its preview read, then saved on the
phone; the network returns, the round is sent, and its page is read. The
round's page gives each payment in words under its player, the preview folds
them into one "In words" (opened here): they are compared apart.

Rounds (four players Aama, Buwa, Didi, Dai):
- dhoos: Didi wins with 7; Aama 5, Buwa 2; Dai given dhoos (pagat).
- dublee: Buwa wins a dublee win with 9, by dublees; Aama unseen 4; Didi unseen
  6 holds a tunnel of 3, void unseen: 0/3 (pagat).
- no winner: nobody wins, Aama given dhoos (pagat).
- seen only: unseen_pairs = skip, a dead hand: Aama wins with 20; Buwa and Didi
  unseen (T_seen and k·S on their lines); Dai seen 4 given dhoos.
- sits out (Nepali): nepal rules with dhoos to the next round's winner; Dai given
  dhoos in round 1, Didi won; in round 2 Dai sits out and pays it to Aama, who
  wins (a line below the players).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.utils import translation
from playwright.sync_api import expect

from scoring import services
from scoring.engine import Entry, RoundInput
from scoring.models import Round

from ..web_helpers import make_session
from .conftest import TOUCH_PHONE
from .test_axe import violations
from .test_offline import (
    Line,
    goto,
    open_kept,
    saved_here,
    to_the_session,
    wait_until,
    wait_until_all_sent,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ("Aama", "Buwa", "Didi", "Dai")
# Each player's note in round 2, as the engine says it.
NOTES = {
    "Aama": (
        "dhoos from round %(round)s: %(amount)s from %(name)s",
        {"round": 1, "amount": 15, "name": "Dai"},
    ),
    "Buwa": ("maal %(points)s void: unseen (murder)", {"points": 4}),
    "Didi": ("saw by dublees: no seen payment", {}),
    "Dai": (
        "dhoos from round %(round)s: pays %(amount)s to %(name)s",
        {"round": 1, "amount": 15, "name": "Aama"},
    ),
}


def a_phone_on_the_round_form(
    logged_in_page, live_server, language="en", preset="pagat", rounds=()
):
    """A phone (390×844, touch) reading `language`, on the new-round form of a
    session of PLAYERS under `preset` with `rounds` played, which it has kept
    (with the session page) for offline: (page, the form's address)."""
    page, user = logged_in_page(**TOUCH_PHONE)
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    session = make_session(user, players=PLAYERS, preset=preset)
    for round_ in rounds:
        services.add_round(session=session, round_input=round_, players=list(session.players.all()))
    form = f"/sessions/{session.pk}/rounds/new/"
    open_kept(page, live_server, f"/sessions/{session.pk}/", form)
    expect(page.locator("html")).to_have_attribute("lang", language)
    return page, form


def servers_preview(page) -> None:
    """The server's own preview of the round as the form holds it (round_preview,
    as a page asks it with htmx), put in the preview's place: what the phone's
    must read as, word for word. The round form itself never asks it: it works
    the preview out on the phone at each keystroke."""
    page.evaluate(
        """async () => {
          const form = document.getElementById("round-form");
          const url = location.pathname.replace(/rounds\\/.*$/, "rounds/preview/");
          const answer = await fetch(url, {
            method: "POST",
            body: new FormData(form),
            headers: { "HX-Request": "true" },
            credentials: "same-origin",
          });
          const part = document.createElement("template");
          part.innerHTML = await answer.text();
          part.content.querySelectorAll("[hx-swap-oob]").forEach((node) => node.remove());
          document.getElementById("preview").replaceChildren(part.content);
        }"""
    )


def offline_on(page, live_server, form: str) -> None:
    """The network gone, the kept form opened again from the phone, empty: the
    draft of what was typed with the network is dropped (it would fill the form).
    The phone knows it is offline, as a phone does, whatever this Chromium's own
    emulation makes navigator.onLine say (Line, "page")."""
    page.evaluate("() => localStorage.clear()")
    Line(page, live_server, "page").down()
    goto(page, live_server.url + form)


def no_axe_violation(page, where: str) -> None:
    assert violations(page, Axe()) == [], where


def fill_round_2(page) -> None:
    page.locator(".pick", has_text="Aama").tap()
    for name, points in {"Aama": 5, "Buwa": 4, "Didi": 7}.items():
        page.locator(f'.player-row[data-player="{name}"] input[name$="-maal"]').fill(str(points))
    buwa = page.locator('.player-row[data-player="Buwa"]')
    buwa.locator("label", has=page.locator('input[value="unseen"]')).tap()
    didi = page.locator('.player-row[data-player="Didi"]')
    didi.locator("label.dublees").tap()


def in_words(page) -> list[str]:
    """Each player's payment in words, under the preview's "In words"."""
    texts = page.locator("#preview .in-words").all_text_contents()
    return [" ".join(text.split()) for text in texts]


def notes(page) -> dict[str, list[str]]:
    return {
        name: page.locator(f'#preview li[data-player="{name}"] .notes li').all_inner_texts()
        for name in PLAYERS
    }


@pytest.mark.parametrize("language", ["en", "ne"])
def test_the_phone_gives_the_servers_notes(logged_in_page, live_server, language):
    entries = tuple(Entry(name, "seen", 3, dhoos=name == "Dai") for name in PLAYERS)
    page, form = a_phone_on_the_round_form(
        logged_in_page,
        live_server,
        language,
        preset="nepal",
        rounds=[RoundInput(entries=entries, winner="Didi")],
    )

    # The server's preview.
    fill_round_2(page)
    servers_preview(page)
    expect(page.locator('#preview li[data-player="Didi"] .notes li')).to_have_count(1)
    for name in PLAYERS:
        expect(page.locator(f'#preview li[data-player="{name}"] .notes li')).to_have_count(1)
    expect(page.locator("#preview .offline-note")).to_have_count(0)
    server = notes(page)
    server_words = in_words(page)
    assert len(server_words) == len(PLAYERS)

    # Without: worked out on the phone, from the kept copy of the form.
    offline_on(page, live_server, form)
    fill_round_2(page)
    expect(page.locator("#preview .offline-note")).to_be_visible()
    expect(page.locator('#preview li[data-player="Didi"] .notes li')).to_have_count(1)
    assert notes(page) == server
    # Every payment in words too, word for word.
    expect(page.locator("#preview .in-words")).to_have_count(len(PLAYERS))
    assert in_words(page) == server_words
    with translation.override(language):
        said = {name: [translation.gettext(id_) % params] for name, (id_, params) in NOTES.items()}
    assert server == said
    if language == "ne":
        assert said["Buwa"] != ["maal 4 void: unseen (murder)"]  # in Nepali indeed


def fill_a_round_with_three_problems(page) -> None:
    # Didi wins but is then marked unseen; Aama's maal has a typo; Buwa's is too big.
    page.locator(".pick", has_text="Didi").tap()
    didi = page.locator('.player-row[data-player="Didi"]')
    didi.locator("label", has=page.locator('input[value="unseen"]')).tap()
    page.locator('.player-row[data-player="Aama"] input[name$="-maal"]').fill("5x")
    page.locator('.player-row[data-player="Buwa"] input[name$="-maal"]').fill("20000")


@pytest.mark.parametrize("language", ["en", "ne"])
def test_the_phone_lists_every_problem_the_server_does(logged_in_page, live_server, language):
    page, form = a_phone_on_the_round_form(logged_in_page, live_server, language)
    problems = page.locator("#preview .errorlist li")

    # The server's preview.
    fill_a_round_with_three_problems(page)
    servers_preview(page)
    expect(problems).to_have_count(3)
    expect(page.locator("#preview .offline-note")).to_have_count(0)
    server = problems.all_inner_texts()

    # Without: the same list, worked out on the phone.
    offline_on(page, live_server, form)
    fill_a_round_with_three_problems(page)
    expect(page.locator("#preview .offline-note")).to_be_visible()
    expect(problems).to_have_count(3)
    assert problems.all_inner_texts() == server
    no_axe_violation(page, f"the phone's list of problems ({language})")
    with translation.override(language):
        maal, status = translation.gettext("maal"), translation.gettext("status")
        assert server[0].startswith(f"Aama, {maal}: ")
        assert server[1] == f"Buwa, {maal}: " + translation.gettext(
            "%(value)s is more than %(max)s points; check the number"
        ) % {"value": 20000, "max": "10,000"}
        assert server[2].startswith(f"Didi, {status}: ")


def test_the_phone_groups_numbers_as_the_server_does(logged_in_page, live_server):
    page, form = a_phone_on_the_round_form(logged_in_page, live_server)
    offline_on(page, live_server, form)
    page.locator(".pick", has_text="Didi").tap()
    for name, points in {"Aama": 9000, "Didi": 7000}.items():
        page.locator(f'.player-row[data-player="{name}"] input[name$="-maal"]').fill(str(points))
    expect(page.locator("#preview .offline-note")).to_be_visible()
    # T = 16,000; Buwa (0) pays 16,000 + 3 − 0 = 16,003; Aama pays 16,003 − 36,000.
    expect(page.locator("#preview .figures .figure").first).to_have_text("T = 16,000")
    buwa = page.locator('#preview li[data-player="Buwa"]')
    expect(buwa.locator(".net")).to_have_text("-16,003")
    expect(buwa.locator(".formula b")).to_have_text("16,003")


def test_in_words_opens_on_the_first_tap_after_typing_offline(logged_in_page, live_server):
    page, form = a_phone_on_the_round_form(logged_in_page, live_server)
    offline_on(page, live_server, form)
    page.locator(".pick", has_text="Didi").tap()
    page.locator('.player-row[data-player="Aama"] input[name$="-maal"]').tap()
    page.keyboard.type("5")
    aama = page.locator('#preview li[data-player="Aama"] .net')
    expect(aama).to_have_text("+12")  # 5 + 3 − 4 × 5
    words = page.locator("#preview details.in-words-all")
    words.locator("summary").tap()
    expect(words).to_have_attribute("open", "")
    expect(words.locator(".in-words").first).to_be_visible()


def a_round_with_a_tunnel(page) -> None:
    # Didi wins; Buwa unseen holds a tunnel of 3 (void unseen under pagat): 0/3.
    page.locator(".pick", has_text="Didi").tap()
    page.locator('.player-row[data-player="Aama"] input[name$="-maal"]').fill("12")
    buwa = page.locator('.player-row[data-player="Buwa"]')
    buwa.locator("label", has=page.locator('input[value="unseen"]')).tap()
    buwa.locator('input[name$="-tunnel"]').fill("3")
    expect(page.locator('#preview li[data-player="Buwa"] .calc')).to_contain_text("0/3")


def a_round_with_no_winner(page) -> None:
    # Nobody wins; Dai gave dhoos: only the dhoos is paid.
    page.locator("label", has=page.locator("#winner-none")).tap()
    dai = page.locator('.player-row[data-player="Dai"]')
    dai.locator("label.dhoos").tap()
    expect(page.locator('#preview li[data-player="Dai"] .tag.dhoos')).to_have_count(1)


def breakdown_text(page) -> str:
    # Every word and figure, in order; spaces left out (markup places them differently).
    return "".join(page.locator("#preview .breakdown").text_content().split())


@pytest.mark.parametrize("language", ["en", "ne"])
@pytest.mark.parametrize("fill", [a_round_with_a_tunnel, a_round_with_no_winner])
def test_the_phone_shows_the_servers_breakdown(logged_in_page, live_server, language, fill):
    page, form = a_phone_on_the_round_form(logged_in_page, live_server, language)
    fill(page)
    servers_preview(page)
    expect(page.locator("#preview .breakdown")).to_have_count(1)
    expect(page.locator("#preview .offline-note")).to_have_count(0)
    server = breakdown_text(page)

    offline_on(page, live_server, form)
    fill(page)
    expect(page.locator("#preview .offline-note")).to_be_visible()
    assert breakdown_text(page) == server
    if language == "en":
        assert "".join(SAID[fill].split()) in server
    words = page.locator("#preview details.in-words-all")
    words.locator("summary").tap()
    expect(words.locator(".in-words").first).to_be_visible()
    no_axe_violation(page, f"the phone's breakdown, in words open ({language})")


# What each round's breakdown says in particular, in English.
SAID = {
    # T = 12; Buwa's tunnel void unseen; Didi collects from all three.
    a_round_with_a_tunnel: "S = 0 (maal 0 + tunnel 0/3)",
    a_round_with_no_winner: "No winner: only dhoos is paid.",
}


def fill_v3_round(page) -> None:
    page.locator(".pick", has_text="Aama").tap()
    for name, points in {"Aama": 20, "Buwa": 5, "Didi": 3, "Dai": 4}.items():
        page.locator(f'.player-row[data-player="{name}"] input[name$="-maal"]').fill(str(points))
    for name in ("Buwa", "Didi"):
        row = page.locator(f'.player-row[data-player="{name}"]')
        row.locator("label", has=page.locator('input[value="unseen"]')).tap()
    dai = page.locator('.player-row[data-player="Dai"]')
    dai.locator("label.dhoos").tap()
    expect(page.locator('#preview li[data-player="Dai"] .tag.dhoos')).to_have_count(1)
    expect(page.locator('#preview li[data-player="Buwa"] .calc')).to_contain_text("k·S")


@pytest.mark.parametrize("language", ["en", "ne"])
def test_the_phone_settles_v3_as_the_server_does(logged_in_page, live_server, language):
    page, user = logged_in_page(**TOUCH_PHONE)
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    session = make_session(
        user, players=PLAYERS, unseen_pairs="skip", dhoos_pays_total=True, dhoos_payee="winner"
    )
    form = f"/sessions/{session.pk}/rounds/new/"
    open_kept(page, live_server, f"/sessions/{session.pk}/", form)

    fill_v3_round(page)
    servers_preview(page)
    expect(page.locator("#preview .offline-note")).to_have_count(0)
    server = breakdown_text(page)
    server_notes = notes(page)
    server_words = in_words(page)
    if language == "en":
        # T_seen = Aama 24 (her 20 and Dai's 4) + Dai 0, k = 2: Buwa pays 24 + 10 − 10.
        assert "k·S=10" in server and "(24+10−10)×1=24" in server
        assert server_notes["Dai"][0] == "dead hand: 4 to Aama"

    offline_on(page, live_server, form)
    fill_v3_round(page)
    expect(page.locator("#preview .offline-note")).to_be_visible()
    assert breakdown_text(page) == server
    assert notes(page) == server_notes
    assert in_words(page) == server_words
    no_axe_violation(page, f"the phone's v3 breakdown ({language})")


def sit_out_dai(page) -> None:
    page.locator('.player-row[data-player="Dai"] label.plays').tap()
    page.locator(".pick", has_text="Aama").tap()
    page.locator('.player-row[data-player="Aama"] input[name$="-maal"]').fill("6")
    expect(page.locator("#preview .breakdown-outside li")).to_have_count(1)
    # The preview of the round as typed to its last figure (T, every counted
    # point, is Aama's 6), not one still on its way from before it.
    expect(page.locator("#preview .breakdown")).to_contain_text(re.compile(r"T = 6\b"))


@pytest.mark.parametrize("language", ["en", "ne"])
def test_the_phone_books_a_dhoos_from_a_player_who_sits_out(logged_in_page, live_server, language):
    """next_round_winner: Dai, given dhoos in round 1, sits out round 2, which Aama
    wins: both previews list him paying Aama, word for word."""
    page, user = logged_in_page(**TOUCH_PHONE)
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    session = make_session(user, players=PLAYERS, dhoos_payee="next_round_winner")
    first = tuple(Entry(name, "seen", 3, dhoos=name == "Dai") for name in PLAYERS)
    services.add_round(
        session=session,
        round_input=RoundInput(first, winner="Didi"),
        players=list(session.players.all()),
    )
    form = f"/sessions/{session.pk}/rounds/new/"
    open_kept(page, live_server, f"/sessions/{session.pk}/", form)

    sit_out_dai(page)
    servers_preview(page)
    expect(page.locator("#preview .offline-note")).to_have_count(0)
    server = breakdown_text(page)
    if language == "en":
        assert "Daisitsthisroundoutandpays Aama15:dhoosfromround1.".replace(" ", "") in server

    offline_on(page, live_server, form)
    sit_out_dai(page)
    expect(page.locator("#preview .offline-note")).to_be_visible()
    assert breakdown_text(page) == server
    no_axe_violation(page, f"the phone's breakdown with a player sitting out ({language})")


def row(page, name: str):
    return page.locator(f'.player-row[data-player="{name}"]')


def maal(page, points: dict[str, int]) -> None:
    for name, value in points.items():
        row(page, name).locator('input[name$="-maal"]').fill(str(value))


def unseen(page, name: str) -> None:
    row(page, name).locator("label", has=page.locator('input[value="unseen"]')).tap()


def more(page, name: str):
    """The player's line: tunnel, dhoos and dublees are all on it."""
    return row(page, name)


def wins(page, name: str) -> None:
    page.locator(".pick", has_text=name).tap()


def a_dhoos(page) -> None:
    wins(page, "Didi")
    maal(page, {"Aama": 5, "Buwa": 2, "Didi": 7})
    more(page, "Dai").locator("label.dhoos").tap()


def a_dublee_win(page) -> None:
    wins(page, "Buwa")
    maal(page, {"Aama": 4, "Buwa": 9, "Didi": 6})
    unseen(page, "Aama")
    more(page, "Buwa").locator("label.dublees").tap()
    page.locator("label", has=page.locator("#win_type-dublee")).tap()
    unseen(page, "Didi")
    more(page, "Didi").locator('input[name$="-tunnel"]').fill("3")


def no_winner(page) -> None:
    page.locator("label", has=page.locator("#winner-none")).tap()
    maal(page, {"Buwa": 3})
    more(page, "Aama").locator("label.dhoos").tap()


def seen_only(page) -> None:
    wins(page, "Aama")
    maal(page, {"Aama": 20, "Buwa": 5, "Didi": 3, "Dai": 4})
    unseen(page, "Buwa")
    unseen(page, "Didi")
    more(page, "Dai").locator("label.dhoos").tap()


def sits_out(page) -> None:
    wins(page, "Aama")
    maal(page, {"Aama": 5, "Buwa": 4, "Didi": 7})
    row(page, "Dai").locator("label.plays").click()


# name: (fill, the session's rules, rounds before, the page's language, what
# the breakdown shows once the fill's last tap is in it)
ROUNDS: dict[str, tuple[Callable, dict, tuple[RoundInput, ...], str, str]] = {
    "dhoos": (a_dhoos, {"preset": "pagat"}, (), "en", ".tag.dhoos"),
    "dublee": (
        a_dublee_win,
        {"preset": "pagat"},
        (),
        "en",
        "li[data-player='Didi'] .calc:has-text('0/3')",
    ),
    "no winner": (no_winner, {"preset": "pagat"}, (), "en", "li[data-player='Aama'] .tag.dhoos"),
    "seen only": (
        seen_only,
        {"unseen_pairs": "skip", "dhoos_pays_total": True, "dhoos_payee": "winner"},
        (),
        "en",
        "li[data-player='Dai'] .tag.dhoos",
    ),
    "sits out": (
        sits_out,
        {"preset": "nepal", "dhoos_payee": "next_round_winner"},
        (
            RoundInput(
                entries=tuple(Entry(name, "seen", 3, dhoos=name == "Dai") for name in PLAYERS),
                winner="Didi",
            ),
        ),
        "ne",
        ".breakdown-outside li",
    ),
}


def read(page, where: str) -> dict[str, object]:
    """The breakdown under `where` as a reader sees it on a round's page: its
    visible text (each run of spaces and line breaks as one space) without the
    payments in words, and those, one per player, as shown once "In words" is
    opened. The round form shows its preview compact (the formula's parts and
    the line on how scoring works hidden by the form's styles): the preview is
    read out of the form, as the round's page shows a breakdown."""
    page.locator(f"{where} .breakdown").evaluate(
        "(box) => { box.id = 'read-here'; document.querySelector('main').append(box); }"
    )
    breakdown = page.locator("main > #read-here")
    folded = breakdown.locator("details.in-words-all")
    if folded.count():
        folded.evaluate("(details) => { details.open = true; }")
    words = breakdown.locator(".in-words")
    expect(words.first).to_be_visible()
    said = [" ".join(text.split()) for text in words.all_inner_texts()]
    # Out of the page, to read the rest: the words are compared apart.
    breakdown.evaluate(
        "(box) => box.querySelectorAll('.in-words, .in-words-all').forEach((n) => n.remove())"
    )
    return {"text": " ".join(breakdown.inner_text().split()), "in words": said}


@pytest.mark.parametrize("name", ROUNDS)
def test_the_phones_breakdown_is_the_saved_rounds(logged_in_page, live_server, name):
    fill, rules, before, language, mark = ROUNDS[name]
    page, user = logged_in_page(**TOUCH_PHONE)
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    session = make_session(user, players=PLAYERS, **rules)
    for round_ in before:
        services.add_round(session=session, round_input=round_, players=list(session.players.all()))
    form = f"/sessions/{session.pk}/rounds/new/"
    open_kept(page, live_server, f"/sessions/{session.pk}/", form)

    # No network: the round entered on the form kept on the phone.
    line = Line(page, live_server, "page")
    line.down()
    goto(page, live_server.url + form)
    fill(page)
    expect(page.locator("#preview .offline-note")).to_be_visible()
    expect(page.locator(f"#preview .breakdown {mark}").first).to_be_visible()
    phone = read(page, "#preview")
    # Saved on the phone.
    saved_here(page)
    to_the_session(page, live_server, session)

    # The network back: the round is sent, and its page is the server's breakdown.
    line.up()
    wait_until(page, "async () => navigator.onLine")
    expect(page.locator(".offline-queue .queued-round")).to_have_count(0)
    wait_until_all_sent(page)
    saved = Round.objects.get(session=session, number=len(before) + 1)
    goto(page, live_server.url + f"/sessions/{session.pk}/rounds/{saved.pk}/")
    expect(page.locator(f"main .breakdown {mark}").first).to_be_visible()
    server = read(page, "main")

    assert phone == server
    assert len(server["in words"]) == len(PLAYERS) - (name == "sits out")
