"""The admin: every model is registered and its pages load for a superuser; its
log-in locked out after too many failures."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import reverse

from scoring import services
from scoring.models import GameSession, Player, Round, RoundEntry
from tests.web_helpers import (
    make_session,
    worked_round,
)

pytestmark = pytest.mark.django_db

MODELS = [GameSession, Player, Round, RoundEntry]


@pytest.fixture
def admin_session(admin_user):
    session = make_session(admin_user)
    services.add_round(
        session=session,
        round_input=worked_round(),
    )
    return session


def test_every_model_is_registered():
    for model in MODELS:
        assert admin.site.is_registered(model), model


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_changelist_and_search_load(admin_client, admin_session, model):
    url = reverse(f"admin:scoring_{model._meta.model_name}_changelist")
    response = admin_client.get(url)
    assert response.status_code == 200
    assert response.context["cl"].result_count >= 1
    searched = admin_client.get(url, {"q": "Didi"})
    assert searched.status_code == 200
    assert searched.context["cl"].result_count >= 1


def test_session_change_page_has_player_inline(admin_client, admin_session):
    url = reverse("admin:scoring_gamesession_change", args=[admin_session.pk])
    html = admin_client.get(url).content.decode()
    for name in ("Aama", "Buwa", "Didi", "Dai"):
        assert f'value="{name}"' in html
    # Search finds a session by a player's name, once (no duplicate rows).
    found = admin_client.get(reverse("admin:scoring_gamesession_changelist"), {"q": "a"})
    assert found.context["cl"].result_count == 1


def test_round_change_page_shows_entries_with_nets(admin_client, admin_session):
    round_ = admin_session.rounds.get()
    html = admin_client.get(
        reverse("admin:scoring_round_change", args=[round_.pk])
    ).content.decode()
    assert "round entries" in html.lower()
    assert "-16" in html and "30" in html


def test_admin_needs_staff(client, django_user_model):
    user = django_user_model.objects.create_user("ram", password="pw-ram-12345")
    client.force_login(user)
    response = client.get(reverse("admin:scoring_gamesession_changelist"))
    assert response.status_code == 302


def test_round_figures_are_read_only(admin_client, admin_session):
    """Nets come from the engine: the admin shows figures but cannot change them."""
    round_ = admin_session.rounds.get()
    html = admin_client.get(reverse("admin:scoring_round_change", args=[round_.pk])).content
    assert b'name="entries-0-maal"' not in html
    assert admin_client.get(reverse("admin:scoring_round_add")).status_code == 403
    assert admin_client.get(reverse("admin:scoring_roundentry_add")).status_code == 403


def test_deleting_a_session_deletes_everything(admin_client, admin_session):
    url = reverse("admin:scoring_gamesession_delete", args=[admin_session.pk])
    response = admin_client.post(url, {"post": "yes"})
    assert response.status_code == 302
    assert GameSession.objects.count() == 0
    assert Player.objects.count() == Round.objects.count() == RoundEntry.objects.count() == 0


def test_deleting_a_user_deletes_their_sessions(admin_session):
    admin_session.owner.delete()
    assert GameSession.objects.count() == 0
    assert Player.objects.count() == Round.objects.count() == RoundEntry.objects.count() == 0


def test_admin_lockout_answers_429(django_user_model):
    django_user_model.objects.create_superuser("boss", password="right-pass-123")
    client = Client()
    url = reverse("admin:login")
    for _attempt in range(5):
        assert client.post(url, {"username": "boss", "password": "wrong"}).status_code == 200
    response = client.post(url, {"username": "boss", "password": "right-pass-123"})
    assert response.status_code == 429
    assert "Too many failed log-in attempts" in response.content.decode()
