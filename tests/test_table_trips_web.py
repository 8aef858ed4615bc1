"""The table's trips (issue 23, point 4) through the server alone: what each page
says, exactly. The phone's side of each is tests/browser/test_table_trips.py.

Rounds below are all seen with maal 0 unless said: under pagat a winner takes 3
from each loser; under nepal the same (seen 3), and a dhoos is 15 owed to the
next winner."""

from __future__ import annotations

import datetime
import re
from html import unescape

import pytest
from django.conf import settings
from django.urls import reverse

from scoring import services
from scoring.engine import Entry, RoundInput
from scoring.engine.rules import make_rules
from scoring.models import GameSession, Round, RoundChange
from tests.web_helpers import WORKED, make_session, round_data

pytestmark = pytest.mark.django_db


def played(session, *rounds: tuple[str | None, dict[str, bool]]) -> list[Round]:
    names = [p.name for p in session.players.all()]
    return [
        services.add_round(
            session,
            RoundInput(
                entries=tuple(Entry(n, dhoos=dhoos.get(n, False)) for n in names), winner=winner
            ),
        )
        for winner, dhoos in rounds
    ]


def text(response) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


# --- the dublee mix-up --------------------------------------------------------------------------


def test_the_winners_dublees_with_a_normal_win_are_refused_by_name(logged_in, session):
    data = round_data(session, WORKED, "Didi")
    didi = session.players.get(name="Didi").pk
    data[f"p-{didi}-dublees"] = "on"
    response = logged_in.post(reverse("round_new", args=[session.pk]), data)
    assert response.status_code == 422  # refused, as every refused form
    said = (
        "win_type: Didi won and saw by dublees, so it is a Dublee win: "
        "choose Dublee (eight dublees), or untick Didi's dublees"
    )
    assert said in text(response)
    assert not Round.objects.exists()
    # As a Dublee win it is saved, the bonus 5 on each loser's w (T = 14, n = 4):
    # Aama 14 + 8 − 20 = 2, Buwa (unseen) 14 + 15 − 8 = 21, Dai 14 + 8 − 0 = 22.
    data["win_type"] = "dublee"
    assert logged_in.post(reverse("round_new", args=[session.pk]), data).status_code == 302
    saved = Round.objects.get()
    assert {e.player.name: e.net for e in saved.entries.all()} == {
        "Aama": -2,
        "Buwa": -21,
        "Didi": 45,
        "Dai": -22,
    }


def test_a_loser_who_saw_by_dublees_still_saves_a_normal_win(logged_in, session):
    data = round_data(session, WORKED, "Didi")
    data[f"p-{session.players.get(name='Dai').pk}-dublees"] = "on"
    assert logged_in.post(reverse("round_new", args=[session.pk]), data).status_code == 302
    assert Round.objects.get().win_type == "normal"


# --- after Save, and after a delete -------------------------------------------------------------


def test_after_a_save_the_standings_lead_with_what_the_round_changed(logged_in, session):
    played(session, ("Aama", {}))  # Aama +9, the rest −3
    response = logged_in.post(
        reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi"), follow=True
    )
    html = response.content.decode()
    assert html.index('class="card standings standings-saved"') < html.index(">Enter round</a>")
    said = text(response)
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


def test_the_delete_message_restores_the_round(logged_in, session):
    rounds = played(session, ("Aama", {}), ("Buwa", {}))
    response = logged_in.post(reverse("round_delete", args=[session.pk, rounds[0].pk]), follow=True)
    html = response.content.decode()
    restore = re.search(
        r'<form method="post" action="([^"]+)" class="inline-form message-action">', html
    )
    assert restore is not None and "Round 1 deleted." in html
    assert ">Restore</button>" in html
    back = logged_in.post(restore[1], follow=True)
    assert "Round restored as round 1." in back.content.decode()
    assert list(Round.objects.order_by("number").values_list("pk", flat=True)) == [
        r.pk for r in rounds
    ]
    # Restored once: the message's button, posted again, restores nothing more.
    again = logged_in.post(restore[1], follow=True)
    assert "This round has already been restored." in again.content.decode()
    assert Round.objects.count() == 2


def test_the_restore_button_of_another_users_delete_is_a_404(logged_in, session, django_user_model):
    (round_,) = played(session, ("Aama", {}))
    logged_in.post(reverse("round_delete", args=[session.pk, round_.pk]))
    change = RoundChange.objects.get(action="delete")
    other = django_user_model.objects.create_user("sita", password="pw-sita-12345")
    logged_in.force_login(other)
    response = logged_in.post(reverse("round_restore", args=[session.pk, change.pk]))
    assert response.status_code == 404
    assert not Round.objects.exists()


# --- names --------------------------------------------------------------------------------------


def test_the_round_search_and_the_change_log_have_one_name_each(logged_in, session):
    (round_,) = played(session, ("Aama", {}))
    page = logged_in.get(reverse("session_detail", args=[session.pk])).content.decode()
    assert f'href="{reverse("session_changes", args=[session.pk])}">Changes</a>' in page
    assert f'href="{reverse("round_history")}">Find rounds</a>' in page
    assert ">History<" not in page
    search = logged_in.get(reverse("round_history")).content.decode()
    assert "<title>Find rounds</title>" in search and "<h1>Find rounds</h1>" in search
    log = logged_in.get(reverse("session_changes", args=[session.pk])).content.decode()
    assert "<h1>Changes</h1>" in log
    one = logged_in.get(reverse("round_changes", args=[session.pk, round_.pk])).content.decode()
    assert "<h1>Changes to this round</h1>" in one


# --- history filters ----------------------------------------------------------------------------


def test_history_filters_by_evening_and_by_dhoos(logged_in, owner):
    dashain = make_session(owner, name="Dashain")
    tihar = make_session(owner, name="Tihar")
    GameSession.objects.filter(pk=dashain.pk).update(played_on=datetime.date(2026, 10, 2))
    GameSession.objects.filter(pk=tihar.pk).update(played_on=datetime.date(2026, 11, 9))
    played(dashain, ("Aama", {}), ("Buwa", {"Dai": True}), ("Didi", {}))
    played(tihar, ("Buwa", {"Aama": True}), ("Dai", {}))
    url = reverse("round_history")
    page = logged_in.get(url).content.decode()
    # The evenings, newest first, dated the reader's way.
    assert page.index(">Tihar · 9 Nov 2026</option>") < page.index(">Dashain · 2 Oct 2026</option>")
    assert "3 rounds found" in text(logged_in.get(url, {"session": dashain.pk}))
    found = text(logged_in.get(url, {"session": dashain.pk, "dhoos": "on"}))
    assert "1 round found" in found and "Dashain, round 2" in found and "Dai: dhoos" in found
    found = text(logged_in.get(url, {"dhoos": "on"}))
    assert "2 rounds found" in found and "Tihar, round 1" in found and "Aama: dhoos" in found
    assert "No round found" in text(logged_in.get(url, {"session": tihar.pk, "dublee": "on"}))
    refused = text(logged_in.get(url, {"session": "999999"}))
    assert "Select a valid choice." in refused
    logged_in.cookies[settings.LANGUAGE_COOKIE_NAME] = "ne"
    nepali = text(logged_in.get(url, {"dhoos": "on"}))
    assert "Dai: धुस" in nepali and "धुस लागेका राउन्ड मात्र" in nepali
    assert "Dashain · 16 असोज 2083" in logged_in.get(url).content.decode()


# --- paid and pending dhoos ---------------------------------------------------------------------


def test_a_rounds_page_says_its_dhoos_was_paid_or_lapsed(logged_in, owner):
    session = make_session(owner, preset="nepal")
    rounds = played(
        session,
        ("Didi", {"Dai": True}),  # Dai owes 15 …
        ("Buwa", {"Aama": True}),  # … paid to Buwa here; Aama owes 15 …
        ("Aama", {}),  # … and wins: it lapses
        ("Didi", {"Buwa": True}),  # Buwa still owes 15
    )

    def page(round_: Round) -> str:
        return text(logged_in.get(reverse("round_detail", args=[session.pk, round_.pk])))

    first = page(rounds[0])
    assert "dhoos: 15, paid to Buwa in round 2" in first
    assert "owes 15 to the next winner" not in first
    assert "dhoos: 15, not paid: Aama won round 3 themselves" in page(rounds[1])
    assert "dhoos: owes 15 to the next winner" in page(rounds[3])
    html = logged_in.get(reverse("round_detail", args=[session.pk, rounds[0].pk])).content.decode()
    assert f'href="{reverse("round_detail", args=[session.pk, rounds[1].pk])}"' in html
    logged_in.cookies[settings.LANGUAGE_COOKIE_NAME] = "ne"
    assert "धुस: 15, राउन्ड 2 मा Buwa लाई तिरिसकेको" in page(rounds[0])


def test_the_print_summary_lists_the_dhoos_still_owed(logged_in, owner):
    session = make_session(owner, preset="nepal")
    played(session, ("Didi", {"Dai": True}), ("Aama", {}), ("Buwa", {"Didi": True}))
    said = text(logged_in.get(reverse("session_summary", args=[session.pk])))
    assert "Didi owes 15 dhoos to the next winner (given in round 3)" in said
    assert "Dai owes" not in said  # paid in round 2


# --- the new session's preset -------------------------------------------------------------------


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
    assert "सुझाव: नेपाल, नेपालका धेरैजसो परिवारले खेल्ने नियम।" in text(logged_in.get(url))
    # The family's last evening (by its date) was murder, with one house change.
    older = make_session(owner, preset="kidnap", name="old")
    GameSession.objects.filter(pk=older.pk).update(played_on=datetime.date(2020, 1, 1))
    last = make_session(owner, preset="murder", name="last", dhoos_penalty=25)
    assert selected_preset(logged_in.get(url).content.decode()) == "murder"
    del logged_in.cookies[settings.LANGUAGE_COOKIE_NAME]
    said = text(logged_in.get(url))
    assert "Suggested: murder, the closest to your last session's house rules." in said
    GameSession.objects.filter(pk=last.pk).update(rules=make_rules("murder").to_options())
    said = text(logged_in.get(url))
    assert "Suggested: murder, the rules of your last session." in said
