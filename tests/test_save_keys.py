"""Every save exactly once: a form's one-time `save_key` makes a repeated POST
(a double tap, a phone retrying on a bad line) save nothing new and answer as the
first one did; a POST without a key is saved as before."""

from __future__ import annotations

import re

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from scoring import services
from scoring.models import Round, SavedKey

from .test_concurrency import Phone, at_once
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
