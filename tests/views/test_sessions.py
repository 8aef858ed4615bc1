"""The home page and the sessions list, creating a session (lookalike names
refused), a session's details edited and the session deleted, its page (the
ledger's empty and leader states, the chart and the exports, settle-up's
wording), access and query counts."""

from __future__ import annotations

import datetime
import re
from datetime import date
from decimal import Decimal

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.engine import make_rules
from scoring.engine.ledger import EXACT_SETTLE_LIMIT
from scoring.models import GameSession, Player, Round, RoundEntry
from scoring.selectors.versions import forget_computed
from tests.samples import make_dashain
from tests.web_helpers import (
    INVISIBLE,
    WORKED,
    enter,
    field_block,
    field_errors,
    filled_in_token,
    invisible_in,
    last_message,
    make_session,
    page_text,
    played,
    round_data,
    session_post,
)

pytestmark = pytest.mark.django_db


# --- accounts and the home page --------------------------------------------------------------


def test_logged_out_home_is_a_landing_page(client):
    html = client.get(reverse("home")).content.decode()
    assert "Marriage scorekeeper" in html
    assert reverse("login") in html
    assert reverse("signup") in html


def test_pages_need_login(client, owner):
    session = make_session(owner)
    url = reverse("session_detail", args=[session.pk])
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={url}"


def test_home_lists_sessions_with_rounds_and_leader(logged_in, owner, django_user_model):
    session = make_session(owner)
    make_session(owner, players=("X", "Y"), name="Empty night")
    logged_in.post(reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi"))
    other = django_user_model.objects.create_user("hari", password="pw-hari-12345")
    make_session(other, name="Hari's secret night")
    html = logged_in.get(reverse("home")).content.decode()
    assert "Tihar night" in html
    assert "Empty night" in html
    assert "Hari&#x27;s secret night" not in html
    assert "1 round" in html
    assert "leader: Didi" in html


# --- creating a session ----------------------------------------------------------------------


def test_new_session_form_shows_every_option_with_its_help(logged_in):
    html = logged_in.get(reverse("session_new")).content.decode()
    assert "What each loser who never saw the tiplu pays the winner for the game." in html
    assert 'name="unseen_maal"' in html
    assert 'id="preset-options"' in html


def test_create_a_session_with_a_variant(logged_in, owner):
    data = session_post(preset="kidnap", unseen_maal="kidnap", maal_table="tiers", alter="on")
    data["unseen_payment"] = "20"  # the house's murder penalty
    response = logged_in.post(reverse("session_new"), data)
    session = GameSession.objects.get(owner=owner)
    assert response.status_code == 302
    assert response["Location"] == reverse("session_detail", args=[session.pk])
    assert session.name == "Dashain at Aama's"
    assert session.currency == "NPR"
    assert session.stake_per_point == Decimal("2.50")
    assert str(session.played_on) == "2026-10-02"
    assert session.get_rules() == make_rules("kidnap", unseen_payment=20)
    assert list(session.players.values_list("name", flat=True)) == ["Aama", "Buwa", "Didi", "Dai"]


@pytest.mark.parametrize("language", ["en", "ne"])
@pytest.mark.parametrize(
    "typed",
    ["2083-06-16", "2083-06-16 BS", "२०८३-०६-१६", "2083/6/16 वि.सं.", "2026-10-02", "2026-10-02 AD"],
)
def test_the_date_is_taken_in_either_calendar(logged_in, owner, language, typed):
    """Dashain 2083: 16 Ashwin 2083 BS is 2 October 2026, however the family writes it."""
    logged_in.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = logged_in.post(reverse("session_new"), session_post(played_on=typed))
    assert response.status_code == 302
    assert GameSession.objects.get(owner=owner).played_on == date(2026, 10, 2)


@pytest.mark.parametrize(
    ("language", "typed", "message"),
    [
        ("en", "Dashain", "Date: Enter a valid date. Write it year-month-day, in Bikram Sambat "
         "(2083-06-16) or Gregorian (2026-10-02)."),
        ("en", "2083-13-01", "Date: Enter a valid date. Bikram Sambat has no 2083-13-01."),
        ("en", "2026-02-30 AD",
         "Date: Enter a valid date. The Gregorian calendar has no 2026-02-30."),
        ("ne", "Dashain", "मिति: सही मिति लेख्नुहोस्। वर्ष-महिना-गतेको क्रममा, विक्रम संवत्मा (2083-06-16) "
         "वा ईस्वी संवत्मा (2026-10-02)।"),
        ("ne", "२०८३-१३-०१", "मिति: सही मिति लेख्नुहोस्। विक्रम संवत्मा 2083-13-01 भन्ने मिति हुँदैन।"),
        ("ne", "2026-02-30", "मिति: सही मिति लेख्नुहोस्। ईस्वी संवत्मा 2026-02-30 भन्ने मिति हुँदैन।"),
    ],
)  # fmt: skip
def test_a_date_on_neither_calendar_is_refused_naming_the_field(
    logged_in, language, typed, message
):
    logged_in.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = logged_in.post(reverse("session_new"), session_post(played_on=typed))
    assert response.status_code == 422
    html = response.content.decode()
    assert message in html.split('id="field-played_on"')[1].split("</div>")[0]
    assert not GameSession.objects.exists()


def test_the_date_is_shown_in_both_calendars(logged_in, owner):
    """English writes the Gregorian date; Nepali the Bikram Sambat one, the other beside it."""
    session = make_session(owner)
    session.played_on = date(2026, 10, 2)
    session.save()
    edit = reverse("session_edit", args=[session.pk])
    html = logged_in.get(edit).content.decode()
    assert 'name="played_on" value="2026-10-02"' in html
    assert "This is 2 Oct 2026 (16 Ashwin 2083 BS)." in html
    logged_in.cookies[settings.LANGUAGE_COOKIE_NAME] = "ne"
    html = logged_in.get(edit).content.decode()
    assert 'name="played_on" value="2083-06-16 वि.सं."' in html
    assert "यो 16 असोज 2083 (2 अक्टोबर 2026) हो।" in html
    # Sent back as shown, the date is unchanged.
    data = {"name": session.name, "played_on": "2083-06-16 वि.सं.", "currency": session.currency,
            "stake_per_point": str(session.stake_per_point)}  # fmt: skip
    response = logged_in.post(edit, data, follow=True)
    assert "केही बदलिएन।" in response.content.decode()


def test_past_players_are_offered(logged_in, owner):
    make_session(owner, players=("Hajurba", "Thulo Buwa"))
    html = logged_in.get(reverse("session_new")).content.decode()
    assert 'data-name="Hajurba"' in html
    assert 'data-name="Thulo Buwa"' in html


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"stake_per_point": "2.505"}, "stake_per_point",
         "Stake per point: Ensure that there are no more than 2 decimal places."),
        ({"stake_per_point": "-1"}, "stake_per_point",
         "Stake per point: Ensure this value is greater than or equal to 0."),
        ({"stake_per_point": "lots"}, "stake_per_point", "Stake per point: Enter a number."),
        ({"players": "Aama"}, "players", "Players: a session needs at least 2 players, got 1"),
        ({"players": "Aama\nDidi\naama"}, "players", "Players: aama is listed twice (as Aama)"),
        ({"players": "Aama\n" + "D" * 41}, "players",
         "Players: DDDDDDDDDDDDDDDDDDDD…: a name may be at most 40 characters"),
        ({"name": "   "}, "name", "Name: This field is required."),
        ({"seen_payment": "-1"}, "seen_payment",
         "Seen payment: Ensure this value is greater than or equal to 0."),
        ({"max_players": "9"}, "max_players",
         "Max players: Ensure this value is less than or equal to 8."),
        ({"unseen_maal": "steal"}, "unseen_maal",
         "Unseen maal: Select a valid choice. steal is not one of the available choices."),
    ],
)  # fmt: skip
def test_new_session_errors_beside_the_field(logged_in, overrides, field, message):
    response = logged_in.post(reverse("session_new"), session_post(**overrides))
    assert response.status_code == 422
    html = response.content.decode()
    block = html.split(f'id="field-{field}"')[1].split("</div>")[0]
    assert message in block
    assert not GameSession.objects.exists()
    assert not Player.objects.exists()


# --- players and rules -----------------------------------------------------------------------


# --- access ----------------------------------------------------------------------------------


def test_another_user_gets_404_everywhere(client, owner, django_user_model):
    session = make_session(owner)
    client.force_login(owner)
    client.post(reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi"))
    round_ = Round.objects.get()
    intruder = django_user_model.objects.create_user("shyam", password="pw-shyam-12345")
    client.force_login(intruder)
    sid, rid = session.pk, round_.pk
    urls = [
        reverse("session_detail", args=[sid]),
        reverse("round_new", args=[sid]),
        reverse("round_preview", args=[sid]),
        reverse("round_detail", args=[sid, rid]),
        reverse("round_edit", args=[sid, rid]),
        reverse("round_delete", args=[sid, rid]),
        reverse("round_undo", args=[sid]),
        reverse("player_add", args=[sid]),
        reverse("settle_up", args=[sid]),
        reverse("session_rules", args=[sid]),
    ]
    for url in urls:
        assert client.get(url).status_code in (404, 405), url
        assert client.post(url, round_data(session, WORKED, "Aama")).status_code == 404, url
    assert Round.objects.count() == 1
    assert nets_unchanged(round_)
    # A round of one session is not reachable through another session of the same owner.
    client.force_login(owner)
    mine = make_session(owner, players=("X", "Y"))
    assert client.get(reverse("round_detail", args=[mine.pk, rid])).status_code == 404


def nets_unchanged(round_: Round) -> bool:
    nets = dict(RoundEntry.objects.filter(round=round_).values_list("player__name", "net"))
    return nets == {"Aama": 3, "Buwa": -16, "Didi": 30, "Dai": -17}


# --- query count -----------------------------------------------------------------------------


def bulk_rounds(session, count: int) -> None:
    """`count` copies of the worked example, written directly for speed."""
    players = {p.name: p for p in session.players.all()}
    rounds = Round.objects.bulk_create(
        Round(session=session, number=n, winner=players["Didi"]) for n in range(1, count + 1)
    )
    nets = {"Aama": 3, "Buwa": -16, "Didi": 30, "Dai": -17}
    RoundEntry.objects.bulk_create(
        RoundEntry(
            round=r,
            player=players[name],
            status=WORKED[name][0],
            maal=WORKED[name][1],
            net=nets[name],
        )
        for r in rounds
        for name in nets
    )


def test_session_page_queries_do_not_grow_with_rounds(logged_in, owner):
    small, big = make_session(owner), make_session(owner)
    bulk_rounds(small, 10)
    bulk_rounds(big, 1000)
    counts = []
    for session in (small, big):
        for query in ("", "?all=1"):
            url = reverse("session_detail", args=[session.pk]) + query
            logged_in.get(url)  # warm up anything cached per process
            with CaptureQueriesContext(connection) as queries:
                response = logged_in.get(url)
            assert response.status_code == 200
            counts.append(len(queries))
    assert len(set(counts)) == 1
    # Its version (one row); the log-in's session and user and the page come from the cache.
    assert counts[0] == 1
    forget_computed()  # the first view after a change computes everything
    with CaptureQueriesContext(connection) as queries:
        logged_in.get(reverse("session_detail", args=[small.pk]))
    cold = len(queries)
    forget_computed()
    with CaptureQueriesContext(connection) as queries:
        logged_in.get(reverse("session_detail", args=[big.pk]))
    # … its version, the session row, its group (an evening links to it), the
    # ledger's two (players; rounds and their nets)
    assert len(queries) == cold == 5
    html = response.content.decode()
    assert html.count("ledger-round") == 1000  # ?all=1 shows every round
    assert "+30,000" in html  # Didi after 1,000 rounds, grouped


def test_a_long_ledger_shows_the_latest_rounds_with_a_link_to_all(logged_in, owner):
    session = make_session(owner)
    bulk_rounds(session, 120)
    html = logged_in.get(reverse("session_detail", args=[session.pk])).content.decode()
    assert html.count("ledger-round") == 50
    assert "Showing the last 50 rounds of 120." in html
    assert 'href="?all=1#ledger"' in html
    assert "+3,600" in html  # standings still count all 120 rounds


def test_session_page_is_rendered_once_per_change(logged_in, owner, django_assert_num_queries):
    session = make_session(owner)
    url = reverse("session_detail", args=[session.pk])
    saved = logged_in.post(
        reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi"), follow=True
    )
    assert "Round 1 saved." in saved.content.decode()
    first = logged_in.get(url).content.decode()
    assert "Round 1 saved." not in first  # a message is shown once, never cached
    with django_assert_num_queries(1):  # the session row; its ledger comes from the cache
        response = logged_in.get(url)
    html = response.content.decode()
    assert "+30" in html and "1 round" in html
    # The page's forms carry a token of this request that works.
    token = filled_in_token(response)
    logged_in.handler.enforce_csrf_checks = True
    new_round = reverse("round_new", args=[session.pk])
    data = round_data(session, WORKED, "Didi")
    assert logged_in.post(new_round, data).status_code == 403
    assert logged_in.post(new_round, data | {"csrfmiddlewaretoken": token}).status_code == 302
    logged_in.get(url)  # shows the message "Round 2 saved." once
    assert "+60" in logged_in.get(url).content.decode()  # a change is a new page at once


def test_cached_pages_are_the_owners_alone(logged_in, owner, client):
    from django.contrib.auth import get_user_model

    session = make_session(owner)
    for name in ("session_detail", "settle_up"):
        assert logged_in.get(reverse(name, args=[session.pk])).status_code == 200
    cousin = get_user_model().objects.create_user("cousin", password="pw-cousin-123")
    client.force_login(cousin)
    for name in ("session_detail", "settle_up"):
        assert client.get(reverse(name, args=[session.pk])).status_code == 404


def test_settle_up_follows_each_round_at_once(logged_in, owner):
    session = make_session(owner)
    url = reverse("settle_up", args=[session.pk])
    assert "No rounds yet" in logged_in.get(url).content.decode()
    logged_in.post(reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi"))
    html = logged_in.get(url).content.decode()
    assert "Dai" in html and "42.50" in html  # Dai pays Didi 17 points × 2.50


def test_the_sessions_list_follows_every_change_at_once(logged_in, owner):
    first = make_session(owner, name="Dashain")
    assert "Dashain" in logged_in.get(reverse("home")).content.decode()
    make_session(owner, name="Tihar")
    html = logged_in.get(reverse("home")).content.decode()
    assert "Tihar" in html and "Dashain" in html
    logged_in.post(reverse("round_new", args=[first.pk]), round_data(first, WORKED, "Didi"))
    logged_in.get(reverse("session_detail", args=[first.pk]))  # "Round 1 saved." shown there
    assert "1 round" in logged_in.get(reverse("home")).content.decode()
    deleted = logged_in.post(reverse("session_delete", args=[first.pk]), follow=True)
    assert "Session “Dashain” deleted." in deleted.content.decode()
    assert "Dashain" not in logged_in.get(reverse("home")).content.decode()


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ("René\nRENÉ", "RENÉ is listed twice (as René)"),
        ("René\nRene\u0301", "René is listed twice"),
        ("Aama\nAa\u200bma", invisible_in("Aama", "200B")),
        ("Aama\n\u202eamaA", invisible_in("amaA", "202E")),
        ("Aama\n\u200b\u200b\nDidi", INVISIBLE),
        ("\n".join(f"P{n}" for n in range(31)), "at most 30 players in one session"),
    ],
)
def test_lookalike_names_in_the_new_session_form(logged_in, players, message):
    response = logged_in.post(reverse("session_new"), session_post(players=players))
    assert response.status_code == 422
    assert f"<li>Players: {message}</li>" in field_errors(response.content.decode(), "players")
    assert not GameSession.objects.exists()


@pytest.fixture
def stranger(client, django_user_model):
    """Another user, logged in on the same client."""
    hari = django_user_model.objects.create_user("hari", password="pw-hari-12345")
    client.force_login(hari)
    return client


def details(**overrides) -> dict[str, str]:
    data = {
        "name": "Tihar night",
        "played_on": "2026-11-01",
        "currency": "NPR",
        "stake_per_point": "2.50",
    }
    data.update(overrides)
    return data


def test_edit_form_shows_the_current_details(logged_in, session):
    session.played_on = datetime.date(2026, 11, 1)
    session.save()
    html = logged_in.get(reverse("session_edit", args=[session.pk])).content.decode()
    assert 'value="Tihar night"' in html
    assert 'value="2026-11-01"' in html
    assert 'value="NPR"' in html
    assert 'value="2.50"' in html
    assert reverse("session_delete", args=[session.pk]) in html


def test_edit_saves_details_and_money_follows_the_new_stake(logged_in, session):
    enter(logged_in, session, WORKED, "Didi")  # Aama +3, Buwa −16, Didi +30, Dai −17
    url = reverse("session_edit", args=[session.pk])
    data = details(name="  Tihar   at  Didi's ", played_on="2026-11-02", currency=" inr ")
    data["stake_per_point"] = "10"
    response = logged_in.post(url, data)
    assert response.status_code == 302
    assert response["Location"] == reverse("session_detail", args=[session.pk])
    session.refresh_from_db()
    assert session.name == "Tihar at Didi's"
    assert session.played_on == datetime.date(2026, 11, 2)
    assert session.currency == "INR"
    assert session.stake_per_point == Decimal("10.00")
    # Points are untouched; money is points × the new stake.
    nets = dict(RoundEntry.objects.values_list("player__name", "net"))
    assert nets == {"Aama": 3, "Buwa": -16, "Didi": 30, "Dai": -17}
    detail = logged_in.get(reverse("session_detail", args=[session.pk]))
    assert [str(m) for m in detail.context["messages"]][-1] == "Session details saved."
    html = detail.content.decode()
    assert "INR 10.00 per point" in html
    standings = {s.player.name: s.money for s in detail.context["ledger"].standings}
    assert standings == {
        "Didi": Decimal("300.00"),
        "Aama": Decimal("30.00"),
        "Buwa": Decimal("-160.00"),
        "Dai": Decimal("-170.00"),
    }
    settle = logged_in.get(reverse("settle_up", args=[session.pk])).content.decode()
    assert "Dai pays Didi INR 170.00" in settle
    assert "Buwa pays Didi INR 130.00" in settle
    assert "Buwa pays Aama INR 30.00" in settle


def test_edit_errors_beside_fields_and_nothing_saved(logged_in, session):
    url = reverse("session_edit", args=[session.pk])
    before = GameSession.objects.values().get(pk=session.pk)
    data = details(name="   ", played_on="2026-13-45", currency="  ", stake_per_point="-1")
    response = logged_in.post(url, data)
    assert response.status_code == 422
    html = response.content.decode()
    assert "Name: This field is required." in field_block(html, "name")
    assert "Date: Enter a valid date." in field_block(html, "played_on")
    assert "Currency: This field is required." in field_block(html, "currency")
    assert "Stake per point: Ensure this value is greater than or equal to 0." in field_block(
        html, "stake_per_point"
    )
    # One bad field spoils the whole form: a good new name is not saved either.
    response = logged_in.post(url, details(name="New name", stake_per_point="1.234"))
    html = response.content.decode()
    assert "Stake per point: Ensure that there are no more than 2 decimal places." in html
    assert GameSession.objects.values().get(pk=session.pk) == before


def test_edit_with_nothing_changed_says_so(logged_in, session):
    session.played_on = datetime.date(2026, 11, 1)
    session.save()
    response = logged_in.post(reverse("session_edit", args=[session.pk]), details())
    assert response.status_code == 302
    assert last_message(logged_in, response["Location"]) == "Nothing changed."


def test_zero_stake_plays_for_points_only(logged_in, session):
    enter(logged_in, session, WORKED, "Didi")
    logged_in.post(reverse("session_edit", args=[session.pk]), details(stake_per_point="0"))
    session.refresh_from_db()
    assert session.stake_per_point == Decimal("0")
    settle = logged_in.get(reverse("settle_up", args=[session.pk])).content.decode()
    assert "Dai pays Didi NPR 0.00" in settle
    assert "(17 points)" in settle


def test_delete_asks_first_then_deletes_everything(logged_in, session):
    enter(logged_in, session, WORKED, "Didi")
    enter(logged_in, session, WORKED, "Aama", win_type="normal")
    url = reverse("session_delete", args=[session.pk])
    html = logged_in.get(url).content.decode()
    assert "Delete “Tihar night” for good?" in html
    assert "2 rounds" in html
    assert "Aama, Buwa, Didi, Dai" in html
    assert GameSession.objects.filter(pk=session.pk).exists()  # a GET deletes nothing
    response = logged_in.post(url)
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    assert not GameSession.objects.exists()
    assert not Player.objects.exists()
    assert not Round.objects.exists()
    assert not RoundEntry.objects.exists()
    home = logged_in.get(reverse("home"))
    assert [str(m) for m in home.context["messages"]] == ["Session “Tihar night” deleted."]
    assert "No sessions yet." in home.content.decode()


def test_delete_leaves_other_sessions_alone(logged_in, owner, session):
    other = make_session(owner, name="Dashain")
    assert enter(logged_in, other, WORKED, "Aama").status_code == 302
    logged_in.post(reverse("session_delete", args=[session.pk]))
    assert list(GameSession.objects.values_list("name", flat=True)) == ["Dashain"]
    assert RoundEntry.objects.filter(round__session=other).count() == 4


def test_delete_stops_the_share_link(logged_in, session):
    session.share_token = "tok-for-delete-test"
    session.save()
    assert logged_in.get(reverse("share_view", args=["tok-for-delete-test"])).status_code == 200
    logged_in.post(reverse("session_delete", args=[session.pk]))
    assert logged_in.get(reverse("share_view", args=["tok-for-delete-test"])).status_code == 404


def test_another_users_session_and_players_are_404(stranger, session):
    didi = session.players.get(name="Didi")
    before = GameSession.objects.values().get(pk=session.pk)
    urls = [
        reverse("session_edit", args=[session.pk]),
        reverse("session_delete", args=[session.pk]),
        reverse("player_edit", args=[session.pk, didi.pk]),
    ]
    for url in urls:
        assert stranger.get(url).status_code == 404
    assert stranger.post(urls[0], details(name="Mine now")).status_code == 404
    assert stranger.post(urls[1]).status_code == 404
    assert stranger.post(urls[2], {"name": "Hacked"}).status_code == 404
    delete = reverse("player_delete", args=[session.pk, didi.pk])
    assert stranger.post(delete).status_code == 404
    assert GameSession.objects.values().get(pk=session.pk) == before
    assert session.players.filter(name="Didi").exists()


def test_manage_pages_need_login(client, session):
    url = reverse("session_edit", args=[session.pk])
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={url}"
    assert client.post(reverse("session_delete", args=[session.pk])).status_code == 302
    assert GameSession.objects.filter(pk=session.pk).exists()


def test_every_page_links_the_svg_favicon(client):
    html = client.get(reverse("home")).content.decode()
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in html
    path = finders.find("favicon.svg")
    assert path is not None
    with open(path, encoding="utf-8") as svg:
        assert svg.read().startswith('<svg xmlns="http://www.w3.org/2000/svg"')


def test_empty_ledger_invites_the_first_round(logged_in, session):
    html = logged_in.get(reverse("session_detail", args=[session.pk])).content.decode()
    assert "No rounds yet." in html
    assert f'<a href="{reverse("round_new", args=[session.pk])}">Enter the first round</a>' in html


def test_shared_empty_ledger_has_no_owner_link(client, session):
    session.share_token = "tok-empty-ledger"
    session.save()
    html = client.get(reverse("share_view", args=["tok-empty-ledger"])).content.decode()
    assert "No rounds yet." in html
    assert "Enter the first round" not in html


def test_the_leaders_row_is_highlighted(logged_in, session):
    html = logged_in.get(reverse("session_detail", args=[session.pk])).content.decode()
    assert 'class="leader"' not in html  # all at 0: nobody leads
    enter(logged_in, session, WORKED, "Didi")
    html = logged_in.get(reverse("session_detail", args=[session.pk])).content.decode()
    assert re.search(r'<tr data-player="Didi" class="leader"\s*>', html)
    assert html.count('class="leader"') == 1


def test_settle_up_claims_fewest_only_within_the_exact_limit(logged_in, owner):
    names = [f"P{i:02d}" for i in range(EXACT_SETTLE_LIMIT + 1)]
    session = make_session(owner, players=names)
    # One round each for P00..P16 as winner would take a while; instead store nets
    # directly: the ledger sums them. P00 owes everyone else 1 point each.
    round_ = Round.objects.create(session=session, number=1)
    players = {p.name: p for p in session.players.all()}
    RoundEntry.objects.bulk_create(
        RoundEntry(round=round_, player=players[n], net=-(len(names) - 1) if n == "P00" else 1)
        for n in names
    )
    html = logged_in.get(reverse("settle_up", args=[session.pk])).content.decode()
    assert "16 payments clear every balance." in html
    assert "clear every balance, the fewest possible." not in html
    assert "With more than 16 players owing or owed, they are worked out quickly" in html
    # At the limit (16 non-zero balances) the engine is exact and the page says so.
    RoundEntry.objects.filter(player=players["P16"]).update(net=0)
    RoundEntry.objects.filter(player=players["P00"]).update(net=-15)
    session.save()  # QuerySet.update() sends no signal: move the version by hand
    html = logged_in.get(reverse("settle_up", args=[session.pk])).content.decode()
    assert "15 payments clear every balance, the fewest possible." in html


def test_settle_up_before_any_round_invites_the_first(logged_in, session):
    html = logged_in.get(reverse("settle_up", args=[session.pk])).content.decode()
    assert "No rounds yet, so nobody owes anything." in html
    assert reverse("round_new", args=[session.pk]) in html
    assert "payment-list" not in html


def test_the_winners_cell_is_marked_in_each_ledger_round(logged_in, session):
    enter(logged_in, session, WORKED, "Didi")
    enter(logged_in, session, {n: ("seen", 0) for n in WORKED}, "Aama")
    assert enter(logged_in, session, WORKED, None).status_code == 302  # no winner, no mark
    html = logged_in.get(reverse("session_detail", args=[session.pk])).content.decode()
    marked = html.split('class="num win-cell">')[1:]
    assert [cell.split("</td>")[0] for cell in marked] == [
        '<span class="pos">+30</span>',
        '<span class="pos">+9</span>',
    ]


def test_session_page_has_the_chart_and_the_exports(logged_in, owner):
    session = make_dashain(owner)
    html = logged_in.get(reverse("session_detail", args=[session.pk])).content.decode()
    assert html.count('<svg xmlns="http://www.w3.org/2000/svg" class="chart"') == 1
    assert html.count('class="series"') == 4
    assert "Running totals: Dashain" in html
    assert reverse("session_summary", args=[session.pk]) in html
    assert reverse("ledger_csv", args=[session.pk]) in html


def test_session_page_without_rounds_has_no_chart(logged_in, owner):
    session = make_session(owner)
    html = logged_in.get(reverse("session_detail", args=[session.pk])).content.decode()
    assert "<svg" not in html or 'class="chart"' not in html


def test_after_a_save_the_standings_lead_with_what_the_round_changed(logged_in, session):
    played(session, ("Aama", {}))  # Aama +9, the rest −3
    response = logged_in.post(
        reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi"), follow=True
    )
    html = response.content.decode()
    assert html.index('class="card standings standings-saved"') < html.index(">Enter round</a>")
    said = page_text(response)
    # Rank, name, total, what round 2 changed, money (2.50 a point).
    assert "1 Didi +27 +30 67.50" in said
    assert "2 Aama +12 +3 30.00" in said
    assert "3 Buwa -19 -16 -47.50" in said and "4 Dai -20 -17 -50.00" in said
    # The next visit is the usual page: the standings below the buttons.
    again = logged_in.get(reverse("session_detail", args=[session.pk])).content.decode()
    assert "standings-saved" not in again
    assert again.index(">Enter round</a>") < again.index('id="standings"')


def test_a_player_who_sat_the_round_out_shows_a_dash(logged_in, session):
    rows = {name: row for name, row in WORKED.items() if name != "Dai"}
    response = logged_in.post(
        reverse("round_new", args=[session.pk]), round_data(session, rows, "Didi"), follow=True
    )
    html = response.content.decode()
    dai = html[html.index('<tr data-player="Dai"') :]
    dai = dai[: dai.index("</tr>")]
    assert '<span class="visually-hidden">sat out</span>' in dai


def test_the_print_summary_lists_the_dhoos_still_owed(logged_in, owner):
    session = make_session(owner, preset="nepal")
    played(session, ("Didi", {"Dai": True}), ("Aama", {}), ("Buwa", {"Didi": True}))
    said = page_text(logged_in.get(reverse("session_summary", args=[session.pk])))
    assert "Didi owes 15 dhoos to the next winner (given in round 3)" in said
    assert "Dai owes" not in said  # paid in round 2


def selected_preset(html: str) -> str:
    select = html[html.index('name="preset"') :]
    found = re.search(r'<option value="(\w+)" selected>', select)
    assert found is not None
    return found[1]


def test_a_new_session_suggests_the_preset_played_last(logged_in, owner):
    url = reverse("session_new")
    page = logged_in.get(url).content.decode()
    assert selected_preset(page) == "pagat" and 'id="preset-suggested"' not in page
    assert "nepal: what most families in Nepal play" in page
    logged_in.cookies[settings.LANGUAGE_COOKIE_NAME] = "ne"
    page = logged_in.get(url).content.decode()
    assert selected_preset(page) == "nepal"
    assert "सुझाव: नेपाल, नेपालका धेरैजसो परिवारले खेल्ने नियम।" in page_text(logged_in.get(url))
    # The family's last evening (by its date) was murder, with one house change.
    older = make_session(owner, preset="kidnap", name="old")
    GameSession.objects.filter(pk=older.pk).update(played_on=datetime.date(2020, 1, 1))
    last = make_session(owner, preset="murder", name="last", dhoos_penalty=25)
    assert selected_preset(logged_in.get(url).content.decode()) == "murder"
    del logged_in.cookies[settings.LANGUAGE_COOKIE_NAME]
    said = page_text(logged_in.get(url))
    assert "Suggested: murder, the closest to your last session's house rules." in said
    GameSession.objects.filter(pk=last.pk).update(rules=make_rules("murder").to_options())
    said = page_text(logged_in.get(url))
    assert "Suggested: murder, the rules of your last session." in said
