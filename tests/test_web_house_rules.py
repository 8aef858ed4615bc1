"""RULES.md v2 at the table: a player who saw by dublees, next-winner dhoos pending
and booked (and re-settled when an earlier round changes), better rounds by
rotation, the dealer, the presets side by side, copies in play."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from scoring import services
from scoring.engine import make_rules
from scoring.models import GameSession, Round, RoundChange, RoundEntry
from scoring.selectors.files import export_session

from .web_helpers import WORKED, make_session, round_data

pytestmark = pytest.mark.django_db

ZEROS = {"Aama": ("seen", 0), "Buwa": ("seen", 0), "Didi": ("seen", 0), "Dai": ("seen", 0)}


def enter(client, session, rows, winner, **kwargs):
    response = client.post(
        reverse("round_new", args=[session.pk]), round_data(session, rows, winner, **kwargs)
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    return Round.objects.filter(session=session).order_by("-number").first()


def nets(round_: Round) -> dict[str, int]:
    return {
        e.player.name: e.net
        for e in RoundEntry.objects.filter(round=round_).select_related("player")
    }


def page(client, name, session) -> str:
    return client.get(reverse(name, args=[session.pk])).content.decode()


# --- a player who saw by dublees ----------------------------------------------------------


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


# --- next-winner dhoos -----------------------------------------------------------------------


def _dhoos_evening(client, session) -> list[Round]:
    """Round 1: the worked example, Dai given dhoos. Round 2: Dai sits out, Aama
    wins. Round 3: Dai plays, Buwa wins."""
    first = enter(client, session, {**WORKED, "Dai": ("seen", 0, 0, True)}, "Didi")
    three = {k: v for k, v in ZEROS.items() if k != "Dai"}
    second = enter(client, session, three, "Aama")
    return [first, second]


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
    third = enter(
        logged_in, session, {"Aama": ("seen", 0), "Buwa": ("seen", 0), "Dai": ("seen", 0)}, "Buwa"
    )
    assert nets(third) == {"Aama": -3, "Buwa": 6 + 15, "Dai": -3 - 15}
    assert owes not in page(logged_in, "session_detail", session)
    detail = logged_in.get(reverse("round_detail", args=[session.pk, third.pk])).content.decode()
    assert "dhoos from round 1: pays 15 to Buwa" in detail


def test_deleting_the_round_with_the_dhoos_re_settles_the_later_round(logged_in, owner):
    session = make_session(owner, dhoos_payee="next_winner")
    first, _second = _dhoos_evening(logged_in, session)
    third = enter(
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
    services.restore_round(deleted)
    assert nets(third) == {"Aama": -3, "Buwa": 21, "Dai": -18}


def test_editing_an_earlier_round_re_settles_the_later_ones(logged_in, owner):
    session = make_session(owner, dhoos_payee="next_winner")
    first, _second = _dhoos_evening(logged_in, session)
    third = enter(
        logged_in, session, {"Aama": ("seen", 0), "Buwa": ("seen", 0), "Dai": ("seen", 0)}, "Buwa"
    )
    data = round_data(session, WORKED, "Didi")  # the dhoos taken off
    data["version"] = str(first.version)
    logged_in.post(reverse("round_edit", args=[session.pk, first.pk]), data)
    assert nets(third) == {"Aama": -3, "Buwa": 6, "Dai": -3}
    assert RoundChange.objects.filter(round_pk=third.pk, action="resettle").count() == 1


def test_changing_the_rules_to_next_winner_books_dhoos_in_later_rounds(logged_in, owner):
    session = make_session(owner)
    first, _second = _dhoos_evening(logged_in, session)
    third = enter(
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


# --- better by rotation, the dealer ---------------------------------------------------------


def test_the_round_form_says_when_the_next_round_is_better_by_rotation(logged_in, owner):
    session = make_session(owner, better_after_rotation=True)
    for _ in range(4):
        enter(logged_in, session, WORKED, "Didi")
    html = page(logged_in, "round_new", session)
    assert "Better (double) round by the house rules" in html
    assert "a full rotation of the deal: 4 rounds since the start, 4 players" in html
    assert 'name="better" value="on" checked' in html
    fifth = enter(logged_in, session, WORKED, "Didi", better=True)
    assert (fifth.better, fifth.better_mark) == (True, None)  # follows its default
    assert nets(fifth) == {"Aama": 6, "Buwa": -32, "Didi": 60, "Dai": -34}
    # Round 6 is not better; the session page says so, and who deals.
    html = page(logged_in, "session_detail", session)
    assert "Round 6" in html and "Aama deals" not in html and "Buwa deals" in html
    assert "Better (double) round by the house rules" not in html
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
        enter(logged_in, session, WORKED, "Didi")
    fifth = enter(logged_in, session, WORKED, "Didi", better=False)  # unmarked by hand
    assert (fifth.better, fifth.better_mark) == (False, False)
    logged_in.post(
        reverse("round_delete", args=[session.pk, Round.objects.get(session=session, number=1).pk])
    )
    fifth.refresh_from_db()
    assert (fifth.better, fifth.better_mark) == (False, False)


def test_seat_order_decides_the_dealer_and_can_be_changed(logged_in, owner):
    session = make_session(owner)
    assert "Aama deals" in page(logged_in, "session_detail", session)
    assert "Aama deals" in page(logged_in, "round_new", session)
    enter(logged_in, session, WORKED, "Didi")
    assert "Buwa deals" in page(logged_in, "session_detail", session)
    didi = session.players.get(name="Didi")
    response = logged_in.post(reverse("player_move", args=[session.pk, didi.pk]), {"to": "earlier"})
    assert response.status_code == 302
    assert [p.name for p in session.players.order_by("position")] == ["Aama", "Didi", "Buwa", "Dai"]
    assert "Didi deals" in page(logged_in, "session_detail", session)


# --- the rules page: presets side by side, adopting one ------------------------------------------


def test_the_rules_page_settles_the_last_round_under_each_preset(logged_in, session):
    enter(logged_in, session, WORKED, "Didi")
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
    enter(logged_in, session, {**ZEROS, "Dai": ("seen", 0, 0, True)}, "Didi")
    # Round 2: Aama wins: 3 from each loser, and Dai's 15 dhoos is booked to her.
    last = enter(logged_in, session, ZEROS, "Aama")
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
    enter(logged_in, other, WORKED, "Didi")
    other_url = reverse("session_rules", args=[other.pk])
    html = logged_in.post(other_url, {"adopt": "murder"}).content.decode()
    assert "Recompute every round" in html
    other.refresh_from_db()
    assert other.get_rules() == make_rules("pagat")


# --- the maal calculator: copies in play --------------------------------------------------------


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


# --- a session file under next_winner ----------------------------------------------------------


def test_an_imported_session_books_next_winner_dhoos(owner):
    from scoring.engine.sessionfile import parse_document

    doc = parse_document(
        {
            "format": "marriage-session/1",
            "name": "Tihar",
            "players": ["A", "B"],
            "rules": {"dhoos_payee": "next_winner"},
            "rounds": [
                {
                    "winner": "A",
                    "entries": [
                        {"player": "A", "status": "seen"},
                        {"player": "B", "status": "seen", "dhoos": True},
                    ],
                },
                {
                    "winner": "A",
                    "entries": [
                        {"player": "A", "status": "seen"},
                        {"player": "B", "status": "seen"},
                    ],
                },
            ],
        }
    )
    saved = services.save_document(doc=doc, owner=owner)
    second = Round.objects.get(session=saved, number=2)
    assert nets(second) == {"A": 3 + 15, "B": -3 - 15}
    assert export_session(saved)["totals"] == {"A": 21, "B": -21}
    assert GameSession.objects.count() == 1


# --- each option through the round form, with RULES.md's numbers ---------------------------------

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
    assert nets(enter(logged_in, session, rows, "Didi")) == expected


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
    assert enter(logged_in, session, WORKED, "Didi", win_type="dublee") is not None


def test_the_new_options_are_on_the_rules_form(logged_in, session):
    from .web_helpers import rules_post

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
