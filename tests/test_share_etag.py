"""The share page's live refresh answers 304 from one row (the session's
updated_at), so every change a reader can see must move that row."""

from __future__ import annotations

import time

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from scoring import services
from scoring.engine import Entry, RoundInput, make_rules
from scoring.models import RoundChange
from scoring.services import create_share_link
from tests.web_helpers import make_session

pytestmark = pytest.mark.django_db


def hand(maal: int) -> RoundInput:
    return RoundInput(
        entries=(
            Entry(player="Aama", status="seen", maal=maal),
            Entry(player="Buwa", status="seen", maal=3),
        ),
        winner="Aama",
    )


def test_every_visible_change_ends_the_304s():
    owner = get_user_model().objects.create_user("aama")
    session = make_session(owner)
    url = reverse("share_live", args=[create_share_link(session=session)])
    reader = Client()
    etag = reader.get(url)["ETag"]

    def changed(what: str) -> None:
        nonlocal etag
        response = reader.get(url, headers={"if-none-match": etag})
        assert response.status_code == 200, f"still 304 after: {what}"
        etag = response["ETag"]
        assert reader.get(url, headers={"if-none-match": etag}).status_code == 304

    assert reader.get(url, headers={"if-none-match": etag}).status_code == 304
    round_ = services.add_round(session, hand(5))
    changed("a round saved")
    services.replace_round(round_, hand(9))
    changed("a round edited")
    services.delete_round(round_)
    changed("a round deleted")
    services.restore_round(RoundChange.objects.get(action="delete"))
    changed("a round restored")
    services.add_player(session=session, name="Bahini")
    changed("a player added")
    services.recompute_session(session=session, rules=make_rules("kidnap"))
    changed("the rules changed")
    time.sleep(0.001)
    session.refresh_from_db()
    session.name = "Tihar, day 2"
    session.save()
    changed("the session renamed")
