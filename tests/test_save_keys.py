"""Every save exactly once: a form's one-time `save_key` makes a repeated POST
(a double tap, a phone retrying on a bad line) save nothing new and answer as the
first one did; a POST without a key is saved as before."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring import services
from scoring.engine import make_rules
from scoring.engine.sessionfile import loads
from scoring.models import GameSession, Player, Round, SavedKey

from .test_concurrency import Phone, at_once
from .test_files_web import DEMO
from .test_web_sessions import session_post
from .web_helpers import WORKED, make_session, round_data

KEY = "5b3f0c1e-8d2a-4c57-9e61-0f2d7a9b4c11"


def saved_message(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_the_round_form_carries_a_fresh_key_each_time(logged_in, session):
    url = reverse("round_new", args=[session.pk])
    keys = [
        re.search(r'name="save_key" value="([^"]+)"', logged_in.get(url).content.decode())[1]
        for _ in range(2)
    ]
    # The empty form is served from the page cache: the key is filled in per answer.
    assert keys[0] != keys[1]
    assert all(re.fullmatch(r"[0-9a-f-]{36}", k) for k in keys)


def test_a_replayed_post_saves_nothing_new_and_answers_as_the_first(logged_in, session):
    url = reverse("round_new", args=[session.pk])
    data = round_data(session, WORKED, "Didi") | {"save_key": KEY}
    first = logged_in.post(url, data)
    assert first.status_code == 302
    assert saved_message(first) == ["Round 1 saved."]
    logged_in.get(first["Location"])  # the message shown
    again = logged_in.post(url, data)
    assert again.status_code == 302 and again["Location"] == first["Location"]
    assert saved_message(again) == ["Round 1 saved."]
    assert Round.objects.filter(session=session).count() == 1
    saved = SavedKey.objects.get()
    assert (saved.key, saved.kind, saved.object_pk) == (KEY, "round", Round.objects.get().pk)
    # A new key is a new round; no key at all is saved as before.
    logged_in.post(url, data | {"save_key": "another-key-1"})
    logged_in.post(url, {k: v for k, v in data.items() if k != "save_key"})
    logged_in.post(url, {k: v for k, v in data.items() if k != "save_key"})
    assert Round.objects.filter(session=session).count() == 4


def test_a_malformed_key_is_ignored_not_trusted(logged_in, session):
    url = reverse("round_new", args=[session.pk])
    data = round_data(session, WORKED, "Didi")
    for key in ("short", "x" * 65, "has space in it", "semi;colon-key"):
        logged_in.post(url, data | {"save_key": key})
    assert Round.objects.filter(session=session).count() == 4
    assert not SavedKey.objects.exists()


def test_a_repeat_of_a_round_deleted_since_saves_nothing(logged_in, session, owner):
    url = reverse("round_new", args=[session.pk])
    data = round_data(session, WORKED, "Didi") | {"save_key": KEY}
    logged_in.get(logged_in.post(url, data)["Location"])  # saved, its message shown
    services.delete_round(Round.objects.get(), user=owner)
    again = logged_in.post(url, data)
    assert again.status_code == 302
    assert saved_message(again) == ["This round was saved already."]
    assert not Round.objects.exists()


def test_keys_are_per_user(logged_in, session, client, django_user_model):
    url = reverse("round_new", args=[session.pk])
    logged_in.post(url, round_data(session, WORKED, "Didi") | {"save_key": KEY})
    other = django_user_model.objects.create_user("didi")
    theirs = make_session(other)
    client.force_login(other)
    client.post(
        reverse("round_new", args=[theirs.pk]),
        round_data(theirs, WORKED, "Didi") | {"save_key": KEY},
    )
    assert Round.objects.filter(session=theirs).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_taps_at_the_same_moment_save_one_round(live_server, django_user_model):
    owner = django_user_model.objects.create_user("aama")
    session = make_session(owner)
    phone = Phone(live_server.url, owner)
    path = f"/sessions/{session.pk}/rounds/new/"
    for attempt in range(3):  # a race can hide once; three times in a row it cannot
        data = round_data(session, WORKED, "Didi") | {"save_key": f"tap-tap-{attempt}"}
        tap = lambda data=data: phone.post(path, data)  # noqa: E731
        results = at_once(tap, tap)
        assert [status for status, _body in results] == [302, 302]
    assert Round.objects.filter(session=session).count() == 3
    assert SavedKey.objects.count() == 3


# --- the other forms that create something: a session, a player, an import ----------------


def form_key(html: str) -> str:
    found = re.search(r'name="save_key" value="([^"]+)"', html)
    assert found is not None
    return found[1]


@pytest.mark.parametrize("page", ["session_new", "session_import"])
def test_every_creating_form_carries_a_key_and_is_sent_once(logged_in, page):
    html = logged_in.get(reverse(page)).content.decode()
    assert re.fullmatch(r"[0-9a-f-]{36}", form_key(html))
    assert form_key(logged_in.get(reverse(page)).content.decode()) != form_key(html)
    assert "data-save-once" in html and "js/save-once.js" in html


def test_the_add_player_form_carries_a_key_and_is_sent_once(logged_in, session):
    html = logged_in.get(reverse("player_add", args=[session.pk])).content.decode()
    form = html[html.index(f'action="{reverse("player_add", args=[session.pk])}"') :]
    assert "data-save-once" in form[: form.index(">")]
    assert re.fullmatch(r"[0-9a-f-]{36}", form_key(form))


def test_a_replayed_new_session_saves_one_session_and_answers_as_the_first(logged_in, owner):
    data = session_post() | {"save_key": KEY}
    first = logged_in.post(reverse("session_new"), data)
    session = GameSession.objects.get()
    assert first.status_code == 302
    assert first["Location"] == reverse("session_detail", args=[session.pk])
    assert saved_message(first) == ["Session created. Enter the first round when it ends."]
    logged_in.get(first["Location"])  # the message shown
    again = logged_in.post(reverse("session_new"), data)
    assert again.status_code == 302 and again["Location"] == first["Location"]
    assert saved_message(again) == ["Session created. Enter the first round when it ends."]
    assert GameSession.objects.count() == 1 and Player.objects.count() == 4
    saved = SavedKey.objects.get()
    assert (saved.user, saved.kind, saved.object_pk, saved.session) == (
        owner,
        "session",
        session.pk,
        None,
    )
    # No key at all is saved as before: twice is two sessions.
    plain = session_post()
    logged_in.post(reverse("session_new"), plain)
    logged_in.post(reverse("session_new"), plain)
    assert GameSession.objects.count() == 3


def test_a_repeat_of_a_session_deleted_since_saves_nothing(logged_in, owner):
    data = session_post() | {"save_key": KEY}
    logged_in.get(logged_in.post(reverse("session_new"), data)["Location"])
    services.delete_session(session=GameSession.objects.get())
    again = logged_in.post(reverse("session_new"), data)
    assert again.status_code == 302 and again["Location"] == reverse("home")
    assert saved_message(again) == ["This session was saved already."]
    assert not GameSession.objects.exists()


def test_a_replayed_add_player_saves_one_player_and_answers_as_the_first(logged_in, session):
    url = reverse("player_add", args=[session.pk])
    data = {"name": "Hajurba", "save_key": KEY}
    first = logged_in.post(url, data)
    assert first.status_code == 302
    assert first["Location"] == reverse("session_detail", args=[session.pk])
    assert saved_message(first) == ["Hajurba joins from the next round."]
    logged_in.get(first["Location"])
    # The form alone would refuse the name now taken: the key answers first.
    again = logged_in.post(url, data)
    assert again.status_code == 302 and again["Location"] == first["Location"]
    assert saved_message(again) == ["Hajurba joins from the next round."]
    assert list(session.players.values_list("name", flat=True)) == [
        "Aama",
        "Buwa",
        "Didi",
        "Dai",
        "Hajurba",
    ]
    saved = SavedKey.objects.get()
    hajurba = Player.objects.get(name="Hajurba")
    assert (saved.kind, saved.object_pk, saved.session_id) == ("player", hajurba.pk, session.pk)
    # Without a key the same name is refused by the form, as before.
    plain = logged_in.post(url, {"name": "Hajurba"})
    assert plain.status_code == 200
    assert "Hajurba already plays in this session" in plain.content.decode()


def test_a_repeat_of_a_player_removed_since_saves_nothing(logged_in, session):
    url = reverse("player_add", args=[session.pk])
    logged_in.get(logged_in.post(url, {"name": "Hajurba", "save_key": KEY})["Location"])
    services.remove_player(player=Player.objects.get(name="Hajurba"))
    again = logged_in.post(url, {"name": "Hajurba", "save_key": KEY})
    assert again.status_code == 302
    assert saved_message(again) == ["This player was added already."]
    assert not Player.objects.filter(name="Hajurba").exists()


def import_post(client, text: str, **fields: str):
    upload = SimpleUploadedFile("night.json", text.encode(), "application/json")
    return client.post(reverse("session_import"), {"file": upload, **fields})


def test_a_replayed_import_saves_one_session_and_answers_as_the_first(logged_in, owner):
    text = DEMO.read_text(encoding="utf-8")
    first = import_post(logged_in, text, save_key=KEY)
    session = GameSession.objects.get()
    assert first.status_code == 302
    assert first["Location"] == reverse("session_detail", args=[session.pk])
    message = "Imported Dashain 2026 (demo): 4 players, 4 rounds."
    assert saved_message(first) == [message]
    logged_in.get(first["Location"])
    # Not asked whether to import a second copy: it is the same save, answered again.
    again = import_post(logged_in, text, save_key=KEY)
    assert again.status_code == 302 and again["Location"] == first["Location"]
    assert saved_message(again) == [message]
    assert GameSession.objects.count() == 1 and Round.objects.count() == 4
    saved = SavedKey.objects.get()
    assert (saved.kind, saved.object_pk, saved.session) == ("import", session.pk, None)


def test_a_save_repeated_past_the_first_look_is_answered_by_the_constraint(owner):
    """Two saves at the same moment both find no key; the second one's key fails
    the unique constraint, its work is rolled back and the first's answers."""
    rules = make_rules("pagat")
    args = {
        "owner": owner,
        "name": "Tihar",
        "played_on": datetime.date(2026, 10, 2),
        "currency": "NPR",
        "stake_per_point": Decimal("1"),
        "rules": rules,
        "players": ["Aama", "Buwa", "Didi"],
    }
    first = services.create_session(**args, save_key=KEY)
    assert services.create_session(**args, save_key=KEY).pk == first.pk
    player = services.add_player(session=first, name="Dai", user=owner, save_key="player-key-1")
    again = services.add_player(session=first, name="Dai", user=owner, save_key="player-key-1")
    assert again.pk == player.pk
    doc = loads(DEMO.read_text(encoding="utf-8"))
    imported = services.save_document(doc, owner=owner, save_key="import-key-1")
    assert services.save_document(doc, owner=owner, save_key="import-key-1").pk == imported.pk
    assert GameSession.objects.count() == 2 and Player.objects.count() == 8
    assert SavedKey.objects.count() == 3
