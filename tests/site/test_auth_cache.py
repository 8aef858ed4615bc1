"""The log-in session and the signed-in user are read from the cache on each
request (settings: cached_db sessions, accounts.backends.CachedUserBackend), and
every change that must end a log-in still ends it at the very next request."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts.backends import CachedUserBackend

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
