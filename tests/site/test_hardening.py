"""No 500 from input (issue 22): every value fuzzing found answering 500, or
saved when it should not be, answers 400/404/422 with a message, or exits 2
with one line on the command line. The same tests run on PostgreSQL
(`scripts/with-postgres`), where a NUL or an over-long value is an error of
the database itself."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from html import unescape
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management.base import CommandError
from django.db import InterfaceError, OperationalError, connection
from django.db.backends.utils import CursorWrapper
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation

from scoring import services
from scoring.engine.limits import MAX_NAME_LENGTH
from scoring.engine.numbers import NotANumber, TooManyDigits, parse_decimal, parse_whole
from scoring.engine.sessionfile import loads
from scoring.models import GameSession, Player, Round, RoundChange, SavedKey
from scoring.services import rounds as round_services
from scoring.views import rounds as round_views
from scoring.views.errors import server_error
from tests.files.test_commands import run
from tests.samples import night
from tests.services.test_savekeys import MALFORMED, REUSED, refusal, saved_message
from tests.web_helpers import WORKED, make_session, round_data, session_post, worked_round

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
KEY = "5b3f0c1e-8d2a-4c57-9e61-0f2d7a9b4c11"


def field_errors(html: str, field: str) -> str:
    """The text of the block of `field` on a Django form page."""
    return unescape(html.split(f'id="field-{field}"')[1].split("</div>")[0])


# --- one parser for every number ---------------------------------------------------------------


@pytest.mark.parametrize("text", ["²", "1_000", "٣", "５", "1 000", "", "+", "0x10", "१.५", "NaN"])
def test_a_whole_number_is_ascii_digits_only(text):
    with pytest.raises(NotANumber):
        parse_whole(text)


def test_devanagari_digits_only_where_asked_and_a_bound_before_int():
    assert parse_whole(" 42 ") == 42 and parse_whole("-3") == -3 and parse_whole("007") == 7
    assert parse_whole("९", devanagari=True) == 9 and parse_whole("१०", devanagari=True) == 10
    with pytest.raises(NotANumber):
        parse_whole("९")
    with pytest.raises(NotANumber):
        parse_whole("٣", devanagari=True)  # Arabic-Indic is not a Nepali keyboard's
    with pytest.raises(TooManyDigits):
        parse_whole("9" * 5000)  # int() would raise ValueError past 4,300 digits
    assert str(parse_decimal("2.50")) == "2.50" and str(parse_decimal("1e3")) == "1E+3"
    for text in ("1_000.5", "٣", "５", "NaN", "Infinity", "1,5"):
        with pytest.raises(NotANumber):
            parse_decimal(text)


@pytest.mark.parametrize("number", ["²", "٣", "9" * 5000, "-1", "1_0"])
def test_the_previews_round_number_never_answers_500(logged_in, session, number):
    data = round_data(session, WORKED, "Didi") | {"number": number}
    response = logged_in.post(reverse("round_preview", args=[session.pk]), data)
    assert response.status_code == 200
    assert "+30" in response.content.decode()  # previewed as the next round


@pytest.mark.parametrize("version", ["²", "٣", "５", "9" * 5000, "1_0"])
def test_an_edits_version_that_is_no_number_is_refused_with_400(logged_in, session, version):
    round_ = services.add_round(session=session, round_input=worked_round())
    url = reverse("round_edit", args=[session.pk, round_.pk])
    data = round_data(session, WORKED, "Dai") | {"version": version}
    response = logged_in.post(url, data)
    assert response.status_code == 400
    assert (
        "This form does not say which version of the round it changes; reload the round "
        "and make your change again."
    ) in unescape(response.content.decode())
    round_.refresh_from_db()
    assert round_.version == 1 and round_.winner.name == "Didi"


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("1_000", "Aama, maal: must be a whole number, got '1_000'"),
        ("٣", "Aama, maal: must be a whole number, got '٣'"),
        ("５", "Aama, maal: must be a whole number, got '５'"),
        ("²", "Aama, maal: must be a whole number, got '²'"),
        ("9" * 5000, "Aama, maal: 5,000 digits is more than 10,000 points; check the number"),
    ],
)
def test_a_typed_number_is_ascii_or_devanagari_digits(logged_in, session, typed, message):
    url = reverse("round_new", args=[session.pk])
    data = round_data(session, WORKED, "Didi")
    aama = session.players.get(name="Aama").pk
    response = logged_in.post(url, data | {f"p-{aama}-maal": typed})
    assert response.status_code == 422
    assert message in unescape(response.content.decode())
    assert not Round.objects.exists()
    # A Nepali keyboard's digits are the number they show.
    saved = logged_in.post(url, data | {f"p-{aama}-maal": "५"})
    assert saved.status_code == 302
    assert Round.objects.get().entries.get(player_id=aama).maal == 5


@pytest.mark.parametrize("stake", ["1_000", "٣", "５"])
def test_a_stake_that_python_would_read_is_refused(logged_in, stake):
    response = logged_in.post(reverse("session_new"), session_post(stake_per_point=stake))
    assert response.status_code == 422
    assert "Stake per point: Enter a number." in field_errors(
        response.content.decode(), "stake_per_point"
    )
    assert not GameSession.objects.exists()


@pytest.mark.parametrize("value", ["1_0", "٣", "５"])
def test_a_rule_number_that_python_would_read_is_refused(logged_in, value):
    response = logged_in.post(reverse("session_new"), session_post(seen_payment=value))
    assert response.status_code == 422
    assert "Seen payment: Enter a whole number." in field_errors(
        response.content.decode(), "seen_payment"
    )


def test_a_date_in_other_digits_is_refused(logged_in):
    response = logged_in.post(reverse("session_new"), session_post(played_on="２０２６-10-02"))
    assert response.status_code == 422
    assert "Date: Enter a valid date." in field_errors(response.content.decode(), "played_on")


def test_a_maal_count_that_python_would_read_is_refused(logged_in, session):
    url = reverse("maal_calculator", args=[session.pk])
    html = logged_in.post(url, {"tiplu": "7H", "n-tiplu": "１"}).content.decode()
    assert "tiplu: must be a whole number, got &#x27;１&#x27;" in html
    html = logged_in.post(url, {"tiplu": "7H", "n-tiplu": "१"}).content.decode()
    assert "must be a whole number" not in html


def test_a_stake_in_a_file_is_ascii_digits_only(tmp_path):
    path = tmp_path / "night.json"
    path.write_text(json.dumps(night() | {"stake_per_point": "2_50"}), encoding="utf-8")
    with pytest.raises(CommandError) as error:
        run("import_session", str(path))
    assert (error.value.returncode, str(error.value)) == (
        2,
        "stake_per_point: must be a decimal string such as \"2.50\", got '2_50'",
    )


@pytest.mark.parametrize("command", ["export_session", "share_link"])
@pytest.mark.parametrize("typed", ["١", "1_0", "１", "¹"])
def test_a_session_id_on_the_command_line_is_ascii_digits(session, command, typed):
    """argparse's int() read "١" as 1: the command exported another session."""
    with pytest.raises(CommandError, match=r"^Error: argument id: not a session id: "):
        run(command, typed)
    assert not GameSession.objects.exclude(share_token=None).exists()


# --- bounds checked on what is stored ----------------------------------------------------------

EIGHT_ESZETT = "ß" * 8  # upper-cased: SSSSSSSSSSSSSSSS, sixteen letters
EIGHT_FFI = "ﬃ" * 8  # upper-cased: FFI eight times, twenty-four letters


@pytest.mark.parametrize(
    ("currency", "shown", "count"),
    [(EIGHT_ESZETT, "SSSSSSSSSSSSSSSS", 16), (EIGHT_FFI, "FFIFFIFFIFFIFFIFFIFF", 24)],
)
def test_a_currency_is_bounded_once_in_capitals_on_the_forms(
    logged_in, session, currency, shown, count
):
    message = (
        f"Currency: a currency may be at most 8 characters once in capitals, got {shown} ({count})"
    )
    response = logged_in.post(reverse("session_new"), session_post(currency=currency))
    assert response.status_code == 422
    assert message in field_errors(response.content.decode(), "currency")
    assert GameSession.objects.count() == 1
    details = {
        "name": session.name,
        "played_on": "2026-10-02",
        "currency": currency,
        "stake_per_point": "1",
    }
    response = logged_in.post(reverse("session_edit", args=[session.pk]), details)
    assert response.status_code == 422
    assert message in field_errors(response.content.decode(), "currency")
    session.refresh_from_db()
    assert session.currency == "NPR"
    # Four of them fit: stored as the capitals the ledger shows.
    saved = logged_in.post(reverse("session_new"), session_post(currency="ßß"))
    assert saved.status_code == 302
    assert GameSession.objects.latest("pk").currency == "SSSS"


@pytest.mark.parametrize("currency", [EIGHT_ESZETT, EIGHT_FFI])
def test_a_currency_is_bounded_once_in_capitals_in_a_file(tmp_path, currency):
    path = tmp_path / "night.json"
    path.write_text(json.dumps(night() | {"currency": currency}), encoding="utf-8")
    with pytest.raises(CommandError) as error:
        run("import_session", str(path))
    assert error.value.returncode == 2
    assert str(error.value).startswith(
        "currency: a currency may be at most 8 characters once in capitals, got "
    )
    assert not GameSession.objects.exists()


def test_the_command_line_exits_2_with_one_line_for_the_currency(tmp_path):
    """In its own process: no traceback, one line, exit status 2 (it was 1)."""
    path = tmp_path / "night.json"
    path.write_text(json.dumps(night() | {"currency": EIGHT_ESZETT}), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env |= {"SQLITE_PATH": str(tmp_path / "db.sqlite3"), "DEBUG": "1", "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run(
        [sys.executable, "manage.py", "import_session", str(path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "currency: a currency may be at most 8 characters once in capitals, "
        "got SSSSSSSSSSSSSSSS (16)"
    ]
    assert done.stdout == ""


def test_the_web_import_bounds_the_currency_too(logged_in):
    text = json.dumps(night() | {"currency": EIGHT_ESZETT})
    upload = SimpleUploadedFile("night.json", text.encode(), "application/json")
    response = logged_in.post(reverse("session_import"), {"file": upload})
    assert response.status_code == 422
    assert (
        "currency: a currency may be at most 8 characters once in capitals, "
        "got SSSSSSSSSSSSSSSS (16)"
    ) in unescape(response.content.decode())
    assert not GameSession.objects.exists()


def test_a_session_name_is_bounded_once_normalised(logged_in):
    # U+0958 (क़) is one character that NFC writes as two: 60 of them are 120.
    name = "\u0958" * 60
    response = logged_in.post(reverse("session_new"), session_post(name=name))
    assert response.status_code == 422
    assert f"a name may be at most {MAX_NAME_LENGTH} characters" in field_errors(
        response.content.decode(), "name"
    )
    with pytest.raises(ValueError, match=r"^name: .*a name may be at most 100 characters$"):
        loads(json.dumps(night() | {"name": name}))
    assert not GameSession.objects.exists()


# --- session names refuse what player names refuse ---------------------------------------------

ZERO_WIDTH_ONLY = "\u200b"
OVERRIDE = "Tihar\u202e night"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            ZERO_WIDTH_ONLY,
            "Name: a session name must have a visible letter or digit, not only invisible "
            "characters",
        ),
        (
            OVERRIDE,
            "Name: Tihar night contains an invisible character (U+202E, a zero-width or "
            "text-direction control); type the name again without it",
        ),
    ],
)
def test_a_session_name_with_an_invisible_character_is_refused(logged_in, session, name, message):
    response = logged_in.post(reverse("session_new"), session_post(name=name))
    assert response.status_code == 422
    assert message in field_errors(response.content.decode(), "name")
    details = {"name": name, "played_on": "2026-10-02", "currency": "NPR", "stake_per_point": "1"}
    response = logged_in.post(reverse("session_edit", args=[session.pk]), details)
    assert response.status_code == 422
    assert message in field_errors(response.content.decode(), "name")
    assert list(GameSession.objects.values_list("name", flat=True)) == ["Tihar night"]


def test_a_session_name_with_an_invisible_character_is_refused_in_a_file(tmp_path):
    for name, message in [
        (
            ZERO_WIDTH_ONLY,
            "name: a session name must have a visible letter or digit, not only invisible "
            "characters",
        ),
        (
            OVERRIDE,
            "name: Tihar night contains an invisible character (U+202E, a zero-width or "
            "text-direction control); type the name again without it",
        ),
    ]:
        path = tmp_path / "night.json"
        path.write_text(json.dumps(night() | {"name": name}), encoding="utf-8")
        with pytest.raises(CommandError) as error:
            run("import_session", str(path))
        assert (error.value.returncode, str(error.value)) == (2, message)
    assert not GameSession.objects.exists()


# --- a NUL in a share link ---------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/s/%00/", "/s/abc%00def/", "/s/abc%00def/live/", "/s/%00/live/"])
def test_a_nul_in_a_share_link_is_404(client, session, path):
    services.create_share_link(session=session)
    response = client.get(path)
    assert response.status_code == 404
    assert "Page not found" in response.content.decode()


# --- a player renamed or removed while the round is saved --------------------------------------


def _while_saving(monkeypatch, change):
    """`change()` runs after the form read the players, before the save's transaction."""
    real = services.add_round

    def add_round(*args, **kwargs):
        change()
        return real(*args, **kwargs)

    monkeypatch.setattr(round_views.services, "add_round", add_round)


def test_a_round_saved_while_a_player_is_renamed_is_saved_with_that_player(
    logged_in, session, monkeypatch
):
    dai = session.players.get(name="Dai")
    _while_saving(monkeypatch, lambda: services.rename_player(player=dai, name="Thulo Dai"))
    response = logged_in.post(
        reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi")
    )
    assert response.status_code == 302
    assert saved_message(response) == ["Round 1 saved."]
    nets = dict(Round.objects.get().entries.values_list("player__name", "net"))
    assert nets == {"Aama": 3, "Buwa": -16, "Didi": 30, "Thulo Dai": -17}


def test_a_round_saved_while_a_player_is_removed_is_refused_with_a_message(
    logged_in, session, monkeypatch
):
    dai = session.players.get(name="Dai")
    _while_saving(monkeypatch, lambda: services.remove_player(player=dai))
    response = logged_in.post(
        reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi")
    )
    assert response.status_code == 422
    assert (
        "<li>Dai was removed from this session while the round was being saved; reload the "
        "round and save it again</li>"
    ) in unescape(response.content.decode())
    assert not Round.objects.exists() and not RoundChange.objects.exists()


def test_an_edit_saved_while_a_player_is_renamed_is_saved_with_that_player(
    logged_in, session, monkeypatch
):
    round_ = services.add_round(session=session, round_input=worked_round())
    didi = session.players.get(name="Didi")
    real = services.replace_round

    def replace_round(*args, **kwargs):
        services.rename_player(player=didi, name="Sano Didi")
        return real(*args, **kwargs)

    monkeypatch.setattr(round_views.services, "replace_round", replace_round)
    url = reverse("round_edit", args=[session.pk, round_.pk])
    data = round_data(session, {**WORKED, "Dai": ("seen", 3)}, "Didi") | {"version": "1"}
    response = logged_in.post(url, data)
    assert response.status_code == 302
    assert saved_message(response) == ["Round 1 changed."]
    round_.refresh_from_db()
    assert round_.winner.name == "Sano Didi"


def test_the_service_finds_players_by_id_when_the_names_moved(session):
    """Two names swapped after the form read them: each entry stays with its player."""
    players = list(session.players.all())
    aama, buwa = (p for p in players if p.name in ("Aama", "Buwa"))
    Player.objects.filter(pk=aama.pk).update(name="Tmp")
    Player.objects.filter(pk=buwa.pk).update(name="Aama")
    Player.objects.filter(pk=aama.pk).update(name="Buwa")
    round_ = services.add_round(session=session, round_input=worked_round(), players=players)
    by_id = dict(round_.entries.values_list("player_id", "net"))
    assert (by_id[aama.pk], by_id[buwa.pk]) == (3, -16)


# --- one-time keys -----------------------------------------------------------------------------


def test_a_round_key_replayed_to_another_session_is_refused_as_reused(logged_in, session, owner):
    first = logged_in.post(
        reverse("round_new", args=[session.pk]),
        round_data(session, WORKED, "Didi") | {"save_key": KEY},
    )
    assert first.status_code == 302
    other = make_session(owner, name="Dashain night")
    replayed = logged_in.post(
        reverse("round_new", args=[other.pk]),
        round_data(other, WORKED, "Didi") | {"save_key": KEY},
    )
    assert replayed.status_code == 400
    assert refusal(replayed) == REUSED
    assert not Round.objects.filter(session=other).exists()
    # The page offers the session it was sent to.
    assert reverse("session_detail", args=[other.pk]) in replayed.content.decode()


def test_a_session_key_replayed_as_a_round_looks_up_no_round(logged_in, owner):
    created = logged_in.post(reverse("session_new"), session_post() | {"save_key": KEY})
    assert created.status_code == 302
    session = GameSession.objects.get()
    # A round whose id is the session's: the key must not answer with it.
    round_ = services.add_round(session=session, round_input=worked_round())
    if connection.vendor == "sqlite":  # PostgreSQL's sequences are not reset between tests
        assert round_.pk == session.pk
    replayed = logged_in.post(
        reverse("round_new", args=[session.pk]),
        round_data(session, WORKED, "Didi") | {"save_key": KEY},
    )
    assert replayed.status_code == 400
    assert refusal(replayed) == REUSED
    assert Round.objects.count() == 1


def test_a_player_key_and_an_import_key_answer_only_their_own_kind(logged_in, session, owner):
    added = logged_in.post(
        reverse("player_add", args=[session.pk]), {"name": "Kaka", "save_key": KEY}
    )
    assert added.status_code == 302
    other = make_session(owner, name="Dashain night")
    for url, data in [
        (reverse("player_add", args=[other.pk]), {"name": "Kaki"}),  # another session
        (reverse("session_new"), session_post()),  # another kind
        (reverse("session_import"), {}),
    ]:
        refused = logged_in.post(url, data | {"save_key": KEY})
        assert (refused.status_code, refusal(refused)) == (400, REUSED)
    assert not other.players.filter(name="Kaki").exists()
    assert GameSession.objects.count() == 2
    assert list(SavedKey.objects.values_list("kind", flat=True)) == ["player"]


def test_a_concurrent_repeat_of_another_kind_is_refused_not_replayed(session, owner):
    """Past the first look (two saves at once), the unique constraint answers: a
    key kept with a session does not make a round's save answer with a round."""
    created = services.create_session(
        owner=owner,
        name="Night",
        played_on=session.played_on,
        currency="NPR",
        stake_per_point=session.stake_per_point,
        rules=session.get_rules(),
        players=["Aama", "Buwa"],
        save_key=KEY,
    )
    from scoring.selectors.saves import SaveKeyRefused

    with pytest.raises(SaveKeyRefused):
        services.add_round(session=session, round_input=worked_round(), user=owner, save_key=KEY)
    assert not Round.objects.exists()
    assert SavedKey.objects.get().object_pk == created.pk


def test_the_repeat_of_the_last_round_a_session_holds_is_answered_as_saved(
    logged_in, owner, monkeypatch
):
    """The key is looked at before the form: the repeat of the round that filled
    the session is "Round 3 saved.", not "at most 3 rounds" (1,000 lowered to 3)."""
    monkeypatch.setattr(round_services, "MAX_ROUNDS", 3)
    session = make_session(owner)
    for _ in range(2):
        services.add_round(session=session, round_input=worked_round())
    url = reverse("round_new", args=[session.pk])
    data = round_data(session, WORKED, "Didi") | {"save_key": KEY}
    first = logged_in.post(url, data)
    assert saved_message(first) == ["Round 3 saved."]
    logged_in.get(first["Location"])
    again = logged_in.post(url, data)
    assert again.status_code == 302 and again["Location"] == first["Location"]
    assert saved_message(again) == ["Round 3 saved."]
    assert session.rounds.count() == 3


def test_a_malformed_key_is_refused_in_nepali(logged_in, session):
    logged_in.cookies[settings.LANGUAGE_COOKIE_NAME] = "ne"
    refused = logged_in.post(
        reverse("round_new", args=[session.pk]),
        round_data(session, WORKED, "Didi") | {"save_key": "short.7"},
    )
    assert refused.status_code == 400
    assert refusal(refused) == (
        "यो फारमको एक पटके साँचो यो साइटले बनाएको होइन, त्यसैले केही सुरक्षित भएन। "
        "पेज फेरि खोलेर फेरि सुरक्षित गर्नुहोस्।"
    )
    assert refusal(refused) != MALFORMED


# --- a database outage: 503, never a traceback -------------------------------------------------

RETRY = (
    "The scorekeeper cannot reach its database just now. Nothing you typed was wrong. "
    "Wait a moment, then try again."
)
RETRY_NE = (
    "म्यारिज अंक पुस्तिकाले अहिले आफ्नो डाटाबेससम्म पुग्न सकेन। तपाईंले लेखेको केही गलत थिएन। "
    "एकछिन पर्खेर फेरि प्रयास गर्नुहोस्।"
)


def _outage_page_text(response) -> str:
    html = unescape(response.content.decode())
    found = re.search(r'role="alert">\s*<p>(.*?)</p>', html, re.S)
    assert found, html
    return " ".join(found[1].split())


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
@pytest.mark.parametrize(("language", "text"), [("en", RETRY), ("ne", RETRY_NE)])
def test_a_request_during_a_database_outage_answers_503_saying_to_retry(
    logged_in, session, error, language, text
):
    logged_in.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    down = error("could not connect to server: Connection refused")
    data = round_data(session, WORKED, "Didi")
    with mock.patch.object(CursorWrapper, "execute", side_effect=down):
        page = logged_in.get(reverse("session_detail", args=[session.pk]))
        save = logged_in.post(reverse("round_new", args=[session.pk]), data)
    for response in (page, save):
        assert response.status_code == 503
        assert response["Retry-After"] == "5"
        assert "no-store" in response["Cache-Control"]
        assert _outage_page_text(response) == text
        assert "Traceback" not in response.content.decode()
    said = unescape(save.content.decode())
    assert (
        "If you were saving, go back and send the form again once the site answers: a form "
        "sent twice is saved only once."
        if language == "en"
        else "दुई पटक पठाएको फारम एक पटक मात्र सुरक्षित हुन्छ।"
    ) in " ".join(said.split())
    assert not Round.objects.exists()
    # Once the database answers again, so does the page.
    assert logged_in.get(reverse("session_detail", args=[session.pk])).status_code == 200


def test_an_outage_outside_a_view_reaches_the_same_page():
    """A middleware's query fails: Django's 500 handler answers the 503 page."""
    request = RequestFactory().get("/sessions/3/")
    try:
        raise OperationalError("server closed the connection unexpectedly")
    except OperationalError:
        with translation.override("en"):
            response = server_error(request)
    assert response.status_code == 503
    assert _outage_page_text(response) == RETRY
    try:
        raise ValueError("a bug")
    except ValueError:
        assert server_error(request).status_code == 500


def test_connections_are_checked_before_use():
    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True


# --- refused forms answer 422 ------------------------------------------------------------------


def test_a_point_table_reads_ascii_and_devanagari_digits_only(logged_in, session):
    from tests.views.test_maal import _table_data

    url = reverse("maal_table", args=[session.pk])
    for typed in ("1_0, 20", "٣, 5", "５"):
        response = logged_in.post(url, _table_data(tiplu=typed))
        assert response.status_code == 422
        assert "Tiplu: write whole numbers such as 2, 5, 10" in unescape(response.content.decode())
    assert GameSession.objects.get(pk=session.pk).get_rules().maal_points is None
    saved = logged_in.post(url, _table_data(tiplu="३, ८"))
    assert saved.status_code == 302
    assert GameSession.objects.get(pk=session.pk).get_rules().maal_points.tiplu == (3, 8)


def test_every_refused_form_answers_422_and_an_unsent_one_200(logged_in, session, client):
    player = session.players.get(name="Dai")
    round_ = services.add_round(session=session, round_input=worked_round())
    pages = [
        (reverse("session_new"), session_post(name=" ")),
        (reverse("session_edit", args=[session.pk]), {"name": ""}),
        (reverse("player_add", args=[session.pk]), {"name": "Aama"}),
        (reverse("player_edit", args=[session.pk, player.pk]), {"name": "\u200b"}),
        (reverse("session_rules", args=[session.pk]), {"preset": "nowhere"}),
        (reverse("session_import"), {}),
        (reverse("round_new", args=[session.pk]), {"winner": "none"}),
        (
            reverse("round_edit", args=[session.pk, round_.pk]),
            round_data(session, {"Aama": ("seen", "lots")}, "Aama") | {"version": "1"},
        ),
    ]
    for url, data in pages:
        assert logged_in.get(url).status_code == 200, url
        assert logged_in.post(url, data).status_code == 422, url
    logged_in.logout()
    assert client.post(reverse("signup"), {"username": "x", "password1": "a"}).status_code == 422
    wrong = {"username": "ram", "password": "not-the-password"}
    assert client.post(reverse("login"), wrong).status_code == 422


# --- seats, invites, groups and payments (issue 31) ----------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/t/%00/",
        "/t/%00/live/",
        "/t/abc%00def/maal/",
        "/t/abc.def/",
        "/t/%E2%80%8Babc/live/",
        "/t/" + "a" * 65 + "/",
        "/join/%00/",
        "/join/abc%00def/",
        "/join/" + "a" * 65 + "/",
    ],
)
def test_a_token_no_link_has_is_404_before_any_query(logged_in, path, django_assert_num_queries):
    logged_in.get("/")  # the log-in and user read into the cache
    for method in ("get", "post"):
        with django_assert_num_queries(0):
            assert getattr(logged_in, method)(path).status_code == 404


def _group(owner):
    from groups import services as group_services

    return group_services.create_group(
        owner=owner, name="Pokhara family", currency="NPR", members=["Aama", "Buwa", "Didi"]
    )


def test_a_key_of_another_kind_is_refused_on_every_group_form(logged_in, session, owner):
    from groups.models import Group, Member, Payment

    first = logged_in.post(
        reverse("round_new", args=[session.pk]),
        round_data(session, WORKED, "Didi") | {"save_key": KEY},
    )
    assert first.status_code == 302
    group = _group(owner)
    aama, buwa = (Member.objects.get(group=group, name=n).pk for n in ("Aama", "Buwa"))
    payment = {"payer": aama, "payee": buwa, "amount": "10", "paid_on": "2026-10-03"}
    for url, data in [
        (reverse("group_list"), {"name": "Other", "currency": "NPR", "members": "A\nB"}),
        (reverse("group_members", args=[group.pk]), {"name": "Kaka"}),
        (reverse("group_payment_new", args=[group.pk]), payment | {"method": "cash"}),
        (reverse("group_evening_new", args=[group.pk]), session_post()),
        (reverse("group_import"), {}),
    ]:
        refused = logged_in.post(url, data | {"save_key": KEY})
        assert (refused.status_code, refusal(refused)) == (400, REUSED), url
    assert Group.objects.count() == 1 and Member.objects.count() == 3
    assert not Payment.objects.exists() and GameSession.objects.count() == 1


def test_a_concurrent_group_save_under_another_kinds_key_is_refused(session, owner):
    """Past the first look (two saves at once), the unique constraint answers:
    a key kept with a round never makes a group's save answer with a group."""
    from groups import services as group_services
    from groups.models import Group
    from scoring.selectors.saves import SaveKeyRefused

    services.add_round(session=session, round_input=worked_round(), user=owner, save_key=KEY)
    with pytest.raises(SaveKeyRefused):
        group_services.create_group(
            owner=owner, name="Family", currency="NPR", members=["A", "B"], save_key=KEY
        )
    assert not Group.objects.exists()


def _racing(monkeypatch, target: str, before):
    """`target` (module.function) runs `before()` first: what another phone
    does at the same moment, between the form's check and the save."""
    module, name = target.rsplit(".", 1)
    real = getattr(__import__(module, fromlist=[name]), name)

    def raced(*args, **kwargs):
        before()
        return real(*args, **kwargs)

    monkeypatch.setattr(target, raced)


def test_a_payment_to_a_member_removed_meanwhile_is_refused_naming_them(
    logged_in, owner, monkeypatch
):
    from groups import services as group_services
    from groups.models import Member, Payment

    group = _group(owner)
    aama, didi = (Member.objects.get(group=group, name=n) for n in ("Aama", "Didi"))
    _racing(
        monkeypatch,
        "groups.services.record_payment",
        lambda: group_services.remove_member(member=Member.objects.get(pk=didi.pk)),
    )
    answer = logged_in.post(
        reverse("group_payment_new", args=[group.pk]),
        {"payer": aama.pk, "payee": didi.pk, "amount": "10", "paid_on": "2026-10-03"}
        | {"method": "cash"},
    )
    assert answer.status_code == 422
    assert "Didi is no longer a member of this group." in unescape(answer.content.decode())
    assert not Payment.objects.exists()


def test_a_member_renamed_as_another_phone_removes_them_is_refused_naming_them(
    logged_in, owner, monkeypatch
):
    from groups import services as group_services
    from groups.models import Member

    group = _group(owner)
    didi = Member.objects.get(group=group, name="Didi")
    _racing(
        monkeypatch,
        "groups.services.rename_member",
        lambda: group_services.remove_member(member=Member.objects.get(pk=didi.pk)),
    )
    answer = logged_in.post(
        reverse("group_member_edit", args=[group.pk, didi.pk]), {"name": "Didi Ji"}
    )
    assert answer.status_code == 422
    assert "Didi is no longer a member of this group." in unescape(answer.content.decode())
    assert not Member.objects.filter(name="Didi Ji").exists()


def test_a_player_renamed_as_another_phone_removes_them_is_refused_naming_them(
    logged_in, session, monkeypatch
):
    dai = session.players.get(name="Dai")
    _racing(
        monkeypatch,
        "scoring.services.rename_player",
        lambda: services.remove_player(player=Player.objects.get(pk=dai.pk)),
    )
    answer = logged_in.post(reverse("player_edit", args=[session.pk, dai.pk]), {"name": "Daju"})
    assert answer.status_code == 409
    assert "Dai was removed from this session meanwhile" in unescape(answer.content.decode())
    assert not Player.objects.filter(name="Daju").exists()


class DeadlockDetected(Exception):
    sqlstate = "40P01"  # as psycopg's error of that name carries it


def test_a_deadlock_is_tried_once_more_within_the_request(logged_in, session, monkeypatch):
    real = services.rename_player
    calls = []

    def deadlocks_once(**kwargs):
        calls.append(kwargs["name"])
        if len(calls) == 1:
            try:
                raise DeadlockDetected("deadlock detected")
            except DeadlockDetected as error:
                raise OperationalError("deadlock detected") from error
        return real(**kwargs)

    monkeypatch.setattr("scoring.services.rename_player", deadlocks_once)
    dai = session.players.get(name="Dai")
    answer = logged_in.post(reverse("player_edit", args=[session.pk, dai.pk]), {"name": "Daju"})
    assert answer.status_code == 302
    assert calls == ["Daju", "Daju"]
    assert session.players.filter(name="Daju").exists()
    # Twice in a row it is what it is: an outage, said as such (503, try again).
    monkeypatch.setattr("scoring.services.rename_player", lambda **kwargs: deadlocks_forever())
    buwa = session.players.get(name="Buwa")
    again = logged_in.post(reverse("player_edit", args=[session.pk, buwa.pk]), {"name": "Bua"})
    assert again.status_code == 503


def deadlocks_forever():
    try:
        raise DeadlockDetected("deadlock detected")
    except DeadlockDetected as error:
        raise OperationalError("deadlock detected") from error


def test_a_round_saved_as_another_phone_deletes_the_session_is_refused_saying_so(
    logged_in, session, monkeypatch
):
    _racing(
        monkeypatch,
        "scoring.services.add_round",
        lambda: services.delete_session(session=GameSession.objects.get(pk=session.pk)),
    )
    answer = logged_in.post(
        reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi")
    )
    assert answer.status_code == 422
    assert "this session was deleted meanwhile, so nothing was saved" in unescape(
        answer.content.decode()
    )
    assert not Round.objects.exists()
