"""Accounts: signing up (errors beside the field), logging in and out."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_signup_logs_the_user_in(client, django_user_model):
    response = client.post(
        reverse("signup"),
        {"username": "sita", "password1": "tiplu-poplu-42", "password2": "tiplu-poplu-42"},
    )
    assert response.status_code == 302
    assert django_user_model.objects.filter(username="sita").exists()
    html = client.get(reverse("home")).content.decode()
    assert "Your sessions" in html
    assert "Log out" in html


def test_signup_errors_beside_the_field(client, django_user_model):
    response = client.post(
        reverse("signup"),
        {"username": "sita", "password1": "tiplu-poplu-42", "password2": "tiplu-poplu-43"},
    )
    html = response.content.decode()
    block = html.split('id="field-password2"')[1].split("</div>")[0]
    assert "Password confirmation: The two password fields didn’t match." in block
    assert not django_user_model.objects.exists()


def test_login_and_logout(client, owner):
    response = client.post(reverse("login"), {"username": "ram", "password": "pw-ram-12345"})
    assert response.status_code == 302
    assert "Your sessions" in client.get(reverse("home")).content.decode()
    assert client.post(reverse("logout")).status_code == 302
    assert "Your sessions" not in client.get(reverse("home")).content.decode()
