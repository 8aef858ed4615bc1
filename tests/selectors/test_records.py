"""The record (stats/records.py) across sessions, checked against the two evenings
worked out by hand in tests/samples.py: each round's stored nets, a player's
figures across sessions by name, the leaderboard per currency, the history's
filters; and across many evenings each session's rounds kept under its own
version, so a save reads one session again, and the leaderboard added up from
each session's own rows, equal to the board made from every round."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from stats.records import (
    HistoryFilter,
    filter_rounds,
    leaderboard,
    leaderboard_of,
    load_pieces,
    load_rounds,
    player_stats,
)
from tests.samples import make_dashain, make_tihar, play
from tests.web_helpers import make_session

pytestmark = pytest.mark.django_db


def boards(found):
    return [
        (b.currency, [(r.rank, r.key, r.name, r.sessions, r.rounds, r.wins, r.points, r.money)
                      for r in b.rows])
        for b in found
    ]  # fmt: skip


def test_the_board_from_pieces_equals_the_board_from_every_round(owner):
    make_dashain(owner)
    tihar = make_tihar(owner)
    # The same person spelled anew in a later session: the latest spelling wins.
    later = make_session(owner, players=("aama", "Kaka"), name="Bhai tika")
    play(later, "Kaka", {"aama": ("seen", 3), "Kaka": ("seen", 9)})
    play(tihar, "Didi", {"AAMA": ("seen", 1), "Didi": ("seen", 2), "Kaka": ("unseen", 0)})
    assert boards(leaderboard_of(load_pieces(owner))) == boards(leaderboard(load_rounds(owner)))


def test_a_save_reads_only_the_session_saved_again(owner):
    dashain, tihar = make_dashain(owner), make_tihar(owner)
    first = load_pieces(owner)
    play(tihar, "Kaka", {"AAMA": ("seen", 0), "Didi": ("seen", 0), "Kaka": ("seen", 0)})
    with CaptureQueriesContext(connection) as queries:
        second = load_pieces(owner)
    kept = [p for p in second if any(p is q for q in first)]
    assert [p.info.id for p in kept] == [dashain.pk]
    rounds_read = [q["sql"] for q in queries.captured_queries if "scoring_round" in q["sql"]]
    assert rounds_read and all(f"({tihar.pk})" in sql for sql in rounds_read)
    assert len(second[1].rounds) == 3


def test_a_players_stats_from_pieces_equal_those_from_every_round(owner):
    from stats.records import display_names, names_of, player_stats, player_stats_of

    make_dashain(owner)
    tihar = make_tihar(owner)
    later = make_session(owner, players=("aama", "Kaka", "Didi"), name="Bhai tika")
    play(later, "Kaka", {"aama": ("seen", 3), "Kaka": ("seen", 9), "Didi": ("unseen", 0)})
    play(tihar, "Didi", {"AAMA": ("seen", 1), "Didi": ("seen", 2), "Kaka": ("unseen", 0)})
    pieces, rounds = load_pieces(owner), load_rounds(owner)
    assert names_of(pieces) == display_names(rounds)
    for key in ("aama", "didi", "kaka", "buwa", "nobody"):
        assert player_stats_of(pieces, key) == player_stats(rounds, key), key


def test_the_sessions_list_is_paginated(logged_in, owner):

    for number in range(31):
        make_session(owner, name=f"Evening {number + 1}")
    first = logged_in.get(reverse("home")).content.decode()
    assert first.count('class="session-link"') == 30
    assert "Page 1 of 2" in first and 'href="?page=2"' in first
    second = logged_in.get(reverse("home"), {"page": "2"}).content.decode()
    assert second.count('class="session-link"') == 1
    assert "Page 2 of 2" in second and 'href="?page=1"' in second
    # Nonsense is the first page, not an error.
    assert logged_in.get(reverse("home"), {"page": "x" * 500}).status_code == 200


def test_a_player_page_lists_the_latest_sessions_and_counts_them_all(logged_in, owner):

    for number in range(32):
        session = make_session(owner, players=("Aama", "Buwa"), name=f"Evening {number + 1}")
        play(session, "Aama", {"Aama": ("seen", 0), "Buwa": ("seen", 0)})
    html = logged_in.get(reverse("player_detail", args=["Aama"])).content.decode()
    assert html.count('<td><a href="/sessions/') == 30
    assert "and 2 earlier sessions, counted in the figures above" in " ".join(html.split())
    assert "<dd>32</dd>" in html  # every session counted


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
