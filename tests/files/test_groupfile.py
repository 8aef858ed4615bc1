"""The `marriage-group/1` file and its commands: balances, import_group,
export_group, list_groups. Exact figures; every bad file is refused by the parser
with one line naming the member, payment or evening, and each command that reads
one exits 2 with that line and saves nothing."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from groups.models import Evening, Group, Member, Payment
from scoring.engine.groupfile import GroupFileError, loads
from scoring.models import GameSession
from tests.samples import EXPECTED, family


def write(tmp_path: Path, data: dict | str) -> str:
    path = tmp_path / "group.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_balances_prints_each_members_balance_and_the_fewest_payments(tmp_path):
    assert json.loads(run("balances", write(tmp_path, family()))) == EXPECTED


def test_full_and_over_payments(tmp_path):
    data = family()
    # Aama pays Didi all she owes; Bhai pays Hajurba 20.00, 2.00 more than he owes him.
    data["payments"] += [
        {"from": "Aama", "to": "Didi", "amount": "37.50", "on": "2026-10-04", "method": "cash"},
        {"from": "Bhai", "to": "Hajurba", "amount": 20, "on": "2026-10-04", "method": "khalti"},
    ]
    assert json.loads(run("balances", write(tmp_path, data))) == {
        "balances": {"Aama": "0.00", "Bhai": "-13.00", "Didi": "15.00", "Hajurba": "-2.00"},
        "transfers": [
            {"from": "Bhai", "to": "Didi", "amount": "13.00"},
            {"from": "Hajurba", "to": "Didi", "amount": "2.00"},
        ],
    }


def test_an_evening_keeps_its_own_rules_and_stake():
    doc = loads(json.dumps(family()))
    assert [s.stake_per_point for s in doc.sessions] == [pytest.approx(2.5), 1]
    assert [s.rules.unseen_maal for s in doc.sessions] == ["count", "void"]


@pytest.mark.django_db
def test_import_then_export_gives_the_same_balances(tmp_path, django_user_model):
    owner = django_user_model.objects.create_user("aama", password="x")
    out = run("import_group", write(tmp_path, family()), "--owner", "aama")
    group_id = int(out.strip().splitlines()[-1])
    group = Group.objects.get(pk=group_id)
    assert (group.owner, group.name, group.currency) == (owner, "Pokhara family", "NPR")
    assert list(group.members.values_list("name", flat=True)) == ["Aama", "Bhai", "Didi", "Hajurba"]
    assert Evening.objects.filter(group=group).count() == 2
    assert GameSession.objects.filter(owner=owner).count() == 2
    exported = json.loads(run("export_group", str(group_id)))
    assert {k: exported[k] for k in ("balances", "transfers")} == EXPECTED
    assert exported["payments"] == family()["payments"]
    # The export reads back as the same group.
    assert json.loads(run("balances", write(tmp_path, exported))) == EXPECTED
    assert run("list_groups") == (
        f"{group_id}\tPokhara family\tNPR\t4 members\t2 evenings\t1 payments\n"
    )


def bad(change) -> dict:
    data = copy.deepcopy(family())
    change(data)
    return data


def pay(**fields):
    def change(data):
        data["payments"][0].update(fields)

    return change


BAD = [
    (pay(**{"from": "Kanchha"}), "payment 1, from: Kanchha is not a member of the group"),
    (pay(to="Sanu"), "payment 1, to: Sanu is not a member of the group"),
    (pay(to="Bhai"), "payment 1 (Bhai → Bhai): Bhai cannot pay themselves"),
    (pay(amount="0"), "payment 1 (Bhai → Didi), amount: must be more than 0, got '0'"),
    (pay(amount="-5"), "payment 1 (Bhai → Didi), amount: must be more than 0, got '-5'"),
    (
        pay(amount="lots"),
        "payment 1 (Bhai → Didi), amount: must be an amount such as \"174.00\", got 'lots'",
    ),
    (
        pay(amount="0.001"),
        "payment 1 (Bhai → Didi), amount: must be at least 0.01, got '0.001'",
    ),
    (
        pay(amount="10.505"),
        "payment 1 (Bhai → Didi), amount: at most 2 decimal places, got '10.505'",
    ),
    (
        pay(amount="10000000.01"),
        "payment 1 (Bhai → Didi), amount: must be at most 10,000,000, got '10000000.01'",
    ),
    (
        pay(method="cheque"),
        "payment 1 (Bhai → Didi), method: unknown method 'cheque' "
        "(one of cash, esewa, khalti, bank, other)",
    ),
    (pay(on="2026-02-30"), "payment 1 (Bhai → Didi), on: no such date: '2026-02-30'"),
    (
        pay(on="3 Oct"),
        "payment 1 (Bhai → Didi), on: must be a date such as \"2026-10-03\", got '3 Oct'",
    ),
    (pay(by="Aama"), "payment 1: unknown field 'by'"),
    (
        lambda d: (
            d["sessions"][1]["players"].__setitem__(2, "Kaka")
            or d["sessions"][1]["rounds"][0]["entries"][2].__setitem__("player", "Kaka")
        ),
        "evening 2 (Tihar 2), player Kaka: not a member of the group",
    ),
    (
        lambda d: d["sessions"][0].__setitem__("currency", "INR"),
        "evening 1 (Tihar 1), currency: INR, not the group's currency NPR",
    ),
    (
        lambda d: d["sessions"][0]["rounds"][0]["entries"][0].__setitem__("maal", -3),
        "evening 1 (Tihar 1), round 1, player Aama, maal: must not be negative, got -3",
    ),
    (
        lambda d: d["members"].append("AAMA"),
        "member AAMA: the same member as Aama (names equal ignoring case)",
    ),
    (lambda d: d.__setitem__("colour", "red"), "group file: unknown field 'colour'"),
    (
        lambda d: d.__setitem__("format", "marriage-group/2"),
        "format: must be 'marriage-group/1', got 'marriage-group/2'",
    ),
]


@pytest.mark.parametrize(("change", "message"), BAD, ids=[m for _c, m in BAD])
def test_a_bad_file_is_refused_with_one_line(change, message):
    """The table of bad group files, at the parser the commands and the upload form
    read them with."""
    with pytest.raises(GroupFileError) as error:
        loads(json.dumps(bad(change)))
    assert str(error.value) == message
    assert "\n" not in message


@pytest.mark.django_db
@pytest.mark.parametrize("command", ["balances", "import_group"])
def test_a_bad_file_exits_2_with_the_parsers_line_and_saves_nothing(tmp_path, command):
    """Each command that reads a group file is wired to the parser's refusals."""
    message = "payment 1, to: Sanu is not a member of the group"
    with pytest.raises(CommandError) as error:
        call_command(command, write(tmp_path, bad(pay(to="Sanu"))), stdout=io.StringIO())
    assert (error.value.returncode, str(error.value)) == (2, message)
    assert (Group.objects.count(), GameSession.objects.count(), Payment.objects.count()) == (
        0,
        0,
        0,
    )


@pytest.mark.django_db
def test_a_key_given_twice_is_refused(tmp_path):
    text = json.dumps(family()).replace('"method": "esewa"', '"method": "esewa", "method": "cash"')
    with pytest.raises(CommandError) as error:
        call_command("import_group", write(tmp_path, text), stdout=io.StringIO())
    assert (error.value.returncode, str(error.value)) == (2, "payment 1, method: given twice")
    text = json.dumps(family()).replace('"name": "Pokhara family"', '"name": "A", "name": "B"')
    with pytest.raises(GroupFileError, match=r"^group file, name: given twice$"):
        loads(text)
    assert Member.objects.count() == 0


def test_a_payment_without_a_date_or_method_counts_all_the_same(tmp_path):
    data = family()
    data["payments"][0] = {"from": "Bhai", "to": "Didi", "amount": 20}
    assert json.loads(run("balances", write(tmp_path, data))) == EXPECTED


@pytest.mark.django_db
def test_a_currency_is_bounded_once_upper_cased_as_a_session_files(tmp_path):
    data = family() | {"currency": "ß" * 8}  # upper-cased: SSSSSSSSSSSSSSSS, sixteen letters
    with pytest.raises(CommandError) as error:
        run("import_group", write(tmp_path, data))
    assert error.value.returncode == 2
    assert str(error.value) == (
        "currency: a currency may be at most 8 characters once in capitals, "
        "got SSSSSSSSSSSSSSSS (16)"
    )
    assert not Group.objects.exists()


@pytest.mark.django_db
def test_an_evenings_bikram_sambat_date_is_read_as_a_session_files(tmp_path):
    data = family()
    data["sessions"][0]["played_on"] = "2083-06-15"  # 1 Oct 2026
    run("import_group", write(tmp_path, data))
    assert GameSession.objects.get(name="Tihar 1").played_on.isoformat() == "2026-10-01"
