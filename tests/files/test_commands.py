"""The command line: import_session, export_session, settle, list_sessions.

Bad input goes through the real commands: exit status 2, the parser's exact
one-line message naming round, player and field (the table of them is
files/test_sessionfile.py's), and nothing saved.
"""

from __future__ import annotations

import datetime
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from scoring.engine import PRESETS
from scoring.engine.sessionfile import SessionFileError, loads
from scoring.models import GameSession, Player, Round, RoundEntry
from scoring.services import rounds as rounds_service
from tests.samples import BUWA, PLAYERS, _set, night

ROOT = Path(__file__).resolve().parents[2]


# Round 2 by hand (pagat, better × 2): Didi's tunnel is void. S: Aama 10, Buwa 9,
# Didi 3; T = 22, n = 3; w = 3+5 for Buwa, 10+5 for Didi. Buwa pays (22+8−27)×2 = 6,
# Didi pays (22+15−9)×2 = 56. Didi's dhoos: 15 to each of the two others, not doubled.
ROUND_2 = {"Aama": 62 + 15, "Buwa": -6 + 15, "Didi": -56 - 30}
TOTALS = {"Aama": 3 + 77, "Buwa": -16 + 9, "Didi": 30 - 86, "Dai": -17, "Bhai": 0, "Bahini": 0}


def write(tmp_path: Path, data: dict | str, name: str = "night.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def run(*args: str, stdin: str | None = None) -> str:
    out = io.StringIO()
    if stdin is None:
        call_command(*args, stdout=out)
    else:
        saved = sys.stdin
        sys.stdin = io.StringIO(stdin)
        try:
            call_command(*args, stdout=out)
        finally:
            sys.stdin = saved
    return out.getvalue()


def database() -> list:
    """Everything the commands could have written."""
    return [
        list(GameSession.objects.values_list("id", "name", "rules", "stake_per_point")),
        list(Player.objects.values_list("id", "session_id", "name", "position")),
        list(Round.objects.values_list("id", "session_id", "number", "winner_id", "better")),
        list(RoundEntry.objects.values_list("id", "round_id", "player_id", "maal", "net")),
    ]


# --- good input ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_import_saves_the_night_and_prints_its_id_last(tmp_path):
    out = run("import_session", write(tmp_path, night()))
    session = GameSession.objects.get()
    assert out.splitlines()[-1] == str(session.pk)
    assert (session.name, session.currency, str(session.stake_per_point)) == (
        "Dashain 2026",
        "NPR",
        "2.50",
    )
    assert session.rules == PRESETS["pagat"].to_options()
    assert session.owner is None
    assert [p.name for p in session.players.all()] == PLAYERS
    nets = [
        {e.player.name: e.net for e in RoundEntry.objects.filter(round=r).select_related("player")}
        for r in session.rounds.order_by("number")
    ]
    assert nets == [{"Aama": 3, "Buwa": -16, "Didi": 30, "Dai": -17}, ROUND_2]
    second = session.rounds.get(number=2)
    assert (second.winner.name, second.win_type, second.better) == ("Aama", "dublee", True)


@pytest.mark.django_db
def test_import_into_a_group_adds_an_evening(tmp_path, django_user_model):
    from groups.models import Evening
    from groups.services import create_group

    sita = django_user_model.objects.create_user("sita", password="pw-sita-12345")
    group = create_group(owner=sita, name="Pokhara family", currency="NPR", members=PLAYERS)
    out = run("import_session", write(tmp_path, night()), "--group", "Pokhara family")
    session = GameSession.objects.get()
    assert out.splitlines()[-1] == str(session.pk)
    assert Evening.objects.get(session=session).group == group
    assert session.owner == sita  # the group's owner, whose purse it is


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("members", "currency", "line"),
    [
        (
            ["Aama", "Buwa", "Didi", "Dai"],
            "NPR",
            "--group: not a member of Pokhara family: Bhai, Bahini "
            "(add them on the Members page first)",
        ),
        (PLAYERS, "INR", "--group: the file is in NPR, not the group's currency INR"),
    ],
)
def test_import_into_a_group_refuses_a_stranger_in_one_line(
    tmp_path, django_user_model, members, currency, line
):
    from groups.services import create_group

    sita = django_user_model.objects.create_user("sita", password="pw-sita-12345")
    group = create_group(owner=sita, name="Pokhara family", currency=currency, members=members)
    before = database()
    with pytest.raises(CommandError) as refused:
        run("import_session", write(tmp_path, night()), "--group", str(group.pk))
    assert (str(refused.value), refused.value.returncode) == (line, 2)
    assert database() == before
    with pytest.raises(CommandError) as refused:
        run("import_session", write(tmp_path, night()), "--group", "Nobody")
    assert str(refused.value) == "group: no group 'Nobody'"


@pytest.mark.django_db
def test_import_with_an_owner(tmp_path, django_user_model):
    user = django_user_model.objects.create_user("sita", password="pw-sita-12345")
    run("import_session", write(tmp_path, night()), "--owner", "sita")
    assert GameSession.objects.get().owner == user


@pytest.mark.django_db
def test_export_of_an_imported_night(tmp_path):
    session_id = run("import_session", write(tmp_path, night())).split()[-1]
    exported = json.loads(run("export_session", session_id))
    assert exported["rounds"][0]["net"] == {"Aama": 3, "Buwa": -16, "Didi": 30, "Dai": -17}
    assert exported["rounds"][1]["net"] == ROUND_2
    assert exported["totals"] == TOTALS
    assert exported["money"] == {
        "Aama": "200.00",
        "Buwa": "-17.50",
        "Didi": "-140.00",
        "Dai": "-42.50",
        "Bhai": "0.00",
        "Bahini": "0.00",
    }
    # Aama +80; Buwa −7, Didi −56, Dai −17: three debtors, three payments.
    assert exported["transfers"] == [
        {"from": "Buwa", "to": "Aama", "amount": "17.50"},
        {"from": "Dai", "to": "Aama", "amount": "42.50"},
        {"from": "Didi", "to": "Aama", "amount": "140.00"},
    ]
    assert exported["rules"] == PRESETS["pagat"].to_options()


@pytest.mark.django_db
def test_export_import_export_is_the_same_document(tmp_path):
    first_id = run("import_session", write(tmp_path, night())).split()[-1]
    first = run("export_session", first_id)
    # The export is the same evening: imported again only as a second copy.
    export = write(tmp_path, first, "export.json")
    second_id = run("import_session", export, "--second-copy").split()[-1]
    assert second_id != first_id
    assert run("export_session", second_id) == first
    # The same through stdin.
    third_id = run("import_session", "-", "--second-copy", stdin=first).split()[-1]
    assert run("export_session", third_id) == first


@pytest.mark.django_db
def test_settle_prints_the_export_and_saves_nothing(tmp_path):
    path = write(tmp_path, night())
    settled = run("settle", path)
    assert database() == [[], [], [], []]
    assert settled == run("settle", "-", stdin=json.dumps(night()))
    # The same text as importing, then exporting.
    assert run("export_session", run("import_session", path).split()[-1]) == settled


@pytest.mark.django_db
def test_a_file_without_a_date_is_imported_as_played_today(tmp_path):
    from django.utils import timezone

    undated = {k: v for k, v in night().items() if k != "played_on"}
    session_id = run("import_session", write(tmp_path, undated)).split()[-1]
    exported = json.loads(run("export_session", session_id))
    assert exported["played_on"] == timezone.localdate().isoformat()
    assert "played_on" not in json.loads(run("settle", write(tmp_path, undated, "u.json")))


@pytest.mark.django_db
@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_survives_the_database(tmp_path, preset):
    rules = {"preset": preset, "dhoos_penalty": 20, "dublee_triggers_better": True}
    path = write(tmp_path, night() | {"rules": rules})
    settled = run("settle", path)
    assert json.loads(settled)["rules"] == PRESETS[preset].to_options() | {
        "dhoos_penalty": 20,
        "dublee_triggers_better": True,
    }
    assert run("export_session", run("import_session", path).split()[-1]) == settled


@pytest.mark.django_db
def test_list_sessions_one_line_each(tmp_path):
    assert run("list_sessions") == ""
    first = run("import_session", write(tmp_path, night())).split()[-1]
    empty = night() | {"name": "Tihar", "rounds": []}
    second = run("import_session", write(tmp_path, empty, "tihar.json")).split()[-1]
    assert run("list_sessions") == f"{first}\tDashain 2026\t2\n{second}\tTihar\t0\n"


# --- an evening already saved: asked about, as the web import asks -----------------------------

# Midday UTC: 2 Oct wherever TIME_ZONE is.
SAVED_AT = datetime.datetime(2026, 10, 2, 12, 0, tzinfo=datetime.UTC)


def already_have(session: GameSession, rounds: str) -> str:
    return (
        f"You already have this evening: {session.name} (id {session.pk}), {rounds}, "
        "saved on 2 Oct 2026. Nothing imported; --second-copy imports a second copy anyway "
        "(the leaderboard then counts the evening twice)."
    )


def saved_on_2_october(session_id: str) -> GameSession:
    GameSession.objects.filter(pk=session_id).update(created_at=SAVED_AT)
    return GameSession.objects.get(pk=session_id)


@pytest.mark.django_db
def test_the_same_evening_again_is_refused_naming_the_session(tmp_path):
    path = write(tmp_path, night())
    first = saved_on_2_october(run("import_session", path).split()[-1])
    before = database()
    # The file again, through stdin, and as the export writes it: each the same evening.
    undated = {k: v for k, v in night().items() if k != "played_on"}
    export = run("export_session", str(first.pk))
    for args, stdin in [
        ((path,), None),
        (("-",), json.dumps(night())),
        ((write(tmp_path, export, "export.json"),), None),
        ((write(tmp_path, undated, "undated.json"),), None),  # no date matches any date
    ]:
        with pytest.raises(CommandError) as error:
            run("import_session", *args, stdin=stdin)
        assert (error.value.returncode, str(error.value)) == (1, already_have(first, "2 rounds"))
        assert database() == before
    assert GameSession.objects.count() == 1


@pytest.mark.django_db
def test_second_copy_imports_the_same_evening_again(tmp_path):
    path = write(tmp_path, night())
    first_id = run("import_session", path).split()[-1]
    second_id = run("import_session", path, "--second-copy").split()[-1]
    assert second_id != first_id
    assert GameSession.objects.count() == 2
    assert run("export_session", second_id) == run("export_session", first_id)
    # Asked about again without the flag, naming the newest copy.
    GameSession.objects.filter(pk=first_id).update(created_at=SAVED_AT - datetime.timedelta(30))
    newest = saved_on_2_october(second_id)
    with pytest.raises(CommandError) as error:
        run("import_session", path)
    assert str(error.value) == already_have(newest, "2 rounds")
    assert GameSession.objects.count() == 2


@pytest.mark.django_db
def test_a_different_evening_is_imported_without_asking(tmp_path, django_user_model):
    run("import_session", write(tmp_path, night()))
    changed_maal = _set(f"{BUWA}.maal", 5)(night())
    other_day = night() | {"played_on": "2026-10-03"}
    renamed = night() | {"name": "Tihar 2026"}
    one_round = night() | {"rounds": night()["rounds"][:1]}
    for number, doc in enumerate([changed_maal, other_day, renamed, one_round]):
        run("import_session", write(tmp_path, doc, f"other-{number}.json"))
    assert GameSession.objects.count() == 5
    # One round: worded as such.
    one = saved_on_2_october(str(GameSession.objects.order_by("pk").last().pk))
    with pytest.raises(CommandError) as error:
        run("import_session", write(tmp_path, one_round, "again.json"))
    assert str(error.value) == already_have(one, "1 round")
    # Only the owner's own sessions count: sita has none of these evenings yet.
    sita = django_user_model.objects.create_user("sita", password="pw-sita-12345")
    run("import_session", write(tmp_path, night()), "--owner", "sita")
    assert GameSession.objects.filter(owner=sita).count() == 1
    with pytest.raises(CommandError) as error:
        run("import_session", write(tmp_path, night()), "--owner", "sita")
    assert error.value.returncode == 1
    assert GameSession.objects.filter(owner=sita).count() == 1
    assert GameSession.objects.count() == 6


def test_help_describes_second_copy():
    from scoring.management.commands.import_session import Command

    text = " ".join(Command().create_parser("manage.py", "import_session").format_help().split())
    assert (
        "--second-copy import the file even when the owner already has this evening "
        "(a second copy counts the evening twice on the leaderboard)"
    ) in text


@pytest.mark.django_db
def test_a_failure_while_saving_leaves_nothing_behind(tmp_path, monkeypatch):
    real = rounds_service.write_entries
    calls = []

    def fail_on_the_second_round(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("disk full")
        return real(*args, **kwargs)

    monkeypatch.setattr(rounds_service, "write_entries", fail_on_the_second_round)
    with pytest.raises(RuntimeError, match="disk full"):
        run("import_session", write(tmp_path, night()))
    assert database() == [[], [], [], []]


# --- bad input: exit status 2, one exact line, nothing saved --------------------------------


@pytest.fixture
def existing(tmp_path):
    """A session already saved, so "nothing saved" means "nothing changed"."""
    run("import_session", write(tmp_path, night(), "existing.json"))
    return database()


@pytest.mark.django_db
@pytest.mark.parametrize("command", ["import_session", "settle"])
def test_a_bad_file_exits_2_with_the_parsers_line_and_saves_nothing(tmp_path, existing, command):
    """Each command that reads a session file is wired to the parser's refusals
    (the table of them is files/test_sessionfile.py's)."""
    content = json.dumps(_set(f"{BUWA}.maal", -3)(night()))
    message = "round 2, player Buwa, maal: must not be negative, got -3"
    with pytest.raises(SessionFileError) as parsed:
        loads(content)
    assert str(parsed.value) == message
    with pytest.raises(CommandError) as error:
        run(command, write(tmp_path, content))
    assert (error.value.returncode, str(error.value)) == (2, message)
    assert database() == existing
    # The same through stdin.
    with pytest.raises(CommandError) as error:
        run(command, "-", stdin=content)
    assert (error.value.returncode, str(error.value)) == (2, message)
    assert database() == existing


@pytest.mark.django_db
def test_a_file_that_cannot_be_read(tmp_path, existing):
    missing = str(tmp_path / "nope.json")
    with pytest.raises(CommandError) as error:
        run("import_session", missing)
    assert (error.value.returncode, str(error.value)) == (
        2,
        f"{missing}: cannot read: No such file or directory",
    )
    binary = tmp_path / "night.json"
    binary.write_bytes(b"\xff\xfe{}")
    with pytest.raises(CommandError) as error:
        run("settle", str(binary))
    assert error.value.returncode == 2
    assert str(error.value) == (
        f"{binary}: cannot read: 'utf-8' codec can't decode byte 0xff in position 0: "
        "invalid start byte"
    )
    assert database() == existing


@pytest.mark.django_db
def test_a_byte_order_mark_is_fine(tmp_path):
    path = tmp_path / "bom.json"
    path.write_text("\ufeff" + json.dumps(night()), encoding="utf-8")
    run("import_session", str(path))
    assert GameSession.objects.count() == 1


@pytest.mark.django_db
def test_an_unknown_owner_saves_nothing(tmp_path, existing):
    with pytest.raises(CommandError) as error:
        run("import_session", write(tmp_path, night()), "--owner", "nobody")
    assert (error.value.returncode, str(error.value)) == (2, "--owner: no user 'nobody'")
    assert database() == existing


@pytest.mark.django_db
def test_export_of_an_unknown_session():
    with pytest.raises(CommandError) as error:
        run("export_session", "999")
    assert (error.value.returncode, str(error.value)) == (2, "id: no session 999")


# --- the real command line, in its own process and database ----------------------------------


@pytest.fixture(scope="module")
def manage(tmp_path_factory):
    """`manage.py` on a fresh SQLite file, migrated once for this module."""
    folder = tmp_path_factory.mktemp("cli")
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env |= {"SQLITE_PATH": str(folder / "db.sqlite3"), "PYTHONIOENCODING": "utf-8"}

    def manage(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=env,
            input=stdin,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=120,
        )

    migrated = manage("migrate", "--noinput", "-v0")
    assert migrated.returncode == 0, migrated.stderr
    manage.folder = folder
    return manage


def test_cli_bad_input_is_one_plain_line_on_stderr(manage):
    before = manage("list_sessions").stdout
    bad = _set(f"{BUWA}.maal", -3)(night())
    for args, stdin in [
        (("import_session", "-"), json.dumps(bad)),
        (("settle", "-"), json.dumps(bad)),
        (("import_session", str(manage.folder / "missing.json")), None),
    ]:
        result = manage(*args, stdin=stdin)
        assert result.returncode == 2
        assert result.stdout == ""
        if stdin:
            assert result.stderr == "round 2, player Buwa, maal: must not be negative, got -3\n"
        else:
            assert result.stderr == (
                f"{manage.folder / 'missing.json'}: cannot read: No such file or directory\n"
            )
    assert manage("list_sessions").stdout == before
    missing = manage("export_session", "424242")
    assert (missing.returncode, missing.stderr) == (2, "id: no session 424242\n")


def test_cli_round_trip_through_stdin(manage):
    text = json.dumps(night() | {"name": "तिहार २०८३"}, ensure_ascii=False)
    imported = manage("import_session", "-", stdin=text)
    assert imported.returncode == 0, imported.stderr
    first_id = imported.stdout.splitlines()[-1]
    exported = manage("export_session", first_id)
    assert exported.returncode == 0
    assert json.loads(exported.stdout)["totals"] == TOTALS
    assert manage("settle", "-", stdin=text).stdout == exported.stdout
    again = manage("import_session", "-", "--second-copy", stdin=exported.stdout)
    second_id = again.stdout.splitlines()[-1]
    assert manage("export_session", second_id).stdout == exported.stdout
    listing = manage("list_sessions").stdout.splitlines()
    assert f"{first_id}\tतिहार २०८३\t2" in listing
    assert f"{second_id}\tतिहार २०८३\t2" in listing


def test_cli_the_same_evening_again_exits_1_with_one_line(manage):
    text = json.dumps(night() | {"name": "Bhai Tika"})
    first = manage("import_session", "-", stdin=text)
    assert first.returncode == 0, first.stderr
    first_id = first.stdout.splitlines()[-1]
    before = manage("list_sessions").stdout
    again = manage("import_session", "-", stdin=text)
    assert (again.returncode, again.stdout) == (1, "")
    assert again.stderr.startswith(
        f"You already have this evening: Bhai Tika (id {first_id}), 2 rounds, saved on "
    )
    assert again.stderr.endswith(
        ". Nothing imported; --second-copy imports a second copy anyway "
        "(the leaderboard then counts the evening twice).\n"
    )
    assert again.stderr.count("\n") == 1
    assert manage("list_sessions").stdout == before
    copied = manage("import_session", "-", "--second-copy", stdin=text)
    assert copied.returncode == 0, copied.stderr
    assert f"{copied.stdout.splitlines()[-1]}\tBhai Tika\t2" in manage("list_sessions").stdout


@pytest.mark.django_db
def test_import_reads_a_bikram_sambat_date_as_the_web_does(tmp_path):
    run("import_session", write(tmp_path, night() | {"played_on": "2083-07-26"}))
    assert GameSession.objects.get().played_on.isoformat() == "2026-11-12"
    settled = json.loads(run("settle", write(tmp_path, night() | {"played_on": "2083-07-26"})))
    assert settled["played_on"] == "2026-11-12"
