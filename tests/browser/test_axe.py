"""axe-core over every page, on a 390x844 touch phone, in the light and the dark theme,
and in Nepali.

axe-core comes from the axe-playwright-python package (it bundles axe.min.js), so
nothing is fetched from the network. A page passes with zero violations of any
impact; the failure message lists each rule, its impact and the elements it found.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.db import OperationalError

from callbreak import services as callbreak_services
from callbreak.engine import Rules as CallBreakRules
from groups.models import MemberLink
from groups.services import (
    add_evening,
    create_group,
    delete_payment,
    make_member_links,
    record_payment,
)
from scoring import services
from scoring.engine import Entry, RoundInput
from scoring.models import RoundChange, new_share_token
from table import services as table_services
from table.models import CoScorer

from ..web_helpers import make_session
from .conftest import TOUCH_PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ("Aama", "Buwa", "Didi", "Dai", "Bhanubhakta Acharya")

# Pages that need a signed-in owner: (what, path under the server, with {s} the
# session's id and {r} a round's id).
OWNER_PAGES = [
    ("sessions", "/"),
    ("new session", "/sessions/new/"),
    ("import", "/sessions/import/"),
    ("session", "/sessions/{s}/"),
    ("session, every round", "/sessions/{s}/?all=1"),
    ("round form", "/sessions/{s}/rounds/new/"),
    ("round page", "/sessions/{s}/rounds/{r}/"),
    ("round edit", "/sessions/{s}/rounds/{r}/edit/"),
    ("round delete", "/sessions/{s}/rounds/{r}/delete/"),
    ("undo", "/sessions/{s}/undo/"),
    ("settle-up", "/sessions/{s}/settle/"),
    ("rules", "/sessions/{s}/rules/"),
    ("share settings", "/sessions/{s}/share/"),
    ("players", "/sessions/{s}/players/add/"),
    ("edit session", "/sessions/{s}/edit/"),
    ("delete session", "/sessions/{s}/delete/"),
    ("maal calculator", "/sessions/{s}/maal/"),
    ("maal table", "/sessions/{s}/maal-table/"),
    ("history of changes", "/sessions/{s}/changes/"),
    ("round history", "/sessions/{s}/rounds/{r}/changes/"),
    ("print summary", "/sessions/{s}/summary/"),
    ("history", "/history/"),
    ("leaderboard", "/leaderboard/"),
    ("player", "/players/Aama/"),
    # The family purse: {g} a group with this evening, {m} a member, {p} a payment.
    ("groups", "/groups/"),
    ("group", "/groups/{g}/"),
    ("group print", "/groups/{g}/print/"),
    ("group members", "/groups/{g}/members/"),
    ("group member", "/groups/{g}/members/{m}/"),
    ("group new evening", "/groups/{g}/evenings/new/"),
    ("group add session", "/groups/{g}/evenings/add/"),
    ("group payment (Mark paid)", "/groups/{g}/payments/new/?{q}"),
    ("group payment edit", "/groups/{g}/payments/{p}/"),
    ("group payments history", "/groups/{g}/changes/"),
    ("group import", "/groups/import/"),
    ("group delete", "/groups/{g}/delete/"),
    ("group member links", "/groups/{g}/links/"),
    ("group records", "/groups/{g}/records/"),
]
# A table of phones (issue 21): the owner's Seats and Co-scorers pages and an
# invite ({i}), and a player's seat page ({seat}); kept apart from the lists
# above, which test_phone_pages formats with {s}, {r} and {t} alone.
TABLE_OWNER_PAGES = [
    ("seats", "/sessions/{s}/seats/"),
    ("co-scorers", "/sessions/{s}/scorers/"),
    ("co-scorer invite (the owner's own)", "/join/{i}/"),
]
TABLE_PUBLIC_PAGES = [
    ("seat page", "/t/{seat}/"),
    # A member's lasting link ({ml}): their seat in the group's evening in
    # progress; {between}: a member of a group with no evening being played.
    ("member link", "/m/{ml}/"),
    ("member link between evenings", "/m/{between}/"),
]
# Call Break (callbreak/): {cb} a game in progress with a deal {cd}, {ce} a
# game that has ended, {cw} its watch link.
CALLBREAK_OWNER_PAGES = [
    ("call break games", "/callbreak/"),
    ("call break new game", "/callbreak/new/"),
    ("call break game in progress", "/callbreak/{cb}/"),
    ("call break game ended", "/callbreak/{ce}/"),
    ("call break deal edit", "/callbreak/{cb}/deals/{cd}/edit/"),
    ("call break deal delete", "/callbreak/{cb}/deals/{cd}/delete/"),
    ("call break history", "/callbreak/{cb}/changes/"),
    ("call break import", "/callbreak/import/"),
]
CALLBREAK_PUBLIC_PAGES = [
    ("call break watch", "/callbreak/watch/{cw}/"),
    ("call break how it works", "/callbreak/how-it-works/"),
]
# Pot hands (issue 33): {pt} a pot session of the group with hands (one
# deleted, so its history has a restore), {ph} one of its hands.
POT_PAGES = [
    ("pot sessions", "/pots/"),
    ("pot session", "/pots/{pt}/"),
    ("pot hand edit", "/pots/{pt}/hands/{ph}/"),
    ("pot history", "/pots/{pt}/history/"),
    ("pot import", "/pots/import/"),
]
PUBLIC_PAGES = [
    ("home", "/"),
    ("log in", "/accounts/login/"),
    ("sign up", "/accounts/signup/"),
    ("share page", "/s/{t}/"),
    ("how scoring works", "/how-it-works/"),
    ("offline page", "/offline/"),
]


def a_played_session(user):
    """Five players, three rounds (one of them deleted, so history has a delete),
    and a share link."""
    session = make_session(user, players=NAMES)
    rounds = []
    for first in range(4):
        seated = NAMES[first : first + 4] if first < 2 else NAMES[:4]
        entries = tuple(
            Entry(player=n, status="unseen" if i == 3 else "seen", maal=i * 3)
            for i, n in enumerate(seated)
        )
        rounds.append(
            services.add_round(
                session=session, round_input=RoundInput(entries=entries, winner=seated[0])
            )
        )
    services.delete_round(round_=rounds[-1], user=user)
    # An edit, so the history says what changed, value by value.
    first = rounds[0].to_input()
    edited = tuple(replace(e, maal=2) if i == 1 else e for i, e in enumerate(first.entries))
    rounds[0] = services.replace_round(
        round_=rounds[0], given=replace(first, entries=edited), user=user
    )
    # The stake raised from round 2 on: the standings say each stake, the
    # history says the change.
    rounds[1] = services.replace_round(
        round_=rounds[1], given=rounds[1].to_input(), stake_per_point=Decimal("5"), user=user
    )
    session.share_token = new_share_token()
    session.save(update_fields=["share_token"])
    # A table of phones: seat links, a co-scorer and an invite waiting.
    table_services.make_seats(session=session)
    helper = type(user).objects.create_user("sita", password="tihar-cards-2083")
    CoScorer.objects.create(session=session, user=helper)
    table_services.create_invite(session=session)
    return session, rounds[0]


def a_family_group(user, session):
    """A group with the played session as its evening, a payment made and one
    deleted (so its history has a restore): (group, a member, the payment)."""
    group = create_group(owner=user, name="Pokhara family", currency="NPR", members=["Aama"])
    add_evening(group=group, session=session)
    members = list(group.members.all())
    kept = record_payment(
        group=group,
        payer=members[1],
        payee=members[0],
        amount=Decimal("174"),
        paid_on=session.played_on,
        user=user,
    )
    gone = record_payment(
        group=group,
        payer=members[2],
        payee=members[0],
        amount=Decimal("5"),
        paid_on=session.played_on,
        user=user,
    )
    delete_payment(payment=gone, user=user)
    make_member_links(group=group)
    return group, members[0], kept


def a_pot_session(user, group, played_on) -> dict[str, int]:
    """Three hands in the group's evening: a split, a pot carried on, and one
    deleted; the pot still carried on, so the page says so."""
    from pots import services as pot_services

    pots = pot_services.create_session(
        owner=user,
        name="Flash at midnight",
        players=["Aama", "Buwa", "Didi"],
        played_on=played_on,
        group=group,
    )
    kept = pot_services.record_hand(session=pots, put_in=[1000, 3000, 1000], winners=[0, 1])
    gone = pot_services.record_hand(session=pots, put_in=[500, 500, 500], winners=[2])
    pot_services.delete_hand(hand=gone, user=user)
    pot_services.record_hand(session=pots, put_in=[300, 300, 300], took=[0, 0, 0], carry_out=900)
    return {"pt": pots.pk, "ph": kept.pk}


def member_link_ids(user, group) -> dict[str, str]:
    """{ml}: Aama's lasting link in the group; {between}: one of a group with no
    evening being played."""
    quiet = create_group(owner=user, name="Dharan family", currency="NPR", members=["Aama", "Dai"])
    return {
        "ml": MemberLink.objects.get(member__group=group, member__name="Aama").token,
        "between": make_member_links(group=quiet)[0].token,
    }


def call_break_games(user, group=None) -> dict[str, object]:
    """{cb}: a game of two deals, one of them changed (so its history has an
    edit); {ce}: a game played to its end, with money and transfers. Both of
    `group`, so their pages name it and the group's pages count the ended one."""
    players = ["Asha", "Bikash", "Chandra", "Dipa"]
    deals = [
        ((3, 4, 2, 3), (4, 4, 1, 4)),
        ((6, 1, 1, 2), (6, 4, 0, 3)),
        ((3, 1, 1, 1), (2, 9, 2, 0)),
        ((1, 1, 2, 7), (0, 0, 4, 9)),
        ((2, 1, 5, 2), (3, 1, 6, 3)),
    ]
    going, ended = (
        callbreak_services.start_game(
            owner=user,
            players=players,
            rules=CallBreakRules(),
            stake=Decimal("10"),
            name=name,
            group=group,
        )
        for name in ("After dinner", "")
    )
    for game, count in ((going, 2), (ended, 5)):
        for bids, tricks in deals[:count]:
            callbreak_services.add_deal(game=game, user=user, bids=bids, tricks=tricks)
    first = going.deals.earliest("pk")
    callbreak_services.edit_deal(deal=first, user=user, bids=(3, 4, 2, 3), tricks=(5, 3, 1, 4))
    return {"cb": going.pk, "cd": first.pk, "ce": ended.pk, "cw": ended.watch_token}


def violations(page, axe: Axe) -> list[str]:
    results = axe.run(page)
    return [
        f"{v['id']} ({v['impact']}): "
        + "; ".join(" ".join(node["target"]) for node in v["nodes"][:5])
        for v in results.response["violations"]
    ]


@pytest.mark.parametrize(("theme", "language"), [("light", "en"), ("dark", "en"), ("light", "ne")])
def test_every_page_has_no_axe_violation(
    theme, language, logged_in_page, new_page, live_server, monkeypatch
):
    owner, user = logged_in_page(**TOUCH_PHONE, color_scheme=theme)
    guest = new_page(**TOUCH_PHONE, color_scheme=theme)
    session, round_ = a_played_session(user)
    group, member, payment = a_family_group(user, session)
    ids = {"g": group.pk, "m": member.pk, "p": payment.pk, **member_link_ids(user, group)}
    ids.update(a_pot_session(user, group, session.played_on))
    ids["q"] = f"from={payment.payer_id}&to={payment.payee_id}&amount=12.50"
    ids.update(call_break_games(user, group))
    for page in (owner, guest):
        page.context.add_cookies(
            [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
        )
    axe = Axe()
    found: dict[str, list[str]] = {}

    def check(page, what: str, path: str) -> None:
        url = live_server.url + path.format(
            s=session.pk,
            r=round_.pk,
            t=session.share_token,
            seat=session.seats.first().token,
            i=session.invites.first().token,
            **ids,
        )
        response = page.goto(url)
        assert response is not None and response.ok, f"{what}: {url} answered {response}"
        page.wait_for_load_state("load")
        assert page.locator("html").get_attribute("lang") == language
        if problems := violations(page, axe):
            found[f"{what} ({path})"] = problems

    for what, path in OWNER_PAGES:
        check(owner, what, path)
    for what, path in POT_PAGES:
        check(owner, what, path)
    # The maal calculator dialog of the round form, open.
    check(owner, "round form, maal dialog", "/sessions/{s}/rounds/new/")
    owner.locator("[data-maal-open]").first.click()
    owner.locator("#maal-dialog .maal-outcome").wait_for(state="attached")
    if problems := violations(owner, axe):
        found["round form with the maal dialog open"] = problems
    for what, path in PUBLIC_PAGES + CALLBREAK_PUBLIC_PAGES:
        check(guest, what, path)
    for what, path in CALLBREAK_OWNER_PAGES:
        check(owner, what, path)
    for what, path in TABLE_OWNER_PAGES:
        check(owner, what, path)
    for what, path in TABLE_PUBLIC_PAGES:
        check(guest, what, path)
    # The round form with a seat's count in it, marked with who sent it, once
    # the preview that follows it has come (axe-core on a settled page).
    seat = session.seats.first()
    table_services.send_entry(
        seat=seat,
        position=session.rounds.count() + 1,
        values=table_services.SeatValues(
            status="seen", maal=5, tunnel=0, dhoos=False, dublees=False, maal_tally=None, tiplu=""
        ),
    )
    owner.goto(f"{live_server.url}/sessions/{session.pk}/rounds/new/")
    owner.locator("[data-seat-note]").wait_for()
    owner.locator("#preview h2").wait_for()
    if problems := violations(owner, axe):
        found["round form with a seat's count"] = problems
    # Save answered in place: the standings after the round, over the next form.
    owner.locator(".pick").first.click()
    owner.locator('.sticky-save button[type="submit"]').click()
    owner.locator("#round-saved #standings th a").wait_for()  # the server's answer in
    if problems := violations(owner, axe):
        found["round form after Save"] = problems
    # The stake from this round on, unfolded and refused beside its field.
    owner.goto(f"{live_server.url}/sessions/{session.pk}/rounds/new/")
    owner.locator("#stake-change summary").click()
    owner.locator("#stake_per_point").fill("0")
    owner.locator(".pick").first.click()
    owner.locator('.sticky-save button[type="submit"]').click()
    owner.locator("#err-stake_per_point li").wait_for()
    if problems := violations(owner, axe):
        found["round form with a refused stake"] = problems
    # The session page's menu, open.
    owner.goto(f"{live_server.url}/sessions/{session.pk}/")
    owner.locator("details.session-menu > summary").click()
    owner.locator(".session-menu-list").wait_for()
    if problems := violations(owner, axe):
        found["session page, its menu open"] = problems
    # A seat's maal calculator, open on the player's own cards.
    check(guest, "seat page, maal dialog", "/t/{seat}/")
    guest.locator("[data-maal-open]").first.click()
    guest.locator("#maal-dialog .maal-outcome").wait_for(state="attached")
    if problems := violations(guest, axe):
        found["seat page with the maal dialog open"] = problems

    # Seats drawn before round 1: the cards on the page, the dealer marked.
    fresh = make_session(user, players=NAMES, name="Bhai Tika")
    services.draw_seats(session=fresh, user=user)
    check(owner, "draw seats, cards drawn", f"/sessions/{fresh.pk}/players/draw/")
    check(owner, "session with seats drawn", f"/sessions/{fresh.pk}/")

    # The error pages: not found, a round deleted while open, a server error.
    def check_error(page, what: str, path: str, status: int) -> None:
        response = page.goto(live_server.url + path)
        assert response is not None and response.status == status, f"{what}: {response}"
        page.wait_for_load_state("load")
        if problems := violations(page, axe):
            found[f"{what} ({path})"] = problems

    deleted = RoundChange.objects.get(session=session, action="delete").round_pk
    check_error(owner, "not found", "/no/such/page/", 404)
    check_error(guest, "not found (visitor)", "/no/such/page/", 404)
    check_error(owner, "deleted round", f"/sessions/{session.pk}/rounds/{deleted}/edit/", 404)

    def crash(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr("scoring.views.rounds.RoundForm", crash)  # a page not cached whole
    check_error(owner, "server error", f"/sessions/{session.pk}/rounds/{round_.pk}/edit/", 500)

    def outage(*args, **kwargs):
        raise OperationalError("could not connect to server")

    monkeypatch.setattr("scoring.views.rounds.RoundForm", outage)
    check_error(owner, "database outage", f"/sessions/{session.pk}/rounds/{round_.pk}/edit/", 503)
    # A one-time key that is not one the site makes: the refusal page (400).
    owner.goto(live_server.url + f"/sessions/{session.pk}/players/add/")
    form = owner.locator('form:has(input[name="save_key"])')
    form.locator('input[name="save_key"]').evaluate("input => { input.value = 'not.a.key'; }")
    form.locator('input[name="name"]').fill("Kaka")
    with owner.expect_navigation() as sent:
        form.evaluate("form => form.requestSubmit()")
    assert sent.value is not None and sent.value.status == 400
    owner.wait_for_load_state("load")
    if problems := violations(owner, axe):
        found["refused one-time key"] = problems
    report = "\n".join(f"{page}:\n  " + "\n  ".join(items) for page, items in found.items())
    assert not found, f"axe-core violations ({theme}, {language}):\n{report}"
