"""Bounded input: a session file over any limit is refused before the work the
limit bounds, with a message naming the limit, by the engine and the commands;
keys given twice anywhere and hostile nesting are refused; nothing is saved."""

from __future__ import annotations

import copy
import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from scoring.engine import sessionfile
from scoring.engine.limits import (
    MAX_FILE_BYTES,
    MAX_ROUNDS,
    MAX_SESSION_PLAYERS,
    InputTooLarge,
    loads_bounded,
)
from scoring.engine.sessionfile import SessionFileError, loads
from scoring.models import GameSession, Player
from tests.test_commands import night as shared_night

pytestmark = pytest.mark.django_db


def night() -> dict:
    """A fresh copy: the shared one holds the module's list of players."""
    return copy.deepcopy(shared_night())


def giant(players: int = 150_000) -> dict:
    doc = night()
    doc["players"] = [f"Player {n}" for n in range(players)]
    doc["rounds"] = []
    return doc


def _error(doc: dict | str) -> str:
    with pytest.raises(SessionFileError) as caught:
        loads(doc if isinstance(doc, str) else json.dumps(doc))
    return str(caught.value)


def test_150000_players_are_refused_before_any_name_is_looked_at(monkeypatch):
    looked_at = []
    original = sessionfile.clean_player_name
    monkeypatch.setattr(
        sessionfile,
        "clean_player_name",
        lambda *args: looked_at.append(args) or original(*args),
    )
    assert _error(giant()) == "players: at most 30 players in a session, got 150,000"
    assert looked_at == []


def test_the_player_limit_is_the_forms(monkeypatch):
    assert MAX_SESSION_PLAYERS == 30
    loads(json.dumps(giant(MAX_SESSION_PLAYERS)))  # at the limit: fine
    assert _error(giant(MAX_SESSION_PLAYERS + 1)) == (
        "players: at most 30 players in a session, got 31"
    )


def test_too_many_rounds_and_entries_are_refused():
    doc = night()
    doc["rounds"] = [doc["rounds"][0]] * (MAX_ROUNDS + 1)
    assert _error(doc) == "rounds: at most 5,000 rounds in a file, got 5,001"
    doc = night()
    doc["rounds"][0]["entries"] = doc["rounds"][0]["entries"] * 3  # 12 entries
    assert _error(doc) == "round 1, entries: at most 8 players in a round, got 12"


def test_a_file_over_the_size_limit_is_refused_by_the_engine():
    text = json.dumps(night()) + " " * MAX_FILE_BYTES
    assert _error(text) == "file: larger than the limit of 5,242,880 bytes"


def test_deep_nesting_is_refused_with_a_message():
    doc = night()
    doc["totals"] = json.loads("[" * 50 + "]" * 50)
    assert _error(doc) == "session file: nested more than 20 deep"
    assert _error("[" * 100_000 + "]" * 100_000).startswith("not JSON")


def test_keys_given_twice_in_totals_money_and_a_maal_tally_are_refused():
    doc = night()
    doc["totals"] = {"Aama": 1}
    raw = json.dumps(doc).replace('"totals": {"Aama": 1}', '"totals": {"Aama": 1, "Aama": 2}')
    assert _error(raw) == "totals, Aama: given twice"
    doc["totals"] = {}
    doc["money"] = {"Didi": "1"}
    raw = json.dumps(doc).replace('"money": {"Didi": "1"}', '"money": {"Didi": "1", "Didi": "2"}')
    assert _error(raw) == "money, Didi: given twice"
    doc = night()
    doc["rounds"][0]["tiplu"] = "QH"
    doc["rounds"][0]["entries"][0]["maal_tally"] = {"tiplu": 1}
    doc["rounds"][0]["entries"][0]["maal"] = 3
    raw = json.dumps(doc).replace(
        '"maal_tally": {"tiplu": 1}', '"maal_tally": {"tiplu": 1, "tiplu": 0}'
    )
    assert _error(raw) == "round 1, player Aama, maal_tally, tiplu: given twice"


def test_loads_bounded_names_each_bound():
    with pytest.raises(InputTooLarge, match="longer than 10 characters"):
        loads_bounded("[" + "1," * 10 + "1]", 10)
    with pytest.raises(InputTooLarge, match="nested more than 20 deep"):
        loads_bounded("[" * 30 + "]" * 30, 1000)
    with pytest.raises(InputTooLarge, match="nested more than 20 deep"):
        loads_bounded("[" * 100_000 + "]" * 100_000, 10**6)
    with pytest.raises(ValueError, match=r"^tiers, 2, a: given twice$"):
        loads_bounded('{"tiers": [1, {"a": 1, "a": 2}]}', 1000)
    assert loads_bounded('{"a": [1, {"b": 2}]}', 1000) == {"a": [1, {"b": 2}]}


# --- the commands ------------------------------------------------------------------------


def test_import_refuses_a_150000_player_file_naming_the_limit(tmp_path):
    path = tmp_path / "giant.json"
    path.write_text(json.dumps(giant()), encoding="utf-8")
    with pytest.raises(CommandError) as caught:
        call_command("import_session", str(path), stdout=StringIO())
    assert str(caught.value) == "players: at most 30 players in a session, got 150,000"
    assert caught.value.returncode == 2
    assert not GameSession.objects.exists() and not Player.objects.exists()


def test_import_refuses_a_file_over_the_size_limit_without_reading_it(tmp_path, monkeypatch):
    path = tmp_path / "huge.json"
    with path.open("wb") as file:
        file.truncate(MAX_FILE_BYTES + 1)  # sparse: its size is known before any read
    read = []
    monkeypatch.setattr(Path, "read_text", lambda *a, **k: read.append(a) or "")
    with pytest.raises(CommandError) as caught:
        call_command("import_session", str(path), stdout=StringIO())
    assert str(caught.value) == (
        f"{path}: larger than the limit of 5,242,880 bytes for a session file"
    )
    assert read == [] and not GameSession.objects.exists()


def test_import_from_stdin_reads_at_most_one_byte_past_the_limit(monkeypatch):
    class Endless:
        """A stdin that never ends, as `yes | import_session -` would be."""

        def __init__(self):
            self.asked: list[int] = []
            self.buffer = self

        def read(self, size=-1):
            assert size >= 0, "stdin read whole"
            self.asked.append(size)
            return b" " * size

    stdin = Endless()
    monkeypatch.setattr("sys.stdin", stdin)
    with pytest.raises(CommandError, match="-: larger than the limit of 5,242,880 bytes"):
        call_command("import_session", "-", stdout=StringIO())
    assert stdin.asked == [MAX_FILE_BYTES + 1]


def test_night_still_imports(tmp_path):
    doc = copy.deepcopy(night())
    path = tmp_path / "night.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    out = StringIO()
    call_command("import_session", str(path), stdout=out)
    assert GameSession.objects.get(pk=int(out.getvalue().split()[-1])).name == "Dashain 2026"
