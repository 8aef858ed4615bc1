"""Pot hands at the table, on the web: a session with its players, hands
recorded in a few fields (the boot for all, a split, a pot carried on), the
running money exact, edit and delete through the history with restore, files
in and out with clear refusals, and the money in the group's purse."""

from __future__ import annotations

import io
import json
import re
from html import unescape

import pytest
from django.urls import reverse

from groups import services as group_services
from groups.selectors import group_purse
from pots.models import PotHand, PotHandChange, PotSession
from tests.groups.samples import pot_session

pytestmark = pytest.mark.django_db


def text(response) -> str:
    html = response.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return unescape(" ".join(re.sub(r"<[^>]+>", " ", html).split()))


@pytest.fixture
def family(owner):
    return group_services.create_group(
        owner=owner, name="Pokhara family", currency="NPR", members=["Aama", "Bhai"]
    )


@pytest.fixture
def table(logged_in, owner, family):
    response = logged_in.post(
        reverse("pot_list"),
        {
            "name": "Flash at midnight",
            "played_on": "2026-10-03",
            "players": "Aama\nBhai\nDidi",
            "group": str(family.pk),
        },
    )
    assert response.status_code == 302
    return PotSession.objects.get(name="Flash at midnight")


def hand(client, session, **fields):
    data = {"game": "teen_patti", "outcome": "winners", **fields}
    return client.post(reverse("pot_hand_add", args=[session.pk]), data)


def money(client, session) -> str:
    page = text(client.get(reverse("pot_detail", args=[session.pk])))
    return page.split("Money so far")[1].split("Record a hand")[0]


def test_a_boot_for_all_with_one_raised_and_one_winner(logged_in, table):
    response = hand(logged_in, table, boot="10", put_1="30", win_1="on")
    assert response.status_code == 302
    assert "Aama -10.00 Bhai +20.00 Didi -10.00" in money(logged_in, table)
    assert "Aama pays Bhai NPR 10.00" in money(logged_in, table)


def test_a_split_pot_gives_the_odd_paisa_to_the_earlier_seat(logged_in, table):
    hand(logged_in, table, boot="0.01", put_0="0.01", win_0="on", win_2="on")
    # Pot 0.03 split by Aama and Didi: Aama 0.02, Didi 0.01.
    assert "Aama +0.01 Bhai -0.01 Didi 0.00" in money(logged_in, table)


def test_a_carried_pot_is_no_ones_money_until_a_hand_takes_it(logged_in, table, family):
    hand(logged_in, table, boot="5", outcome="carry")
    page = money(logged_in, table)
    assert "Aama -5.00 Bhai -5.00 Didi -5.00" in page
    assert "NPR 15.00 is in the pot, carried on to the next hand." in page
    # The purse counts no hand whose pot is still carried on.
    assert all(not amount for amount in group_purse(family).balances.values())
    detail = text(logged_in.get(reverse("pot_detail", args=[table.pk])))
    assert "Carried in: NPR 15.00" in detail
    hand(logged_in, table, boot="1", win_2="on")
    assert "Aama -6.00 Bhai -6.00 Didi +12.00" in money(logged_in, table)
    balances = {k: str(v) for k, v in group_purse(family).balances.items()}
    assert balances == {"Aama": "-6.00", "Bhai": "-6.00", "Didi": "12.00"}


def test_took_part_carries_the_rest_on(logged_in, table):
    hand(logged_in, table, boot="3", outcome="took", took_1="4")
    assert "NPR 5.00 is in the pot" in money(logged_in, table)
    assert PotHand.objects.get().carry_out == 500


@pytest.mark.parametrize(
    "fields, error",
    [
        ({"boot": "10.005", "win_0": "on"}, "at most 2 decimal places"),
        ({"boot": "-5", "win_0": "on"}, "must not be negative"),
        ({"boot": "10"}, "Tick who took the pot."),
        ({"boot": "0", "win_0": "on"}, "Nobody put anything in: the pot is empty."),
        ({"boot": "10", "put_2": "0", "win_2": "on"}, "Didi took the pot but put nothing in."),
        (
            {"boot": "1", "outcome": "took", "took_0": "5"},
            "Taken out 5.00, more than the pot 3.00.",
        ),
    ],
)
def test_a_bad_hand_is_refused_where_it_is_and_nothing_is_saved(logged_in, table, fields, error):
    response = hand(logged_in, table, **fields)
    assert response.status_code == 422
    assert error in text(response)
    assert not PotHand.objects.exists()


def test_the_same_save_key_saves_a_hand_once(logged_in, table):
    key = "3f0c8a56-6d1c-4a53-9a3a-1f3f0a0e5e11"
    for _ in range(3):
        assert hand(logged_in, table, boot="10", win_0="on", save_key=key).status_code == 302
    assert PotHand.objects.count() == 1


def test_edit_then_delete_then_restore_through_the_history(logged_in, table):
    hand(logged_in, table, boot="10", win_0="on")
    saved = PotHand.objects.get()
    edit = reverse("pot_hand_edit", args=[table.pk, saved.pk])
    assert "Hand 1" in text(logged_in.get(edit))
    response = logged_in.post(
        edit,
        {"game": "teen_patti", "outcome": "winners", "boot": "20", "win_1": "on", "version": 1},
    )
    assert response.status_code == 302
    assert "Aama -20.00 Bhai +40.00 Didi -20.00" in money(logged_in, table)
    # A stale edit (the version before) is refused.
    stale = logged_in.post(
        edit, {"game": "teen_patti", "outcome": "winners", "boot": "5", "win_1": "on", "version": 1}
    )
    assert "This hand was changed meanwhile" in text(stale)
    logged_in.post(reverse("pot_hand_delete", args=[table.pk, saved.pk]))
    assert not PotHand.objects.exists()
    assert "Aama 0.00 Bhai 0.00 Didi 0.00" in money(logged_in, table)
    history = text(logged_in.get(reverse("pot_history", args=[table.pk])))
    assert history.index("Deleted") < history.index("Edited") < history.index("Created")
    change = PotHandChange.objects.get(action="delete")
    logged_in.post(reverse("pot_restore", args=[table.pk, change.pk]))
    assert PotHand.objects.get().pk == saved.pk
    assert "Aama -20.00 Bhai +40.00 Didi -20.00" in money(logged_in, table)


def test_a_delete_that_would_break_the_carry_chain_is_refused(logged_in, table):
    hand(logged_in, table, boot="5", outcome="carry")
    hand(logged_in, table, boot="1", outcome="took", took_2="18")
    first = PotHand.objects.order_by("id").first()
    response = logged_in.post(reverse("pot_hand_delete", args=[table.pk, first.pk]), follow=True)
    assert "hand 1: took 18.00 and carry_out 0.00 make 18.00, not the pot of 3.00" in text(response)
    assert PotHand.objects.count() == 2


def test_export_then_import_gives_the_same_money(logged_in, table, family):
    hand(logged_in, table, boot="10", put_1="30", win_1="on")
    exported = logged_in.get(reverse("pot_export", args=[table.pk]))
    document = json.loads(exported.content)
    assert document == {
        "format": "pot-session/1",
        "players": ["Aama", "Bhai", "Didi"],
        "hands": [
            {
                "game": "teen_patti",
                "put_in": {"Aama": "10.00", "Bhai": "30.00", "Didi": "10.00"},
                "winners": ["Bhai"],
            }
        ],
    }
    upload = io.BytesIO(json.dumps(pot_session()).encode())
    upload.name = "pots.json"
    response = logged_in.post(
        reverse("pot_import"),
        {"file": upload, "name": "Imported", "played_on": "2026-10-04", "group": family.pk},
    )
    assert response.status_code == 302
    imported = PotSession.objects.get(name="Imported")
    assert "Aama -13.00 Bhai +21.00 Didi -8.00" in money(logged_in, imported)
    # For the group: its money in the balances, beside the session played here.
    balances = {k: str(v) for k, v in group_purse(family).balances.items()}
    assert balances == {"Aama": "-23.00", "Bhai": "41.00", "Didi": "-18.00"}


def test_a_refused_file_names_its_code_and_place_and_saves_nothing(logged_in):
    bad = pot_session()
    bad["hands"][0]["winners"] = ["Kaka"]
    upload = io.BytesIO(json.dumps(bad).encode())
    upload.name = "pots.json"
    response = logged_in.post(
        reverse("pot_import"), {"file": upload, "name": "Bad", "played_on": "2026-10-04"}
    )
    assert response.status_code == 422
    assert 'P_UNKNOWN_PLAYER: hand 1, winners: "Kaka" is not one of the players' in text(response)
    assert not PotSession.objects.exists()


def test_another_users_session_is_a_404(client, django_user_model, table):
    django_user_model.objects.create_user("other", password="pw-other-123")
    client.login(username="other", password="pw-other-123")
    assert client.get(reverse("pot_detail", args=[table.pk])).status_code == 404


def test_the_group_page_shows_the_pot_sessions_money(logged_in, table, family):
    hand(logged_in, table, boot="10", put_1="30", win_1="on")
    page = text(logged_in.get(reverse("group_detail", args=[family.pk])))
    assert "Flash at midnight" in page
    assert {k: str(v) for k, v in group_purse(family).balances.items()} == {
        "Aama": "-10.00",
        "Bhai": "20.00",
        "Didi": "-10.00",
    }


def test_every_change_is_pushed_to_the_phones_following_the_session(
    logged_in, table, monkeypatch, django_capture_on_commit_callbacks
):
    from pots import services
    from pots.live import LIVE_OFFSET

    told = []
    monkeypatch.setattr("scoring.web.push.publish", told.append)
    with django_capture_on_commit_callbacks(execute=True):
        hand(logged_in, table, boot="10", win_0="on")
    saved = PotHand.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        services.delete_hand(hand=saved)
    assert told == [LIVE_OFFSET + table.pk] * 2


def test_the_stream_is_let_in_as_the_page_is(logged_in, client, django_user_model, table):
    # The tests' server holds no stream: checked as the page is, then "poll" (204).
    assert logged_in.get(reverse("pot_stream", args=[table.pk])).status_code == 204
    django_user_model.objects.create_user("other", password="pw-other-123")
    logged_in.logout()
    logged_in.login(username="other", password="pw-other-123")
    assert logged_in.get(reverse("pot_stream", args=[table.pk])).status_code == 404
