"""The ledger as CSV, the printable summary, the session chart, and the statistics
pages' query counts (constant in the number of rounds)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import strip_tags

from scoring.models import Player, Round, RoundEntry
from tests.samples import make_dashain, play
from tests.web_helpers import make_session

pytestmark = pytest.mark.django_db


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
    from scoring import services
    from scoring.engine import Entry, RoundInput

    services.add_round(
        session,
        RoundInput((Entry("=SUM(A1)", dhoos=True), Entry("Buwa")), winner=None),
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
