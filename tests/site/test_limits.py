"""Bounded input: a session file over any limit is refused before the work the
limit bounds, with a message naming the limit, by the engine and the commands;
keys given twice anywhere and hostile nesting are refused; nothing is saved."""

from __future__ import annotations

import copy
import json
from dataclasses import fields
from html import unescape
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from django.utils import translation

from scoring import services
from scoring.engine import Entry, RoundError, RoundInput, make_rules, sessionfile
from scoring.engine.limits import (
    MAX_FILE_BYTES,
    MAX_PLAYER_NAME_LENGTH,
    MAX_ROUND_ENTRIES,
    MAX_ROUNDS,
    MAX_SESSION_PLAYERS,
    InputTooLarge,
    KeyGivenTwice,
    loads_bounded,
)
from scoring.engine.maal import Tally
from scoring.engine.sessionfile import SessionFileError, loads
from scoring.models import GameSession, Player, Round, RoundChange, RoundEntry
from scoring.services import rounds as round_services
from scoring.services.players import PlayerNotAdded
from tests.samples import night as shared_night
from tests.web_helpers import WORKED, make_session, round_data, worked_round

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
    assert _error(doc) == "rounds: at most 1,000 rounds in a file, got 1,001"
    doc = night()
    doc["rounds"][0]["entries"] = doc["rounds"][0]["entries"] * 3  # 12 entries
    assert _error(doc) == "round 1, entries: at most 8 players in a round, got 12"


def test_a_file_over_the_size_limit_is_refused_by_the_engine():
    text = json.dumps(night()) + " " * MAX_FILE_BYTES
    assert _error(text) == "file: larger than the limit of 12,582,912 bytes"


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
    with pytest.raises(KeyGivenTwice, match=r"^tiers, 2, a: given twice$") as caught:
        loads_bounded('{"tiers": [1, {"a": 1, "a": 2}]}', 1000)
    assert (caught.value.path, caught.value.key) == (("tiers", "2"), "a")
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
        f"{path}: larger than the limit of 12,582,912 bytes for a session file"
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
    with pytest.raises(CommandError, match="-: larger than the limit of 12,582,912 bytes"):
        call_command("import_session", "-", stdout=StringIO())
    assert stdin.asked == [MAX_FILE_BYTES + 1]


def test_night_still_imports(tmp_path):
    doc = copy.deepcopy(night())
    path = tmp_path / "night.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    out = StringIO()
    call_command("import_session", str(path), stdout=out)
    assert GameSession.objects.get(pk=int(out.getvalue().split()[-1])).name == "Dashain 2026"


# --- what the web saves, a backup restores ------------------------------------------------

# Forty characters, each four bytes in UTF-8: the longest name in bytes.
WIDEST = "𝔸" * 40
TALLY_ITEMS = [item.name for item in fields(Tally)]


def test_the_largest_session_the_web_allows_fits_in_a_session_file():
    """MAX_ROUNDS rounds of the largest kind, in the export's own layout: every
    seat taken by a widest name, every maal item counted, dhoos booked to the
    next winner. Under MAX_FILE_BYTES, so any backup import_session can read."""
    names = [f"{n:02d}{WIDEST}"[:MAX_PLAYER_NAME_LENGTH] for n in range(MAX_SESSION_PLAYERS)]
    seated = names[:MAX_ROUND_ENTRIES]
    largest = {
        "winner": seated[0],
        "win_type": "normal",
        "better": True,
        "tiplu": "10H",
        "entries": [
            {
                "player": name,
                "status": "unseen",
                "maal": 10_000,
                "tunnel": 10_000,
                "dhoos": True,
                "dublees": True,
                "maal_tally": dict.fromkeys(TALLY_ITEMS, 21),
            }
            for name in seated
        ],
        "net": dict.fromkeys(seated, -10_000_000),
        "dhoos_booked": [
            {"player": name, "amount": 10_000, "round": MAX_ROUNDS, "to": seated[0]}
            for name in seated[1:]
        ],
    }
    money = dict.fromkeys(names, "-1234567890.12")
    document = {
        **night(),
        "name": WIDEST * 2,
        "rules": make_rules("pagat").to_options(),
        "players": names,
        "rounds": [largest] * MAX_ROUNDS,
        "totals": dict.fromkeys(names, -10_000_000_000),
        "money": money,
        "transfers": [
            {"from": name, "to": names[0], "amount": "1234567890.12"} for name in names[1:]
        ],
    }
    size = len(sessionfile.dumps(document).encode())
    assert 10_000_000 < size < MAX_FILE_BYTES  # the largest, and room to spare


def test_a_session_at_the_limits_exports_and_imports_again(owner, tmp_path):
    # Thirty players with long Devanagari names, MAX_ROUNDS rounds of eight, each
    # with the maal calculator's tally: one round saved, the rest copied in bulk.
    names = [f"{n:02d} रामचन्द्र बहादुर श्रेष्ठ थापा मगर"[:MAX_PLAYER_NAME_LENGTH] for n in range(30)]
    session = make_session(owner, players=names, max_players=MAX_ROUND_ENTRIES)
    seated = names[:MAX_ROUND_ENTRIES]
    entries = tuple(Entry(name, "seen", 2, tunnel=1) for name in seated[1:])
    first = services.add_round(
        session=session,
        round_input=RoundInput(entries=(Entry(seated[0], "seen", 3), *entries), winner=seated[0]),
        tiplu="7H",
        tallies={seated[0]: {"tiplu": 1}},
    )
    rows = list(first.entries.all())
    copies = Round.objects.bulk_create(
        Round(session=session, number=n, winner_id=first.winner_id, tiplu="7H", better=False)
        for n in range(2, MAX_ROUNDS + 1)
    )
    RoundEntry.objects.bulk_create(
        (
            RoundEntry(
                round=r,
                player_id=e.player_id,
                maal=e.maal,
                tunnel=e.tunnel,
                net=e.net,
                maal_tally=e.maal_tally,
            )
            for r in copies
            for e in rows
        ),
        batch_size=2_000,
    )
    out = StringIO()
    call_command("export_session", str(session.pk), stdout=out)
    path = tmp_path / "full.json"
    path.write_text(out.getvalue(), encoding="utf-8")
    assert path.stat().st_size < MAX_FILE_BYTES
    imported = StringIO()
    call_command("import_session", str(path), "--second-copy", stdout=imported)
    copy_ = GameSession.objects.get(pk=int(imported.getvalue().split()[-1]))
    assert (copy_.players.count(), copy_.rounds.count()) == (30, MAX_ROUNDS)
    again = StringIO()
    call_command("export_session", str(copy_.pk), stdout=again)
    assert again.getvalue() == out.getvalue()
    # Full: the web saves no more rounds, so no backup holds more than a file may.
    with pytest.raises(RoundError, match=r"^a session holds at most 1,000 rounds; start a new "):
        services.add_round(session=copy_, round_input=RoundInput(entries=entries, winner=seated[1]))
    assert copy_.rounds.count() == MAX_ROUNDS


def full_session(owner, monkeypatch, limit: int = 3):
    """A session with as many rounds as the (lowered) limit allows."""
    monkeypatch.setattr(round_services, "MAX_ROUNDS", limit)
    session = make_session(owner)
    for _ in range(limit):
        services.add_round(session=session, round_input=worked_round())
    return session


def test_a_round_past_the_limit_is_refused_on_the_round_form(owner, client, monkeypatch):
    session = full_session(owner, monkeypatch)
    client.force_login(owner)
    before = list(RoundChange.objects.values_list("pk", flat=True))
    response = client.post(
        reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi")
    )
    assert response.status_code == 422
    html = unescape(response.content.decode())
    assert "The round was not saved:" in html
    assert "<li>a session holds at most 3 rounds; start a new session to play on</li>" in html
    assert session.rounds.count() == 3
    assert list(RoundChange.objects.values_list("pk", flat=True)) == before
    client.cookies["django_language"] = "ne"
    response = client.post(
        reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi")
    )
    assert "एउटा खेलमा बढीमा 3 राउन्ड हुन्छन्; अझै खेल्न नयाँ खेल सुरु गर्नुहोस्" in (response.content.decode())
    assert session.rounds.count() == 3


def test_a_restore_past_the_limit_is_refused(owner, client, monkeypatch):
    session = full_session(owner, monkeypatch)
    services.delete_round(round_=session.rounds.order_by("number").last(), user=owner)
    services.add_round(session=session, round_input=worked_round())  # full again
    change = RoundChange.objects.get(action="delete")
    with pytest.raises(services.RestoreError, match="at most 3 rounds"):
        services.restore_round(change=change)
    client.force_login(owner)
    client.cookies["django_language"] = "ne"
    response = client.post(reverse("round_restore", args=[session.pk, change.pk]), follow=True)
    assert "एउटा खेलमा बढीमा 3 राउन्ड हुन्छन्" in response.content.decode()
    assert session.rounds.count() == 3
    change.refresh_from_db()
    assert not change.restored


def test_a_31st_player_is_refused_by_the_service_too(session):
    """The form counts before the save's transaction; the service counts again
    inside it, so a form passed by two phones at once still makes no 31st."""
    Player.objects.bulk_create(
        Player(session=session, name=f"P{n}", position=10 + n) for n in range(26)
    )
    with (
        translation.override("en"),
        pytest.raises(PlayerNotAdded, match=r"^at most 30 players in one session$"),
    ):
        services.add_player(session=session, name="Bhai")
    assert session.players.count() == 30
