"""A stake that changes mid-evening in the session file (issue 30, point 3):
a round's `stake_per_point` is the stake from that round on, validated as the
session's (more than 0, two places, bounded) with a line naming the round and
the field, kept through import and export, and honoured by `settle`,
`import_session`, `export_session` and `balances`."""

from __future__ import annotations

import copy
import json
from decimal import Decimal

import pytest
from django.core.management.base import CommandError

from scoring.engine.sessionfile import SessionFileError, dumps, export_document, loads
from scoring.models import GameSession, Round
from tests.files.test_commands import database, run, write
from tests.samples import TIHAR_MONEY, TIHAR_TRANSFERS, tihar_night


def test_settle_follows_the_stake_in_force_round_by_round(tmp_path):
    out = json.loads(run("settle", write(tmp_path, tihar_night())))
    assert out["totals"] == {"Aama": 26, "Buwa": -28, "Didi": 2}
    assert out["money"] == TIHAR_MONEY
    # The fewest payments over money: two, though Didi's points alone would
    # have Buwa pay her 2.00.
    assert out["transfers"] == TIHAR_TRANSFERS
    assert [r.get("stake_per_point") for r in out["rounds"]] == [
        None,
        None,
        None,
        "2.00",
        None,
        "5.00",
        None,
    ]


def test_a_file_without_round_stakes_settles_as_before(tmp_path):
    data = tihar_night()
    for round_ in data["rounds"]:
        round_.pop("stake_per_point", None)
    out = json.loads(run("settle", write(tmp_path, data)))
    assert out["money"] == {"Aama": "26.00", "Buwa": "-28.00", "Didi": "2.00"}
    assert out["transfers"] == [
        {"from": "Buwa", "to": "Aama", "amount": "26.00"},
        {"from": "Buwa", "to": "Didi", "amount": "2.00"},
    ]
    assert all("stake_per_point" not in r for r in out["rounds"])


@pytest.mark.django_db
def test_import_and_export_keep_the_stakes(tmp_path):
    data = tihar_night()
    data["rounds"][3]["stake_per_point"] = "2"  # read as 2.00
    out = run("import_session", write(tmp_path, data))
    session = GameSession.objects.get(pk=int(out.splitlines()[-1]))
    assert list(session.rounds.order_by("number").values_list("stake_per_point", flat=True)) == [
        None,
        None,
        None,
        Decimal("2.00"),
        None,
        Decimal("5.00"),
        None,
    ]
    exported = json.loads(run("export_session", str(session.pk)))
    assert exported["money"] == TIHAR_MONEY
    assert exported["transfers"] == TIHAR_TRANSFERS
    # The round trip: the export read back is the same evening, and settles
    # to the same text as the file did.
    assert exported == export_document(loads(json.dumps(tihar_night())))
    assert dumps(export_document(loads(dumps(exported)))) == dumps(exported)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("value", "line"),
    [
        ("0", "round 4, stake_per_point: must be more than 0, got '0'"),
        ("-2", "round 4, stake_per_point: must be more than 0, got '-2'"),
        ("2.505", "round 4, stake_per_point: at most 2 decimal places, got '2.505'"),
        ("10000000000", "round 4, stake_per_point: too large, got '10000000000'"),
        ("two", "round 4, stake_per_point: must be a number such as \"2.50\", got 'two'"),
        ("NaN", "round 4, stake_per_point: must be a number such as \"2.50\", got 'NaN'"),
        ("٢", "round 4, stake_per_point: must be a number such as \"2.50\", got '٢'"),
        (2.5, 'round 4, stake_per_point: must be a number such as "2.50", got 2.5'),
        (None, 'round 4, stake_per_point: must be a number such as "2.50", got None'),
        (True, 'round 4, stake_per_point: must be a number such as "2.50", got True'),
    ],
)
def test_a_bad_round_stake_exits_2_with_one_line_and_saves_nothing(tmp_path, value, line):
    data = tihar_night()
    data["rounds"][3]["stake_per_point"] = value
    with pytest.raises(SessionFileError) as error:
        loads(json.dumps(data))
    assert str(error.value) == line
    before = database()
    path = write(tmp_path, data)
    for command in ("import_session", "settle"):
        with pytest.raises(CommandError) as refused:
            run(command, path)
        assert (str(refused.value), refused.value.returncode) == (line, 2)
    assert database() == before
    assert not Round.objects.exists()


def test_balances_follow_an_evenings_stake_changes(tmp_path):
    from tests.files.test_groupfile import run as run_group
    from tests.files.test_groupfile import write as write_group

    evening = tihar_night()
    group = {
        "format": "marriage-group/1",
        "name": "Pokhara family",
        "currency": "NPR",
        "members": ["Aama", "Buwa", "Didi"],
        "sessions": [evening, copy.deepcopy(evening) | {"name": "Tihar night 2"}],
        "payments": [{"from": "Buwa", "to": "Aama", "amount": "100.00", "on": "2026-11-10"}],
    }
    # Two such evenings: Aama 258.00 − 100.00 paid to her, Buwa −318.00 + 100.00.
    assert json.loads(run_group("balances", write_group(tmp_path, group))) == {
        "balances": {"Aama": "158.00", "Buwa": "-218.00", "Didi": "60.00"},
        "transfers": [
            {"from": "Buwa", "to": "Aama", "amount": "158.00"},
            {"from": "Buwa", "to": "Didi", "amount": "60.00"},
        ],
    }
