"""Session files on the web: import through the upload form (files over the
limit refused before they are read whole, lookalike players refused, a save
answered saved after its commit), export as a download."""

from __future__ import annotations

import io
import json
import re
from decimal import Decimal
from html import unescape

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from localise.forms import EitherCalendarDateField
from scoring import services
from scoring.engine.limits import MAX_FILE_BYTES
from scoring.engine.sessionfile import loads
from scoring.models import GameSession, Player, Round, RoundEntry
from scoring.selectors.files import export_session
from scoring.views import files as files_views
from tests.samples import DEMO, demo_doc
from tests.web_helpers import (
    database_goes_away_after,
    field_errors,
    make_session,
    worked_round,
)

pytestmark = pytest.mark.django_db


def upload(client, content: str | bytes, name: str = "night.json"):
    data = content.encode() if isinstance(content, str) else content
    return client.post(
        reverse("session_import"), {"file": SimpleUploadedFile(name, data, "application/json")}
    )


def assert_nothing_saved():
    assert GameSession.objects.count() == 0
    assert Player.objects.count() == 0
    assert Round.objects.count() == 0
    assert RoundEntry.objects.count() == 0


# --- import -----------------------------------------------------------------------------------


def test_import_form_page(logged_in):
    html = logged_in.get(reverse("session_import")).content.decode()
    assert 'enctype="multipart/form-data"' in html
    assert 'type="file"' in html
    assert "marriage-session/1" in html


def test_import_needs_login(client):
    response = client.get(reverse("session_import"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_import_saves_the_whole_session_owned_by_the_user(logged_in, owner):
    response = upload(logged_in, DEMO.read_text(encoding="utf-8"))
    session = GameSession.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("session_detail", args=[session.pk])
    assert session.owner == owner
    assert session.name == "Dashain 2026 (demo)"
    assert session.stake_per_point == Decimal("2.50")
    assert [p.name for p in session.players.all()] == ["Aama", "Buwa", "Didi", "Dai"]
    assert session.rounds.count() == 4
    # Round 1 is RULES.md's worked example.
    first = {e.player.name: e.net for e in RoundEntry.objects.filter(round__number=1)}
    assert first == {"Aama": 3, "Buwa": -16, "Didi": 30, "Dai": -17}
    page = logged_in.get(response["Location"]).content.decode()
    assert "Imported Dashain 2026 (demo): 4 players, 4 rounds." in page


def test_import_accepts_a_byte_order_mark(logged_in):
    upload(logged_in, "\ufeff" + DEMO.read_text(encoding="utf-8"))
    assert GameSession.objects.count() == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            "{nope",
            "not JSON: Expecting property name enclosed in double quotes at line 1, column 2",
        ),
        (
            json.dumps({"format": "marriage-session/2"}),
            "format: must be &#x27;marriage-session/1&#x27;, got &#x27;marriage-session/2&#x27;",
        ),
        (b"\xff\xfe\x00bad", "not a text file (it must be UTF-8 JSON)"),
    ],
)
def test_import_errors_beside_the_file_field(logged_in, content, message):
    response = upload(logged_in, content)
    assert response.status_code == 422
    html = response.content.decode()
    field = html[html.index('id="field-file"') :]
    field = field[: field.index("</div>")]
    assert f"<li>Session file: {message}</li>" in field
    assert_nothing_saved()


def test_a_bad_last_round_saves_nothing(logged_in):
    doc = demo_doc()
    doc["rounds"][3]["entries"][0]["status"] = "unseen"
    doc["rounds"][3]["winner"] = "Buwa"
    response = upload(logged_in, json.dumps(doc))
    assert response.status_code == 422
    assert (
        "Session file: round 4, player Buwa, status: the winner must be seen: "
        "ending the round means having shown the pure sets" in response.content.decode()
    )
    assert_nothing_saved()


def test_a_bad_round_names_round_player_and_field(logged_in):
    doc = demo_doc()
    doc["rounds"][1]["entries"][0]["status"] = "unseen"
    html = upload(logged_in, json.dumps(doc)).content.decode()
    assert (
        "Session file: round 2, player Aama, status: a dublee winner must be seen "
        "(seven dublees show the tiplu)" in html
    )
    assert_nothing_saved()


def test_import_without_a_file(logged_in):
    response = logged_in.post(reverse("session_import"), {})
    assert response.status_code == 422
    assert "Session file: This field is required." in response.content.decode()
    assert_nothing_saved()


# --- export -----------------------------------------------------------------------------------


def test_export_downloads_the_same_json_as_the_command(logged_in, owner):
    session = make_session(owner, name="Tihar night")
    services.add_round(
        session=session,
        round_input=worked_round(),
    )
    response = logged_in.get(reverse("session_export", args=[session.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"] == (
        f'attachment; filename="tihar-night-{session.played_on:%Y-%m-%d}.json"'
    )
    out = io.StringIO()
    call_command("export_session", str(session.pk), stdout=out)
    assert response.content.decode() == out.getvalue()
    assert json.loads(response.content)["format"] == "marriage-session/1"


def test_export_then_import_round_trips(logged_in):
    upload(logged_in, DEMO.read_text(encoding="utf-8"))
    first = GameSession.objects.get()
    exported = logged_in.get(reverse("session_export", args=[first.pk])).content
    question = upload(logged_in, exported)  # the same evening: asked first
    logged_in.post(reverse("session_import"), {"confirm": confirm_token(question)})
    second = GameSession.objects.exclude(pk=first.pk).get()
    again = logged_in.get(reverse("session_export", args=[second.pk])).content
    assert again == exported


def test_export_of_a_nepali_name_keeps_the_letters(logged_in, owner):
    session = make_session(owner, name="तिहार २०८३")
    response = logged_in.get(reverse("session_export", args=[session.pk]))
    assert "filename*=utf-8''" in response["Content-Disposition"]


def test_export_is_owner_only(client, django_user_model, owner):
    session = make_session(owner)
    other = django_user_model.objects.create_user("sita", password="pw-sita-12345")
    client.force_login(other)
    assert client.get(reverse("session_export", args=[session.pk])).status_code == 404
    client.logout()
    assert client.get(reverse("session_export", args=[session.pk])).status_code == 302


# --- an evening imported twice ----------------------------------------------------------------


def asked(response) -> str:
    """The question an import asks before a second copy, or "" if it asks none."""
    html = response.content.decode()
    match = re.search(r'<section class="card narrow import-again".*?</section>', html, re.S)
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", match[0])).strip()) if match else ""


def confirm_token(response) -> str:
    found = re.search(r'name="confirm" value="([^"]+)"', response.content.decode())
    assert found is not None
    return found[1]


def test_an_evening_you_already_have_is_asked_about_before_a_second_copy(logged_in, owner):
    text = DEMO.read_text(encoding="utf-8")
    upload(logged_in, text)
    first = GameSession.objects.get()
    response = upload(logged_in, text)
    assert response.status_code == 200
    saved_on = date_format(timezone.localdate(), "j M Y")
    assert asked(response) == (
        "Import a second copy? "
        f"You already have this evening: Dashain 2026 (demo), 4 rounds, saved on {saved_on}. "
        "A second copy counts the evening twice on the leaderboard. "
        "Import a second copy "
        "Open Dashain 2026 (demo) Choose another file"
    )
    html = response.content.decode()
    assert f'href="{reverse("session_detail", args=[first.pk])}"' in html
    assert 'type="file"' not in html  # one question, one answer
    assert GameSession.objects.count() == 1


def test_a_confirmed_second_copy_is_imported(logged_in, owner):
    text = DEMO.read_text(encoding="utf-8")
    upload(logged_in, text)
    question = upload(logged_in, text)
    key = re.search(r'name="save_key" value="([^"]+)"', question.content.decode())[1]
    data = {"confirm": confirm_token(question), "save_key": key}
    response = logged_in.post(reverse("session_import"), data)
    second = GameSession.objects.latest("id")
    assert response.status_code == 302
    assert response["Location"] == reverse("session_detail", args=[second.pk])
    assert GameSession.objects.count() == 2 and Round.objects.count() == 8
    assert export_session(second) == export_session(GameSession.objects.first())
    page = logged_in.get(response["Location"]).content.decode()
    assert "Imported Dashain 2026 (demo): 4 players, 4 rounds." in page
    # A double tap on the answer: the same key, answered as the first.
    again = logged_in.post(reverse("session_import"), data)
    assert again["Location"] == response["Location"]
    assert GameSession.objects.count() == 2


def test_an_answer_whose_file_is_gone_asks_for_the_file_again(logged_in, owner):
    text = DEMO.read_text(encoding="utf-8")
    upload(logged_in, text)
    upload(logged_in, text)
    response = logged_in.post(reverse("session_import"), {"confirm": "not-the-token"})
    assert response.status_code == 302 and response["Location"] == reverse("session_import")
    page = logged_in.get(response["Location"]).content.decode()
    assert "That file is no longer held here; choose it again." in page
    assert GameSession.objects.count() == 1


def test_the_same_evening_written_otherwise_is_asked_about(logged_in, owner):
    upload(logged_in, DEMO.read_text(encoding="utf-8"))
    # Its own export (rules resolved, nets and totals added), a stake of "2.5",
    # the entries of each round in another order, no date: the same evening.
    doc = export_session(GameSession.objects.get())
    doc["stake_per_point"] = "2.5"
    del doc["played_on"]
    for round_ in doc["rounds"]:
        round_["entries"].reverse()
    assert asked(upload(logged_in, json.dumps(doc))).startswith("Import a second copy?")
    assert GameSession.objects.count() == 1


@pytest.mark.parametrize(
    "change",
    [
        lambda doc: doc["rounds"][3]["entries"][1].update(
            maal=doc["rounds"][3]["entries"][1]["maal"] + 1
        ),
        lambda doc: doc["rounds"].pop(),
        lambda doc: doc.update(played_on="2026-10-03"),
        lambda doc: doc.update(stake_per_point="5"),
        lambda doc: doc.update(name="Tihar 2026"),
    ],
    ids=["one maal", "a round fewer", "another day", "another stake", "another name"],
)
def test_a_different_file_imports_straight_away(logged_in, owner, change):
    upload(logged_in, DEMO.read_text(encoding="utf-8"))
    doc = demo_doc()
    change(doc)
    response = upload(logged_in, json.dumps(doc))
    assert response.status_code == 302
    assert GameSession.objects.count() == 2


def test_another_users_evening_is_not_asked_about(logged_in, owner, django_user_model):
    other = django_user_model.objects.create_user("sita")
    services.save_document(doc=loads(DEMO.read_text(encoding="utf-8")), owner=other)
    response = upload(logged_in, DEMO.read_text(encoding="utf-8"))
    assert response.status_code == 302
    assert GameSession.objects.filter(owner=owner).count() == 1


def rotation_file(rounds: int, **marks: bool) -> str:
    """`rounds` of RULES.md's worked example (Didi wins) under better after a
    rotation; `marks` gives round "r6" an explicit `better`."""
    entries = [
        {"player": "Aama", "status": "seen", "maal": 5},
        {"player": "Buwa", "status": "unseen", "maal": 2},
        {"player": "Didi", "status": "seen", "maal": 7},
        {"player": "Dai", "status": "seen"},
    ]
    played = []
    for number in range(1, rounds + 1):
        round_: dict[str, object] = {"winner": "Didi", "entries": entries}
        if f"r{number}" in marks:
            round_["better"] = marks[f"r{number}"]
        played.append(round_)
    return json.dumps(
        {
            "format": "marriage-session/1",
            "name": "Rotation",
            "players": ["Aama", "Buwa", "Didi", "Dai"],
            "rules": {"better_after_rotation": True},
            "rounds": played,
        }
    )


def test_an_imported_rounds_default_better_moves_when_an_earlier_round_is_deleted(logged_in):
    upload(logged_in, rotation_file(7, r7=True))
    session = GameSession.objects.get()
    rounds = list(session.rounds.order_by("number"))
    # Round 5 is due (four players); round 7 is marked better in the file.
    assert [r.better for r in rounds] == [False] * 4 + [True, False, True]
    assert [r.better_mark for r in rounds] == [None] * 6 + [True]
    logged_in.post(reverse("round_delete", args=[session.pk, rounds[0].pk]))
    kept = list(session.rounds.order_by("number"))
    # Old round 6 is round 5 now, due after a full rotation: it is better and
    # Didi wins double; old round 5 (now 4) is not. The mark stays on its round.
    assert [r.better for r in kept] == [False] * 4 + [True, True]
    assert [r.better_mark for r in kept] == [None] * 5 + [True]
    nets = [dict(r.entries.values_list("player__name", "net")) for r in kept]
    assert [n["Didi"] for n in nets] == [30, 30, 30, 30, 60, 60]
    exported = json.loads(logged_in.get(reverse("session_export", args=[session.pk])).content)
    assert [r.get("better") for r in exported["rounds"]] == [None] * 5 + [True]


# --- the evening's date in either calendar ---------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "day"),
    [
        ("2083-07-26", "2026-11-12"),  # Bikram Sambat, as the session form reads it
        ("2083-07-26 BS", "2026-11-12"),
        ("2026-11-12", "2026-11-12"),  # Gregorian
        ("२०८३-०७-२६", "2026-11-12"),
    ],
)
def test_a_files_date_is_read_as_the_session_form_reads_it(logged_in, typed, day):
    """played_on "2083-07-26" is 26 Kartik 2083 BS (12 Nov 2026) in a file as on
    the new-session form, not the year AD 2083; the export writes the Gregorian."""
    doc = demo_doc() | {"played_on": typed}
    response = upload(logged_in, json.dumps(doc))
    assert response.status_code == 302
    session = GameSession.objects.get()
    assert session.played_on.isoformat() == day
    assert EitherCalendarDateField().clean(typed) == session.played_on  # the form's reading
    exported = json.loads(logged_in.get(reverse("session_export", args=[session.pk])).content)
    assert exported["played_on"] == day


def test_a_files_date_that_is_in_neither_calendar_is_refused(logged_in):
    doc = demo_doc() | {"played_on": "2083-13-01"}
    html = unescape(upload(logged_in, json.dumps(doc)).content.decode())
    assert "played_on: must be a date such as \"2026-10-02\", got '2083-13-01'" in html
    assert_nothing_saved()


def test_a_150000_player_file_is_refused_on_the_web_naming_the_limit(logged_in):
    doc = demo_doc()
    doc["players"] = [f"Player {n}" for n in range(150_000)]
    doc["rounds"] = []
    response = upload(logged_in, json.dumps(doc).encode())
    assert response.status_code == 422
    assert (
        "<li>Session file: players: at most 30 players in a session, got 150,000</li>"
        in field_errors(response.content.decode(), "file")
    )
    assert not GameSession.objects.exists() and not Player.objects.exists()


def test_a_file_a_little_over_the_limit_is_dropped_with_the_form(logged_in):
    # Over the limit by its Content-Length: none of it is kept, and the rest of the
    # body is read and dropped so the browser shows the message (both languages).
    response = upload(logged_in, b" " * (MAX_FILE_BYTES + 100 * 1024))
    assert response.status_code == 422
    assert (
        "<li>Session file: larger than the limit of 12,582,912 bytes for a session file</li>"
        in field_errors(response.content.decode(), "file")
    )
    logged_in.cookies["django_language"] = "ne"
    response = upload(logged_in, b" " * (MAX_FILE_BYTES + 100 * 1024))
    assert response.status_code == 422
    assert "फाइल धेरै ठूलो भयो: खेल फाइल बढीमा 1,25,82,912 बाइटको हुन सक्छ" in field_errors(
        response.content.decode(), "file"
    )
    assert not GameSession.objects.exists()


class EndlessUpload:
    """A request body that says it is 10 GB and never ends: the form's fields,
    then a file of spaces for as long as anyone reads. Counts what was read."""

    BOUNDARY = "----endless"

    def __init__(self, token: str) -> None:
        part = f"--{self.BOUNDARY}\r\nContent-Disposition: form-data; name="
        self.head = (
            f'{part}"csrfmiddlewaretoken"\r\n\r\n{token}\r\n'
            f'{part}"file"; filename="huge.json"\r\nContent-Type: application/json\r\n\r\n'
        ).encode()
        self.read_bytes = 0

    def read(self, size: int = -1) -> bytes:
        assert size >= 0, "the body was read whole"
        data = (self.head[self.read_bytes : self.read_bytes + size]).ljust(size, b" ")
        self.read_bytes += size
        # Stop a regression at once rather than after reading 10 GB.
        assert self.read_bytes <= 1024 * 1024, "the body is being read to its end"
        return data

    def readline(self, size: int = -1) -> bytes:
        return self.read(size if size >= 0 else 1024)


@pytest.mark.parametrize("language", ["en", "ne"])
def test_a_huge_upload_is_refused_without_reading_its_body(owner, language):
    client = Client(enforce_csrf_checks=True)  # the token is read from the body
    client.force_login(owner)
    client.cookies["django_language"] = language
    client.get(reverse("session_import"))
    body = EndlessUpload(client.cookies["csrftoken"].value)
    response = client.generic(
        "POST",
        reverse("session_import"),
        CONTENT_TYPE=f"multipart/form-data; boundary={EndlessUpload.BOUNDARY}",
        CONTENT_LENGTH=str(10 * 1024**3),
        **{"wsgi.input": body},
    )
    assert response.status_code == 422
    message = {
        "en": "Session file: larger than the limit of 12,582,912 bytes for a session file",
        "ne": "फाइल धेरै ठूलो भयो: खेल फाइल बढीमा 1,25,82,912 बाइटको हुन सक्छ",
    }[language]
    assert message in field_errors(response.content.decode(), "file")
    assert body.read_bytes <= 256 * 1024  # the fields and the first chunk of the file
    assert not GameSession.objects.exists()


def test_a_file_just_over_the_limit_is_stopped_while_it_streams(logged_in):
    # Within the request's allowance for other fields, so only the streamed count stops it.
    response = upload(logged_in, b" " * (MAX_FILE_BYTES + 1))
    assert response.status_code == 422
    assert "larger than the limit of 12,582,912 bytes" in response.content.decode()


def test_lookalike_players_in_an_imported_file_are_refused(logged_in):
    for players, message in [
        (["Aama", "aama", "Didi"], "players: aama is listed twice (as Aama)"),
        (["Aama", "Aa\u200bma"], "players, entry 2: Aama contains an invisible character"),
    ]:
        doc = demo_doc()
        doc["players"], doc["rounds"] = players, []
        response = upload(logged_in, json.dumps(doc).encode())
        assert response.status_code == 422
        assert message in unescape(response.content.decode())
    assert not GameSession.objects.exists()


def test_a_saved_import_is_answered_saved_even_if_the_database_goes_away(logged_in, monkeypatch):
    logged_in.get(reverse("home"))  # signed in: the user is cached, as on every later request
    with database_goes_away_after(monkeypatch, "save_document"):
        response = upload(logged_in, json.dumps(demo_doc()).encode())
    session = GameSession.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("session_detail", args=[session.pk])
    said = logged_in.get(response["Location"]).content.decode()
    players, rounds = len(demo_doc()["players"]), len(demo_doc()["rounds"])
    assert f"Imported {session.name}: {players} players, {rounds} rounds." in unescape(said)


def test_a_confirmed_second_copy_is_answered_saved_even_if_the_database_goes_away(
    logged_in, monkeypatch
):
    upload(logged_in, json.dumps(demo_doc()).encode())
    question = upload(logged_in, json.dumps(demo_doc()).encode())  # the same evening: it asks
    token = re.search(r'name="confirm" value="([^"]+)"', question.content.decode())
    assert token is not None and files_views.PENDING in logged_in.session
    with database_goes_away_after(monkeypatch, "save_document"):
        response = logged_in.post(reverse("session_import"), {"confirm": token[1]})
    assert response.status_code == 302
    second = GameSession.objects.order_by("pk").last()
    assert response["Location"] == reverse("session_detail", args=[second.pk])
    assert GameSession.objects.count() == 2
    assert files_views.PENDING not in logged_in.session  # forgotten before the save
