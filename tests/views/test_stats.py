"""The record's pages (stats/views.py) across the two evenings of tests/samples.py:
the player, history and leaderboard pages, access, escaping, their queries; the
ledger as CSV, the printable summary, the session chart, and the pages' query
counts, constant in the number of rounds."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import strip_tags

from scoring import services
from scoring.engine import Entry, RoundInput
from scoring.models import GameSession, Player, Round, RoundEntry
from tests.samples import make_dashain, play
from tests.web_helpers import make_session, page_text, played

pytestmark = pytest.mark.django_db


# --- the pages ------------------------------------------------------------------------------


def test_pages_need_login(client, sessions):
    dashain = sessions[0]
    for url in (
        reverse("round_history"),
        reverse("leaderboard"),
        reverse("player_detail", args=["Aama"]),
        reverse("ledger_csv", args=[dashain.pk]),
        reverse("session_summary", args=[dashain.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


def test_another_users_session_and_players_are_404(client, sessions, django_user_model):
    other = django_user_model.objects.create_user("sita", password="pw-sita-12345")
    client.force_login(other)
    dashain = sessions[0]
    for name in ("ledger_csv", "session_summary"):
        assert client.get(reverse(name, args=[dashain.pk])).status_code == 404
    assert client.get(reverse("player_detail", args=["Aama"])).status_code == 404
    html = client.get(reverse("round_history")).content.decode()
    assert "Dashain" not in html


def test_player_page(logged_in, sessions):
    response = logged_in.get(reverse("player_detail", args=["  aama "]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>AAMA</h1>" in html
    assert "50.0%" in html
    assert "+72" in html
    assert "+97.50" in html and "+3.30" in html
    assert "7.3" in html
    _dashain, tihar = sessions
    biggest = tihar.rounds.get(number=2)
    assert reverse("round_detail", args=[tihar.pk, biggest.pk]) in html
    assert reverse("player_detail", args=["Kaka"]) in html


def test_history_page_links_each_round_to_its_breakdown(logged_in, sessions):
    dashain, _tihar = sessions
    response = logged_in.get(reverse("round_history"), {"winner": "didi"})
    html = response.content.decode()
    assert "1 round found" in html
    round_1 = dashain.rounds.get(number=1)
    assert reverse("round_detail", args=[dashain.pk, round_1.pk]) in html
    assert "Didi won" in html


def test_history_page_htmx_returns_only_the_results(logged_in, sessions):
    response = logged_in.get(
        reverse("round_history"), {"victims": "on"}, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="history-results"')
    assert "AAMA&#x27;s maal kidnapped" in html or "AAMA's maal kidnapped" in html
    assert "<form" not in html


def test_history_page_rejects_a_backwards_date_range(logged_in, sessions):
    html = logged_in.get(
        reverse("round_history"), {"date_from": "2026-11-02", "date_to": "2026-11-01"}
    ).content.decode()
    assert "The end date is before the start date." in html
    assert "No round found" in html


def test_leaderboard_page(logged_in, sessions):
    html = logged_in.get(reverse("leaderboard")).content.decode()
    assert "In NPR" in html and "In USD" in html
    assert "+97.50" in html and "-72.50" in html
    assert html.count('class="chart"') == 2


def test_names_are_escaped_everywhere(logged_in, owner):
    session = make_session(owner, players=("<b>Bad</b>", "Aama"))
    play(session, "Aama", {"<b>Bad</b>": ("seen", 0), "Aama": ("seen", 0)})
    for url in (
        reverse("round_history"),
        reverse("leaderboard"),
        reverse("player_detail", args=["<b>Bad</b>"]),
        reverse("session_summary", args=[session.pk]),
        reverse("session_detail", args=[session.pk]),
    ):
        html = logged_in.get(url).content.decode()
        assert "<b>Bad</b>" not in html, url
        assert "&lt;b&gt;Bad&lt;/b&gt;" in html, url


def test_history_page_marks_the_searched_players_net(logged_in, sessions):
    html = logged_in.get(reverse("round_history"), {"player": "buwa"}).content.decode()
    assert "2 rounds found" in html
    assert '<span class="neg focus">Buwa -16</span>' in html
    assert '<span class="neg focus">Buwa -13</span>' in html
    assert '<span class="pos">Didi +30</span>' in html


def test_leaderboard_chart_shows_points_when_played_for_points_only(logged_in, owner):
    session = make_session(owner, players=("Aama", "Buwa"), stake="0")
    play(session, "Aama", {"Aama": ("seen", 0), "Buwa": ("seen", 0)})
    html = logged_in.get(reverse("leaderboard")).content.decode()
    assert "Lifetime standings in points" in html
    assert ">+3</text>" in html and ">-3</text>" in html


def test_record_pages_are_rendered_once_per_change(logged_in, sessions, django_assert_num_queries):
    tihar = sessions[1]
    for name in ("round_history", "leaderboard"):
        logged_in.get(reverse(name))
        with django_assert_num_queries(1):  # the state of the reader's sessions
            assert logged_in.get(reverse(name)).status_code == 200
    # A round in either session shows at once: Kaka wins again in Tihar.
    play(tihar, "Kaka", {"AAMA": ("seen", 0), "Didi": ("seen", 0), "Kaka": ("seen", 0)})
    assert "5 rounds found" in logged_in.get(reverse("round_history")).content.decode()
    # So does a deleted session: only Dashain's NPR board is left.
    logged_in.post(reverse("session_delete", args=[tihar.pk]), {"confirm": "on"})
    html = logged_in.get(reverse("leaderboard")).content.decode()
    assert "In NPR" in html and "In USD" not in html
    assert logged_in.get(reverse("player_detail", args=["Kaka"])).status_code == 404


def test_each_filter_is_its_own_page(logged_in, sessions):
    everyone = logged_in.get(reverse("round_history")).content.decode()
    victims = logged_in.get(reverse("round_history"), {"victims": "on"}).content.decode()
    assert "4 rounds found" in everyone and "1 round found" in victims


def test_ledger_csv_exact_content(logged_in, owner):
    session = make_dashain(owner)
    response = logged_in.get(reverse("ledger_csv", args=[session.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == (
        f'attachment; filename="ledger-2026-10-02-{session.pk}.csv"'
    )
    assert response.content.decode() == (
        "\ufeffRound,Winner,Win type,Better,Aama,Buwa,Didi,Dai,"
        "Aama total,Buwa total,Didi total,Dai total\r\n"
        "1,Didi,normal,no,3,-16,30,-17,3,-16,30,-17\r\n"
        "2,Aama,dublee,no,36,-13,-23,,39,-29,7,-17\r\n"
    )


def test_ledger_csv_no_winner_better_and_formula_names(logged_in, owner):
    session = make_session(owner, players=("=SUM(A1)", "Buwa"), dhoos_penalty=15)
    play(session, "Buwa", {"=SUM(A1)": ("seen", 0), "Buwa": ("seen", 0)}, better=True)
    # A round with no winner: only dhoos is paid (=SUM(A1) pays Buwa 15).

    services.add_round(
        session=session,
        round_input=RoundInput((Entry("=SUM(A1)", dhoos=True), Entry("Buwa")), winner=None),
    )
    text = logged_in.get(reverse("ledger_csv", args=[session.pk])).content.decode()
    assert text == (
        "\ufeffRound,Winner,Win type,Better,'=SUM(A1),Buwa,'=SUM(A1) total,Buwa total\r\n"
        "1,Buwa,normal,yes,-6,6,-6,6\r\n"
        "2,,,no,-15,15,-21,21\r\n"
    )


def test_summary_page_has_standings_payments_and_chart(logged_in, owner):
    session = make_dashain(owner)
    response = logged_in.get(reverse("session_summary", args=[session.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "stats/stats.css" in html  # holds the @page A4 print rules
    assert "<h1>Dashain</h1>" in html
    # Standings: Aama +39 → NPR 97.50.
    assert "+97.50" in html
    # Settle-up: Buwa −29, Dai −17 pay Aama +39 and Didi +7 in the fewest payments.
    text = " ".join(strip_tags(html).split())
    assert "Buwa pays Aama NPR 72.50 (29 points)" in text
    assert "Dai pays Aama NPR 25.00 (10 points)" in text
    assert "Dai pays Didi NPR 17.50 (7 points)" in text
    assert html.count('class="chart"') == 1
    assert html.count('class="series"') == 4
    assert "Aama (+39)" in html
    assert reverse("ledger_csv", args=[session.pk]) in html


def test_session_chart(logged_in, owner):
    session = make_dashain(owner)
    html = logged_in.get(reverse("session_detail", args=[session.pk])).content.decode()
    html = html[html.index('<figure class="chart-figure session-chart card"') :]
    html = html[: html.index("</figure>")]
    assert "Running totals: Dashain" in html
    assert html.count('class="series"') == 4
    # Didi's line: 0, +30, +7.
    assert "Didi (+7)" in html


def test_session_chart_empty_session(logged_in, owner):
    session = make_session(owner)
    response = logged_in.get(reverse("session_detail", args=[session.pk]))
    assert response.status_code == 200
    assert "session-chart" not in response.content.decode()
    html = logged_in.get(reverse("session_summary", args=[session.pk])).content.decode()
    assert "Nobody owes anything." in html


def fill(owner, rounds: int) -> int:
    """A four-player session with `rounds` zero-sum rounds, written in bulk."""
    session = make_session(owner, name=f"Long night {rounds}")
    players = list(Player.objects.filter(session=session))
    Round.objects.bulk_create(
        Round(session=session, number=n, winner=players[n % 4], better=n % 7 == 0)
        for n in range(1, rounds + 1)
    )
    entries = []
    for round_ in Round.objects.filter(session=session):
        for player in players:
            won = player.pk == round_.winner_id
            entries.append(
                RoundEntry(
                    round=round_,
                    player=player,
                    status="unseen" if round_.number % 3 == 0 and not won else "seen",
                    maal=round_.number % 5,
                    net=9 if won else -3,
                )
            )
    RoundEntry.objects.bulk_create(entries)
    return session.pk


def count_queries(client, url: str, params=None) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, params or {})
    assert response.status_code == 200, url
    return len(queries)


@pytest.mark.parametrize(
    ("name", "args", "params"),
    [
        ("round_history", [], {}),
        ("round_history", [], {"player": "aama", "sort": "swing"}),
        ("round_history", [], {"page": "2"}),
        ("leaderboard", [], {}),
        ("player_detail", ["Aama"], {}),
        ("session_summary", ["SESSION"], {}),
        ("ledger_csv", ["SESSION"], {}),
        ("session_detail", ["SESSION"], {}),
    ],
)
def test_query_count_does_not_grow_with_rounds(client, django_user_model, name, args, params):
    counts = []
    for rounds in (10, 500):
        user = django_user_model.objects.create_user(f"u{rounds}", password="pw-12345-xyz")
        session_id = fill(user, rounds)
        client.force_login(user)
        url = reverse(name, args=[session_id if a == "SESSION" else a for a in args])
        counts.append(count_queries(client, url, params))
    assert counts[0] == counts[1]


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
    assert "3 rounds found" in page_text(logged_in.get(url, {"session": dashain.pk}))
    found = page_text(logged_in.get(url, {"session": dashain.pk, "dhoos": "on"}))
    assert "1 round found" in found and "Dashain, round 2" in found and "Dai: dhoos" in found
    found = page_text(logged_in.get(url, {"dhoos": "on"}))
    assert "2 rounds found" in found and "Tihar, round 1" in found and "Aama: dhoos" in found
    assert "No round found" in page_text(logged_in.get(url, {"session": tihar.pk, "dublee": "on"}))
    refused = page_text(logged_in.get(url, {"session": "999999"}))
    assert "Select a valid choice." in refused
    logged_in.cookies[settings.LANGUAGE_COOKIE_NAME] = "ne"
    nepali = page_text(logged_in.get(url, {"dhoos": "on"}))
    assert "Dai: धुस" in nepali and "धुस लागेका राउन्ड मात्र" in nepali
    assert "Dashain · 16 असोज 2083" in logged_in.get(url).content.decode()
