"""Backups: `export_session --all DIR` writes every session, and importing the
files into an empty database reproduces every total, payment and round."""

from __future__ import annotations

import json
from datetime import date
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from scoring import services
from scoring.engine import Entry, RoundInput, sessionfile
from scoring.engine.sessionfile import loads
from scoring.management.commands.demo import DEMO_FILE
from scoring.models import GameSession, Player, Round, RoundEntry
from scoring.selectors.files import export_session
from tests.web_helpers import make_session

pytestmark = pytest.mark.django_db


def _sessions():
    """The demo night, a kidnap-rules night with an edited and a deleted round, and
    an empty session: different rules, stakes, players and history."""
    owner = get_user_model().objects.create_user("aama")
    demo = services.save_document(doc=loads(DEMO_FILE.read_text(encoding="utf-8")), owner=owner)
    night = make_session(owner, stake="0.75", preset="kidnap", name="Tihar, Bhai Tika")
    rows = [
        ("Didi", [("Aama", "seen", 5), ("Buwa", "unseen", 2), ("Didi", "seen", 7)]),
        ("Aama", [("Aama", "seen", 10), ("Buwa", "seen", 4), ("Dai", "seen", 0)]),
        ("Buwa", [("Aama", "seen", 3), ("Buwa", "seen", 12), ("Didi", "unseen", 0)]),
    ]
    saved = []
    for winner, entries in rows:
        round_input = RoundInput(
            entries=tuple(Entry(player=p, status=s, maal=m) for p, s, m in entries),
            winner=winner,
        )
        saved.append(services.add_round(session=night, round_input=round_input))
    edited = RoundInput(
        entries=(
            Entry(player="Aama", status="seen", maal=11, tunnel=1),
            Entry(player="Buwa", status="seen", maal=4),
            Entry(player="Dai", status="seen", maal=0, dhoos=True),
        ),
        winner="Aama",
    )
    services.replace_round(round_=saved[1], given=edited)
    services.delete_round(round_=saved[0])
    # The last round counted with the maal calculator; the night was last Tihar.
    counted = RoundInput(
        entries=(
            Entry(player="Aama", status="seen", maal=12, tunnel=15),
            Entry(player="Buwa", status="seen", maal=3),
            Entry(player="Dai", status="unseen"),
        ),
        winner="Aama",
    )
    tally = {"tiplu": 1, "poplu": 2, "jhiplu": 1, "joker_tunnels": 2}
    services.add_round(session=night, round_input=counted, tiplu="7H", tallies={"Aama": tally})
    night.played_on = date(2025, 10, 23)
    night.save()
    empty = make_session(owner, players=("Ram", "Shyam"), name="Not started")
    return [demo, night, empty]


def _export(session: GameSession) -> dict:
    return json.loads(json.dumps(export_session(session)))


def test_export_all_then_import_into_an_empty_database_reproduces_everything(tmp_path):
    sessions = _sessions()
    before = {s.name: _export(s) for s in sessions}
    out = StringIO()
    call_command("export_session", all=str(tmp_path / "backup"), stdout=out)
    assert out.getvalue().strip() == f"3 sessions written to {tmp_path / 'backup'}"
    files = sorted(p.name for p in (tmp_path / "backup").iterdir())
    assert files == [f"session-{s.pk}.json" for s in sorted(sessions, key=lambda s: s.pk)]

    # Empty the database.
    RoundEntry.objects.all().delete()
    Round.objects.all().delete()
    Player.objects.all().delete()
    GameSession.objects.all().delete()
    assert not GameSession.objects.exists()

    for path in sorted((tmp_path / "backup").iterdir()):
        call_command("import_session", str(path), stdout=StringIO())
    restored = {s.name: _export(s) for s in GameSession.objects.all()}
    assert restored == before
    night = restored["Tihar, Bhai Tika"]
    assert sum(night["totals"].values()) == 0
    assert len(night["rounds"]) == 3
    # The date, the tiplu and the calculator's tally come back too.
    assert night["played_on"] == "2025-10-23"
    assert night["rounds"][2]["tiplu"] == "7H"
    assert night["rounds"][2]["entries"][0]["maal_tally"] == {
        "poplu": 1,
        "marriages": 1,
        "joker_tunnels": 2,
    }
    counted = Round.objects.get(session__name="Tihar, Bhai Tika", number=3)
    assert counted.tiplu == "7H"
    assert counted.entries.get(player__name="Aama").maal_tally == {
        "poplu": 1,
        "marriages": 1,
        "joker_tunnels": 2,
    }
    assert night["rules"]["unseen_maal"] == "kidnap"
    assert restored["Not started"]["rounds"] == []
    demo = restored["Dashain 2026 (demo)"]
    assert demo["totals"] == before["Dashain 2026 (demo)"]["totals"]
    assert demo["transfers"] == before["Dashain 2026 (demo)"]["transfers"]


def test_backup_files_are_the_plain_session_export(tmp_path):
    sessions = _sessions()
    call_command("export_session", all=str(tmp_path), stdout=StringIO())
    for session in sessions:
        single = StringIO()
        call_command("export_session", str(session.pk), stdout=single)
        assert (tmp_path / f"session-{session.pk}.json").read_text() == single.getvalue()
        doc = loads(single.getvalue())
        assert (doc.name, doc.rules.to_options()) == (session.name, session.rules)


def test_export_all_of_an_empty_database_writes_nothing(tmp_path):
    out = StringIO()
    call_command("export_session", all=str(tmp_path / "b"), stdout=out)
    assert out.getvalue().strip() == f"0 sessions written to {tmp_path / 'b'}"
    assert list((tmp_path / "b").iterdir()) == []


def test_export_all_overwrites_an_older_backup(tmp_path):
    sessions = _sessions()
    call_command("export_session", all=str(tmp_path), stdout=StringIO())
    night = sessions[1]
    services.delete_round(round_=night.rounds.first())
    call_command("export_session", all=str(tmp_path), stdout=StringIO())
    saved = json.loads((tmp_path / f"session-{night.pk}.json").read_text())
    assert len(saved["rounds"]) == 2  # of 3
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_id_and_all_together_are_refused(tmp_path):
    with pytest.raises(CommandError, match="give a session id or --all DIR, not both"):
        call_command("export_session", "1", all=str(tmp_path))
    with pytest.raises(CommandError, match="id: give a session id, or --all DIR"):
        call_command("export_session")


def test_unwritable_directory_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(CommandError, match=f"--all: cannot create {blocker}/sub"):
        call_command("export_session", all=str(blocker / "sub"))


def test_a_backup_that_would_not_restore_is_written_and_reported(tmp_path, monkeypatch):
    """A session saved before a limit existed (here: the round limit lowered below
    the demo night's rounds) is still backed up, but whoever keeps the backups is
    told that import_session would refuse that file."""
    demo, _night, _empty = _sessions()
    rounds = demo.rounds.count()
    monkeypatch.setattr(sessionfile, "MAX_ROUNDS", rounds - 1)
    refused = f"rounds: at most {rounds - 1} rounds in a file, got {rounds}"
    out, err = StringIO(), StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("export_session", all=str(tmp_path), stdout=out, stderr=err)
    assert caught.value.returncode == 1
    assert str(caught.value) == f"--all: 1 not restorable (session {demo.pk}); see the lines above"
    path = tmp_path / f"session-{demo.pk}.json"
    assert err.getvalue() == (
        f"--all: session {demo.pk} written to {path}, but import_session would refuse it: "
        f"{refused}\n"
    )
    assert out.getvalue() == f"3 sessions written to {tmp_path}\n"
    kept = json.loads(path.read_text())
    assert kept == _export(demo)
    single = StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("export_session", str(demo.pk), stdout=single)
    assert caught.value.returncode == 1
    assert str(caught.value) == (
        f"session {demo.pk}: written, but import_session would refuse it: {refused}"
    )
    assert json.loads(single.getvalue()) == kept
