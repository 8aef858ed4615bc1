"""The error pages: the site's 404 in both languages, and a 500 that tells someone
who was saving to check the ledger."""

from __future__ import annotations

from html import unescape

import pytest
from django.urls import reverse

from scoring.views import rounds as round_views
from tests.web_helpers import (
    WORKED,
    round_data,
)

pytestmark = pytest.mark.django_db


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
