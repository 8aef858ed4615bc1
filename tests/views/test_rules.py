"""The rules page: every option with its help and the new ones on it, changes
before and after the first round (every round settled again, or refused when a
round becomes impossible), the presets side by side with next-winner dhoos
booked from earlier rounds, adopting one in one tap, and the v3 options on the
session and rules forms, a bad value refused beside its field."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import services
from scoring.engine import make_rules
from scoring.models import RoundChange, RoundEntry
from tests.web_helpers import (
    WORKED,
    ZEROS,
    _dhoos_evening,
    entered,
    make_session,
    nets,
    page,
    round_data,
    rules_post,
)

pytestmark = pytest.mark.django_db


def test_changing_the_rules_to_next_winner_books_dhoos_in_later_rounds(logged_in, owner):
    session = make_session(owner)
    first, _second = _dhoos_evening(logged_in, session)
    third = entered(
        logged_in, session, {"Aama": ("seen", 0), "Buwa": ("seen", 0), "Dai": ("seen", 0)}, "Buwa"
    )
    assert nets(first)["Dai"] == -17 - 45
    services.recompute_session(session=session, rules=make_rules(dhoos_payee="next_winner"))
    assert nets(first) == {"Aama": 3, "Buwa": -16, "Didi": 30, "Dai": -17}
    assert nets(third)["Dai"] == -18
    assert set(RoundChange.objects.filter(action="rules").values_list("round_pk", flat=True)) == {
        first.pk,
        third.pk,
    }


def test_the_rules_page_settles_the_last_round_under_each_preset(logged_in, session):
    entered(logged_in, session, WORKED, "Didi")
    html = page(logged_in, "session_rules", session)
    assert "Presets side by side" in html
    # Buwa (unseen 2): −16 under pagat and wikipedia; kidnap moves the 2 to Didi
    # (T = 14, Buwa pays 24); murder and nepal void it (T = 12, Buwa pays 22).
    row = html.split('<th scope="row">Buwa</th>')[1].split("</tr>")[0]
    assert [cell.split(">")[1].split("<")[0] for cell in row.split("<td")[1:]] == [
        "-16",
        "-16",
        "-24",
        "-22",
        "-16",
        "-22",
    ]


def compare_row(html: str, player: str) -> list[str]:
    row = html.split(f'<th scope="row">{player}</th>')[1].split("</tr>")[0]
    return [cell.split(">")[1].split("<")[0] for cell in row.split("<td")[1:]]


def test_the_presets_side_by_side_book_next_winner_dhoos_from_earlier_rounds(logged_in, owner):
    session = make_session(owner, dhoos_payee="next_winner")
    # Round 1: Dai given dhoos, owed to the next winner; Didi wins.
    entered(logged_in, session, {**ZEROS, "Dai": ("seen", 0, 0, True)}, "Didi")
    # Round 2: Aama wins: 3 from each loser, and Dai's 15 dhoos is booked to her.
    last = entered(logged_in, session, ZEROS, "Aama")
    assert nets(last) == {"Aama": 24, "Buwa": -3, "Didi": -3, "Dai": -18}
    html = page(logged_in, "session_rules", session)
    assert "Round 2 as the ledger has it, and settled with every round before it" in html
    # Columns: this session (the ledger), pagat, kidnap, murder, wikipedia, nepal.
    # Under the presets paying dhoos to all, round 1 paid it; nepal books it here.
    assert compare_row(html, "Aama") == ["+24", "+9", "+9", "+9", "+9", "+24"]
    assert compare_row(html, "Dai") == ["-18", "-3", "-3", "-3", "-3", "-18"]
    assert compare_row(html, "Buwa") == ["-3"] * 6


def test_one_tap_adopts_a_preset(logged_in, session, owner):
    url = reverse("session_rules", args=[session.pk])
    assert logged_in.post(url, {"adopt": "nepal"}).status_code == 302
    session.refresh_from_db()
    assert session.get_rules() == make_rules("nepal")
    # With rounds, it asks for the usual confirmation first.
    other = make_session(owner, name="Dashain")
    entered(logged_in, other, WORKED, "Didi")
    other_url = reverse("session_rules", args=[other.pk])
    html = logged_in.post(other_url, {"adopt": "murder"}).content.decode()
    assert "Recompute every round" in html
    other.refresh_from_db()
    assert other.get_rules() == make_rules("pagat")


def test_the_new_options_are_on_the_rules_form(logged_in, session):
    from tests.web_helpers import rules_post

    rules = make_rules(
        "nepal", dhoos_amount="round_total", dublee_min_players=4, master_card_value=10
    )
    html = page(logged_in, "session_rules", session)
    for name in ("dhoos_amount", "dhoos_payee", "dublee_players_pay_seen", "master_card_value"):
        assert f'name="{name}"' in html
    response = logged_in.post(
        reverse("session_rules", args=[session.pk]), rules_post(rules, preset="nepal")
    )
    assert response.status_code == 302
    session.refresh_from_db()
    assert session.get_rules() == rules


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


def test_rules_change_freely_before_the_first_round(logged_in, owner):
    session = make_session(owner)
    url = reverse("session_rules", args=[session.pk])
    html = logged_in.get(url).content.decode()
    assert "the pagat preset" in html
    assert "What a player given dhoos pays when the dhoos amount is fixed." in html
    response = logged_in.post(url, rules_post(session.get_rules(), dhoos_penalty="25"))
    assert response.status_code == 302
    session.refresh_from_db()
    assert session.get_rules().dhoos_penalty == 25


def test_rules_after_rounds_need_recompute_and_renet_every_round(logged_in, owner):
    session = make_session(owner)
    logged_in.post(reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi"))
    url = reverse("session_rules", args=[session.pk])
    # Murder: Buwa's 2 unseen maal is void: T = 12; Buwa pays 12 + 10 − 0 = 22.
    data = rules_post(session.get_rules(), unseen_maal="void")
    html = logged_in.post(url, data).content.decode()
    assert "Recompute every round: rounds are saved: tick this" in html
    session.refresh_from_db()
    assert session.get_rules().unseen_maal == "count"
    response = logged_in.post(url, {**data, "recompute": "on"})
    assert response.status_code == 302
    session.refresh_from_db()
    assert session.get_rules().unseen_maal == "void"
    nets = dict(RoundEntry.objects.values_list("player__name", "net"))
    # T = 12; Aama 12 + 3 − 20 = −5; Buwa 22; Dai 15; Didi 32.
    assert nets == {"Aama": 5, "Buwa": -22, "Didi": 32, "Dai": -15}


def test_rules_change_refused_when_a_round_becomes_impossible(logged_in, owner):
    session = make_session(owner)
    logged_in.post(reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi"))
    url = reverse("session_rules", args=[session.pk])
    data = rules_post(session.get_rules(), max_players="3", recompute="on")
    html = logged_in.post(url, data).content.decode()
    assert (
        "Not changed: Round 1, players: at most 3 players can play a round under these rules, "
        "got 4. Under these rules that round is impossible."
    ) in html
    session.refresh_from_db()
    assert session.get_rules().max_players == 5
