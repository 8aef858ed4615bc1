"""A family's festival, played through the browser on 390x844 phones, in
English and in Nepali: the owner makes the members' lasting links, Aama keeps
hers open on her phone between evenings, the first evening starts and her
phone opens her seat in it by itself; the seats are drawn (the cards, the
dealer marked on every phone), a round is entered with Aama's count from her
phone; late at night the stake goes up from round 2 on, and the standings,
settle-up and the group's balances follow it; the evening ends and her phone
says so; the next evening starts on the last one's rules, stake and drawn
seating, and her phone follows to it.

Every wait is for a state the user sees (expect), never for a time.
"""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from playwright.sync_api import expect

from groups.services import create_group
from localise.numbers import currency_label
from scoring.models import GameSession

from .conftest import TOUCH_PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOLLOW_MS = 5_000  # a phone polls every second: a change shows well within this


def words(language: str, *texts: str) -> list[str]:
    with translation.override(language):
        return [_(text) for text in texts]


def in_language(page, live_server, language: str) -> None:
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )


def row(page, name: str):
    return page.locator(f'.player-row[data-player="{name}"]')


def new_evening(page, live_server, group, name: str, create: str) -> GameSession:
    page.goto(f"{live_server.url}/groups/{group.pk}/evenings/new/")
    page.locator("#id_name").fill(name)
    page.get_by_role("button", name=create).tap()
    expect(page.locator("#round-form")).to_be_visible()
    return GameSession.objects.get(name=name)


@pytest.mark.parametrize("language", ["en", "ne"])
def test_a_family_week_through_member_links_and_a_seating_draw(
    language, logged_in_page, new_page, live_server
):
    (
        make_links,
        no_evening,
        create,
        draw,
        draw_again,
        deals,
        deals_first,
        send,
        save,
        round_1,
        round_2,
    ) = words(
        language,
        "Make member links",
        "No evening is being played now",
        "Create session",
        "Draw seats",
        "Draw again",
        "deals",
        "deals first",
        "Send my count",
        "Save round",
        "Round %(position)s",
        "Round %(position)s",
    )
    round_1, round_2 = round_1 % {"position": 1}, round_2 % {"position": 2}
    owner, user = logged_in_page(**TOUCH_PHONE)
    in_language(owner, live_server, language)
    group = create_group(
        owner=user, name="Pokhara family", currency="NPR", members=["Aama", "Buwa", "Didi"]
    )

    # The owner makes the links, one sheet for the festival; Aama scans hers.
    owner.goto(f"{live_server.url}/groups/{group.pk}/links/")
    owner.get_by_role("button", name=make_links).tap()
    expect(owner.locator(".seat-card .share-qr svg")).to_have_count(3)
    link = owner.locator(".seat-card", has_text="Aama").locator(".share-url input").input_value()
    aama = new_page(**TOUCH_PHONE)
    in_language(aama, live_server, language)
    aama.goto(link)
    expect(aama.locator("#member-now h2")).to_have_text(no_evening)

    # The first evening starts: Aama's phone opens her seat in it by itself.
    tihar_1 = new_evening(owner, live_server, group, "Tihar 1", create)
    expect(aama.locator("h1")).to_have_text("Aama", timeout=FOLLOW_MS)
    expect(aama.locator("#seat-now h2")).to_have_text(round_1)
    expect(aama.locator(".page-head")).to_contain_text("Tihar 1")

    # Seats drawn before round 1: a card each, the highest deals first.
    owner.goto(f"{live_server.url}/sessions/{tihar_1.pk}/")
    owner.get_by_role("link", name=draw).tap()
    owner.get_by_role("button", name=draw).tap()
    cards = owner.locator(".drawn-card")
    expect(cards).to_have_count(3)
    expect(cards.first.locator(".dealer-mark")).to_have_text(deals_first)
    expect(owner.get_by_role("button", name=draw_again)).to_be_visible()
    seating = [n.split(":")[0].strip() for n in cards.locator(".drawn-name").all_inner_texts()]
    dealer = seating[0]
    assert sorted(seating) == ["Aama", "Buwa", "Didi"]
    # The dealer is marked in the standings on the owner's page and on Aama's phone.
    owner.goto(f"{live_server.url}/sessions/{tihar_1.pk}/")
    expect(owner.locator(f'#standings tr[data-player="{dealer}"] .dealer-mark')).to_have_text(deals)
    expect(aama.locator(f'#standings tr[data-player="{dealer}"] .dealer-mark')).to_have_text(
        deals, timeout=FOLLOW_MS
    )
    assert aama.locator("#standings .dealer-mark").count() == 1

    # Aama sends her count from her phone; the owner enters the round with it.
    aama.locator('label:has(input[name$="-status"][value="seen"])').tap()
    aama.locator('input[name$="-maal"]').fill("5")
    aama.get_by_role("button", name=send).tap()
    expect(aama.locator("#seat-sent")).not_to_contain_text(
        words(language, "Count your cards and send your count: it goes into the scorer's form.")[0]
    )
    owner.goto(f"{live_server.url}/sessions/{tihar_1.pk}/rounds/new/")
    expect(row(owner, "Aama").locator('input[name$="-maal"]')).to_have_value("5")
    owner.locator("#winner-field .pick", has_text="Didi").tap()
    row(owner, "Buwa").locator('label:has(input[value="unseen"])').tap()
    row(owner, "Buwa").locator('input[name$="-maal"]').fill("2")
    row(owner, "Didi").locator('input[name$="-maal"]').fill("7")
    owner.get_by_role("button", name=save).tap()
    # Answered in place: shown at once, then confirmed by the server.
    saved = words(language, "Round %(position)d saved.")[0] % {"position": 1}
    expect(owner.locator("#round-saved-status")).to_have_text(saved)
    assert tihar_1.rounds.count() == 1
    expect(aama.locator("#seat-now h2")).to_have_text(round_2, timeout=FOLLOW_MS)

    # Late at night the stake goes up: 5.00 a point from round 2 on, typed in
    # the fold under the round (closed, it says the stake in force).
    stake_label, pays = words(
        language,
        "Stake from this round on",
        "%(payer)s pays %(payee)s %(currency)s %(money)s",
    )
    npr = currency_label("NPR", language)
    fold = owner.locator("#stake-change")
    expect(fold).not_to_have_attribute("open", "")
    expect(fold.locator("summary")).to_contain_text(f"{npr} 1.00")
    fold.locator("summary").tap()
    owner.get_by_label(stake_label).fill("5")
    owner.locator("#winner-field .pick", has_text="Didi").tap()
    row(owner, "Aama").locator('input[name$="-maal"]').fill("5")
    row(owner, "Buwa").locator('label:has(input[value="unseen"])').tap()
    row(owner, "Buwa").locator('input[name$="-maal"]').fill("2")
    row(owner, "Didi").locator('input[name$="-maal"]').fill("7")
    # Saved while the network is gone: the phone's own standings, each round
    # at its own stake: round 1 (Aama −2, Buwa −18, Didi +20) at 1.00, round 2
    # (the same) at 5.00; then the server's, once the network returns.
    owner.context.set_offline(True)
    owner.get_by_role("button", name=save).tap()
    # (A template's own words: their "%" doubled in the catalogue.)
    kept = words(
        language,
        "Round %%(number)s saved on this phone. It is sent by itself when the network returns.",
    )[0].replace("%%", "%") % {"number": 2}
    status = owner.locator("#round-saved-status")
    expect(status).to_have_text(kept)
    standings = owner.locator("#round-saved-standings")
    money = {"Didi": "120.00", "Buwa": "-108.00", "Aama": "-12.00"}
    for name, amount in money.items():
        expect(standings.locator(f'tr[data-player="{name}"] td').last).to_have_text(amount)
    # The next round's fold says the stake now in force, and is closed again.
    expect(fold.locator("summary")).to_contain_text(f"{npr} 5.00")
    expect(fold).not_to_have_attribute("open", "")
    assert tihar_1.rounds.count() == 1
    owner.context.set_offline(False)
    saved_2 = words(language, "Round %(position)d saved.")[0] % {"position": 2}
    expect(status).to_have_text(saved_2)
    for name, amount in money.items():
        expect(standings.locator(f'tr[data-player="{name}"] td').last).to_have_text(amount)
    expect(owner.locator("#round-saved-alert")).to_be_empty()
    assert [r.stake_per_point for r in tihar_1.rounds.order_by("number")] == [None, 5]
    # Settle-up pays the money, and the group's balances follow it.
    owner.goto(f"{live_server.url}/sessions/{tihar_1.pk}/settle/")
    payments = owner.locator(".payment-list li")
    expect(payments.first).to_contain_text(
        pays % {"payer": "Aama", "payee": "Didi", "currency": npr, "money": "12.00"}
    )
    expect(payments.nth(1)).to_contain_text(
        pays % {"payer": "Buwa", "payee": "Didi", "currency": npr, "money": "108.00"}
    )
    owner.goto(f"{live_server.url}/groups/{group.pk}/")
    balances = owner.locator("table.balances")
    expect(balances.locator("tr", has_text="Didi").locator("td").first).to_have_text("120.00")
    expect(balances.locator("tr", has_text="Buwa").locator("td").first).to_have_text("-108.00")

    # The night is over: dated yesterday and quiet for hours. Aama's phone says so.
    GameSession.objects.filter(pk=tihar_1.pk).update(
        played_on=timezone.localdate() - datetime.timedelta(days=1),
        updated_at=timezone.now() - datetime.timedelta(hours=9),
    )
    expect(aama.locator("#member-now h2")).to_have_text(no_evening, timeout=FOLLOW_MS)
    expect(aama.locator("#seat-now")).to_have_count(0)

    # The next evening opens on the last one's rules, stake and drawn seating,
    # and Aama's phone follows to her seat in it.
    owner.goto(f"{live_server.url}/groups/{group.pk}/evenings/new/")
    expect(owner.locator("#id_players")).to_have_value("\n".join(seating))
    tihar_2 = new_evening(owner, live_server, group, "Tihar 2", create)
    assert [p.name for p in tihar_2.players.all()] == seating
    assert (tihar_2.rules, tihar_2.stake_per_point) == (tihar_1.rules, tihar_1.stake_per_point)
    expect(aama.locator(".page-head")).to_contain_text("Tihar 2", timeout=FOLLOW_MS)
    expect(aama.locator("#seat-now h2")).to_have_text(round_1)
    # Before round 1 of the new evening, its dealer is the first seat drawn.
    expect(aama.locator(f'#standings tr[data-player="{dealer}"] .dealer-mark')).to_be_visible()
    assert aama.evaluate("document.documentElement.scrollWidth") <= TOUCH_PHONE["viewport"]["width"]
