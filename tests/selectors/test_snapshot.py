"""Reads that span several queries see one snapshot (scoring.selectors.snapshot): the
stats pages, the ledger, the share page, the export and the backup answer whole while other
phones save and undo rounds, through real simultaneous requests to the live
server (SQLite in WAL mode, or PostgreSQL under scripts/with-postgres). And
`export_session --all` goes on past a session it cannot write."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connections

from scoring.models import GameSession, Round
from tests.web_helpers import Phone, hand, make_session

pytestmark = pytest.mark.django_db(transaction=True)

SAVES_PER_PHONE = 12


class ReadingPhone(Phone):
    def get(self, path: str) -> tuple[int, str]:
        request = urllib.request.Request(self.base_url + path, headers={"Cookie": self.cookie})
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()


def test_stats_ledger_exports_and_backups_while_phones_save_and_undo(live_server, tmp_path):
    owner = get_user_model().objects.create_user("aama")
    sessions = [make_session(owner, name=f"Night {n}") for n in range(2)]
    token = "shared-while-playing-" + "x" * 20
    GameSession.objects.filter(pk=sessions[0].pk).update(share_token=token)
    writers = [ReadingPhone(live_server.url, owner) for _ in sessions]
    reader = ReadingPhone(live_server.url, owner)
    for phone, session in zip(writers, sessions, strict=True):  # Aama has a player page
        assert phone.post(f"/sessions/{session.pk}/rounds/new/", hand(session, 99))[0] == 302
    done = threading.Event()
    failures: list[str] = []
    reads: list[str] = []
    statuses: list[int] = []

    def save_and_undo(phone: ReadingPhone, session) -> None:
        new, undo = f"/sessions/{session.pk}/rounds/new/", f"/sessions/{session.pk}/undo/"
        for n in range(SAVES_PER_PHONE):
            statuses.append(phone.post(new, hand(session, n + 1))[0])
            statuses.append(phone.post(new, hand(session, n + 50))[0])
            last = Round.objects.filter(session=session).order_by("-number").first()
            assert last is not None
            statuses.append(phone.post(undo, {"round": str(last.pk)})[0])

    def read_pages() -> None:
        first = sessions[0].pk
        paths = [
            "/history/",
            "/leaderboard/",
            "/players/Aama/",
            f"/sessions/{first}/",
            f"/sessions/{first}/export.json",
            f"/sessions/{first}/ledger.csv",
            f"/sessions/{first}/summary/",
            f"/sessions/{first}/settle/",
            f"/s/{token}/",
            f"/s/{token}/live/",
        ]
        while not done.is_set():
            for path in paths:
                status, body = reader.get(path)
                reads.append(path)
                if status != 200:
                    failures.append(f"GET {path}: {status}")
                elif path.endswith(".json"):
                    doc = json.loads(body)
                    assert all(r["entries"] for r in doc["rounds"]), "a round without entries"

    def back_up() -> None:
        while not done.is_set():
            try:
                call_command("export_session", all=str(tmp_path), stdout=StringIO())
            except Exception as error:  # the failure under test: collected, then asserted
                failures.append(f"backup: {error!r}")
            reads.append("backup")

    def run(target, *args) -> None:
        try:
            target(*args)
        except Exception as error:
            failures.append(f"{target.__name__}: {error!r}")
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=run, args=(save_and_undo, p, s))
        for p, s in zip(writers, sessions, strict=True)
    ]
    watchers = [threading.Thread(target=run, args=(f,)) for f in (read_pages, back_up)]
    for thread in watchers + threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    done.set()
    for thread in watchers:
        thread.join(timeout=120)
    assert failures == []
    assert set(statuses) == {302}
    assert len(reads) > 20
    for session in sessions:  # each phone saved two and undid one, every time
        assert Round.objects.filter(session=session).count() == SAVES_PER_PHONE + 1


def test_export_all_goes_on_past_a_session_it_cannot_write(tmp_path):
    owner = get_user_model().objects.create_user("aama")
    sessions = [make_session(owner, name=f"Night {n}") for n in range(3)]
    blocked = sessions[1]
    (tmp_path / f"session-{blocked.pk}.json").mkdir()  # a directory where the file goes
    out, err = StringIO(), StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("export_session", all=str(tmp_path), stdout=out, stderr=err)
    assert caught.value.returncode == 1
    assert str(caught.value) == (
        f"--all: 1 not written (session {blocked.pk}); see the lines above"
    )
    assert out.getvalue().strip() == f"2 sessions written to {tmp_path}"
    assert err.getvalue().startswith(f"--all: cannot write {tmp_path}/session-{blocked.pk}.json")
    for session in (sessions[0], sessions[2]):
        written = json.loads((tmp_path / f"session-{session.pk}.json").read_text())
        assert written["name"] == session.name
