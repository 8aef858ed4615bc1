"""The web under hostile input and bad luck: oversized and lookalike input is
refused with a message and nothing half-saved; a round deleted while being
edited, an edit without its version, a locked-out admin, a missing SECRET_KEY,
a 404 and a 500 each get a clear answer; a saved round is never answered as an
error; logged-in pages are private to the browser."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import OperationalError, connection
from django.test import Client
from django.urls import reverse

from scoring import services
from scoring.engine.limits import MAX_FILE_BYTES
from scoring.models import GameSession, Player, Round, RoundEntry
from scoring.views import files as files_views
from scoring.views import rounds as round_views
from tests.site.test_concurrency import Phone, at_once
from tests.views.test_files import demo_doc
from tests.views.test_sessions import session_post
from tests.web_helpers import WORKED, make_session, round_data, worked_round

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[1]


def everything() -> list:
    return [
        list(GameSession.objects.values_list("id", "name", "updated_at")),
        list(Player.objects.values_list("id", "name", "name_key")),
        list(Round.objects.values_list("id", "number", "version")),
        list(RoundEntry.objects.values_list("id", "maal", "net", "maal_tally")),
    ]


def field_errors(html: str, field: str) -> str:
    html = unescape(html)
    part = html[html.index(f'id="field-{field}"') :]
    return part[: part.index("</div>")]


# --- imports ------------------------------------------------------------------------------


def upload(client, data: bytes):
    return client.post(
        reverse("session_import"),
        {"file": SimpleUploadedFile("night.json", data, "application/json")},
    )


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
    assert "खेल फाइलको सीमा 1,25,82,912 बाइटभन्दा ठूलो" in field_errors(
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
        "ne": "खेल फाइलको सीमा 1,25,82,912 बाइटभन्दा ठूलो",
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


# --- names in forms -------------------------------------------------------------------------

INVISIBLE = "a player name must have a visible letter or digit, not only invisible characters"


def invisible_in(name: str, code: str) -> str:
    return (
        f"{name} contains an invisible character (U+{code}, a zero-width or text-direction "
        "control); type the name again without it"
    )


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ("René\nRENÉ", "RENÉ is listed twice (as René)"),
        ("René\nRene\u0301", "René is listed twice"),
        ("Aama\nAa\u200bma", invisible_in("Aama", "200B")),
        ("Aama\n\u202eamaA", invisible_in("amaA", "202E")),
        ("Aama\n\u200b\u200b\nDidi", INVISIBLE),
        ("\n".join(f"P{n}" for n in range(31)), "at most 30 players in one session"),
    ],
)
def test_lookalike_names_in_the_new_session_form(logged_in, players, message):
    response = logged_in.post(reverse("session_new"), session_post(players=players))
    assert response.status_code == 422
    assert f"<li>Players: {message}</li>" in field_errors(response.content.decode(), "players")
    assert not GameSession.objects.exists()


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("AAMA", "AAMA already plays in this session (as Aama)"),
        ("Aama", "Aama already plays in this session"),
        ("Di\u200bdi", invisible_in("Didi", "200B")),
        ("\u2066\u2069", INVISIBLE),
    ],
)
def test_lookalike_names_when_adding_a_player(logged_in, session, name, message):
    before = everything()
    response = logged_in.post(reverse("player_add", args=[session.pk]), {"name": name})
    assert response.status_code == 422
    assert f"<li>Name: {message}</li>" in field_errors(response.content.decode(), "name")
    assert everything() == before


def test_a_decomposed_name_is_stored_composed(logged_in, session):
    response = logged_in.post(reverse("player_add", args=[session.pk]), {"name": "Rene\u0301"})
    assert response.status_code == 302
    assert Player.objects.filter(session=session, name="René", name_key="rené").exists()


def test_a_31st_player_is_refused(logged_in, session):
    for n in range(26):
        Player.objects.create(session=session, name=f"P{n}", position=10 + n)
    response = logged_in.post(reverse("player_add", args=[session.pk]), {"name": "Bhai"})
    assert "at most 30 players in one session" in response.content.decode()
    assert session.players.count() == 30


@pytest.mark.django_db(transaction=True)
def test_two_phones_adding_the_30th_player_at_once_make_30_not_31(live_server, owner):
    """Both forms count 29 before either saves; the service counts again with the
    session locked, so the second phone is told the session is full."""
    session = make_session(owner, players=[f"P{n}" for n in range(28)])
    phones = [Phone(live_server.url, owner) for _ in range(2)]
    path = reverse("player_add", args=[session.pk])
    for attempt in range(3):  # a race can hide once; three times in a row it cannot
        Player.objects.create(session=session, name=f"Q{attempt}", position=100 + attempt)
        assert session.players.count() == 29
        results = at_once(
            lambda: phones[0].post(path, {"name": "Bhai"}),
            lambda: phones[1].post(path, {"name": "Bhauju"}),
        )
        assert sorted(status for status, _body in results) == [302, 422]
        refused = next(body for status, body in results if status == 422)
        assert "at most 30 players in one session" in refused
        assert session.players.count() == 30
        session.players.filter(name__in=["Bhai", "Bhauju", f"Q{attempt}"]).delete()


def test_a_rename_to_a_case_twin_is_refused(logged_in, session):
    didi = session.players.get(name="Didi")
    url = reverse("player_edit", args=[session.pk, didi.pk])
    response = logged_in.post(url, {"name": "AAMA"})
    assert "AAMA already plays in this session (as Aama)" in unescape(response.content.decode())
    assert logged_in.post(url, {"name": "DIDI"}).status_code == 302  # its own name, recased
    assert session.players.filter(name="DIDI").exists()


# --- the round form ----------------------------------------------------------------------


def with_tally(session, tally_text: str) -> dict[str, str]:
    data = round_data(session, WORKED, "Didi")
    data["tiplu"] = "7H"
    data[f"p-{session.players.get(name='Aama').pk}-maal_tally"] = tally_text
    return data


def test_a_deeply_nested_tally_is_a_message_not_a_500(logged_in, session):
    response = logged_in.post(
        reverse("round_new", args=[session.pk]), with_tally(session, "[" * 100_000)
    )
    assert response.status_code == 422
    assert "the calculator&#x27;s count is too large or nested; count again" in (
        response.content.decode()
    )
    nested = '{"poplu": ' + "[" * 50 + "]" * 50 + "}"
    response = logged_in.post(reverse("round_new", args=[session.pk]), with_tally(session, nested))
    assert "count is too large or nested" in response.content.decode()
    assert not Round.objects.exists()


def test_a_key_twice_in_a_tally_is_refused(logged_in, session):
    twice = '{"poplu": 1, "poplu": 2}'
    response = logged_in.post(reverse("round_new", args=[session.pk]), with_tally(session, twice))
    assert response.status_code == 422
    assert (
        "the calculator&#x27;s count gives one item twice; count again" in response.content.decode()
    )
    assert not Round.objects.exists()


# --- editing --------------------------------------------------------------------------------


def test_an_edit_without_its_version_is_refused(logged_in, session):
    round_ = services.add_round(session, worked_round())
    before = everything()
    data = round_data(session, {**WORKED, "Dai": ("seen", 3)}, "Didi")
    response = logged_in.post(reverse("round_edit", args=[session.pk, round_.pk]), data)
    assert response.status_code == 400
    assert (
        "This form does not say which version of the round it changes; reload the round "
        "and make your change again." in unescape(response.content.decode())
    )
    assert everything() == before


def test_editing_a_round_deleted_meanwhile_says_so(logged_in, session):
    round_ = services.add_round(session, worked_round())
    url = reverse("round_edit", args=[session.pk, round_.pk])
    opened = {**round_data(session, WORKED, "Didi"), "version": "1"}
    services.delete_round(round_)  # another phone
    before = everything()
    response = logged_in.post(url, opened)
    html = unescape(response.content.decode())
    assert response.status_code == 409
    assert "This round was deleted by someone else since you opened it." in html
    assert "Your changes were not saved." in html
    assert reverse("session_changes", args=[session.pk]) in html
    assert everything() == before
    response = logged_in.get(url)
    assert response.status_code == 404
    assert "This round was deleted by someone else" in unescape(response.content.decode())
    never = logged_in.get(reverse("round_edit", args=[session.pk, round_.pk + 99]))
    assert "This session has no such round." in unescape(never.content.decode())


def test_the_deleted_round_page_in_nepali(logged_in, session):
    round_ = services.add_round(session, worked_round())
    services.delete_round(round_)
    logged_in.cookies["django_language"] = "ne"
    response = logged_in.get(reverse("round_edit", args=[session.pk, round_.pk]))
    assert "तपाईंले खोलेपछि यो राउन्ड अरू कसैले मेटाइसक्नुभयो।" in response.content.decode()


# --- after the commit nothing can fail the save ------------------------------------------


def test_a_saved_round_is_answered_saved_even_if_the_database_goes_away(
    logged_in, session, monkeypatch
):
    down = []

    def refuse(execute, sql, params, many, context):
        if down:
            raise OperationalError("server closed the connection unexpectedly")
        return execute(sql, params, many, context)

    saving = services.add_round

    def add_round_then_lose_the_database(*args, **kwargs):
        saved = saving(*args, **kwargs)
        down.append(True)  # the commit is done; the database stops now
        return saved

    monkeypatch.setattr(round_views.services, "add_round", add_round_then_lose_the_database)
    logged_in.get(reverse("home"))  # signed in: the user is cached, as on every later request
    with connection.execute_wrapper(refuse):
        response = logged_in.post(
            reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi")
        )
    assert response.status_code == 302
    assert response["Location"] == reverse("session_detail", args=[session.pk])
    assert Round.objects.count() == 1


def database_goes_away_after(monkeypatch, name: str):
    """services.<name> commits, then every query fails: a database stopped at the
    worst moment. Returns the wrapper to run the request under."""
    down: list[bool] = []

    def refuse(execute, sql, params, many, context):
        if down:
            raise OperationalError("server closed the connection unexpectedly")
        return execute(sql, params, many, context)

    saving = getattr(services, name)

    def save_then_lose_the_database(*args, **kwargs):
        saved = saving(*args, **kwargs)
        down.append(True)  # the commit is done; the database stops now
        return saved

    monkeypatch.setattr(services, name, save_then_lose_the_database)
    return connection.execute_wrapper(refuse)


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


def test_a_retried_save_with_its_key_answers_with_the_saved_round(logged_in, session):
    data = {**round_data(session, WORKED, "Didi"), "save_key": "retry-key-0001"}
    url = reverse("round_new", args=[session.pk])
    first = logged_in.post(url, data)
    again = logged_in.post(url, data, follow=True)  # the phone never saw the first answer
    assert first.status_code == 302
    assert "Round 1 saved." in again.content.decode()
    assert Round.objects.count() == 1
    assert RoundEntry.objects.count() == 4


# --- error pages --------------------------------------------------------------------------


def test_the_404_page_is_the_sites_in_both_languages(logged_in):
    response = logged_in.get("/no/such/page/")
    html = response.content.decode()
    assert response.status_code == 404
    assert "<h1>Page not found</h1>" in html
    assert 'class="topbar"' in html
    logged_in.cookies["django_language"] = "ne"
    html = logged_in.get("/no/such/page/").content.decode()
    assert "<h1>पेज भेटिएन</h1>" in html


@pytest.fixture
def crashing(logged_in, monkeypatch):
    def crash(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(round_views.services, "add_round", crash)
    logged_in.raise_request_exception = False
    return logged_in


def test_the_500_page_tells_a_saver_to_check_the_ledger(crashing, session):
    response = crashing.post(
        reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi")
    )
    html = unescape(response.content.decode())
    assert response.status_code == 500
    assert "<h1>Something went wrong on our side</h1>" in html
    assert (
        "If you were saving a round, it may have been saved already. Check the ledger "
        "before saving it again, so it is not counted twice." in html
    )
    assert f'href="{reverse("session_detail", args=[session.pk])}"' in html
    assert 'class="topbar"' in html
    crashing.cookies["django_language"] = "ne"
    html = crashing.post(
        reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi")
    ).content.decode()
    assert "हाम्रो तर्फबाट केही बिग्रियो" in html
    assert "हिसाब किताब जाँच्नुहोस्" in html


# --- headers, lockout, start-up ----------------------------------------------------------


def test_logged_in_pages_are_private(logged_in, session):
    for url in (reverse("home"), reverse("session_detail", args=[session.pk]), "/history/"):
        response = logged_in.get(url)
        assert response.status_code == 200
        assert "private" in response["Cache-Control"], url
    assert "private" not in Client().get(reverse("home")).get("Cache-Control", "")


def test_admin_lockout_answers_429(django_user_model):
    django_user_model.objects.create_superuser("boss", password="right-pass-123")
    client = Client()
    url = reverse("admin:login")
    for _attempt in range(5):
        assert client.post(url, {"username": "boss", "password": "wrong"}).status_code == 200
    response = client.post(url, {"username": "boss", "password": "right-pass-123"})
    assert response.status_code == 429
    assert "Too many failed log-in attempts" in response.content.decode()


def _start(**env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DEBUG")}
    clean.pop("DJANGO_SETTINGS_MODULE", None)
    return subprocess.run(
        [sys.executable, "-c", "import marriage_site.wsgi"],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_without_debug_and_secret_key_the_app_refuses_to_start():
    refused = _start(DEBUG="0")
    assert refused.returncode != 0
    assert "SECRET_KEY is not set. With DEBUG off the app will not start" in refused.stderr
    assert _start(DEBUG="0", SECRET_KEY="s" * 50).returncode == 0
    assert _start(DEBUG="1").returncode == 0
