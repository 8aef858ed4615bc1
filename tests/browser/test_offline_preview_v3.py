"""RULES.md v3 (section 3a) in the preview worked out on the phone: under
`unseen_pairs = skip` and a dead hand (`dhoos_pays_total`) the phone's
breakdown is the server's, figure for figure (T_seen and k·S on an unseen
loser's line, the dead hand's points moved to the winner), and so are the
notes and the payments in words, in English and Nepali, at 390×844.

Round on the form: Aama wins with 20; Buwa unseen with 5, Didi unseen with 3
(the two do not settle with each other); Dai seen with 4, given dhoos (a dead
hand: his 4 go to Aama)."""

from __future__ import annotations

import pytest
from django.conf import settings
from playwright.sync_api import expect

from scoring import services
from scoring.engine import Entry, RoundInput

from ..web_helpers import make_session
from .conftest import TOUCH_PHONE
from .test_offline import open_kept
from .test_offline_preview_notes import (
    PLAYERS,
    breakdown_text,
    in_words,
    no_axe_violation,
    offline_on,
)
from .test_offline_preview_notes import notes as notes_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def fill(page) -> None:
    page.locator(".pick", has_text="Aama").tap()
    for name, points in {"Aama": 20, "Buwa": 5, "Didi": 3, "Dai": 4}.items():
        page.locator(f'.player-row[data-player="{name}"] input[name$="-maal"]').fill(str(points))
    for name in ("Buwa", "Didi"):
        row = page.locator(f'.player-row[data-player="{name}"]')
        row.locator("label", has=page.locator('input[value="unseen"]')).tap()
    dai = page.locator('.player-row[data-player="Dai"]')
    dai.locator("summary").tap()
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

    fill(page)
    expect(page.locator("#preview .offline-note")).to_have_count(0)
    server = breakdown_text(page)
    server_notes = notes_of(page)
    server_words = in_words(page)
    if language == "en":
        # T_seen = Aama 24 (her 20 and Dai's 4) + Dai 0, k = 2: Buwa pays 24 + 10 − 10.
        assert "k·S=10" in server and "(24+10−10)×1=24" in server
        assert server_notes["Dai"][0] == "dead hand: 4 to Aama"

    offline_on(page, live_server, form)
    fill(page)
    expect(page.locator("#preview .offline-note")).to_be_visible()
    assert breakdown_text(page) == server
    assert notes_of(page) == server_notes
    assert in_words(page) == server_words
    no_axe_violation(page, f"the phone's v3 breakdown ({language})")


def sit_out_dai(page) -> None:
    page.locator('.player-row[data-player="Dai"] label.plays').tap()
    page.locator(".pick", has_text="Aama").tap()
    page.locator('.player-row[data-player="Aama"] input[name$="-maal"]').fill("6")
    expect(page.locator("#preview .breakdown-outside li")).to_have_count(1)


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
        session, RoundInput(first, winner="Didi"), players=list(session.players.all())
    )
    form = f"/sessions/{session.pk}/rounds/new/"
    open_kept(page, live_server, f"/sessions/{session.pk}/", form)

    sit_out_dai(page)
    expect(page.locator("#preview .offline-note")).to_have_count(0)
    server = breakdown_text(page)
    if language == "en":
        assert "Daisitsthisroundoutandpays Aama15:dhoosfromround1.".replace(" ", "") in server

    offline_on(page, live_server, form)
    sit_out_dai(page)
    expect(page.locator("#preview .offline-note")).to_be_visible()
    assert breakdown_text(page) == server
    no_axe_violation(page, f"the phone's breakdown with a player sitting out ({language})")
