"""One breakdown markup: the preview worked out on the phone with no network
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

from collections.abc import Callable

import pytest
from django.conf import settings
from playwright.sync_api import expect

from scoring import services
from scoring.engine import Entry, RoundInput
from scoring.models import Round

from ..web_helpers import make_session
from .conftest import TOUCH_PHONE
from .test_offline import goto, open_kept, session_page, wait_until, wait_until_all_sent

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ("Aama", "Buwa", "Didi", "Dai")


def row(page, name: str):
    return page.locator(f'.player-row[data-player="{name}"]')


def maal(page, points: dict[str, int]) -> None:
    for name, value in points.items():
        row(page, name).locator('input[name$="-maal"]').fill(str(value))


def unseen(page, name: str) -> None:
    row(page, name).locator("label", has=page.locator('input[value="unseen"]')).tap()


def more(page, name: str):
    line = row(page, name)
    if line.locator("details.more[open]").count() == 0:
        line.locator("summary").tap()
    return line


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
        services.add_round(session, round_, players=list(session.players.all()))
    form = f"/sessions/{session.pk}/rounds/new/"
    open_kept(page, live_server, f"/sessions/{session.pk}/", form)

    # No network: the round entered on the form kept on the phone.
    page.context.set_offline(True)
    goto(page, live_server.url + form)
    fill(page)
    expect(page.locator("#preview .offline-note")).to_be_visible()
    expect(page.locator(f"#preview .breakdown {mark}").first).to_be_visible()
    phone = read(page, "#preview")
    # Saved on the phone.
    page.locator('.sticky-save button[type="submit"]').tap()
    expect(page).to_have_url(session_page(session))

    # The network back: the round is sent, and its page is the server's breakdown.
    page.context.set_offline(False)
    wait_until(page, "async () => navigator.onLine")
    expect(page.locator(".offline-queue .queued-round")).to_have_count(0)
    wait_until_all_sent(page)
    saved = Round.objects.get(session=session, number=len(before) + 1)
    goto(page, live_server.url + f"/sessions/{session.pk}/rounds/{saved.pk}/")
    expect(page.locator(f"main .breakdown {mark}").first).to_be_visible()
    server = read(page, "main")

    assert phone == server
    assert len(server["in words"]) == len(PLAYERS) - (name == "sits out")
