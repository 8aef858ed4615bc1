"""A Call Break game played at the table for a family group (CALLBREAK.md
§12): chosen on the new-game form, its players members of the group, its
money in the group's balances once the game has ended (not before), the
group's version moved by every deal, and the group's file writing the game
in `other_games` and reading it back as a game the table can edit."""

from __future__ import annotations

import io
import json
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse
from hypothesis import HealthCheck, given, settings

from callbreak import services
from callbreak.engine import game_money
from callbreak.engine.rules import Rules
from callbreak.models import CallBreakGame
from callbreak.selectors import money_by_player
from groups import services as group_services
from groups.groupfile import load_purse
from groups.models import Group
from groups.selectors import group_file, group_purse
from groups.versions import group_version
from tests.callbreak.strategies import any_games
from tests.callbreak.test_web import deal_post, start_post
from tests.groups.samples import C01 as C01_SEATS
from tests.pots.test_views import text

pytestmark = pytest.mark.django_db

SEATS = ["Aama", "Bhai", "Didi", "Hajurba"]
# CALLBREAK.md's C01, seat for seat: Aama −10, Bhai −20, Didi −30, Hajurba +60.
C01 = [(tuple(bid for bid, _t in deal), tuple(tricks for _b, tricks in deal)) for deal in C01_SEATS]
C01_MONEY = {"Aama": "-10.00", "Bhai": "-20.00", "Didi": "-30.00", "Hajurba": "60.00"}


def amounts(money) -> dict[str, str]:
    return {name: str(amount) for name, amount in money.items()}


@pytest.fixture
def family(owner):
    return group_services.create_group(
        owner=owner, name="Pokhara family", currency="NPR", members=["Aama", "Bhai"]
    )


@pytest.fixture
def game(logged_in, family):
    seats = {f"player_{seat}": name for seat, name in enumerate(SEATS)}
    response = logged_in.post(
        reverse("callbreak_new"),
        start_post(name="After dinner", group=str(family.pk), **seats),
    )
    assert response.status_code == 302, text(response)
    return CallBreakGame.objects.get(name="After dinner")


def play(client, game, deals) -> None:
    url = reverse("callbreak_deal_new", args=[game.pk])
    for bids, tricks in deals:
        response = client.post(url, deal_post(bids, tricks), HTTP_ACCEPT="application/json")
        assert response.status_code == 200, response.content


def test_the_new_game_form_offers_the_users_groups_and_no_group_first(
    logged_in, family, django_user_model
):
    other = django_user_model.objects.create_user("sita", password="pw-sita-12345")
    group_services.create_group(owner=other, name="Sita's", currency="NPR", members=["A", "B"])
    page = logged_in.get(reverse("callbreak_new")).content.decode()
    choice = page.split('name="group"')[1].split("</select>")[0]
    assert "No group" in choice and "Pokhara family" in choice and "Sita" not in choice
    assert choice.index("No group") < choice.index("Pokhara family")
    assert '<option value="" selected>' in choice


def test_another_users_group_is_refused_by_name(logged_in, django_user_model):
    other = django_user_model.objects.create_user("sita", password="pw-sita-12345")
    theirs = group_services.create_group(
        owner=other, name="Sita's", currency="NPR", members=["A", "B"]
    )
    response = logged_in.post(reverse("callbreak_new"), start_post(group=str(theirs.pk)))
    assert response.status_code == 422
    assert "For a group: Select a valid choice." in text(response)
    assert not CallBreakGame.objects.exists()


def test_a_game_without_a_group_counts_in_no_purse(logged_in, family):
    response = logged_in.post(reverse("callbreak_new"), start_post())
    assert response.status_code == 302
    assert CallBreakGame.objects.get().group is None


def test_the_players_join_the_group_and_the_page_names_it(logged_in, game, family):
    assert game.group == family
    assert [m.name for m in family.members.all()] == SEATS
    page = text(logged_in.get(reverse("callbreak_game", args=[game.pk])))
    assert (
        "Group: Pokhara family · its money counts in the group's balances once the game "
        "has ended." in page
    )
    assert "Pokhara family" in text(logged_in.get(reverse("callbreak_list")))


def test_the_money_counts_once_the_game_has_ended_and_not_before(logged_in, game, family):
    play(logged_in, game, C01[:4])
    assert money_by_player(game) is None
    purse = group_purse(family)
    assert purse.games == [] and set(amounts(purse.balances).values()) == {"0.00"}
    before = logged_in.get(reverse("group_detail", args=[family.pk]))
    assert "After dinner" not in text(before)
    play(logged_in, game, C01[4:])
    assert amounts(money_by_player(game) or {}) == C01_MONEY
    purse = group_purse(family)
    assert [(line.label, line.game.name, line.game.url) for line in purse.games] == [
        ("Call Break", "After dinner", f"/callbreak/{game.pk}/")
    ]
    assert amounts(purse.balances) == C01_MONEY
    assert [(o.payer.name, o.payee.name, str(o.transfer.amount)) for o in purse.transfers] == [
        ("Aama", "Hajurba", "10.00"),
        ("Bhai", "Hajurba", "20.00"),
        ("Didi", "Hajurba", "30.00"),
    ]
    # The page kept under the group's version before is not the one shown now.
    page = text(logged_in.get(reverse("group_detail", args=[family.pk])))
    assert (
        "After dinner (Call Break): Aama -10.00 · Bhai -20.00 · Didi -30.00 · Hajurba 60.00"
        in page.replace(" :", ":")
    )
    page = text(logged_in.get(reverse("callbreak_game", args=[game.pk])))
    assert "Group: Pokhara family · its money is in the group's balances." in page


def test_every_change_of_a_deal_moves_the_groups_version(logged_in, owner, game, family):
    seen = {group_version(family.pk, owner.pk)}
    play(logged_in, game, C01)
    seen.add(group_version(family.pk, owner.pk))
    group_purse(family)  # the money kept under the game's version
    deal = game.deals.order_by("pk").last()
    # Hajurba now takes 4 of the last deal's hands, Aama 2: the money follows.
    services.edit_deal(deal=deal, user=owner, bids=(2, 1, 5, 2), tricks=(2, 1, 6, 4))
    assert group_version(family.pk, owner.pk) not in seen
    seen.add(group_version(family.pk, owner.pk))
    assert amounts(group_purse(family).balances) == amounts(money_by_player(game) or {})
    services.edit_deal(deal=deal, user=owner, bids=(2, 1, 5, 2), tricks=(3, 1, 6, 3))
    assert group_version(family.pk, owner.pk) not in seen
    assert amounts(group_purse(family).balances) == amounts(money_by_player(game) or {})
    services.delete_deal(deal=deal, user=owner)
    assert group_purse(family).games == []  # four deals: the game goes on again


def test_a_renamed_member_is_renamed_in_the_game(logged_in, game, family):
    play(logged_in, game, C01)
    group_purse(family)
    group_services.rename_member(member=family.members.get(name="Bhai"), name="Bhai Dai")
    game.refresh_from_db()
    assert game.players == ["Aama", "Bhai Dai", "Didi", "Hajurba"]
    assert amounts(group_purse(family).balances) == {
        "Aama": "-10.00",
        "Bhai Dai": "-20.00",
        "Didi": "-30.00",
        "Hajurba": "60.00",
    }


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_the_groups_file_writes_the_finished_game_and_reads_it_back(
    tmp_path: Path, logged_in, owner, game, family
):
    unfinished = services.start_game(
        owner=owner,
        players=SEATS,
        rules=Rules(),
        stake=Decimal("10"),
        name="Still going",
        group=family,
    )
    play(logged_in, unfinished, C01[:2])
    play(logged_in, game, C01)
    exported = json.loads(run("export_group", str(family.pk)))
    (item,) = exported["other_games"]  # the game still being played is not money yet
    assert (item["name"], item["game"]["format"], item["game"]["note"]) == (
        "After dinner",
        "callbreak-game/1",
        "After dinner",
    )
    assert item["game"]["players"] == SEATS and len(item["game"]["deals"]) == 5
    assert exported["balances"] == C01_MONEY
    path = tmp_path / "family.json"
    path.write_text(json.dumps(exported), encoding="utf-8")
    # balances adds the game's money, exactly.
    assert json.loads(run("balances", str(path))) == {
        "balances": C01_MONEY,
        "transfers": [
            {"from": "Aama", "to": "Hajurba", "amount": "10.00"},
            {"from": "Bhai", "to": "Hajurba", "amount": "20.00"},
            {"from": "Didi", "to": "Hajurba", "amount": "30.00"},
        ],
    }
    # import_group reads it back as a game of the new group, the table's own.
    out = run("import_group", str(path), "--owner", owner.username)
    again = Group.objects.get(pk=int(out.split()[-1]))
    copy = CallBreakGame.objects.get(group=again)
    assert (copy.name, copy.players, copy.played_on, copy.deals.count()) == (
        "After dinner",
        SEATS,
        game.played_on,
        5,
    )
    assert amounts(group_purse(again).balances) == C01_MONEY
    page = text(logged_in.get(reverse("callbreak_game", args=[copy.pk])))
    assert "Group: Pokhara family" in page
    # And written again, it is the same file.
    assert json.loads(run("export_group", str(again.pk)))["other_games"] == [item]
    assert load_purse(json.dumps(exported)).other_games[0].kind == "callbreak"


def test_a_game_for_the_evening_before_keeps_its_date_in_either_calendar(logged_in, family):
    response = logged_in.post(
        reverse("callbreak_new"),
        start_post(name="After midnight", group=str(family.pk), played_on="2083-06-16"),
    )
    assert response.status_code == 302
    game = CallBreakGame.objects.get(name="After midnight")
    assert str(game.played_on) == "2026-10-02"  # 16 Asoj 2083 BS


def test_a_date_that_does_not_exist_is_refused_by_name(logged_in, family):
    response = logged_in.post(reverse("callbreak_new"), start_post(played_on="2026-02-30"))
    assert response.status_code == 422
    assert "Played on: Enter a valid date. The Gregorian calendar has no 2026-02-30." in text(
        response
    )
    assert not CallBreakGame.objects.exists()


def test_a_game_file_imported_on_the_web_can_be_for_a_group(logged_in, family):
    from tests.groups.samples import callbreak_game

    page = logged_in.get(reverse("callbreak_import")).content.decode()
    assert "Pokhara family" in page.split('name="group"')[1].split("</select>")[0]
    upload = io.BytesIO(json.dumps(callbreak_game()).encode())
    upload.name = "game.json"
    response = logged_in.post(
        reverse("callbreak_import"),
        {"file": upload, "played_on": "2026-10-02", "group": str(family.pk)},
    )
    assert response.status_code == 302
    game = CallBreakGame.objects.get(group=family)
    assert str(game.played_on) == "2026-10-02"
    assert amounts(group_purse(family).balances) == C01_MONEY


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(document=any_games(players=SEATS))
def test_any_game_of_a_group_adds_its_exact_money_and_reads_back_from_the_file(owner, document):
    """Under any house options: the group's balances are the game's money
    exactly (summing to zero), and its file carries the game so that
    `balances` and a new group read from it agree."""
    group = group_services.create_group(
        owner=owner, name=f"Family {Group.objects.count()}", currency="NPR", members=SEATS
    )
    services.save_filed(
        group=group, name="Any game", played_on=date(2026, 10, 2), document=document, owner=owner
    )
    expected = game_money(document)
    balances = group_purse(group).balances
    assert balances == {name: expected.get(name, Decimal("0.00")) for name in SEATS}
    assert sum(balances.values()) == 0
    text_of = "".join(group_file(group))
    read = load_purse(text_of)
    (other,) = read.other_games
    assert other.money == expected
    again = group_services.import_group(doc=read.group, other_games=read.other_games, owner=owner)
    assert group_purse(again).balances == balances


def test_a_member_in_a_game_still_being_played_stays_a_member(logged_in, game, family):
    from groups.selectors import removal_problem

    play(logged_in, game, C01[:2])
    assert removal_problem(family.members.get(name="Didi")) == (
        "Didi played 1 other game of this group (Call Break, pot hands); their balance "
        "depends on it, so they stay a member"
    )
