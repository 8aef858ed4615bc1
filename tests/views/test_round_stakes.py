"""The stake changed on the round form, "from this round on" (issue 30, point 3):
folded away on a plain round, validated as the session's stake with messages
naming the field, editable on a past round (the history keeps it, a restore
brings it back), and followed by the standings, settle-up, CSV, the phone's
data and the group's balances."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.urls import reverse

from scoring.models import Round, RoundChange
from scoring.selectors.reports import build_ledger
from tests.web_helpers import WORKED, round_data

pytestmark = pytest.mark.django_db

# RULES.md's worked round: Aama +3, Buwa −16, Didi +30, Dai −17 (pagat, 2.50 a point).


def save(client, session, stake: str | None = None, **extra):
    data = round_data(session, WORKED, "Didi")
    if stake is not None:
        data["stake_per_point"] = stake
    return client.post(reverse("round_new", args=[session.pk]), data | extra)


def page(client, session) -> str:
    return client.get(reverse("session_detail", args=[session.pk])).content.decode()


def test_the_stake_is_folded_away_and_shows_the_stake_in_force(logged_in, session):
    html = logged_in.get(reverse("round_new", args=[session.pk])).content.decode()
    fold = re.search(r'<details class="stake-change" id="stake-change"( open)?>', html)
    assert fold and fold[1] is None  # closed: a plain round takes no more taps
    assert 'Stake: NPR <span id="stake-now">2.50</span> a point' in html
    assert 'name="stake_per_point" value=""' in html


def test_a_new_stake_holds_from_its_round_on(logged_in, session):
    assert save(logged_in, session).status_code == 302
    assert save(logged_in, session, stake="5").status_code == 302
    assert save(logged_in, session).status_code == 302
    assert list(
        Round.objects.filter(session=session).order_by("number").values_list("stake_per_point")
    ) == [(None,), (Decimal("5.00"),), (None,)]
    ledger = build_ledger(session)
    # Round 1 at 2.50, rounds 2 and 3 at 5.00: Aama 3 × 2.50 + 6 × 5 = 37.50 …
    assert {s.player.name: (s.points, s.money) for s in ledger.standings} == {
        "Didi": (90, Decimal("375.00")),
        "Aama": (9, Decimal("37.50")),
        "Buwa": (-48, Decimal("-200.00")),
        "Dai": (-51, Decimal("-212.50")),
    }
    # The fewest payments over money, in money only.
    assert [(p.payer, p.payee, p.points, p.money) for p in ledger.payments] == [
        ("Buwa", "Didi", None, Decimal("162.50")),
        ("Buwa", "Aama", None, Decimal("37.50")),
        ("Dai", "Didi", None, Decimal("212.50")),
    ]
    settle = logged_in.get(reverse("settle_up", args=[session.pk])).content.decode()
    assert "Buwa pays Didi NPR 162.50" in settle
    assert "3 payments clear every balance, the fewest" in settle
    html = page(logged_in, session)
    assert "Stake: NPR 2.50 a point;" in html and "from round 2, NPR 5.00" in html
    # The next round's form shows the stake now in force.
    form = logged_in.get(reverse("round_new", args=[session.pk])).content.decode()
    assert 'Stake: NPR <span id="stake-now">5.00</span> a point' in form


def test_the_stake_already_in_force_is_no_change(logged_in, session):
    assert save(logged_in, session, stake="2.50").status_code == 302
    assert Round.objects.get(session=session).stake_per_point is None


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("0", "Stake from this round on: Ensure this value is greater than or equal to 0.01."),
        ("-1", "Stake from this round on: Ensure this value is greater than or equal to 0.01."),
        ("2.505", "Stake from this round on: Ensure that there are no more than 2 decimal places."),
        (
            "12345678901",
            "Stake from this round on: "
            "Ensure that there are no more than 10 digits before the decimal point.",
        ),
        ("two", "Stake from this round on: Enter a number."),
        ("2,50", "Stake from this round on: Enter a number."),
        ("५", "Stake from this round on: Enter a number."),
    ],
)
def test_a_bad_stake_is_refused_beside_its_field_and_nothing_is_saved(
    logged_in, session, typed, message
):
    response = save(logged_in, session, stake=typed)
    assert response.status_code == 422
    html = response.content.decode()
    assert f'<li><a href="#stake_per_point">{message}</a></li>' in html
    assert f'<ul class="errorlist" id="err-stake_per_point"><li>{message}</li>' in html
    assert '<details class="stake-change" id="stake-change" open>' in html
    assert not Round.objects.filter(session=session).exists()
    # The phone's save hears the same line.
    answer = logged_in.post(
        reverse("round_new", args=[session.pk]),
        round_data(session, WORKED, "Didi") | {"stake_per_point": typed},
        HTTP_ACCEPT="application/json",
    )
    assert answer.status_code == 422
    assert message in answer.json()["messages"]


def test_editing_a_past_round_changes_its_stake_with_history_and_restore(logged_in, session):
    save(logged_in, session)
    save(logged_in, session)
    second = Round.objects.get(session=session, number=2)
    url = reverse("round_edit", args=[session.pk, second.pk])
    form = logged_in.get(url).content.decode()
    assert 'Stake: NPR <span id="stake-now">2.50</span> a point' in form
    data = round_data(session, WORKED, "Didi") | {
        "version": second.version,
        "stake_per_point": "10",
    }
    assert logged_in.post(url, data).status_code == 302
    second.refresh_from_db()
    assert second.stake_per_point == Decimal("10.00")
    change = RoundChange.objects.filter(round_pk=second.pk, action="edit").get()
    assert "stake_per_point" not in change.before
    assert change.after["stake_per_point"] == "10.00"
    history = logged_in.get(reverse("session_changes", args=[session.pk])).content.decode()
    assert "stake 10.00 a point from here" in history
    # Aama: 3 × 2.50 + 3 × 10.
    assert {s.player.name: s.money for s in build_ledger(session).standings}["Aama"] == Decimal(
        "37.50"
    )
    # The edit form opens on the round's own stake, unfolded.
    form = logged_in.get(url).content.decode()
    assert '<details class="stake-change" id="stake-change" open>' in form
    assert 'name="stake_per_point" value="10.00"' in form
    # Deleted and restored, it keeps its stake.
    logged_in.post(reverse("round_delete", args=[session.pk, second.pk]))
    assert {s.player.name: s.money for s in build_ledger(session).standings}["Aama"] == Decimal(
        "7.50"
    )
    deleted = RoundChange.objects.get(round_pk=second.pk, action="delete")
    logged_in.post(reverse("round_restore", args=[session.pk, deleted.pk]))
    assert Round.objects.get(pk=second.pk).stake_per_point == Decimal("10.00")
    assert {s.player.name: s.money for s in build_ledger(session).standings}["Aama"] == Decimal(
        "37.50"
    )
    # Emptied, the round keeps the stake before it again.
    second.refresh_from_db()
    data = round_data(session, WORKED, "Didi") | {"version": second.version, "stake_per_point": ""}
    assert logged_in.post(url, data).status_code == 302
    assert Round.objects.get(pk=second.pk).stake_per_point is None


def test_the_csv_and_the_phones_data_follow_the_stake(logged_in, session):
    save(logged_in, session)
    save(logged_in, session, stake="5")
    csv = logged_in.get(reverse("ledger_csv", args=[session.pk])).content.decode()
    lines = csv.lstrip("\ufeff").splitlines()
    assert lines[0] == (
        "Round,Winner,Win type,Better,Stake,Aama,Buwa,Didi,Dai,"
        "Aama total,Buwa total,Didi total,Dai total"
    )
    assert lines[1] == "1,Didi,normal,no,2.50,3,-16,30,-17,3,-16,30,-17"
    assert lines[2] == "2,Didi,normal,no,5.00,3,-16,30,-17,6,-32,60,-34"
    assert lines[3] == "Money,,,,,,,,,22.50,-120.00,225.00,-127.50"
    answer = logged_in.post(
        reverse("round_new", args=[session.pk]),
        round_data(session, WORKED, "Didi") | {"save_key": "stake-key-0001"},
        HTTP_ACCEPT="application/json",
    ).json()
    assert answer["chain"]["standings"] == {
        "stake": "5.00",
        "points": {"Aama": 9, "Buwa": -48, "Didi": 90, "Dai": -51},
        "money": {"Aama": "37.50", "Buwa": "-200.00", "Didi": "375.00", "Dai": "-212.50"},
        "changed": True,
    }


def test_the_session_edit_page_says_its_stake_holds_until_the_first_change(logged_in, session):
    url = reverse("session_edit", args=[session.pk])
    assert "The stake changed" not in logged_in.get(url).content.decode()
    save(logged_in, session)
    save(logged_in, session, stake="5")
    html = " ".join(logged_in.get(url).content.decode().split())
    assert "The stake changed from round 2 on: this stake is for the rounds before it only." in html
