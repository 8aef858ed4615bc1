"""The record across sessions, checked against two sessions worked out by hand
(tests/samples.py makes them); the ledger as CSV, the printable summary, the
session chart, and the pages' query counts, constant in the number of rounds.

Session A, "Dashain" (pagat, NPR 2.50 a point, 2 Oct 2026): Aama, Buwa, Didi, Dai.
  1. RULES.md's worked example: Didi wins; Aama seen 5, Buwa unseen 2, Didi 7,
     Dai seen 0. Nets Aama +3, Buwa −16, Didi +30, Dai −17.
  2. Aama wins with eight dublees; Dai sits out. Aama seen 10, Buwa seen 4,
     Didi unseen 3. n = 3, T = 17; Buwa pays 17 + 3 + 5 − 12 = 13, Didi pays
     17 + 10 + 5 − 9 = 23. Nets Aama +36, Buwa −13, Didi −23.
  Totals: Aama 39, Buwa −29, Didi 7, Dai −17.
Session B, "Tihar" (kidnap, USD 0.10 a point, 1 Nov 2026): "AAMA" (the same
Aama, spelt differently), Didi, Kaka.
  1. Kaka wins; AAMA unseen with maal 6 (kidnapped: S_Kaka = 5 + 6 = 11,
     S_AAMA = 0), Didi seen 4. T = 15; AAMA pays 15 + 10 − 0 = 25, Didi pays
     15 + 3 − 12 = 6. Nets AAMA −25, Didi −6, Kaka +31.
  2. Better round, AAMA wins: AAMA seen 8, Didi seen 0, Kaka unseen 0. T = 8,
     m = 2; Didi pays (8 + 3) × 2 = 22, Kaka pays (8 + 10) × 2 = 36. AAMA +58.
  Totals: AAMA 33, Didi −28, Kaka −5.
"""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import strip_tags

from scoring.models import Player, Round, RoundEntry
from stats.records import HistoryFilter, filter_rounds, leaderboard, load_rounds, player_stats
from tests.samples import make_dashain, make_tihar, play
from tests.web_helpers import make_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def sessions(owner):
    return make_dashain(owner), make_tihar(owner)


def nets(round_row) -> dict[str, int]:
    return {e.name: e.net for e in round_row.entries}


def test_stored_nets_are_the_hand_computed_ones(owner, sessions):
    rounds = load_rounds(owner)
    assert [nets(r) for r in rounds] == [
        {"Aama": 3, "Buwa": -16, "Didi": 30, "Dai": -17},
        {"Aama": 36, "Buwa": -13, "Didi": -23},
        {"AAMA": -25, "Didi": -6, "Kaka": 31},
        {"AAMA": 58, "Didi": -22, "Kaka": -36},
    ]
    assert [(r.session.name, r.position) for r in rounds] == [
        ("Dashain", 1),
        ("Dashain", 2),
        ("Tihar", 1),
        ("Tihar", 2),
    ]
    assert [r.swing for r in rounds] == [30, 36, 31, 58]


def test_player_stats_across_sessions_by_name(owner, sessions):
    stats = player_stats(load_rounds(owner), "aama")
    assert stats is not None
    assert stats.name == "AAMA"  # the spelling of the latest session
    assert [p.session.name for p in stats.sessions] == ["Tihar", "Dashain"]
    assert [(p.rounds, p.wins, p.points, p.money) for p in stats.sessions] == [
        (2, 1, 33, Decimal("3.30")),
        (2, 1, 39, Decimal("97.50")),
    ]
    assert stats.rounds == 4
    assert stats.wins == 2
    assert stats.win_percent == 50.0
    assert stats.dublee_wins == 1
    assert (stats.seen, stats.unseen) == (3, 1)
    assert stats.average_maal == Decimal("7.3")  # (5 + 10 + 6 + 8) / 4 = 7.25
    assert stats.points == 72
    assert [(m.currency, m.amount) for m in stats.money] == [
        ("NPR", Decimal("97.50")),
        ("USD", Decimal("3.30")),
    ]
    assert stats.biggest_win is not None and stats.biggest_loss is not None
    assert (stats.biggest_win[0].session.name, stats.biggest_win[0].position) == ("Tihar", 2)
    assert stats.biggest_win[1] == 58
    assert (stats.biggest_loss[0].session.name, stats.biggest_loss[0].position) == ("Tihar", 1)
    assert stats.biggest_loss[1] == -25
    assert [
        (h.name, h.rounds, h.wins, h.their_wins, h.points, h.their_points)
        for h in stats.head_to_head
    ] == [
        ("Didi", 4, 2, 1, 72, -21),
        ("Buwa", 2, 1, 0, 39, -29),
        ("Kaka", 2, 1, 1, 33, -5),
        ("Dai", 1, 0, 0, 3, -17),
    ]


def test_player_who_never_won(owner, sessions):
    stats = player_stats(load_rounds(owner), "dai")
    assert stats is not None
    assert (stats.rounds, stats.wins, stats.win_percent, stats.dublee_wins) == (1, 0, 0.0, 0)
    assert stats.biggest_win is None
    assert stats.biggest_loss is not None and stats.biggest_loss[1] == -17
    assert stats.average_maal == Decimal("0.0")
    assert player_stats(load_rounds(owner), "nobody") is None


def test_leaderboard_per_currency(owner, sessions):
    boards = leaderboard(load_rounds(owner))
    assert [b.currency for b in boards] == ["NPR", "USD"]
    assert [
        (r.rank, r.name, r.sessions, r.rounds, r.wins, r.points, r.money) for r in boards[0].rows
    ] == [
        (1, "AAMA", 1, 2, 1, 39, Decimal("97.50")),
        (2, "Didi", 1, 2, 1, 7, Decimal("17.50")),
        (3, "Dai", 1, 1, 0, -17, Decimal("-42.50")),
        (4, "Buwa", 1, 2, 0, -29, Decimal("-72.50")),
    ]
    assert [(r.rank, r.name, r.points, r.money) for r in boards[1].rows] == [
        (1, "AAMA", 33, Decimal("3.30")),
        (2, "Kaka", -5, Decimal("-0.50")),
        (3, "Didi", -28, Decimal("-2.80")),
    ]


def test_leaderboard_shares_a_rank_on_equal_money(owner):
    session = make_session(owner, players=("Aama", "Buwa", "Didi"), stake="1")
    play(session, "Aama", {"Aama": ("seen", 0), "Buwa": ("seen", 0)})
    play(session, "Didi", {"Didi": ("seen", 0), "Buwa": ("seen", 0)})
    rows = leaderboard(load_rounds(owner))[0].rows
    assert [(r.rank, r.name, r.points) for r in rows] == [
        (1, "Aama", 3),
        (1, "Didi", 3),
        (3, "Buwa", -6),
    ]


def positions(found) -> list[tuple[str, int]]:
    return [(r.session.name, r.position) for r in found]


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        ({}, [("Tihar", 2), ("Tihar", 1), ("Dashain", 2), ("Dashain", 1)]),
        ({"player": "buwa"}, [("Dashain", 2), ("Dashain", 1)]),
        ({"player": "kaka"}, [("Tihar", 2), ("Tihar", 1)]),
        ({"winner": "aama"}, [("Tihar", 2), ("Dashain", 2)]),
        ({"winner": "didi"}, [("Dashain", 1)]),
        ({"date_from": datetime.date(2026, 10, 15)}, [("Tihar", 2), ("Tihar", 1)]),
        ({"date_to": datetime.date(2026, 10, 2)}, [("Dashain", 2), ("Dashain", 1)]),
        ({"date_from": datetime.date(2026, 10, 3), "date_to": datetime.date(2026, 10, 31)}, []),
        ({"variant": "pagat"}, [("Dashain", 2), ("Dashain", 1)]),
        ({"variant": "kidnap"}, [("Tihar", 2), ("Tihar", 1)]),
        ({"variant": "maal-kidnap"}, [("Tihar", 2), ("Tihar", 1)]),
        ({"variant": "maal-murder"}, []),
        ({"dublee": True}, [("Dashain", 2)]),
        ({"victims": True}, [("Tihar", 1)]),
        ({"sort": "swing"}, [("Tihar", 2), ("Dashain", 2), ("Tihar", 1), ("Dashain", 1)]),
        ({"player": "didi", "winner": "aama", "sort": "swing"}, [("Tihar", 2), ("Dashain", 2)]),
    ],
)
def test_history_filters(owner, sessions, filters, expected):
    assert positions(filter_rounds(load_rounds(owner), HistoryFilter(**filters))) == expected


def test_kidnapped_and_murdered_players(owner):
    session = make_session(owner, players=("Aama", "Buwa", "Didi"), preset="murder")
    # Buwa unseen with maal 9 is murdered; Didi unseen with no maal loses nothing to it.
    play(session, "Aama", {"Aama": ("seen", 0), "Buwa": ("unseen", 9), "Didi": ("unseen", 0)})
    (round_row,) = load_rounds(owner)
    assert [e.name for e in round_row.victims] == ["Buwa"]
    assert round_row.victim_kind == "murder"
    assert positions(filter_rounds([round_row], HistoryFilter(variant="maal-murder"))) == [
        (session.name, 1)
    ]
    # Murder: Buwa counts 0, so Buwa pays 0 + 10 − 0 = 10, Didi likewise.
    assert nets(round_row) == {"Aama": 20, "Buwa": -10, "Didi": -10}


def test_record_is_per_owner(owner, sessions, django_user_model):
    other = django_user_model.objects.create_user("sita", password="pw-sita-12345")
    make_session(other, players=("Aama", "Zed"))
    assert load_rounds(other) == []
    assert len(load_rounds(owner)) == 4


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


def test_leaderboard_of_points_only_sessions_ranks_by_points(owner):
    session = make_session(owner, players=("Aama", "Buwa", "Didi"), stake="0")
    play(session, "Aama", {"Aama": ("seen", 0), "Buwa": ("seen", 0), "Didi": ("unseen", 0)})
    rows = leaderboard(load_rounds(owner))[0].rows
    # Aama +13 (Buwa pays 3, Didi pays 10), all money 0.
    assert [(r.rank, r.name, r.points, r.money) for r in rows] == [
        (1, "Aama", 13, Decimal("0.00")),
        (2, "Buwa", -3, Decimal("0.00")),
        (3, "Didi", -10, Decimal("0.00")),
    ]


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
