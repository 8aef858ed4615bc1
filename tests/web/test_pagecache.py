"""Warm pages served whole (scoring/web/pagecache.py): rendered once per version of
what they show, with each answer's own CSRF token, nonce and one-time key."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import services
from scoring.models import Round
from tests.web_helpers import make_session, round_data, worked_round

SAVE_KEY = re.compile(r'name="save_key" value="([^"]+)"')
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
NONCE = re.compile(r'nonce="([^"]+)"')


def own_values_out(html: str) -> str:
    """The page without the values each answer has of its own."""
    for pattern in (SAVE_KEY, CSRF, NONCE):
        for value in set(pattern.findall(html)):
            html = html.replace(value, "")
    return re.sub(r'"X-CSRFToken": "[^"]*"', "", html)


def renders(client: Client, url: str) -> tuple[str, int]:
    """The page's HTML and how many templates were rendered for it."""
    from django.test.signals import template_rendered

    seen: list[object] = []

    def count(sender, **kwargs) -> None:
        seen.append(kwargs["template"])

    template_rendered.connect(count)
    try:
        response = client.get(url)
    finally:
        template_rendered.disconnect(count)
    assert response.status_code == 200, url
    return response.content.decode(), len(seen)


@pytest.mark.django_db
def test_a_warm_page_is_rendered_once_and_each_answer_has_its_own_token_and_key(owner):
    session = make_session(owner)
    services.add_round(session=session, round_input=worked_round())
    url = reverse("round_new", args=[session.pk])
    first, second = Client(), Client()
    first.force_login(owner)
    second.force_login(owner)
    html_1, rendered = renders(first, url)
    assert rendered > 0
    html_2, rendered_again = renders(second, url)
    assert rendered_again == 0  # served whole
    # The same page, with this answer's own values in it.
    assert SAVE_KEY.search(html_1)[1] != SAVE_KEY.search(html_2)[1]
    assert CSRF.search(html_1)[1] != CSRF.search(html_2)[1]
    assert "stand-in" not in html_2
    assert own_values_out(html_1) == own_values_out(html_2)
    # The key it carries saves the round.
    data = round_data(session, {"Aama": ("seen", 3), "Buwa": ("unseen", 0)}, "Aama")
    data["save_key"] = SAVE_KEY.search(html_2)[1]
    assert second.post(url, data).status_code == 302
    assert Round.objects.filter(session=session).count() == 2


@pytest.mark.django_db
def test_a_change_is_a_new_page_and_a_message_shows_once(logged_in, owner):
    session = make_session(owner)
    page = reverse("session_detail", args=[session.pk])
    history = reverse("round_history")
    assert session.name not in logged_in.get(history).content.decode()  # no rounds yet
    assert "Round 1 saved." not in logged_in.get(page).content.decode()
    data = round_data(session, {"Aama": ("seen", 3), "Buwa": ("unseen", 0)}, "Aama")
    response = logged_in.post(reverse("round_new", args=[session.pk]), data, follow=True)
    assert "Round 1 saved." in response.content.decode()
    html, rendered = renders(logged_in, page)
    assert "Round 1 saved." not in html  # shown once, and this view is cached again
    assert rendered > 0
    assert renders(logged_in, page)[1] == 0
    assert session.name in renders(logged_in, history)[0]


@pytest.mark.django_db
def test_a_warm_page_reads_only_its_version(logged_in, owner):
    session = make_session(owner)
    services.add_round(session=session, round_input=worked_round())
    url = reverse("settle_up", args=[session.pk])
    logged_in.get(url)
    with CaptureQueriesContext(connection) as queries:
        logged_in.get(url)
    assert len(queries) == 1  # the session row: its version is in it


@pytest.mark.django_db
def test_another_readers_page_is_never_served(owner, django_user_model):
    """The key holds the reader: a page names them in its top bar."""
    session = make_session(owner)
    token = services.create_share_link(session=session)
    url = reverse("share_view", args=[token])
    visitor, other = Client(), Client()
    other.force_login(django_user_model.objects.create_user("sita", password="pw-sita-12345"))
    assert "sita" not in visitor.get(url).content.decode()
    assert "sita" in other.get(url).content.decode()
    assert "sita" not in Client().get(url).content.decode()
