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
from scoring.models import GameSession, Player, Round, RoundChange, SavedKey
from tests.samples import DEMO
from tests.web_helpers import (
    WORKED,
    Phone,
    at_once,
    make_session,
    round_data,
    session_post,
    worked_round,
)

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


MALFORMED = (
    "This form's one-time key is not one this site makes, so nothing was saved. "
    "Reload the page and save again."
)
REUSED = (
    "This form's one-time key was used for another save, so nothing was saved. "
    "Reload the page and save again."
)


def refusal(response) -> str:
    """The one message of a refused key's page (scoring/refused.html)."""
    html = response.content.decode()
    found = re.search(r'<div class="card narrow" role="alert">\s*<p>(.*?)</p>', html)
    assert found, html
    return found[1].replace("&#x27;", "'")


@pytest.mark.parametrize(
    "key", ["x" * 7, "x" * 65, "5b3f0c1e.8d2a", "has space in it", "semi;colon-key", ""]
)
def test_a_malformed_key_is_refused_not_taken_for_no_key(logged_in, session, key):
    url = reverse("round_new", args=[session.pk])
    data = round_data(session, WORKED, "Didi") | {"save_key": key}
    for _ in range(2):  # sent twice: nothing saved twice, nothing saved at all
        refused = logged_in.post(url, data)
        assert refused.status_code == 400
        assert refusal(refused) == MALFORMED
    assert not Round.objects.exists()
    assert not SavedKey.objects.exists()


def test_every_creating_form_refuses_a_malformed_key(logged_in, session, owner):
    player = Player.objects.filter(session=session).first()
    posts = [
        (reverse("session_new"), session_post(name="Night")),
        (reverse("player_add", args=[session.pk]), {"name": "Kaka"}),
        (reverse("session_import"), {}),
        (reverse("round_edit", args=[session.pk, 999]), {"version": "1"}),
    ]
    before = (GameSession.objects.count(), Player.objects.count())
    for url, data in posts:
        refused = logged_in.post(url, data | {"save_key": "x" * 65})
        assert refused.status_code == 400, url
        assert refusal(refused) == MALFORMED
    assert (GameSession.objects.count(), Player.objects.count()) == before
    assert player is not None and not SavedKey.objects.exists()


def test_a_repeat_of_a_round_deleted_since_saves_nothing(logged_in, session, owner):
    url = reverse("round_new", args=[session.pk])
    data = round_data(session, WORKED, "Didi") | {"save_key": KEY}
    logged_in.get(logged_in.post(url, data)["Location"])  # saved, its message shown
    services.delete_round(round_=Round.objects.get(), user=owner)
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
    assert plain.status_code == 422
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
    imported = services.save_document(doc=doc, owner=owner, save_key="import-key-1")
    assert services.save_document(doc=doc, owner=owner, save_key="import-key-1").pk == imported.pk
    assert GameSession.objects.count() == 2 and Player.objects.count() == 8
    assert SavedKey.objects.count() == 3


# --- a round's edit: its repeat answers as the edit did, never as a conflict -------------

CONFLICT = (
    "This round was changed by someone else since you opened it; reload to see their version."
)
# Buwa was in fact seen: he pays 14 + 3 - 8 = 9 instead of 16.
SEEN_BUWA = {**WORKED, "Buwa": ("seen", 2)}
EDITED_NETS = {"Aama": 3, "Buwa": -9, "Didi": 23, "Dai": -17}


def nets_of(round_: Round) -> dict[str, int]:
    return {e.player.name: e.net for e in round_.entries.select_related("player")}


def edits_of(round_: Round) -> int:
    return RoundChange.objects.filter(round_pk=round_.pk, action="edit").count()


def conflict_in(response) -> bool:
    html = response.content.decode()
    start = html.index('id="form-errors"')
    return f"<li>{CONFLICT}</li>" in html[start : html.index("</div>", start)]


def answer(client, url: str, data: dict[str, str]):
    """POST `data`: the response and its messages, shown (so the next answer has its own)."""
    response = client.post(url, data)
    said = saved_message(response)
    if response.status_code == 302:
        client.get(response["Location"])
    return response, said


@pytest.fixture
def saved_round(session, owner) -> Round:
    return services.add_round(session=session, round_input=worked_round(), user=owner)


def test_the_edit_form_carries_a_fresh_key_each_time(logged_in, session, saved_round):
    url = reverse("round_edit", args=[session.pk, saved_round.pk])
    pages = [logged_in.get(url).content.decode() for _ in range(2)]
    keys = [form_key(html) for html in pages]
    assert keys[0] != keys[1]
    assert all(re.fullmatch(r"[0-9a-f-]{36}", k) for k in keys)
    assert all('name="version" value="1"' in html for html in pages)
    assert all(html.count('name="save_key"') == 1 for html in pages)


def test_an_edit_sent_again_is_saved_once_and_answered_as_the_first(
    logged_in, session, saved_round, owner
):
    url = reverse("round_edit", args=[session.pk, saved_round.pk])
    key = form_key(logged_in.get(url).content.decode())
    data = round_data(session, SEEN_BUWA, "Didi") | {"version": "1", "save_key": key}
    first, said = answer(logged_in, url, data)
    assert first.status_code == 302
    assert first["Location"] == reverse("session_detail", args=[session.pk])
    assert said == ["Round 1 changed."]
    # Sent again (its answer lost on the way), with version 1, stale now.
    again, said = answer(logged_in, url, data)
    assert again.status_code == 302 and again["Location"] == first["Location"]
    assert said == ["Round 1 changed."]
    saved_round.refresh_from_db()
    assert saved_round.version == 2  # moved once, by the first send
    assert edits_of(saved_round) == 1
    assert nets_of(saved_round) == EDITED_NETS
    saved = SavedKey.objects.get()
    assert (saved.user, saved.key, saved.kind, saved.object_pk, saved.session_id) == (
        owner,
        key,
        "edit",
        saved_round.pk,
        session.pk,
    )
    # Later the rules change (at most 3 players a round): the form alone would
    # refuse the four players sent, the key answers first; still nothing saved.
    session.rules = make_rules("pagat", max_players=3).to_options()
    session.save()
    late, said = answer(logged_in, url, data)
    assert late.status_code == 302 and late["Location"] == first["Location"]
    assert said == ["Round 1 changed."]
    saved_round.refresh_from_db()
    assert (saved_round.version, edits_of(saved_round)) == (2, 1)


def test_a_repeat_after_another_phones_edit_leaves_that_edit_standing(
    logged_in, session, saved_round
):
    url = reverse("round_edit", args=[session.pk, saved_round.pk])
    data = round_data(session, SEEN_BUWA, "Didi") | {"version": "1", "save_key": KEY}
    assert answer(logged_in, url, data)[1] == ["Round 1 changed."]
    # Another phone opens version 2 and makes Aama's maal 6.
    theirs = round_data(session, {**SEEN_BUWA, "Aama": ("seen", 6)}, "Didi")
    assert answer(logged_in, url, theirs | {"version": "2"})[1] == ["Round 1 changed."]
    again, said = answer(logged_in, url, data)
    assert again.status_code == 302 and said == ["Round 1 changed."]
    saved_round.refresh_from_db()
    assert (saved_round.version, edits_of(saved_round)) == (3, 2)
    assert nets_of(saved_round)["Aama"] == 6  # the other phone's change is not undone


def test_a_stale_edit_under_another_key_is_still_refused(logged_in, session, saved_round):
    url = reverse("round_edit", args=[session.pk, saved_round.pk])
    data = round_data(session, SEEN_BUWA, "Didi") | {"version": "1", "save_key": KEY}
    assert answer(logged_in, url, data)[1] == ["Round 1 changed."]
    # Another phone, which opened version 1 too, saves its own change: refused.
    other = round_data(session, {**WORKED, "Aama": ("seen", 6)}, "Didi")
    stale = logged_in.post(url, other | {"version": "1", "save_key": "other-phone-key"})
    assert stale.status_code == 409
    assert conflict_in(stale)
    assert 'id="conflict-reload"' in stale.content.decode()
    # And without a key, as before.
    plain = logged_in.post(url, other | {"version": "1"})
    assert plain.status_code == 409 and conflict_in(plain)
    saved_round.refresh_from_db()
    assert (saved_round.version, edits_of(saved_round)) == (2, 1)
    assert nets_of(saved_round) == EDITED_NETS
    assert list(SavedKey.objects.values_list("key", "kind")) == [(KEY, "edit")]


def test_a_key_used_for_something_else_is_refused_as_reused_on_an_edit(logged_in, session, owner):
    new_round = round_data(session, WORKED, "Didi") | {"save_key": KEY}
    assert answer(logged_in, reverse("round_new", args=[session.pk]), new_round)[1] == [
        "Round 1 saved."
    ]
    first = Round.objects.get(session=session)
    url = reverse("round_edit", args=[session.pk, first.pk])
    # The new round's key on an edit of that round: refused, nothing changed.
    data = round_data(session, SEEN_BUWA, "Didi") | {"version": "1", "save_key": KEY}
    refused = logged_in.post(url, data)
    assert refused.status_code == 400 and refusal(refused) == REUSED
    first.refresh_from_db()
    assert (first.version, edits_of(first)) == (1, 0)
    assert list(SavedKey.objects.values_list("key", "kind", "object_pk")) == [
        (KEY, "round", first.pk)
    ]
    # One round's edit key sent with another round's edit: refused too.
    second = services.add_round(session=session, round_input=worked_round(), user=owner)
    edit = round_data(session, SEEN_BUWA, "Didi") | {"version": "1", "save_key": "edit-key-1"}
    assert answer(logged_in, url, edit)[1] == ["Round 1 changed."]
    second_url = reverse("round_edit", args=[session.pk, second.pk])
    reused = logged_in.post(second_url, edit)
    assert reused.status_code == 400 and refusal(reused) == REUSED
    second.refresh_from_db()
    assert (second.version, edits_of(second)) == (1, 0)
    assert nets_of(first) == EDITED_NETS


def test_a_repeat_of_an_edit_whose_round_was_deleted_since_saves_nothing(
    logged_in, session, saved_round, owner
):
    url = reverse("round_edit", args=[session.pk, saved_round.pk])
    data = round_data(session, SEEN_BUWA, "Didi") | {"version": "1", "save_key": KEY}
    assert answer(logged_in, url, data)[1] == ["Round 1 changed."]
    services.delete_round(round_=Round.objects.get(), user=owner)
    again, said = answer(logged_in, url, data)
    assert again.status_code == 302
    assert again["Location"] == reverse("session_detail", args=[session.pk])
    assert said == ["This round was saved already."]
    assert not Round.objects.exists()
    # Under a key nothing was saved with, the round's absence is said as before.
    other = logged_in.post(url, data | {"save_key": "never-saved-key"})
    assert other.status_code == 409
    assert "This round was deleted by someone else since you opened it." in other.content.decode()


@pytest.mark.django_db(transaction=True)
def test_an_edit_sent_twice_at_the_same_moment_is_saved_once(live_server, django_user_model):
    owner = django_user_model.objects.create_user("aama")
    session = make_session(owner)
    round_ = services.add_round(session=session, round_input=worked_round(), user=owner)
    phone = Phone(live_server.url, owner)
    path = f"/sessions/{session.pk}/rounds/{round_.pk}/edit/"
    for attempt in range(3):  # a race can hide once; three times in a row it cannot
        aama = 6 + attempt
        data = round_data(session, {**WORKED, "Aama": ("seen", aama)}, "Didi") | {
            "version": str(attempt + 1),
            "save_key": f"edit-edit-{attempt}",
        }
        send = lambda data=data: phone.post(path, data)  # noqa: E731
        results = at_once(send, send)
        assert [status for status, _body in results] == [302, 302]
        round_.refresh_from_db()
        assert (round_.version, edits_of(round_)) == (attempt + 2, attempt + 1)
        assert round_.entries.get(player__name="Aama").maal == aama
    assert SavedKey.objects.filter(kind="edit").count() == 3
