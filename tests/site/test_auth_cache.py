"""The log-in session and the signed-in user are read from the cache on each
request (settings: cached_db sessions, accounts.backends.CachedUserBackend), and
every change that must end a log-in still ends it at the very next request."""

from __future__ import annotations

import importlib

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from redis.exceptions import RedisError

from accounts.backends import CachedUserBackend, user_key
from accounts.models import LoginSession
from accounts.sessions import COPY, ENDED

pytestmark = pytest.mark.django_db


def page(session) -> str:
    return reverse("session_detail", args=[session.pk])


def test_the_signed_in_user_comes_from_the_cache(logged_in, owner, django_assert_num_queries):
    logged_in.get(reverse("home"))
    with django_assert_num_queries(0):
        assert CachedUserBackend().get_user(owner.pk) == owner


def test_a_new_password_ends_every_other_log_in_at_once(logged_in, owner, session):
    assert logged_in.get(page(session)).status_code == 200
    owner.set_password("a-new-secret-456")
    owner.save()
    response = logged_in.get(page(session))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_a_deactivated_user_is_logged_out_at_once(logged_in, owner, session):
    assert logged_in.get(page(session)).status_code == 200
    owner.is_active = False
    owner.save()
    assert logged_in.get(page(session)).status_code == 302


def test_a_deleted_user_is_logged_out_at_once(logged_in, owner):
    assert logged_in.get(reverse("home")).context["user"].is_authenticated
    get_user_model().objects.filter(pk=owner.pk).delete()
    assert not logged_in.get(reverse("home")).context["user"].is_authenticated


def test_a_logged_out_cookie_opens_nothing(owner, session):
    phone = Client()
    phone.post(reverse("login"), {"username": "ram", "password": "pw-ram-12345"})
    assert phone.get(page(session)).status_code == 200
    stolen = phone.cookies["sessionid"].value
    phone.post(reverse("logout"))
    thief = Client()
    thief.cookies["sessionid"] = stolen
    assert thief.get(page(session)).status_code == 302


# --- sessions ended where every host looks (accounts/sessions.py) ------------------------


def _signed_in(owner) -> tuple[Client, str]:
    phone = Client()
    phone.post(reverse("login"), {"username": owner.username, "password": "pw-ram-12345"})
    return phone, phone.cookies["sessionid"].value


def _with_cookie(key: str) -> Client:
    other = Client()
    other.cookies["sessionid"] = key
    return other


def test_a_copy_written_after_the_log_out_opens_nothing(owner, session):
    phone, key = _signed_in(owner)
    assert phone.get(page(session)).status_code == 200
    copy = cache.get(COPY + key)
    assert copy is not None and copy["_auth_user_id"] == str(owner.pk)
    assert phone.post(reverse("logout")).status_code == 302
    assert not LoginSession.objects.filter(session_key=key).exists()
    # A host that read the session before it ended writes its copy late (its
    # write held up by a pause of Redis): the mark that it ended wins.
    cache.set(COPY + key, copy)
    assert _with_cookie(key).get(page(session)).status_code == 302


def test_a_log_in_session_knows_whose_it_is(owner):
    _phone, key = _signed_in(owner)
    assert LoginSession.objects.get(session_key=key).user_id == owner.pk


def test_a_new_password_ends_every_other_log_in_even_with_a_stale_copy(owner, session):
    changer, mine = _signed_in(owner)
    _other, theirs = _signed_in(owner)
    owner.is_staff = True
    owner.save()
    stale = CachedUserBackend().get_user(owner.pk)
    new = "a-new-secret-789"
    answer = changer.post(
        reverse("admin:password_change"),
        {"old_password": "pw-ram-12345", "new_password1": new, "new_password2": new},
    )
    assert answer.status_code == 302
    # The user's copy as it was before (a Redis that did not answer the drop).
    cache.set(user_key(owner.pk), stale)
    assert _with_cookie(theirs).get(page(session)).status_code == 302
    assert not LoginSession.objects.filter(session_key__in=[mine, theirs]).exists()
    # The phone that changed it stays signed in, under a new key.
    assert changer.cookies["sessionid"].value != mine
    assert LoginSession.objects.filter(user_id=owner.pk).count() == 1


def test_a_deactivation_ends_every_log_in_even_with_a_stale_copy(owner, session):
    _phone, key = _signed_in(owner)
    stale = CachedUserBackend().get_user(owner.pk)
    owner.is_active = False
    owner.save()
    cache.set(user_key(owner.pk), stale)
    assert _with_cookie(key).get(page(session)).status_code == 302
    assert not LoginSession.objects.filter(user_id=owner.pk).exists()


def test_the_last_log_in_time_ends_nothing(owner, session):
    _phone, key = _signed_in(owner)
    _signed_in(owner)  # saves the user's last_login, not its password
    assert _with_cookie(key).get(page(session)).status_code == 200


def test_log_ins_kept_in_djangos_own_table_move_with_their_user(owner):
    from django.apps import apps
    from django.contrib.sessions.backends.db import SessionStore as DjangoStore

    keep_log_ins = importlib.import_module("accounts.migrations.0002_login_session").keep_log_ins

    phone = Client()
    phone.force_login(owner)
    old = DjangoStore()
    old.update(phone.session.items())  # a log-in as Django's own table kept it
    old.create()
    keep_log_ins(apps, None)
    moved = LoginSession.objects.get(session_key=old.session_key)
    assert moved.user_id == owner.pk
    assert _with_cookie(old.session_key).get(reverse("round_history")).status_code == 200


def test_a_mark_that_could_not_be_written_is_written_at_the_next_request(
    owner, session, monkeypatch
):
    phone, key = _signed_in(owner)
    copy = cache.get(COPY + key)

    def away(*args, **kwargs):
        raise RedisError("Timeout reading from socket")

    monkeypatch.setattr("accounts.sessions.must_set_many", away)
    assert phone.post(reverse("logout")).status_code == 503
    # Not done, and said so; meanwhile the hosts reading the database see it ended.
    assert LoginSession.objects.get(session_key=key).ended
    assert cache.get(ENDED + key) is None
    monkeypatch.undo()
    assert Client().get(reverse("login")).status_code == 200  # Redis answers again
    assert cache.get(ENDED + key) is True
    assert not LoginSession.objects.filter(session_key=key).exists()
    cache.set(COPY + key, copy)  # a late copy
    assert _with_cookie(key).get(page(session)).status_code == 302
