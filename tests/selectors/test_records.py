"""The record pages across many evenings (issue 20, point 7): each session's
rounds are kept under its own version, so a save reads one session again, and
the leaderboard is added up from each session's own rows, equal to the board
made from every round."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from stats.records import leaderboard, leaderboard_of, load_pieces, load_rounds
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
    from django.urls import reverse

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
    from django.urls import reverse

    for number in range(32):
        session = make_session(owner, players=("Aama", "Buwa"), name=f"Evening {number + 1}")
        play(session, "Aama", {"Aama": ("seen", 0), "Buwa": ("seen", 0)})
    html = logged_in.get(reverse("player_detail", args=["Aama"])).content.decode()
    assert html.count('<td><a href="/sessions/') == 30
    assert "and 2 earlier sessions, counted in the figures above" in " ".join(html.split())
    assert "<dd>32</dd>" in html  # every session counted
