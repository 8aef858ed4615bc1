"""The players of a session: adding (lookalike and invisible names refused, at most
30 players, even from two phones at once), renaming, removing, the seat order
that decides the dealer, and another session's player answered 404."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from scoring.models import Player, Round, RoundEntry
from tests.web_helpers import (
    INVISIBLE,
    WORKED,
    Phone,
    at_once,
    enter,
    entered,
    everything,
    field_block,
    field_errors,
    invisible_in,
    last_message,
    make_session,
    page,
    round_data,
)

pytestmark = pytest.mark.django_db


def test_seat_order_decides_the_dealer_and_can_be_changed(logged_in, owner):
    session = make_session(owner)
    assert "Aama deals" in page(logged_in, "session_detail", session)
    assert "Aama deals" in page(logged_in, "round_new", session)
    entered(logged_in, session, WORKED, "Didi")
    assert "Buwa deals" in page(logged_in, "session_detail", session)
    didi = session.players.get(name="Didi")
    response = logged_in.post(reverse("player_move", args=[session.pk, didi.pk]), {"to": "earlier"})
    assert response.status_code == 302
    assert [p.name for p in session.players.order_by("position")] == ["Aama", "Didi", "Buwa", "Dai"]
    assert "Didi deals" in page(logged_in, "session_detail", session)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("AAMA", "AAMA already plays in this session (as Aama)"),
        ("Aama", "Aama already plays in this session"),
        ("Di\u200bdi", invisible_in("Didi", "200B")),
        ("\u2066\u2069", INVISIBLE),
    ],
)
def test_lookalike_names_when_adding_a_player(logged_in, session, name, message):
    before = everything()
    response = logged_in.post(reverse("player_add", args=[session.pk]), {"name": name})
    assert response.status_code == 422
    assert f"<li>Name: {message}</li>" in field_errors(response.content.decode(), "name")
    assert everything() == before


def test_a_decomposed_name_is_stored_composed(logged_in, session):
    response = logged_in.post(reverse("player_add", args=[session.pk]), {"name": "Rene\u0301"})
    assert response.status_code == 302
    assert Player.objects.filter(session=session, name="René", name_key="rené").exists()


def test_a_31st_player_is_refused(logged_in, session):
    for n in range(26):
        Player.objects.create(session=session, name=f"P{n}", position=10 + n)
    response = logged_in.post(reverse("player_add", args=[session.pk]), {"name": "Bhai"})
    assert "at most 30 players in one session" in response.content.decode()
    assert session.players.count() == 30


@pytest.mark.django_db(transaction=True)
def test_two_phones_adding_the_30th_player_at_once_make_30_not_31(live_server, owner):
    """Both forms count 29 before either saves; the service counts again with the
    session locked, so the second phone is told the session is full."""
    session = make_session(owner, players=[f"P{n}" for n in range(28)])
    phones = [Phone(live_server.url, owner) for _ in range(2)]
    path = reverse("player_add", args=[session.pk])
    for attempt in range(3):  # a race can hide once; three times in a row it cannot
        Player.objects.create(session=session, name=f"Q{attempt}", position=100 + attempt)
        assert session.players.count() == 29
        results = at_once(
            lambda: phones[0].post(path, {"name": "Bhai"}),
            lambda: phones[1].post(path, {"name": "Bhauju"}),
        )
        assert sorted(status for status, _body in results) == [302, 422]
        refused = next(body for status, body in results if status == 422)
        assert "at most 30 players in one session" in refused
        assert session.players.count() == 30
        session.players.filter(name__in=["Bhai", "Bhauju", f"Q{attempt}"]).delete()


def test_a_rename_to_a_case_twin_is_refused(logged_in, session):
    didi = session.players.get(name="Didi")
    url = reverse("player_edit", args=[session.pk, didi.pk])
    response = logged_in.post(url, {"name": "AAMA"})
    assert "AAMA already plays in this session (as Aama)" in unescape(response.content.decode())
    assert logged_in.post(url, {"name": "DIDI"}).status_code == 302  # its own name, recased
    assert session.players.filter(name="DIDI").exists()


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


def test_a_player_of_another_session_is_404(logged_in, owner, session):
    other = make_session(owner, name="Dashain")
    foreign = other.players.get(name="Didi")
    url = reverse("player_edit", args=[session.pk, foreign.pk])
    assert logged_in.get(url).status_code == 404
    delete = reverse("player_delete", args=[session.pk, foreign.pk])
    assert logged_in.post(delete).status_code == 404
    assert other.players.filter(pk=foreign.pk).exists()


def test_add_player_errors(logged_in, owner):
    session = make_session(owner)
    url = reverse("player_add", args=[session.pk])
    html = logged_in.post(url, {"name": " didi "}).content.decode()
    assert "Name: didi already plays in this session" in html
    html = logged_in.post(url, {"name": "  "}).content.decode()
    assert "Name: This field is required." in html
    html = logged_in.post(url, {"name": "x" * 41}).content.decode()
    assert "Name: Ensure this value has at most 40 characters (it has 41)." in html
    assert session.players.count() == 4


# --- Drawing seats before round 1 -------------------------------------------------------------


def test_draw_seats_seats_everyone_by_their_cards_and_can_be_undone(
    logged_in, session, monkeypatch
):
    from scoring.models import RoundChange
    from scoring.services import players as players_service

    cards = iter(["7D", "KH", "AS", "3C"])  # Aama, Buwa, Didi, Dai draw in seat order
    monkeypatch.setattr(players_service, "draw_card", lambda deck: next(cards))
    url = reverse("seats_draw", args=[session.pk])
    assert (
        "Draw seats" in logged_in.get(reverse("session_detail", args=[session.pk])).content.decode()
    )
    answer = logged_in.post(url)
    assert answer.status_code == 302
    assert [p.name for p in session.players.order_by("position")] == ["Didi", "Buwa", "Aama", "Dai"]
    page = logged_in.get(url).content.decode()
    assert "Seats drawn: Didi deals round 1." in page
    faces = re.findall(r'class="drawn-face[^"]*" aria-hidden="true">([^<]+)<', page)
    assert faces == ["A♠", "K♥", "7♦", "3♣"]
    # The dealer is marked in the standings, and the next round's line says so.
    detail = logged_in.get(reverse("session_detail", args=[session.pk])).content.decode()
    assert re.search(r'Didi\s*<strong class="dealer-mark">deals</strong>', detail)
    assert "Didi deals" in detail
    # Recorded in the session's changes, with every card.
    changes = logged_in.get(reverse("session_changes", args=[session.pk])).content.decode()
    assert "Seats drawn" in changes and "seat 1 · A♠ · deals first" in changes
    # Undone before round 1: everyone sits as before, and that is recorded too.
    logged_in.post(url, {"undo": "1"})
    assert [p.name for p in session.players.order_by("position")] == ["Aama", "Buwa", "Didi", "Dai"]
    assert list(RoundChange.objects.values_list("action", flat=True).order_by("id")) == [
        "seats",
        "seats_undo",
    ]
    assert "The cards drawn" not in logged_in.get(url).content.decode()


def test_seats_are_not_drawn_once_a_round_is_saved(logged_in, session):
    logged_in.post(reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi"))
    url = reverse("seats_draw", args=[session.pk])
    before = list(session.players.order_by("position").values_list("name", flat=True))
    answer = logged_in.post(url, follow=True)
    assert "Seats are drawn before round 1: this session has rounds already." in (
        answer.content.decode()
    )
    assert list(session.players.order_by("position").values_list("name", flat=True)) == before
    assert (
        "Draw seats"
        not in logged_in.get(reverse("session_detail", args=[session.pk]))
        .content.decode()
        .split("<nav")[1]
    )
