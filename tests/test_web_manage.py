"""Looking after a session: its details, deleting it, renaming and removing players,
the favicon, the empty and leader states of the ledger, and the settle-up wording."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from scoring.engine.ledger import EXACT_SETTLE_LIMIT
from scoring.models import GameSession, Player, Round, RoundEntry
from tests.web_helpers import WORKED, make_session, round_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def stranger(client, django_user_model):
    """Another user, logged in on the same client."""
    hari = django_user_model.objects.create_user("hari", password="pw-hari-12345")
    client.force_login(hari)
    return client


def enter(client, session, rows, winner, **kwargs):
    return client.post(
        reverse("round_new", args=[session.pk]), round_data(session, rows, winner, **kwargs)
    )


def field_block(html: str, name: str) -> str:
    return html.split(f'id="field-{name}"')[1].split("</div>")[0]


def details(**overrides) -> dict[str, str]:
    data = {
        "name": "Tihar night",
        "played_on": "2026-11-01",
        "currency": "NPR",
        "stake_per_point": "2.50",
    }
    data.update(overrides)
    return data


def last_message(client, url) -> str:
    """The newest message shown on `url` (earlier ones come from entering rounds)."""
    response = client.get(url)
    return [str(m) for m in response.context["messages"]][-1]


# --- editing a session's details -------------------------------------------------------------


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


# --- deleting a session ----------------------------------------------------------------------


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


# --- players ---------------------------------------------------------------------------------


def test_players_page_links_each_player_to_rename_or_remove(logged_in, session):
    html = logged_in.get(reverse("player_add", args=[session.pk])).content.decode()
    for player in session.players.all():
        assert reverse("player_edit", args=[session.pk, player.pk]) in html
    detail = logged_in.get(reverse("session_detail", args=[session.pk])).content.decode()
    assert reverse("player_add", args=[session.pk]) in detail
    assert reverse("session_edit", args=[session.pk]) in detail


def test_rename_keeps_every_round_and_shows_the_new_name(logged_in, session):
    enter(logged_in, session, WORKED, "Didi")
    didi = session.players.get(name="Didi")
    url = reverse("player_edit", args=[session.pk, didi.pk])
    assert 'value="Didi"' in logged_in.get(url).content.decode()
    response = logged_in.post(url, {"name": "  Sita   Didi "})
    assert response.status_code == 302
    assert last_message(logged_in, response["Location"]) == "Didi is now called Sita Didi."
    didi.refresh_from_db()
    assert didi.name == "Sita Didi"
    nets = dict(RoundEntry.objects.values_list("player__name", "net"))
    assert nets == {"Aama": 3, "Buwa": -16, "Sita Didi": 30, "Dai": -17}
    assert Round.objects.get().winner == didi
    html = logged_in.get(reverse("session_detail", args=[session.pk])).content.decode()
    assert 'data-player="Sita Didi"' in html
    # The round form and a saved round still work under the new name.
    response = enter(logged_in, session, WORKED | {"Sita Didi": ("seen", 3)}, "Sita Didi")
    assert response.status_code == 302
    assert Round.objects.count() == 2


def test_rename_errors_beside_the_field_and_nothing_saved(logged_in, session):
    didi = session.players.get(name="Didi")
    url = reverse("player_edit", args=[session.pk, didi.pk])
    html = logged_in.post(url, {"name": " aama "}).content.decode()
    assert "Name: aama already plays in this session" in field_block(html, "name")
    html = logged_in.post(url, {"name": "   "}).content.decode()
    assert "Name: This field is required." in field_block(html, "name")
    html = logged_in.post(url, {"name": "x" * 41}).content.decode()
    assert "Name: Ensure this value has at most 40 characters (it has 41)." in html
    assert sorted(session.players.values_list("name", flat=True)) == [
        "Aama",
        "Buwa",
        "Dai",
        "Didi",
    ]


def test_rename_to_forty_characters_and_to_another_case(logged_in, session):
    didi = session.players.get(name="Didi")
    url = reverse("player_edit", args=[session.pk, didi.pk])
    assert logged_in.post(url, {"name": "DIDI"}).status_code == 302  # her own name
    didi.refresh_from_db()
    assert didi.name == "DIDI"
    assert logged_in.post(url, {"name": "d" * 40}).status_code == 302
    didi.refresh_from_db()
    assert didi.name == "d" * 40


def test_rename_to_the_same_name_changes_nothing(logged_in, session):
    didi = session.players.get(name="Didi")
    response = logged_in.post(reverse("player_edit", args=[session.pk, didi.pk]), {"name": "Didi"})
    assert response.status_code == 302
    assert last_message(logged_in, response["Location"]) == "The name is unchanged."


def test_remove_a_player_who_has_played_no_round(logged_in, session):
    enter(logged_in, session, WORKED, "Didi")
    bhai = Player.objects.create(session=session, name="Bhai", position=9)
    url = reverse("player_edit", args=[session.pk, bhai.pk])
    html = logged_in.get(url).content.decode()
    assert "Remove Bhai" in html
    response = logged_in.post(reverse("player_delete", args=[session.pk, bhai.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("player_add", args=[session.pk])
    assert last_message(logged_in, response["Location"]) == "Bhai removed from the session."
    assert list(session.players.values_list("name", flat=True)) == ["Aama", "Buwa", "Didi", "Dai"]
    assert RoundEntry.objects.count() == 4


def test_a_player_with_rounds_cannot_be_removed(logged_in, session):
    for winner in ("Didi", "Aama", "Dai"):
        assert enter(logged_in, session, WORKED, winner).status_code == 302
    didi = session.players.get(name="Didi")
    html = logged_in.get(reverse("player_edit", args=[session.pk, didi.pk])).content.decode()
    assert "Didi has played 3 rounds; a player with rounds cannot be removed." in html
    assert reverse("player_delete", args=[session.pk, didi.pk]) not in html
    response = logged_in.post(reverse("player_delete", args=[session.pk, didi.pk]))
    assert response.status_code == 302
    assert (
        last_message(logged_in, response["Location"])
        == "Not removed: Didi has played 3 rounds; a player with rounds cannot be removed."
    )
    assert session.players.filter(name="Didi").exists()
    assert RoundEntry.objects.count() == 12


def test_one_round_is_named_in_the_singular(logged_in, session):
    rows = {"Aama": ("seen", 5), "Buwa": ("seen", 0), "Didi": ("seen", 0)}
    enter(logged_in, session, rows, "Aama")  # Dai sits out
    aama = session.players.get(name="Aama")
    response = logged_in.post(reverse("player_delete", args=[session.pk, aama.pk]))
    assert (
        last_message(logged_in, response["Location"])
        == "Not removed: Aama has played 1 round; a player with rounds cannot be removed."
    )
    dai = session.players.get(name="Dai")
    assert logged_in.post(reverse("player_delete", args=[session.pk, dai.pk])).status_code == 302
    assert not session.players.filter(name="Dai").exists()


def test_a_session_keeps_at_least_two_players(logged_in, owner):
    session = make_session(owner, players=("Aama", "Buwa"))
    buwa = session.players.get(name="Buwa")
    response = logged_in.post(reverse("player_delete", args=[session.pk, buwa.pk]))
    assert (
        last_message(logged_in, response["Location"])
        == "Not removed: a session needs at least 2 players."
    )
    assert session.players.count() == 2


def test_player_delete_needs_post(logged_in, session):
    dai = session.players.get(name="Dai")
    assert logged_in.get(reverse("player_delete", args=[session.pk, dai.pk])).status_code == 405
    assert session.players.filter(pk=dai.pk).exists()


# --- ownership -------------------------------------------------------------------------------


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


def test_a_player_of_another_session_is_404(logged_in, owner, session):
    other = make_session(owner, name="Dashain")
    foreign = other.players.get(name="Didi")
    url = reverse("player_edit", args=[session.pk, foreign.pk])
    assert logged_in.get(url).status_code == 404
    delete = reverse("player_delete", args=[session.pk, foreign.pk])
    assert logged_in.post(delete).status_code == 404
    assert other.players.filter(pk=foreign.pk).exists()


def test_manage_pages_need_login(client, session):
    url = reverse("session_edit", args=[session.pk])
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={url}"
    assert client.post(reverse("session_delete", args=[session.pk])).status_code == 302
    assert GameSession.objects.filter(pk=session.pk).exists()


# --- favicon, empty states, leader, settle-up wording -------------------------------------


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
    assert '<tr data-player="Didi" class="leader">' in html
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
