"""A group file's `other_games` (CALLBREAK.md §12): a Call Break game and a pot
session counted in the family purse beside the Marriage evenings and the
payments, by `balances`, `import_group` and `export_group`; a bad game refused
with one line naming it by position and name, nothing saved."""

from __future__ import annotations

import copy
import io
import json
from datetime import date
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from callbreak.models import CallBreakGame
from callbreak.selectors import money_by_player
from groups.groupfile import load_purse
from groups.models import FiledGame, Group
from groups.selectors import group_purse
from pots.models import PotHand, PotSession
from scoring.engine.groupfile import GroupFileError
from tests.groups.samples import MIXED_BALANCES, mixed_family

MIXED = {
    "balances": MIXED_BALANCES,
    "transfers": [
        {"from": "Aama", "to": "Hajurba", "amount": "60.50"},
        {"from": "Bhai", "to": "Hajurba", "amount": "17.50"},
        {"from": "Bhai", "to": "Didi", "amount": "14.50"},
    ],
}


def write(tmp_path: Path, data: dict | str) -> str:
    path = tmp_path / "group.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_balances_adds_a_call_break_game_and_a_pot_session_to_the_evenings(tmp_path):
    assert json.loads(run("balances", write(tmp_path, mixed_family()))) == MIXED


@pytest.mark.django_db
def test_import_keeps_the_pot_session_and_the_call_break_game_as_the_tables_own(
    tmp_path, django_user_model
):
    django_user_model.objects.create_user("aama", password="x")
    out = run("import_group", write(tmp_path, mixed_family()), "--owner", "aama")
    assert "2 other games" in out
    group = Group.objects.get(pk=int(out.split()[-1]))
    pots = PotSession.objects.get(group=group)
    assert (pots.name, str(pots.played_on), PotHand.objects.filter(session=pots).count()) == (
        "Flash at midnight",
        "2026-10-02",
        3,
    )
    # Call Break too is kept as a game of the group, which the table can open.
    game = CallBreakGame.objects.get(group=group)
    assert (game.name, str(game.played_on), game.owner.username, game.deals.count()) == (
        "Call Break after dinner",
        "2026-10-02",
        "aama",
        5,
    )
    assert {k: str(v) for k, v in (money_by_player(game) or {}).items()} == {
        "Aama": "-10.00",
        "Bhai": "-20.00",
        "Didi": "-30.00",
        "Hajurba": "60.00",
    }
    assert not FiledGame.objects.filter(group=group).exists()
    purse = group_purse(group)
    assert {k: str(v) for k, v in purse.balances.items()} == MIXED_BALANCES
    assert [(line.label, line.game.name) for line in purse.games] == [
        ("Pot hands", "Flash at midnight"),
        ("Call Break", "Call Break after dinner"),
    ]
    assert {k: str(v) for k, v in purse.games[0].money.items()} == {
        "Aama": "-13.00",
        "Bhai": "21.00",
        "Didi": "-8.00",
    }
    exported = json.loads(run("export_group", str(group.pk)))
    assert {k: exported[k] for k in ("balances", "transfers")} == MIXED
    assert [g["game"]["format"] for g in exported["other_games"]] == [
        "callbreak-game/1",
        "pot-session/1",
    ]
    # The export imports again to the same purse.
    again = json.loads(run("balances", write(tmp_path, json.dumps(exported))))
    assert again == MIXED


@pytest.mark.django_db
def test_import_without_an_owner_keeps_every_game_as_its_document(tmp_path):
    out = run("import_group", write(tmp_path, mixed_family()))
    group = Group.objects.get(pk=int(out.split()[-1]))
    assert sorted(FiledGame.objects.filter(group=group).values_list("kind", flat=True)) == [
        "callbreak",
        "pots",
    ]
    assert {k: str(v) for k, v in group_purse(group).balances.items()} == MIXED_BALANCES


def a_file_with(change) -> dict:
    data = copy.deepcopy(mixed_family())
    change(data)
    return data


def tricks_12(data):
    data["other_games"][0]["game"]["deals"][2]["tricks"]["Bhai"] = 8


def broken_carry(data):
    hand = data["other_games"][1]["game"]["hands"][2]
    hand["carry_in"], hand["took"] = "4.00", {"Didi": "5.00"}


def stranger(data):
    data["other_games"][1]["game"]["players"][2] = "Kaka"
    for hand in data["other_games"][1]["game"]["hands"]:
        for key in ("put_in", "took"):
            if "Didi" in hand.get(key, {}):
                hand[key]["Kaka"] = hand[key].pop("Didi")


def unknown_format(data):
    data["other_games"][0]["game"]["format"] = "flash/1"


def extra_key(data):
    data["other_games"][1]["stake"] = "5"


def no_date(data):
    del data["other_games"][0]["played_on"]


def bad_date(data):
    data["other_games"][0]["played_on"] = "2026-02-30"


def not_a_list(data):
    data["other_games"] = {"name": "x"}


@pytest.mark.parametrize(
    "change, line",
    [
        (
            tricks_12,
            "other game 1 (Call Break after dinner): E_TRICKS_SUM: deal 3: tricks total 12, not 13",
        ),
        (
            broken_carry,
            "other game 2 (Flash at midnight): P_CARRY: hand 3, carry_in: "
            "4.00 is not what hand 2 carried out (5.00)",
        ),
        (stranger, "other game 2 (Flash at midnight): player Kaka: not a member of the group"),
        (
            unknown_format,
            "other game 1 (Call Break after dinner): game: format must be one of "
            "'callbreak-game/1', 'pot-session/1', got 'flash/1'",
        ),
        (
            extra_key,
            "other game 2 (Flash at midnight): unknown key 'stake' (one of name, played_on, game)",
        ),
        (no_date, "other game 1 (Call Break after dinner): played_on: missing"),
        (
            bad_date,
            "other game 1 (Call Break after dinner): played_on: must be a date such as "
            "\"2026-10-02\", got '2026-02-30'",
        ),
        (not_a_list, "other_games: must be a list, got an object"),
    ],
)
def test_a_bad_game_is_refused_with_one_line_naming_it(change, line):
    with pytest.raises(GroupFileError) as refused:
        load_purse(json.dumps(a_file_with(change)))
    assert str(refused.value) == line


@pytest.mark.django_db
@pytest.mark.parametrize("command", ["balances", "import_group"])
def test_a_bad_game_exits_2_and_saves_nothing(tmp_path, command):
    with pytest.raises(CommandError) as refused:
        call_command(command, write(tmp_path, a_file_with(tricks_12)), stdout=io.StringIO())
    assert refused.value.returncode == 2
    assert str(refused.value).startswith("other game 1 (Call Break after dinner): E_TRICKS_SUM")
    assert not Group.objects.exists() and not PotSession.objects.exists()


@pytest.mark.django_db
def test_the_group_page_shows_each_games_money_and_the_evenings_total(logged_in, owner):
    from django.urls import reverse

    from groups.services import import_group
    from tests.pots.test_views import text

    file = load_purse(json.dumps(mixed_family()))
    group = import_group(doc=file.group, other_games=file.other_games, owner=owner)
    page = text(logged_in.get(reverse("group_detail", args=[group.pk])))
    evening = page.split("2 Oct 2026")[1].split("1 Oct 2026")[0]
    assert " ".join(evening.split()).replace(" :", ":") == (
        "Tihar 2 (Marriage): Aama -25.00 · Bhai 7.00 · Hajurba 18.00 "
        "Call Break after dinner (Call Break): Aama -10.00 · Bhai -20.00 · Didi -30.00 · "
        "Hajurba 60.00 "
        "Flash at midnight (Pot hands): Aama -13.00 · Bhai 21.00 · Didi -8.00 "
        "Evening's total: Aama -48.00 · Bhai 8.00 · Didi -38.00 · Hajurba 78.00"
    )
    assert "Aama -60.50" in page and "Hajurba 78.00" in page


@pytest.mark.django_db
def test_the_seasons_records_count_the_other_games_money(owner):
    from groups.selectors import group_records
    from groups.services import import_group

    file = load_purse(json.dumps(mixed_family()))
    group = import_group(doc=file.group, other_games=file.other_games, owner=owner)
    (season,) = group_records(group)
    rows = {r.name: (r.evenings, r.games, str(r.won), str(r.lost)) for r in season.members}
    # Marriage: Tihar 1 Aama -12.50, Bhai -60.00, Didi +72.50; Tihar 2 Aama -25.00,
    # Bhai +7.00, Hajurba +18.00; then Call Break and the pot session.
    assert rows == {
        "Aama": (2, 2, "0.00", "-60.50"),
        "Bhai": (2, 2, "28.00", "-80.00"),
        "Didi": (1, 2, "72.50", "-38.00"),
        "Hajurba": (1, 1, "78.00", "0.00"),
    }


@pytest.mark.django_db
def test_an_evenings_settle_up_shows_each_game_and_the_evenings_total(logged_in, owner):
    from django.urls import reverse

    from groups.models import Evening
    from groups.services import import_group
    from tests.pots.test_views import text

    file = load_purse(json.dumps(mixed_family()))
    group = import_group(doc=file.group, other_games=file.other_games, owner=owner)
    tihar_2 = Evening.objects.get(group=group, session__name="Tihar 2").session
    page = text(logged_in.get(reverse("settle_up", args=[tihar_2.pk])))
    part = " ".join(page.split("Every game of this evening")[1].split()).replace(" :", ":")
    assert part.startswith(
        "Tihar 2 (Marriage): Aama -25.00 · Bhai 7.00 · Hajurba 18.00 "
        "Call Break after dinner (Call Break): Aama -10.00 · Bhai -20.00 · Didi -30.00 · "
        "Hajurba 60.00 "
        "Flash at midnight (Pot hands): Aama -13.00 · Bhai 21.00 · Didi -8.00 "
        "Evening's total: Aama -48.00 · Bhai 8.00 · Didi -38.00 · Hajurba 78.00"
    )


@pytest.mark.django_db
def test_the_web_import_takes_other_games_and_refuses_a_bad_one_naming_it(logged_in, owner):
    from django.urls import reverse

    from tests.pots.test_views import text

    def upload(data):
        file = io.BytesIO(json.dumps(data).encode())
        file.name = "group.json"
        return logged_in.post(reverse("group_import"), {"file": file})

    refused = upload(a_file_with(stranger))
    assert refused.status_code == 422
    assert "other game 2 (Flash at midnight): player Kaka: not a member of the group" in text(
        refused
    )
    assert not Group.objects.exists() and not PotSession.objects.exists()
    assert upload(mixed_family()).status_code == 302
    group = Group.objects.get()
    assert {k: str(v) for k, v in group_purse(group).balances.items()} == MIXED_BALANCES
    exported = json.loads(
        b"".join(logged_in.get(reverse("group_export", args=[group.pk])).streaming_content)
    )
    assert {k: exported[k] for k in ("balances", "transfers")} == MIXED
    assert len(exported["other_games"]) == 2


@pytest.mark.django_db
def test_a_refusal_reads_in_nepali_on_the_web(logged_in):
    from django.urls import reverse

    from tests.pots.test_views import text

    logged_in.cookies["django_language"] = "ne"
    file = io.BytesIO(json.dumps(a_file_with(stranger)).encode())
    file.name = "group.json"
    page = text(logged_in.post(reverse("group_import"), {"file": file}))
    assert "अर्को खेल 2 (Flash at midnight): खेलाडी Kaka: समूहको सदस्य होइन" in page


@pytest.mark.django_db
def test_a_renamed_member_keeps_their_other_games_money(tmp_path, django_user_model):
    from groups.services import rename_member
    from pots.models import PotPlayer

    django_user_model.objects.create_user("aama", password="x")
    out = run("import_group", write(tmp_path, mixed_family()), "--owner", "aama")
    group = Group.objects.get(pk=int(out.split()[-1]))
    group_purse(group)  # its money kept under the games' versions
    rename_member(member=group.members.get(name="Bhai"), name="Bhai Dai")
    balances = {k: str(v) for k, v in group_purse(group).balances.items()}
    assert balances == {
        "Aama": "-60.50",
        "Bhai Dai": "-32.00",
        "Didi": "14.50",
        "Hajurba": "78.00",
    }
    assert PotPlayer.objects.filter(session__group=group, name="Bhai Dai").count() == 1
    assert CallBreakGame.objects.get(group=group).players == ["Aama", "Bhai Dai", "Didi", "Hajurba"]
    # The file written now reads back to the same purse.
    exported = run("export_group", str(group.pk))
    assert json.loads(run("balances", write(tmp_path, exported)))["balances"] == balances


@pytest.mark.django_db
def test_a_member_who_played_only_other_games_stays_a_member(owner):
    from groups.selectors import removal_problem
    from groups.services import create_group
    from pots import services as pot_services

    group = create_group(owner=owner, name="Flash night", currency="NPR", members=["Aama", "Kaka"])
    assert removal_problem(group.members.get(name="Kaka")) is None
    pots = pot_services.create_session(
        owner=owner,
        name="Flash",
        players=["Aama", "Kaka"],
        played_on=date(2026, 10, 2),
        group=group,
    )
    pot_services.record_hand(session=pots, put_in=[1000, 1000], winners=[1])
    assert removal_problem(group.members.get(name="Kaka")) == (
        "Kaka played 1 other game of this group (Call Break, pot hands); their balance "
        "depends on it, so they stay a member"
    )


@pytest.mark.django_db
def test_the_picture_card_counts_the_other_games(owner):
    from groups.cards import group_picture
    from groups.services import import_group

    file = load_purse(json.dumps(mixed_family()))
    group = import_group(doc=file.group, other_games=file.other_games, owner=owner)
    picture = group_picture(group)
    assert picture.subtitle.endswith("2 evenings")
    shown = repr(picture.sections[0])
    for name, amount in (("Aama", "-60.50"), ("Bhai", "-32.00"), ("Didi", "+14.50")):
        assert name in shown and amount in shown
    assert "Hajurba" in shown and "+78.00" in shown
