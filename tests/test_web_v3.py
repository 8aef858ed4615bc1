"""RULES.md v3 (section 3a) at the table: the four options on the session and
rules forms, a round settled under each with its breakdown, and a
next_round_winner dhoos paid by a player who sits the round out, in the ledger,
the standings, the home page's leader, the record and the export."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from scoring import services
from scoring.engine import make_rules
from scoring.engine.sessionfile import loads
from scoring.models import GameSession, Round
from scoring.selectors.reports import build_ledger
from stats.records import leaderboard, load_rounds, player_stats
from tests.test_web_house_rules import ZEROS, enter, nets, page
from tests.web_helpers import WORKED, make_session, round_data, rules_post

pytestmark = pytest.mark.django_db
V3 = {
    "unseen_pairs": "skip",
    "dhoos_pays_total": True,
    "dublee_player_bonus": 2,
    "dhoos_payee": "next_round_winner",
}


def test_the_forms_offer_and_save_the_v3_options(logged_in, owner):
    html = logged_in.get(reverse("session_new")).content.decode()
    for name in V3:
        assert f'name="{name}"' in html
    assert '<option value="next_round_winner">next round winner</option>' in html
    assert '<option value="skip">skip</option>' in html
    session = make_session(owner)
    url = reverse("session_rules", args=[session.pk])
    html = logged_in.get(url).content.decode()
    assert "Unseen players settle" in html and "Dublee player bonus" in html
    response = logged_in.post(url, rules_post(make_rules(), **{**V3, "dhoos_pays_total": "on"}))
    assert response.status_code == 302
    session.refresh_from_db()
    assert session.get_rules() == make_rules(**V3)


def test_a_bad_v3_value_is_refused_beside_its_field(logged_in, owner):
    session = make_session(owner)
    url = reverse("session_rules", args=[session.pk])
    response = logged_in.post(url, rules_post(make_rules(), dublee_player_bonus="-1"))
    assert response.status_code == 422  # refused: the form again, with why
    html = response.content.decode()
    assert "Ensure this value is greater than or equal to 0." in html
    response = logged_in.post(url, rules_post(make_rules(), unseen_pairs="never"))
    assert "Select a valid choice. never is not one of the available choices." in (
        response.content.decode()
    )
    session.refresh_from_db()
    assert session.get_rules() == make_rules()


def test_unseen_pairs_skip_at_the_table(logged_in, owner):
    session = make_session(owner, unseen_pairs="skip")
    rows = {"Aama": ("seen", 20), "Buwa": ("seen", 10), "Didi": ("unseen", 5), "Dai": ("unseen", 0)}
    round_ = enter(logged_in, session, rows, "Aama")
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
    round_ = enter(logged_in, session, {**WORKED, "Aama": ("seen", 5, 0, True)}, "Didi")
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
    first = enter(client, session, {**WORKED, "Dai": ("seen", 0, 0, True)}, "Didi")
    three = {k: v for k, v in ZEROS.items() if k != "Dai"}
    second = enter(client, session, three, "Aama")
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


def test_an_imported_file_stores_the_payment_of_a_player_who_sat_out(owner):
    document = {
        "format": "marriage-session/1",
        "name": "Imported",
        "players": ["A", "B", "C", "D"],
        "rules": {"dhoos_payee": "next_round_winner"},
        "rounds": [
            {
                "winner": "C",
                "entries": [
                    {"player": "A", "status": "seen", "maal": 5},
                    {"player": "B", "status": "unseen", "maal": 2},
                    {"player": "C", "status": "seen", "maal": 7},
                    {"player": "D", "status": "seen", "dhoos": True},
                ],
            },
            {
                "winner": "A",
                "entries": [{"player": p, "status": "seen"} for p in ("A", "B", "C")],
            },
        ],
    }
    session = services.save_document(doc=loads(json.dumps(document)), owner=owner)
    ledger = build_ledger(GameSession.objects.get(pk=session.pk))
    assert {s.player.name: s.points for s in ledger.standings} == {
        "A": 24,
        "B": -19,
        "C": 27,
        "D": -32,
    }
