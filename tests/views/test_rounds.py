"""The round screens: enter, preview, breakdown, edit, delete, undo, settle-up.
Each house-rule option through the round form with RULES.md's numbers (dublees,
next-winner and next-round-winner dhoos re-settled when an earlier round
changes, better by rotation, unseen pairs, a dead hand); the maal calculator on
the round screen (tiplu and tallies posted, checked, stored, shown); one POST
preparing the round once; hostile tallies, an edit without its version or of a
round deleted meanwhile, and a save answered saved after its commit whatever
happens next."""

from __future__ import annotations

import json
import re
from html import unescape
from unittest import mock

import pytest
from django.conf import settings
from django.db import OperationalError, connection
from django.urls import reverse

from scoring import services
from scoring.engine import prepare, settlement
from scoring.engine.maal import PRESET_TABLES
from scoring.forms import rounds as round_form
from scoring.models import GameSession, Player, Round, RoundChange, RoundEntry
from scoring.selectors.reports import build_ledger
from scoring.services import rounds as round_service
from scoring.views import rounds as round_views
from stats.records import leaderboard, load_rounds, player_stats
from tests.web_helpers import (
    WORKED,
    ZEROS,
    _dhoos_evening,
    enter,
    entered,
    everything,
    make_session,
    nets,
    page,
    page_text,
    played,
    round_data,
    tallied_round,
    worked_round,
)

pytestmark = pytest.mark.django_db


def nets_of(round_: Round) -> dict[str, int]:
    return {e.player.name: e.net for e in round_.entries.select_related("player")}


def test_round_form_has_a_row_per_player_with_stable_names(logged_in, session):
    response = logged_in.get(reverse("round_new", args=[session.pk]))
    html = response.content.decode()
    for player in session.players.all():
        assert f'data-player="{player.name}"' in html
        for field in ("plays", "status", "maal", "tunnel", "dhoos", "dublees"):
            assert f'name="p-{player.pk}-{field}"' in html
        assert f'name="winner" value="{player.pk}"' in html
    assert 'name="winner" value="none"' in html
    assert 'name="win_type" value="normal"' in html
    assert 'name="win_type" value="dublee"' in html
    assert 'name="better" value="on"' in html
    assert '<form method="post" id="round-form"' in html
    assert 'class="count-field maal-field"' in html
    # The preview is worked out on the phone (offline-preview.js): no request per keystroke.
    assert 'hx-post="' + reverse("round_preview", args=[session.pk]) not in html


def test_entering_the_worked_example_stores_exact_nets(logged_in, session):
    response = enter(logged_in, session, WORKED, "Didi")
    assert response.status_code == 302
    assert response["Location"] == reverse("session_detail", args=[session.pk])
    round_ = Round.objects.get(session=session)
    assert round_.winner.name == "Didi"
    assert nets_of(round_) == {"Aama": 3, "Buwa": -16, "Didi": 30, "Dai": -17}
    entry = RoundEntry.objects.get(round=round_, player__name="Buwa")
    assert (entry.status, entry.maal, entry.tunnel, entry.dhoos) == ("unseen", 2, 0, False)


def test_dublee_better_and_dhoos_round(logged_in, session):
    # Aama wins with eight dublees on a better round; Dai got dhoos.
    rows = {
        "Aama": ("seen", 12),
        "Buwa": ("seen", 3),
        "Didi": ("unseen", 0, 5),
        "Dai": ("seen", 4, 0, True),
    }
    response = enter(logged_in, session, rows, "Aama", win_type="dublee", better=True)
    assert response.status_code == 302
    # T = 12 + 3 + 0 (Didi's tunnel void: unseen) + 4 = 19; n = 4; m = 2.
    # Buwa (19 + 8 − 12) × 2 = 30; Didi (19 + 15 − 0) × 2 = 68; Dai (19 + 8 − 16) × 2 = 22.
    # Dai's dhoos: 15 to each of 3 others.
    assert nets_of(Round.objects.get(session=session)) == {
        "Aama": 120 + 15,
        "Buwa": -30 + 15,
        "Didi": -68 + 15,
        "Dai": -22 - 45,
    }


def test_preview_partial_shows_exact_figures(logged_in, session):
    data = round_data(session, WORKED, "Didi")
    response = logged_in.post(
        reverse("round_preview", args=[session.pk]), data, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html  # just the partial
    assert "T = <b>14</b>" in html
    assert "n = <b>4</b>" in html
    assert "m = <b>1</b>" in html
    assert "(14 + 3 − 20) × 1 = <b>-3</b>" in html  # Aama: Didi pays her 3
    assert "(14 + 10 − 8) × 1 = <b>16</b>" in html  # Buwa
    assert "(14 + 3 − 0) × 1 = <b>17</b>" in html  # Dai
    assert '<span class="net num pos">+30</span>' in html
    assert "receives (−3) + 16 + 17 = 30" in html  # Didi
    assert not Round.objects.exists()  # a preview saves nothing


def test_preview_names_kidnapped_maal(logged_in, owner):
    session = make_session(owner, preset="kidnap")
    rows = {"Aama": ("seen", 5), "Buwa": ("unseen", 4), "Didi": ("seen", 7), "Dai": ("seen", 0)}
    response = logged_in.post(
        reverse("round_preview", args=[session.pk]),
        round_data(session, rows, "Didi"),
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert "maal 4 kidnapped by Didi" in html
    assert "kidnapped 4 from unseen players" in html
    # T = 5 + 0 + 11 + 0 = 16; Buwa pays (16 + 10 − 0) × 1 = 26.
    assert "T = <b>16</b>" in html
    assert "(16 + 10 − 0) × 1 = <b>26</b>" in html


def test_preview_of_an_invalid_round_lists_the_errors(logged_in, session):
    data = round_data(session, {**WORKED, "Didi": ("unseen", 7)}, "Didi")
    data[f"p-{session.players.get(name='Aama').pk}-maal"] = "-4"
    response = logged_in.post(
        reverse("round_preview", args=[session.pk]), data, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert "Aama, maal: must not be negative, got -4" in html
    assert "T = " not in html
    # The same messages replace those beside the fields (htmx out-of-band swaps).
    aama, didi = (session.players.get(name=n).pk for n in ("Aama", "Didi"))
    assert (
        f'<ul class="errorlist" id="err-p-{aama}-maal" hx-swap-oob="true">'
        "<li>maal: must not be negative, got -4</li></ul>"
    ) in html
    assert f'<ul class="errorlist" id="err-p-{didi}-maal" hx-swap-oob="true"></ul>' in html


def test_preview_without_htmx_renders_the_whole_form(logged_in, session):
    response = logged_in.post(
        reverse("round_preview", args=[session.pk]), round_data(session, WORKED, "Didi")
    )
    html = response.content.decode()
    assert "<html" in html
    assert "T = <b>14</b>" in html


def test_round_detail_shows_the_breakdown(logged_in, session):
    enter(logged_in, session, WORKED, "Didi")
    round_ = Round.objects.get(session=session)
    response = logged_in.get(reverse("round_detail", args=[session.pk, round_.pk]))
    html = response.content.decode()
    assert "Round 1" in html
    assert "T = <b>14</b>" in html
    assert "(14 + 10 − 8) × 1 = <b>16</b>" in html


def test_editing_a_past_round_changes_the_totals(logged_in, session):
    enter(logged_in, session, WORKED, "Didi")
    enter(logged_in, session, WORKED, "Didi")
    first = Round.objects.filter(session=session).order_by("number").first()
    edit_url = reverse("round_edit", args=[session.pk, first.pk])
    form = logged_in.get(edit_url).content.decode()
    # The form comes back filled in with the round as saved.
    buwa = session.players.get(name="Buwa").pk
    assert f'name="p-{buwa}-status" value="unseen" checked' in form
    assert f'name="p-{buwa}-maal" value="2"' in form
    # Buwa was in fact seen: he pays 14 + 3 − 8 = 9 instead of 16.
    response = logged_in.post(
        edit_url, {**round_data(session, {**WORKED, "Buwa": ("seen", 2)}, "Didi"), "version": "1"}
    )
    assert response.status_code == 302
    assert nets_of(first) == {"Aama": 3, "Buwa": -9, "Didi": 23, "Dai": -17}
    detail = logged_in.get(reverse("session_detail", args=[session.pk])).content.decode()
    # Didi: 23 + 30; Buwa: −9 − 16.
    assert '<td class="num pos">+53</td>' in detail
    assert '<td class="num neg">-25</td>' in detail


def test_delete_a_round_after_confirming(logged_in, session):
    enter(logged_in, session, WORKED, "Didi")
    enter(logged_in, session, {**WORKED, "Aama": ("seen", 9)}, "Aama")
    first = Round.objects.filter(session=session).order_by("number").first()
    url = reverse("round_delete", args=[session.pk, first.pk])
    confirm = logged_in.get(url)
    assert "Delete round 1? You can restore it afterwards." in confirm.content.decode()
    assert Round.objects.count() == 2  # asking is not deleting
    response = logged_in.post(url)
    assert response.status_code == 302
    assert list(Round.objects.values_list("winner__name", flat=True)) == ["Aama"]
    detail = logged_in.get(reverse("session_detail", args=[session.pk])).content.decode()
    assert "Round 1 deleted." in detail


def test_undo_deletes_the_last_round(logged_in, session):
    enter(logged_in, session, WORKED, "Didi")
    enter(logged_in, session, {**WORKED, "Aama": ("seen", 9)}, "Aama")
    url = reverse("round_undo", args=[session.pk])
    assert "Delete round 2? You can restore it afterwards." in logged_in.get(url).content.decode()
    response = logged_in.post(url)
    assert response.status_code == 302
    assert list(Round.objects.values_list("winner__name", flat=True)) == ["Didi"]
    logged_in.post(url)
    assert not Round.objects.exists()
    # Nothing left to undo: a message, not an error.
    response = logged_in.post(url, follow=True)
    assert "There is no round to undo." in response.content.decode()


def test_undo_refuses_when_another_round_was_added_meanwhile(logged_in, session):
    enter(logged_in, session, WORKED, "Didi")
    shown = Round.objects.get().pk
    enter(logged_in, session, WORKED, "Aama")
    response = logged_in.post(reverse("round_undo", args=[session.pk]), {"round": shown})
    assert response.status_code == 302
    assert Round.objects.count() == 2


def test_sit_out_and_a_player_joining_mid_session(logged_in, session):
    enter(logged_in, session, WORKED, "Didi")
    response = logged_in.post(reverse("player_add", args=[session.pk]), {"name": "  Bhai  "})
    assert response.status_code == 302
    assert session.players.filter(name="Bhai").exists()
    # Round 2: Bhai plays, Aama sits out. Bhai wins; everyone seen, no maal.
    rows = {"Buwa": ("seen", 0), "Didi": ("seen", 0), "Dai": ("seen", 0), "Bhai": ("seen", 0)}
    assert enter(logged_in, session, rows, "Bhai").status_code == 302
    second = Round.objects.get(session=session, number=2)
    assert nets_of(second) == {"Buwa": -3, "Didi": -3, "Dai": -3, "Bhai": 9}
    html = logged_in.get(reverse("session_detail", args=[session.pk])).content.decode()
    # Aama's cell in round 2 is blank; Bhai's in round 1 too.
    assert '<td class="num"></td>' in html
    assert html.count('<td class="num"></td>') == 2


def test_round_form_errors_beside_fields_and_nothing_saved(logged_in, session):
    ids = {p.name: p.pk for p in session.players.all()}
    data = round_data(session, WORKED, "Didi")
    data[f"p-{ids['Aama']}-maal"] = "-3"
    data[f"p-{ids['Dai']}-tunnel"] = "lots"
    data[f"p-{ids['Buwa']}-maal"] = "10001"
    response = logged_in.post(reverse("round_new", args=[session.pk]), data)
    assert response.status_code == 422
    html = response.content.decode()
    assert "maal: must not be negative, got -3" in html
    assert "tunnel: must be a whole number, got &#x27;lots&#x27;" in html
    assert "maal: 10001 is more than 10,000 points; check the number" in html
    assert not Round.objects.exists()
    # Each message sits in its player's card.
    aama_card = html.split('data-player="Aama"')[1].split("</fieldset>")[0]
    assert "maal: must not be negative, got -3" in aama_card
    dai_card = html.split('data-player="Dai"')[1].split("</fieldset>")[0]
    assert "tunnel: must be a whole number" in dai_card


@pytest.mark.parametrize(
    ("rows", "winner", "win_type", "field_id", "message"),
    [
        (WORKED, None, "normal", None, None),  # baseline: no winner is allowed
        ({**WORKED, "Didi": ("unseen", 7)}, "Didi", "normal", "Didi",
         "status: the winner must be seen: ending the round means having shown the pure sets"),
        ({**WORKED, "Didi": ("unseen", 7)}, "Didi", "dublee", "Didi",
         "status: a dublee winner must be seen (seven dublees show the tiplu)"),
        (WORKED, None, "dublee", "err-win_type", "win_type: a dublee win needs a winner"),
        ({"Aama": ("seen", 1)}, "Aama", "normal", "err-players",
         "players: a round needs at least 2 players, got 1"),
    ],
)  # fmt: skip
def test_round_rule_errors(logged_in, session, rows, winner, win_type, field_id, message):
    data = round_data(session, rows, winner, win_type=win_type)
    response = logged_in.post(reverse("round_new", args=[session.pk]), data)
    if message is None:
        assert response.status_code == 302
        return
    html = response.content.decode()
    assert not Round.objects.exists()
    if field_id.startswith("err-"):
        block = html.split(f'id="{field_id}"')[1].split("</ul>")[0]
    else:
        block = html.split(f'data-player="{field_id}"')[1].split("</fieldset>")[0]
    assert message in block


def summary_of(html: str) -> list[tuple[str, str]]:
    """The refused save's summary at the top: (link target, message) per item."""
    start = html.index('id="form-errors"')
    block = html[start : html.index("</ul>", start)]
    return [
        (href, " ".join(unescape(text).split()))
        for href, text in re.findall(r'<li>(?:<a href="([^"]*)">)?(.*?)(?:</a>)?</li>', block, re.S)
    ]


def test_a_refused_save_lists_every_problem_at_once(logged_in, session):
    # Aama's maal has a typo and the winner, Didi, is marked unseen: both are
    # told on the first save, not one after the other.
    ids = {p.name: p.pk for p in session.players.all()}
    data = round_data(session, {**WORKED, "Didi": ("unseen", 7)}, "Didi")
    data[f"p-{ids['Aama']}-maal"] = "5x"
    response = logged_in.post(reverse("round_new", args=[session.pk]), data)
    assert response.status_code == 422
    assert not Round.objects.exists()
    html = response.content.decode()
    assert summary_of(html) == [
        (f"#p-{ids['Aama']}-maal", "Aama, maal: must be a whole number, got '5x'"),
        (
            f"#p-{ids['Didi']}-status-unseen",
            "Didi, status: the winner must be seen: "
            "ending the round means having shown the pure sets",
        ),
    ]
    # The live preview says the same.
    preview = logged_in.post(
        reverse("round_preview", args=[session.pk]), data, HTTP_HX_REQUEST="true"
    ).content.decode()
    problems = preview.split("<h2>Not settled yet</h2>")[1].split("</ul>")[0]
    assert [" ".join(unescape(m).split()) for m in re.findall(r"<li>(.*?)</li>", problems)] == [
        "Aama, maal: must be a whole number, got '5x'",
        "Didi, status: the winner must be seen: ending the round means having shown the pure sets",
    ]


def test_every_rule_of_the_round_is_judged_beside_the_typos(logged_in, owner):
    session = make_session(owner, dublee_min_players=4)
    ids = {p.name: p.pk for p in session.players.all()}
    # Dai sits out: a dublee win by an unseen Didi with 3 players, and a typo.
    rows = {"Aama": ("seen", 5), "Buwa": ("seen", 2), "Didi": ("unseen", 7)}
    data = round_data(session, rows, "Didi", win_type="dublee")
    data[f"p-{ids['Aama']}-tunnel"] = "x"
    html = logged_in.post(reverse("round_new", args=[session.pk]), data).content.decode()
    assert summary_of(html) == [
        (f"#p-{ids['Aama']}-tunnel", "Aama, tunnel: must be a whole number, got 'x'"),
        (
            f"#p-{ids['Didi']}-status-unseen",
            "Didi, status: a dublee winner must be seen (seven dublees show the tiplu)",
        ),
        (
            "#win_type-dublee",
            "win_type: a dublee win needs at least 4 players under these rules, got 3",
        ),
    ]
    # A winner who sits out, one player left and a negative maal: each its own
    # message, the round's ones linked to "Who won?" and the first row.
    data = round_data(session, {"Aama": ("seen", -2)}, "Buwa", win_type="dublee")
    html = logged_in.post(reverse("round_new", args=[session.pk]), data).content.decode()
    assert summary_of(html) == [
        (f"#winner-{ids['Aama']}", "winner: Buwa sits this round out"),
        (f"#p-{ids['Aama']}-plays", "players: a round needs at least 2 players, got 1"),
        (f"#p-{ids['Aama']}-maal", "Aama, maal: must not be negative, got -2"),
    ]
    assert not Round.objects.exists()


def test_winner_must_play_and_be_chosen(logged_in, session):
    data = round_data(session, {"Aama": ("seen", 1), "Buwa": ("seen", 2)}, "Didi")
    html = logged_in.post(reverse("round_new", args=[session.pk]), data).content.decode()
    assert "winner: Didi sits this round out" in html
    data.pop("winner")
    html = logged_in.post(reverse("round_new", args=[session.pk]), data).content.decode()
    assert "winner: choose the winner, or &quot;no winner&quot;" in html
    assert not Round.objects.exists()


def test_too_many_players_for_the_rules(logged_in, owner):
    session = make_session(owner, players=("A", "B", "C"), max_players=2)
    rows = {"A": ("seen", 0), "B": ("seen", 0), "C": ("seen", 0)}
    html = enter(logged_in, session, rows, "A").content.decode()
    assert "players: at most 2 players can play a round under these rules, got 3" in html
    # The new-round form starts with only as many seats as the rules allow.
    form = logged_in.get(reverse("round_new", args=[session.pk])).content.decode()
    c = Player.objects.get(session=session, name="C").pk
    assert f'name="p-{c}-plays" value="on">' in form
    assert f'name="p-{c}-plays" value="on" checked' not in form


def test_better_is_ticked_after_a_dublee_when_the_rules_say_so(logged_in, owner):
    session = make_session(owner, dublee_triggers_better=True)
    url = reverse("round_new", args=[session.pk])
    assert 'name="better" value="on" checked' not in logged_in.get(url).content.decode()
    enter(logged_in, session, WORKED, "Didi", win_type="dublee")
    assert 'name="better" value="on" checked' in logged_in.get(url).content.decode()
    enter(logged_in, session, WORKED, "Didi")
    assert 'name="better" value="on" checked' not in logged_in.get(url).content.decode()


def test_settle_up_lists_the_fewest_payments(logged_in, session):
    enter(logged_in, session, WORKED, "Didi")
    # Round 2: Aama wins; everyone seen, no maal: each pays 3.
    enter(logged_in, session, {n: ("seen", 0) for n in WORKED}, "Aama")
    # Totals: Aama +12, Buwa −19, Didi +27, Dai −20; stake NPR 2.50.
    html = logged_in.get(reverse("settle_up", args=[session.pk])).content.decode()
    assert "Dai pays Didi NPR 50.00" in html
    assert "Buwa pays Aama NPR 30.00" in html
    assert "Buwa pays Didi NPR 17.50" in html
    payments = html.split('class="payment-list"')[1].split("</ul>")[0]
    assert payments.count("<li>") == 3
    assert "3 payments clear every balance, the fewest possible." in html


def test_settle_up_with_a_half_rupee_stake(logged_in, owner):
    session = make_session(owner, players=("Dai", "Buwa"), stake="0.50")
    rows = {"Dai": ("seen", 0), "Buwa": ("seen", 422)}
    # Buwa wins: T = 422, Dai pays 422 + 3 − 0 = 425 points, × 0.50.
    enter(logged_in, session, rows, "Buwa")
    html = logged_in.get(reverse("settle_up", args=[session.pk])).content.decode()
    assert "Dai pays Buwa NPR 212.50" in html


def test_an_invalid_edit_changes_nothing(logged_in, session):
    enter(logged_in, session, WORKED, "Didi")
    round_ = Round.objects.get()
    data = round_data(session, {**WORKED, "Dai": ("seen", 3)}, "Didi")
    data[f"p-{session.players.get(name='Buwa').pk}-tunnel"] = "2.5"
    data["version"] = str(round_.version)
    response = logged_in.post(reverse("round_edit", args=[session.pk, round_.pk]), data)
    html = response.content.decode()
    assert response.status_code == 422
    assert "tunnel: must be a whole number, got &#x27;2.5&#x27;" in html
    assert nets_of(round_) == {"Aama": 3, "Buwa": -16, "Didi": 30, "Dai": -17}


def test_a_forged_winner_is_refused(logged_in, session, owner):
    stranger = make_session(owner, players=("X", "Y"), name="Other").players.first()
    data = round_data(session, WORKED, None)
    data["winner"] = str(stranger.pk)
    html = logged_in.post(reverse("round_new", args=[session.pk]), data).content.decode()
    assert "winner: not a player of this session" in html
    assert not Round.objects.exists()


def test_the_empty_round_form_follows_each_change_at_once(
    logged_in, owner, django_assert_num_queries
):
    session = make_session(owner, dublee_triggers_better=True)
    url = reverse("round_new", args=[session.pk])
    logged_in.get(url)
    with django_assert_num_queries(1):  # the session; its players and ledger are kept per version
        html = logged_in.get(url).content.decode()
    assert 'name="better" value="on" checked' not in html and "Aama" in html
    # After a dublee win the next round is better: the new form says so at once.
    enter(logged_in, session, WORKED, "Didi", win_type="dublee")
    assert 'name="better" value="on" checked' in logged_in.get(url).content.decode()


def test_a_round_save_takes_at_most_ten_queries(logged_in, owner, django_assert_max_num_queries):
    session = make_session(owner)
    url = reverse("round_new", args=[session.pk])
    enter(logged_in, session, WORKED, "Didi")
    data = round_data(session, WORKED, "Didi")
    # At the table the phone opens the form, then saves with its one-time key.
    form = logged_in.get(url).content.decode()
    data["save_key"] = re.search(r'name="save_key" value="([^"]+)"', form).group(1)
    # The session; the key, looked up before the form is read (a repeat is answered
    # as its first save); the transaction's start; the version moved and the row
    # locked, with the last number; the owner's counter moved (versions.py); the
    # round, its entries, its change and its key; the commit.
    with django_assert_max_num_queries(10):
        response = logged_in.post(url, data)
    assert response.status_code == 302
    assert list(Round.objects.filter(session=session).values_list("number", flat=True)) == [1, 2]
    assert RoundEntry.objects.filter(round__session=session, round__number=2).count() == 4
    html = logged_in.get(reverse("session_detail", args=[session.pk])).content.decode()
    assert "Round 2 saved." in html and "+60" in html


def test_a_save_after_another_phones_change_reads_everything_again(owner):
    from scoring import services
    from scoring.models import GameSession
    from tests.web_helpers import worked_round

    session = make_session(owner)
    stale = GameSession.objects.get(pk=session.pk)
    players = list(stale.players.all())
    services.add_round(
        session=session, round_input=worked_round()
    )  # another phone, after this one read
    round_ = services.add_round(session=stale, round_input=worked_round(), players=players)
    assert (round_.number, round_.position) == (2, 2)
    assert list(Round.objects.filter(session=session).values_list("number", flat=True)) == [1, 2]


def test_an_edit_that_changes_nothing_records_nothing(logged_in, session):
    from scoring.models import RoundChange

    enter(logged_in, session, WORKED, "Didi")
    logged_in.get(reverse("session_detail", args=[session.pk]))  # "Round 1 saved." shown
    round_ = Round.objects.get(session=session)
    url = reverse("round_edit", args=[session.pk, round_.pk])
    data = round_data(session, WORKED, "Didi") | {"version": str(round_.version)}
    response = logged_in.post(url, data, follow=True)
    assert [str(m) for m in response.context["messages"]] == ["Nothing changed in round 1."]
    round_.refresh_from_db()
    assert round_.version == 1
    assert list(RoundChange.objects.values_list("action", flat=True)) == ["create"]
    # A real change is recorded, once.
    changed = round_data(session, {**WORKED, "Aama": ("seen", 6)}, "Didi")
    response = logged_in.post(url, changed | {"version": "1"}, follow=True)
    assert [str(m) for m in response.context["messages"]] == ["Round 1 changed."]
    assert RoundChange.objects.filter(action="edit").count() == 1


def test_a_stale_edit_says_so_with_a_link_to_the_newer_version(logged_in, session):
    enter(logged_in, session, WORKED, "Didi")
    round_ = Round.objects.get(session=session)
    url = reverse("round_edit", args=[session.pk, round_.pk])
    changed = round_data(session, {**WORKED, "Aama": ("seen", 6)}, "Didi")
    assert logged_in.post(url, changed | {"version": "1"}).status_code == 302  # another phone
    stale = logged_in.post(url, round_data(session, WORKED, "Aama") | {"version": "1"})
    assert stale.status_code == 409
    html = stale.content.decode()
    summary = html[
        html.index('id="form-errors"') : html.index("</div>", html.index('id="form-errors"'))
    ]
    assert (
        "<li>This round was changed by someone else since you opened it; "
        "reload to see their version.</li>"
    ) in summary
    link = re.search(r'<a class="button" id="conflict-reload" href="([^"]+)">([^<]+)</a>', summary)
    assert link is not None
    assert (link[1], link[2]) == (url, "Reload to see their version")
    # The link opens the round as it is now: its newer version, to change again.
    reloaded = logged_in.get(link[1]).content.decode()
    aama = session.players.get(name="Aama").pk
    assert f'name="p-{aama}-maal" value="6"' in reloaded
    assert 'name="version" value="2"' in reloaded
    assert nets_of(round_)["Aama"] == 6  # the first edit stands: Aama 6 maal, +3 before


def test_a_refused_edit_for_another_reason_has_no_reload_link(logged_in, session):
    enter(logged_in, session, WORKED, "Didi")
    round_ = Round.objects.get(session=session)
    url = reverse("round_edit", args=[session.pk, round_.pk])
    bad = round_data(session, {**WORKED, "Aama": ("seen", -1)}, "Didi") | {"version": "1"}
    assert 'id="conflict-reload"' not in logged_in.post(url, bad).content.decode()


def found(pattern: str, text: str) -> str:
    match = re.search(pattern, text)
    assert match is not None, pattern
    return match[1]


def names_of_round(client, session, round_: Round) -> dict[str, str]:
    """What each page calls `round_`: the ledger, its own page, its edit form,
    its delete question and every line of the History about it."""
    ledger = client.get(reverse("session_detail", args=[session.pk]) + "?all=1").content.decode()
    link = re.search(
        rf'<a class="round-link" href="{reverse("round_detail", args=[session.pk, round_.pk])}"'
        r' aria-label="Round (\d+)">(\d+)</a>',
        ledger,
    )
    page = client.get(reverse("round_detail", args=[session.pk, round_.pk])).content.decode()
    form = client.get(reverse("round_edit", args=[session.pk, round_.pk])).content.decode()
    ask = client.get(reverse("round_delete", args=[session.pk, round_.pk])).content.decode()
    history = client.get(reverse("session_changes", args=[session.pk])).content.decode()
    about = f'href="{reverse("round_changes", args=[session.pk, round_.pk])}"'
    lines = {
        found(r"round (\d+)", line)
        for line in re.findall(r'<p id="change-\d+-what">(.*?)</p>', history, re.S)
        if about in line
    }
    assert link is not None and link[1] == link[2]
    return {
        "ledger": link[1],
        "page": found(r"<h1>Round (\d+)</h1>", page),
        "form": found(r"<h1[^>]*>Edit round (\d+)</h1>", form),
        "delete": found(r"Delete round (\d+)\? .", ask),
        "history": ",".join(sorted(lines)),
    }


def test_one_round_number_everywhere_after_deletes_undos_and_restores(logged_in, session):
    for _ in range(4):
        enter(logged_in, session, WORKED, "Didi")
    rounds = list(Round.objects.filter(session=session).order_by("number"))
    fourth = rounds[3]
    everywhere = dict.fromkeys(["ledger", "page", "form", "delete", "history"], "4")
    assert names_of_round(logged_in, session, fourth) == everywhere

    deleted = logged_in.post(reverse("round_delete", args=[session.pk, rounds[1].pk]), follow=True)
    assert [str(m) for m in deleted.context["messages"]] == ["Round 2 deleted."]
    # Round 4 is the third round now, on every page, and in the message of its edit.
    assert names_of_round(logged_in, session, fourth) == dict.fromkeys(everywhere, "3")
    edit = round_data(session, {**WORKED, "Aama": ("seen", 6)}, "Didi") | {"version": "1"}
    edited = logged_in.post(reverse("round_edit", args=[session.pk, fourth.pk]), edit, follow=True)
    assert [str(m) for m in edited.context["messages"]] == ["Round 3 changed."]
    history = logged_in.get(reverse("session_changes", args=[session.pk])).content.decode()
    # The deleted round keeps the number it had, the one a restore gives it back.
    assert found(r"<strong>\s*Deleted round (\d+)", history) == "2"

    undone = logged_in.post(reverse("round_undo", args=[session.pk]), follow=True)
    assert [str(m) for m in undone.context["messages"]] == ["Round 3 undone."]
    history = logged_in.get(reverse("session_changes", args=[session.pk])).content.decode()
    assert found(r"<strong>\s*Undone round (\d+)", history) == "3"

    # Restored, round 2 is round 2 again and round 4 round 4.
    change = RoundChange.objects.get(round_pk=rounds[1].pk, action="delete")
    restored = logged_in.post(reverse("round_restore", args=[session.pk, change.pk]), follow=True)
    assert [str(m) for m in restored.context["messages"]] == ["Round restored as round 2."]
    change = RoundChange.objects.get(round_pk=fourth.pk, action="undo")
    restored = logged_in.post(reverse("round_restore", args=[session.pk, change.pk]), follow=True)
    assert [str(m) for m in restored.context["messages"]] == ["Round restored as round 4."]
    assert names_of_round(logged_in, session, fourth) == everywhere


def test_a_round_naming_a_removed_player_is_refused_not_saved_without_them(logged_in, owner):
    """A round entered while a player was still there (kept on a phone offline,
    an old tab) arrives after they were removed: refused, never saved without them."""
    session = make_session(owner, players=("Aama", "Buwa", "Didi", "Dai"))
    data = round_data(session, WORKED, "Didi")
    dai = session.players.get(name="Dai")
    dai.delete()
    response = logged_in.post(reverse("round_new", args=[session.pk]), data)
    assert response.status_code == 422
    html = response.content.decode()
    assert (
        "A player in this round is no longer in the session (removed since the round was "
        "entered). Check the players and enter the round again."
    ) in html
    assert not Round.objects.filter(session=session).exists()


def test_the_dublees_toggle_marks_the_player_seen_and_is_stored(logged_in, owner):
    session = make_session(owner, preset="nepal", unseen_maal="count")
    html = page(logged_in, "round_new", session)
    dai = session.players.get(name="Dai")
    assert f'name="p-{dai.pk}-dublees"' in html
    # On Dai's line beside seen/unseen, not behind "more" (issue 10: a compact toggle).
    seen_line = html.split(f'data-player-id="{dai.pk}"')[1].split('class="seen-line"')[1]
    seen_line = seen_line.split('class="maal-field"')[0]
    assert f'id="p-{dai.pk}-status-unseen"' in seen_line
    assert f'name="p-{dai.pk}-dublees" value="on"' in seen_line
    data = round_data(session, WORKED, "Didi")
    data[f"p-{dai.pk}-status"] = "unseen"  # the toggle wins: seven dublees show the tiplu
    data[f"p-{dai.pk}-dublees"] = "on"
    assert logged_in.post(reverse("round_new", args=[session.pk]), data).status_code == 302
    round_ = Round.objects.get(session=session)
    entry = RoundEntry.objects.get(round=round_, player=dai)
    assert (entry.status, entry.dublees) == ("seen", True)
    # nepal: Dai pays no seen payment, 14 instead of 17.
    assert nets(round_) == {"Aama": 3, "Buwa": -16, "Didi": 27, "Dai": -14}
    detail = logged_in.get(reverse("round_detail", args=[session.pk, round_.pk])).content.decode()
    assert "saw by dublees: no seen payment" in detail


def test_next_winner_dhoos_is_pending_on_every_page_then_booked(logged_in, client, owner):
    session = make_session(owner, dhoos_payee="next_winner")
    first, _second = _dhoos_evening(logged_in, session)
    assert nets(first) == {"Aama": 3, "Buwa": -16, "Didi": 30, "Dai": -17}
    owes = "Dai owes 15 dhoos to the next winner"
    assert owes in page(logged_in, "session_detail", session)
    assert owes in page(logged_in, "settle_up", session)
    logged_in.post(reverse("share_create", args=[session.pk]))
    session.refresh_from_db()
    assert owes in client.get(reverse("share_view", args=[session.share_token])).content.decode()
    # The round form's preview books it where the round would.
    third = entered(
        logged_in, session, {"Aama": ("seen", 0), "Buwa": ("seen", 0), "Dai": ("seen", 0)}, "Buwa"
    )
    assert nets(third) == {"Aama": -3, "Buwa": 6 + 15, "Dai": -3 - 15}
    assert owes not in page(logged_in, "session_detail", session)
    detail = logged_in.get(reverse("round_detail", args=[session.pk, third.pk])).content.decode()
    assert "dhoos from round 1: pays 15 to Buwa" in detail


def test_deleting_the_round_with_the_dhoos_re_settles_the_later_round(logged_in, owner):
    session = make_session(owner, dhoos_payee="next_winner")
    first, _second = _dhoos_evening(logged_in, session)
    third = entered(
        logged_in, session, {"Aama": ("seen", 0), "Buwa": ("seen", 0), "Dai": ("seen", 0)}, "Buwa"
    )
    logged_in.post(reverse("round_delete", args=[session.pk, first.pk]))
    assert nets(third) == {"Aama": -3, "Buwa": 6, "Dai": -3}
    change = RoundChange.objects.get(round_pk=third.pk, action="resettle")
    assert change.get_action_display() == "Re-settled after an earlier round changed"
    assert {e["player"]: e["net"] for e in change.before["entries"]}["Dai"] == -18
    assert {e["player"]: e["net"] for e in change.after["entries"]}["Dai"] == -3
    history = page(logged_in, "session_changes", session)
    assert "Re-settled after an earlier round changed" in history
    # Restoring it books the dhoos again.
    deleted = RoundChange.objects.get(round_pk=first.pk, action="delete")
    services.restore_round(change=deleted)
    assert nets(third) == {"Aama": -3, "Buwa": 21, "Dai": -18}


def test_editing_an_earlier_round_re_settles_the_later_ones(logged_in, owner):
    session = make_session(owner, dhoos_payee="next_winner")
    first, _second = _dhoos_evening(logged_in, session)
    third = entered(
        logged_in, session, {"Aama": ("seen", 0), "Buwa": ("seen", 0), "Dai": ("seen", 0)}, "Buwa"
    )
    data = round_data(session, WORKED, "Didi")  # the dhoos taken off
    data["version"] = str(first.version)
    logged_in.post(reverse("round_edit", args=[session.pk, first.pk]), data)
    assert nets(third) == {"Aama": -3, "Buwa": 6, "Dai": -3}
    assert RoundChange.objects.filter(round_pk=third.pk, action="resettle").count() == 1


def test_the_round_form_says_when_the_next_round_is_better_by_rotation(logged_in, owner):
    session = make_session(owner, better_after_rotation=True)
    for _ in range(4):
        entered(logged_in, session, WORKED, "Didi")
    html = page(logged_in, "round_new", session)
    assert "Better (double) round by the house rules" in html
    assert "a full rotation of the deal: 4 rounds since the start, 4 players" in html
    assert 'name="better" value="on" checked' in html
    fifth = entered(logged_in, session, WORKED, "Didi", better=True)
    assert (fifth.better, fifth.better_mark) == (True, None)  # follows its default
    assert nets(fifth) == {"Aama": 6, "Buwa": -32, "Didi": 60, "Dai": -34}
    # Round 6 is not better; the session page says so, and who deals.
    html = page(logged_in, "session_detail", session)
    line = re.search(r'<p class="next-round"[^>]*>(.*?)</p>', html, re.S)
    assert line, "no next round"
    said = " ".join(line[1].split())
    assert said == "Round 6 · Buwa deals"  # not better (the words only in the phone's skeleton)
    # Deleting round 1 moves the rotation: round 5 (now 4th) is no longer better.
    logged_in.post(
        reverse("round_delete", args=[session.pk, Round.objects.get(session=session, number=1).pk])
    )
    fifth.refresh_from_db()
    assert fifth.better is False
    assert nets(fifth) == {"Aama": 3, "Buwa": -16, "Didi": 30, "Dai": -17}
    assert RoundChange.objects.filter(round_pk=fifth.pk, action="resettle").exists()


def test_a_round_the_table_marked_keeps_its_mark(logged_in, owner):
    session = make_session(owner, better_after_rotation=True)
    for _ in range(4):
        entered(logged_in, session, WORKED, "Didi")
    fifth = entered(logged_in, session, WORKED, "Didi", better=False)  # unmarked by hand
    assert (fifth.better, fifth.better_mark) == (False, False)
    logged_in.post(
        reverse("round_delete", args=[session.pk, Round.objects.get(session=session, number=1).pk])
    )
    fifth.refresh_from_db()
    assert (fifth.better, fifth.better_mark) == (False, False)


def test_a_round_whose_tallies_hold_more_tiplu_than_exist_is_refused(logged_in, session):
    data = round_data(session, {**WORKED, "Aama": ("seen", 7), "Dai": ("seen", 3)}, "Didi")
    ids = {p.name: p.pk for p in session.players.all()}
    data["tiplu"] = "7H"
    data[f"p-{ids['Aama']}-maal_tally"] = json.dumps({"tiplu": 2})
    data[f"p-{ids['Dai']}-maal_tally"] = json.dumps({"tiplu": 1})
    response = logged_in.post(reverse("round_new", args=[session.pk]), data)
    assert response.status_code == 422
    assert "3 tiplu held by Aama 2, Dai 1: only 2 in play" in response.content.decode()
    assert not Round.objects.filter(session=session).exists()


DHOOS_DAI = {**WORKED, "Dai": ("seen", 0, 0, True)}


@pytest.mark.parametrize(
    ("options", "rows", "expected"),
    [
        # Fixed, to all: Dai pays 15 to each of three.
        ({}, DHOOS_DAI, {"Aama": 18, "Buwa": -1, "Didi": 45, "Dai": -62}),
        # The round's total T = 14, to each of three.
        (
            {"dhoos_amount": "round_total"},
            DHOOS_DAI,
            {"Aama": 17, "Buwa": -2, "Didi": 44, "Dai": -59},
        ),
        # Once, to the winner.
        ({"dhoos_payee": "winner"}, DHOOS_DAI, {"Aama": 3, "Buwa": -16, "Didi": 45, "Dai": -32}),
        # Aama's own 5 void: T = 9; Aama pays 12, Buwa 11, Dai 12; then her dhoos.
        (
            {"dhoos_voids_maal": True},
            {**WORKED, "Aama": ("seen", 5, 0, True)},
            {"Aama": -57, "Buwa": 4, "Didi": 50, "Dai": 3},
        ),
    ],
    ids=["fixed-all", "round-total", "winner", "voids-maal"],
)
def test_each_dhoos_option_through_the_round_form(logged_in, owner, options, rows, expected):
    session = make_session(owner, **options)
    assert nets(entered(logged_in, session, rows, "Didi")) == expected


def test_a_dublee_win_with_too_few_players_is_refused_in_the_form(logged_in, owner):
    session = make_session(owner, dublee_min_players=4)
    three = {k: v for k, v in WORKED.items() if k != "Dai"}
    response = logged_in.post(
        reverse("round_new", args=[session.pk]),
        round_data(session, three, "Didi", win_type="dublee"),
    )
    assert response.status_code == 422
    assert (
        "a dublee win needs at least 4 players under these rules, got 3"
        in response.content.decode()
    )
    assert entered(logged_in, session, WORKED, "Didi", win_type="dublee") is not None


def test_unseen_pairs_skip_at_the_table(logged_in, owner):
    session = make_session(owner, unseen_pairs="skip")
    rows = {"Aama": ("seen", 20), "Buwa": ("seen", 10), "Didi": ("unseen", 5), "Dai": ("unseen", 0)}
    round_ = entered(logged_in, session, rows, "Aama")
    assert nets(round_) == {"Aama": 68, "Buwa": 2, "Didi": -30, "Dai": -40}
    detail = page(logged_in, "session_detail", session)
    assert "Aama" in detail
    html = logged_in.get(reverse("round_detail", args=[session.pk, round_.pk])).content.decode()
    assert "k·S = 10" in html
    assert "(30 + 10 − 10) × 1" in html
    assert "unseen: settles with the 2 seen players only" in html
    assert "Didi pays Aama 30: the seen players&#x27; points 30" in html
    # The preview says the same before the save.
    preview = logged_in.post(
        reverse("round_preview", args=[session.pk]), round_data(session, rows, "Aama")
    ).content.decode()
    assert "k·S = 10" in preview


def test_a_dead_hand_and_a_dublee_player_bonus_at_the_table(logged_in, owner):
    session = make_session(owner, dhoos_pays_total=True, dhoos_payee="winner")
    round_ = entered(logged_in, session, {**WORKED, "Aama": ("seen", 5, 0, True)}, "Didi")
    # Aama's 5 go to Didi (S 12), T = 14: Aama pays 14 + 15 dhoos; Dai 14 + 3 − 0;
    # Buwa 14 + 10 − 8.
    assert nets(round_) == {"Aama": -14 - 15, "Buwa": -16, "Didi": 14 + 16 + 17 + 15, "Dai": -17}
    html = logged_in.get(reverse("round_detail", args=[session.pk, round_.pk])).content.decode()
    assert "dead hand: 5 to Didi" in html
    assert "no game payment (dead hand)" in html

    bonus = make_session(owner, name="Bonus night", dublee_player_bonus=4)
    data = round_data(bonus, WORKED, "Didi")
    aama = bonus.players.get(name="Aama")
    data[f"p-{aama.pk}-dublees"] = "on"
    assert logged_in.post(reverse("round_new", args=[bonus.pk]), data).status_code == 302
    assert nets(Round.objects.get(session=bonus)) == {
        "Aama": 7,
        "Buwa": -16,
        "Didi": 26,
        "Dai": -17,
    }


def _sitting_out_evening(client, session) -> list[Round]:
    """Round 1: the worked example, Dai given dhoos. Round 2: Dai sits out, Aama wins."""
    first = entered(client, session, {**WORKED, "Dai": ("seen", 0, 0, True)}, "Didi")
    three = {k: v for k, v in ZEROS.items() if k != "Dai"}
    second = entered(client, session, three, "Aama")
    return [first, second]


def test_next_round_winner_is_paid_by_a_player_who_sits_the_round_out(logged_in, owner):
    session = make_session(owner, dhoos_payee="next_round_winner")
    first, second = _sitting_out_evening(logged_in, session)
    assert nets(first) == {"Aama": 3, "Buwa": -16, "Didi": 30, "Dai": -17}
    assert nets(second) == {"Aama": 6 + 15, "Buwa": -3, "Didi": -3}
    second.refresh_from_db()
    dai = session.players.get(name="Dai")
    assert second.outside_nets == {str(dai.pk): -15}
    ledger = build_ledger(session)
    totals = {s.player.name: s.points for s in ledger.standings}
    assert totals == {"Aama": 24, "Buwa": -19, "Didi": 27, "Dai": -32}
    assert sum(totals.values()) == 0
    assert {s.player.name: s.rounds_played for s in ledger.standings}["Dai"] == 1
    assert ledger.pending == ()
    cells = {p.name: net for p, net in zip(ledger.players, ledger.rows[1].nets, strict=True)}
    assert cells == {"Aama": 21, "Buwa": -3, "Didi": -3, "Dai": -15}
    detail = logged_in.get(reverse("round_detail", args=[session.pk, second.pk])).content.decode()
    assert "dhoos from round 1: 15 from Dai" in detail
    assert "Dai sits this round out and pays Aama 15: dhoos from round 1." in detail
    # The home page's leader and the record count it too.
    assert "Didi" in logged_in.get(reverse("home")).content.decode()
    rounds = load_rounds(owner)
    board = {row.name: row.points for row in leaderboard(rounds)[0].rows}
    assert board == totals
    dai_stats = player_stats(rounds, "dai")
    assert dai_stats is not None
    assert (dai_stats.points, dai_stats.rounds) == (-32, 1)
    # The export says the same.
    exported = json.loads(
        logged_in.get(reverse("session_export", args=[session.pk])).content.decode()
    )
    assert exported["rounds"][1]["net"] == {"Aama": 21, "Buwa": -3, "Didi": -3, "Dai": -15}
    assert exported["totals"] == totals


def test_deleting_or_editing_moves_the_payment_of_a_player_who_sat_out(logged_in, owner):
    session = make_session(owner, dhoos_payee="next_round_winner")
    first, second = _sitting_out_evening(logged_in, session)
    data = round_data(session, WORKED, "Didi")  # the dhoos taken off
    data["version"] = str(first.version)
    logged_in.post(reverse("round_edit", args=[session.pk, first.pk]), data)
    second.refresh_from_db()
    assert second.outside_nets == {}
    assert nets(second) == {"Aama": 6, "Buwa": -3, "Didi": -3}
    restored = round_data(session, {**WORKED, "Dai": ("seen", 0, 0, True)}, "Didi")
    first.refresh_from_db()
    restored["version"] = str(first.version)
    logged_in.post(reverse("round_edit", args=[session.pk, first.pk]), restored)
    second.refresh_from_db()
    assert second.outside_nets != {}
    logged_in.post(reverse("round_delete", args=[session.pk, first.pk]))
    second.refresh_from_db()
    assert second.outside_nets == {}
    ledger = build_ledger(session)
    assert sum(s.points for s in ledger.standings) == 0


def with_tally(session, tally_text: str) -> dict[str, str]:
    data = round_data(session, WORKED, "Didi")
    data["tiplu"] = "7H"
    data[f"p-{session.players.get(name='Aama').pk}-maal_tally"] = tally_text
    return data


def test_a_deeply_nested_tally_is_a_message_not_a_500(logged_in, session):
    response = logged_in.post(
        reverse("round_new", args=[session.pk]), with_tally(session, "[" * 100_000)
    )
    assert response.status_code == 422
    assert "the calculator&#x27;s count is too large or nested; count again" in (
        response.content.decode()
    )
    nested = '{"poplu": ' + "[" * 50 + "]" * 50 + "}"
    response = logged_in.post(reverse("round_new", args=[session.pk]), with_tally(session, nested))
    assert "count is too large or nested" in response.content.decode()
    assert not Round.objects.exists()


def test_a_key_twice_in_a_tally_is_refused(logged_in, session):
    twice = '{"poplu": 1, "poplu": 2}'
    response = logged_in.post(reverse("round_new", args=[session.pk]), with_tally(session, twice))
    assert response.status_code == 422
    assert (
        "the calculator&#x27;s count gives one item twice; count again" in response.content.decode()
    )
    assert not Round.objects.exists()


def test_an_edit_without_its_version_is_refused(logged_in, session):
    round_ = services.add_round(session=session, round_input=worked_round())
    before = everything()
    data = round_data(session, {**WORKED, "Dai": ("seen", 3)}, "Didi")
    response = logged_in.post(reverse("round_edit", args=[session.pk, round_.pk]), data)
    assert response.status_code == 400
    assert (
        "This form does not say which version of the round it changes; reload the round "
        "and make your change again." in unescape(response.content.decode())
    )
    assert everything() == before


def test_editing_a_round_deleted_meanwhile_says_so(logged_in, session):
    round_ = services.add_round(session=session, round_input=worked_round())
    url = reverse("round_edit", args=[session.pk, round_.pk])
    opened = {**round_data(session, WORKED, "Didi"), "version": "1"}
    services.delete_round(round_=round_)  # another phone
    before = everything()
    response = logged_in.post(url, opened)
    html = unescape(response.content.decode())
    assert response.status_code == 409
    assert "This round was deleted by someone else since you opened it." in html
    assert "Your changes were not saved." in html
    assert reverse("session_changes", args=[session.pk]) in html
    assert everything() == before
    response = logged_in.get(url)
    assert response.status_code == 404
    assert "This round was deleted by someone else" in unescape(response.content.decode())
    never = logged_in.get(reverse("round_edit", args=[session.pk, round_.pk + 99]))
    assert "This session has no such round." in unescape(never.content.decode())


def test_the_deleted_round_page_in_nepali(logged_in, session):
    round_ = services.add_round(session=session, round_input=worked_round())
    services.delete_round(round_=round_)
    logged_in.cookies["django_language"] = "ne"
    response = logged_in.get(reverse("round_edit", args=[session.pk, round_.pk]))
    assert "तपाईंले खोलेपछि यो राउन्ड अरू कसैले मेटाइसक्नुभयो।" in response.content.decode()


def test_a_saved_round_is_answered_saved_even_if_the_database_goes_away(
    logged_in, session, monkeypatch
):
    down = []

    def refuse(execute, sql, params, many, context):
        if down:
            raise OperationalError("server closed the connection unexpectedly")
        return execute(sql, params, many, context)

    saving = services.add_round

    def add_round_then_lose_the_database(*args, **kwargs):
        saved = saving(*args, **kwargs)
        down.append(True)  # the commit is done; the database stops now
        return saved

    monkeypatch.setattr(round_views.services, "add_round", add_round_then_lose_the_database)
    logged_in.get(reverse("home"))  # signed in: the user is cached, as on every later request
    with connection.execute_wrapper(refuse):
        response = logged_in.post(
            reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi")
        )
    assert response.status_code == 302
    assert response["Location"] == reverse("session_detail", args=[session.pk])
    assert Round.objects.count() == 1


def test_a_retried_save_with_its_key_answers_with_the_saved_round(logged_in, session):
    data = {**round_data(session, WORKED, "Didi"), "save_key": "retry-key-0001"}
    url = reverse("round_new", args=[session.pk])
    first = logged_in.post(url, data)
    again = logged_in.post(url, data, follow=True)  # the phone never saw the first answer
    assert first.status_code == 302
    assert "Round 1 saved." in again.content.decode()
    assert Round.objects.count() == 1
    assert RoundEntry.objects.count() == 4


@pytest.fixture
def counted():
    """Every settle_round, check_round_tallies and round_problems call, wherever
    it is looked up from."""
    settle = mock.Mock(wraps=settlement.settle_round)
    tallies = mock.Mock(wraps=prepare.check_round_tallies)
    problems = mock.Mock(wraps=settlement.round_problems)
    with (
        mock.patch.object(prepare, "settle_round", settle),
        mock.patch.object(round_form, "settle_round", settle),
        mock.patch.object(round_service, "settle_round", settle),
        mock.patch.object(prepare, "check_round_tallies", tallies),
        mock.patch.object(round_form, "round_problems", problems),
    ):
        yield {"settle": settle, "tallies": tallies, "problems": problems}


def test_one_new_round_post_settles_once_and_checks_tallies_once(logged_in, session, counted):
    response = logged_in.post(reverse("round_new", args=[session.pk]), tallied_round(session))
    assert response.status_code == 302
    assert counted["settle"].call_count == 1
    assert counted["tallies"].call_count == 1
    assert counted["problems"].call_count == 1
    round_ = Round.objects.get(session=session)
    assert round_.tiplu == "7H"
    aama = RoundEntry.objects.get(round=round_, player__name="Aama")
    assert aama.maal_tally == {"tiplu": 2}
    # Settled in its place: the nets a round settled alone gives.
    nets = {e.player.name: e.net for e in round_.entries.select_related("player")}
    assert sum(nets.values()) == 0
    assert nets == _nets_alone(session, round_)


def _nets_alone(session, round_: Round) -> dict[str, int]:
    result = settlement.settle_round(round_.to_input(), session.get_rules())
    return {p.player: p.net for p in result.players}


def test_one_edit_post_checks_tallies_once(logged_in, session, counted):
    logged_in.post(reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi"))
    round_ = Round.objects.get(session=session)
    counted["settle"].reset_mock()
    counted["tallies"].reset_mock()
    data = {**tallied_round(session), "version": str(round_.version)}
    response = logged_in.post(reverse("round_edit", args=[session.pk, round_.pk]), data)
    assert response.status_code == 302
    assert counted["tallies"].call_count == 1
    assert counted["settle"].call_count == 1  # in its place, by the form; the save takes it
    round_.refresh_from_db()
    assert round_.tiplu == "7H"


def test_a_round_prepared_before_the_session_changed_is_prepared_again(session, counted):
    form = round_form.RoundForm(
        list(session.players.all()),
        session.get_rules(),
        data=tallied_round(session),
        version=session.updated_at,
    )
    assert form.is_valid()
    assert form.prepared is not None
    # Another phone saves a round meanwhile: the session's version moves.
    services.add_round(
        session=session.__class__.objects.get(pk=session.pk), round_input=form.prepared.round_input
    )
    counted["settle"].reset_mock()
    counted["tallies"].reset_mock()
    round_ = services.add_round(
        session=session,
        round_input=form.prepared,
        players=list(session.players.all()),
        setting=None,
    )
    assert counted["tallies"].call_count == 1  # checked again
    assert counted["settle"].call_count >= 1  # and settled again
    assert round_.position == 2
    assert RoundEntry.objects.get(round=round_, player__name="Aama").maal_tally == {"tiplu": 2}


ROWS = {"Aama": ("seen", 12, 10), "Buwa": ("unseen", 2), "Didi": ("seen", 7), "Dai": ("seen", 0)}


def _with_maal(session, rows=ROWS, tiplu="7H", **tallies):
    data = round_data(session, rows, "Didi")
    ids = {p.name: p.pk for p in session.players.all()}
    data["tiplu"] = tiplu
    for name, tally in tallies.items():
        data[f"p-{ids[name]}-maal_tally"] = json.dumps(tally)
    return data


def test_round_screen_has_the_calculator(logged_in, session):
    html = logged_in.get(reverse("round_new", args=[session.pk])).content.decode()
    assert '<dialog id="maal-dialog"' in html
    assert 'name="tiplu" value=""' in html
    assert "js/maal.js" in html
    for player in session.players.all():
        assert f'name="p-{player.pk}-maal_tally"' in html
    assert html.count("data-maal-open") == 4


def test_a_round_counted_with_the_calculator_is_stored_and_shown(logged_in, session):
    data = _with_maal(session, Aama={"tiplu": 1, "poplu": 2, "jhiplu": 1, "joker_tunnels": 1})
    response = logged_in.post(reverse("round_new", args=[session.pk]), data)
    assert response.status_code == 302
    round_ = Round.objects.get(session=session)
    assert round_.tiplu == "7H"
    tallies = {e.player.name: e.maal_tally for e in round_.entries.select_related("player")}
    assert tallies["Aama"] == {"poplu": 1, "marriages": 1, "joker_tunnels": 1}
    assert tallies["Buwa"] is None
    html = logged_in.get(reverse("round_detail", args=[session.pk, round_.pk])).content.decode()
    assert "7♥" in html
    assert "<b>Aama</b>: 1 poplu = 2, 1 marriage = 10, 1 tunnel of ordinary jokers = 10" in html
    # Editing shows the tiplu and the stored count, and keeps them.
    edit = reverse("round_edit", args=[session.pk, round_.pk])
    html = logged_in.get(edit).content.decode()
    assert 'name="tiplu" value="7H"' in html
    assert "&quot;marriages&quot;: 1" in html
    assert "1 poplu = 2, 1 marriage = 10, 1 tunnel of ordinary jokers = 10" in html
    opened = {"version": str(round_.version)}
    response = logged_in.post(
        edit, {**_with_maal(session, tiplu="7H", Aama=tallies["Aama"]), **opened}
    )
    assert response.status_code == 302
    assert Round.objects.get(pk=round_.pk).tiplu == "7H"


def test_points_typed_over_the_count_are_refused(logged_in, session):
    data = _with_maal(session, Aama={"poplu": 1, "marriages": 1})  # 12 maal, but tunnel 10 typed
    response = logged_in.post(reverse("round_new", args=[session.pk]), data)
    assert response.status_code == 422
    html = response.content.decode()
    assert (
        "maal: the calculator counted maal 12 and tunnel 0 (1 poplu = 2, 1 marriage = 10), "
        "not 12 and 10; count again or clear the calculator"
    ) in html
    assert not Round.objects.exists()


def test_impossible_count_and_missing_tiplu_are_refused(logged_in, session):
    url = reverse("round_new", args=[session.pk])
    html = logged_in.post(url, _with_maal(session, Aama={"tiplu": 3})).content.decode()
    assert "maal: 3 tiplu: only 2 are in play (the third lies under the stock)" in html
    html = logged_in.post(
        url, _with_maal(session, tiplu="", Aama={"poplu": 1, "marriages": 1})
    ).content.decode()
    assert "tiplu: pick the tiplu card to use the maal calculator" in html
    # The summary's link leads to the tiplu line, which can take the focus.
    assert '<li><a href="#tiplu-line">tiplu: pick the tiplu card' in html
    assert 'id="tiplu-line" tabindex="-1"' in html
    data = _with_maal(session)
    data[f"p-{session.players.get(name='Aama').pk}-maal_tally"] = "{not json"
    html = logged_in.post(url, data).content.decode()
    assert "maal: the calculator&#x27;s count is unreadable; count again" in html
    assert not Round.objects.exists()


def test_preview_shows_a_count_that_disagrees(logged_in, session):
    data = _with_maal(session, Aama={"poplu": 1})
    response = logged_in.post(
        reverse("round_preview", args=[session.pk]), data, HTTP_HX_REQUEST="true"
    )
    assert "the calculator counted maal 2 and tunnel 0" in response.content.decode()


def test_rules_page_keeps_the_custom_table(logged_in, owner):
    session = make_session(owner, maal_points=PRESET_TABLES["flat"])
    url = reverse("session_rules", args=[session.pk])
    options = session.get_rules().to_options()
    options.pop("maal_points")
    data = {"preset": "pagat"}
    for name, value in options.items():
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        else:
            data[name] = str(value)
    response = logged_in.post(url, data | {"dhoos_penalty": "20"})
    assert response.status_code == 302
    rules = GameSession.objects.get(pk=session.pk).get_rules()
    assert (rules.dhoos_penalty, rules.maal_points) == (20, PRESET_TABLES["flat"])


def test_rules_page_links_to_the_maal_pages(logged_in, session):
    html = logged_in.get(reverse("session_rules", args=[session.pk])).content.decode()
    assert reverse("maal_table", args=[session.pk]) in html
    assert reverse("maal_calculator", args=[session.pk]) in html


def test_a_master_card_tally_at_value_10(logged_in, owner):
    session = make_session(owner, master_card=True, master_card_value=10)
    rows = {"Aama": ("seen", 5), "Buwa": ("unseen", 2), "Didi": ("seen", 7), "Dai": ("seen", 10)}
    data = _with_maal(session, rows, Dai={"master_card": 1})
    response = logged_in.post(reverse("round_new", args=[session.pk]), data)
    assert response.status_code == 302
    round_ = Round.objects.get(session=session)
    entries = {e.player.name: e for e in round_.entries.select_related("player")}
    assert entries["Dai"].maal_tally == {"master_card": 1}
    # Dai's maal 10: T = 24. Aama pays 24 + 3 − 20 = 7, Buwa 24 + 10 − 8 = 26,
    # Dai 24 + 3 − 40 = −13 (Didi pays Dai 13): Didi +20.
    assert {name: e.net for name, e in entries.items()} == {
        "Aama": -7,
        "Buwa": -26,
        "Didi": 20,
        "Dai": 13,
    }
    html = logged_in.get(reverse("round_detail", args=[session.pk, round_.pk])).content.decode()
    assert "<b>Dai</b>: 1 master card = 10" in html
    # Counted at the session's value: 5 typed beside it is refused.
    rows["Dai"] = ("seen", 5)
    response = logged_in.post(
        reverse("round_new", args=[session.pk]), _with_maal(session, rows, Dai={"master_card": 1})
    )
    assert response.status_code == 422
    assert (
        "maal: the calculator counted maal 10 and tunnel 0 (1 master card = 10), "
        "not 5 and 0; count again or clear the calculator"
    ) in response.content.decode()
    assert Round.objects.filter(session=session).count() == 1


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
    assert said in page_text(response)
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
        return page_text(logged_in.get(reverse("round_detail", args=[session.pk, round_.pk])))

    first = page(rounds[0])
    assert "dhoos: 15, paid to Buwa in round 2" in first
    assert "owes 15 to the next winner" not in first
    assert "dhoos: 15, not paid: Aama won round 3 themselves" in page(rounds[1])
    assert "dhoos: owes 15 to the next winner" in page(rounds[3])
    html = logged_in.get(reverse("round_detail", args=[session.pk, rounds[0].pk])).content.decode()
    assert f'href="{reverse("round_detail", args=[session.pk, rounds[1].pk])}"' in html
    logged_in.cookies[settings.LANGUAGE_COOKIE_NAME] = "ne"
    assert "धुस: 15, राउन्ड 2 मा Buwa लाई तिरिसकेको" in page(rounds[0])


# --- The answer to the phone's own save (wants_json): no redirect, no page after it ---

JSON = {"HTTP_ACCEPT": "application/json"}


def test_a_save_from_the_phone_is_answered_with_the_round_and_the_next(logged_in, session):
    """The round as the ledger has it (its place and every net), the standings
    after it and the next round as the server will settle it; no message is
    left for a later page, and a repeat of the key answers the same."""
    url = reverse("round_new", args=[session.pk])
    data = round_data(session, WORKED, "Didi") | {"save_key": "phone-key-0001"}
    response = logged_in.post(url, data, **JSON)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    answer = response.json()
    round_ = Round.objects.get(session=session)
    assert answer["ok"] is True
    assert answer["message"] == "Round 1 saved."
    assert answer["position"] == 1
    assert answer["round_id"] == round_.pk
    assert answer["round_url"] == reverse("round_detail", args=[session.pk, round_.pk])
    assert answer["nets"] == {"Aama": 3, "Buwa": -16, "Didi": 30, "Dai": -17}
    chain = answer["chain"]
    assert chain["start"]["number"] == 2
    assert chain["seats"] == ["Aama", "Buwa", "Didi", "Dai"]
    assert chain["standings"] == {
        "stake": "2.50",
        "points": {"Aama": 3, "Buwa": -16, "Didi": 30, "Dai": -17},
        "changed": False,
    }
    assert chain["words"]["round"] == "Round %(number)s"
    # Nothing said to the next page: the phone said it.
    page = logged_in.get(reverse("session_detail", args=[session.pk])).content.decode()
    assert "Round 1 saved." not in page
    again = logged_in.post(url, data, **JSON).json()
    assert (again["message"], again["round_id"], again["nets"]) == (
        "Round 1 saved.",
        round_.pk,
        answer["nets"],
    )
    assert Round.objects.count() == 1


def test_the_answer_says_who_sat_the_round_out(logged_in, session):
    rows = {name: WORKED[name] for name in ("Aama", "Didi", "Dai")}
    answer = logged_in.post(
        reverse("round_new", args=[session.pk]), round_data(session, rows, "Didi"), **JSON
    ).json()
    assert answer["nets"]["Buwa"] is None
    assert answer["chain"]["standings"]["points"]["Buwa"] == 0


def test_a_refused_save_from_the_phone_lists_every_problem(logged_in, session):
    data = round_data(session, {**WORKED, "Didi": ("unseen", 7), "Aama": ("seen", "5x")}, "Didi")
    response = logged_in.post(reverse("round_new", args=[session.pk]), data, **JSON)
    assert response.status_code == 422
    answer = response.json()
    assert answer["ok"] is False
    assert answer["messages"] == [
        "Aama, maal: must be a whole number, got '5x'",
        "Didi, status: the winner must be seen: ending the round means having shown the pure sets",
    ]
    assert not Round.objects.exists()


def test_an_edit_from_the_phone_is_answered_in_place(logged_in, session):
    enter(logged_in, session, WORKED, "Didi")
    round_ = Round.objects.get(session=session)
    url = reverse("round_edit", args=[session.pk, round_.pk])
    changed = round_data(session, {**WORKED, "Aama": ("seen", 6)}, "Didi") | {"version": "1"}
    answer = logged_in.post(url, changed, **JSON).json()
    assert answer["message"] == "Round 1 changed."
    assert answer["version"] == 2
    assert answer["nets"]["Aama"] == 6
    assert answer["chain"]["standings"]["points"]["Aama"] == 6
    # The same edit again, from a form opened at version 2: nothing changed.
    same = logged_in.post(url, changed | {"version": "2"}, **JSON).json()
    assert same["message"] == "Nothing changed in round 1."
    # Someone else's edit since this form was opened at version 1.
    stale = logged_in.post(url, round_data(session, WORKED, "Aama") | {"version": "1"}, **JSON)
    assert stale.status_code == 409
    assert stale.json() == {
        "ok": False,
        "messages": [
            "This round was changed by someone else since you opened it; "
            "reload to see their version."
        ],
        "reload_url": url,
    }


def test_an_edit_of_a_round_deleted_meanwhile_is_answered_so(logged_in, session):
    enter(logged_in, session, WORKED, "Didi")
    round_ = Round.objects.get(session=session)
    services.delete_round(round_=round_)
    url = reverse("round_edit", args=[session.pk, round_.pk])
    response = logged_in.post(url, round_data(session, WORKED, "Didi") | {"version": "1"}, **JSON)
    assert response.status_code == 409
    assert response.json()["messages"] == [
        "Round not found",
        "This round was deleted by someone else since you opened it.",
        "Your changes were not saved.",
    ]
