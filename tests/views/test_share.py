"""Read-only share links: the token, the owner's page, the public page and its
304-until-changed live partial (answered from one row, which every change a
reader can see moves), revocation, and the share_link command."""

from __future__ import annotations

import io
import math
import re
import time
from collections import Counter

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from scoring import services
from scoring.engine import Entry, RoundInput, make_rules
from scoring.models import GameSession, RoundChange
from scoring.services import create_share_link
from tests.web_helpers import WORKED, filled_in_token, make_session, round_data, worked_round

pytestmark = pytest.mark.django_db

TOKEN_CHARS = re.compile(r"^[A-Za-z0-9_-]+$")


def create_link(client, session: GameSession) -> str:
    response = client.post(reverse("share_create", args=[session.pk]))
    assert response.status_code == 302
    session.refresh_from_db()
    assert session.share_token
    return reverse("share_view", args=[session.share_token])


# --- the token --------------------------------------------------------------------------------


def test_token_is_long_random_and_url_safe(logged_in, session):
    tokens = set()
    for _ in range(20):
        create_link(logged_in, session)
        tokens.add(session.share_token)
    assert len(tokens) == 20  # every new link is a different token
    for token in tokens:
        assert len(token) >= 32  # token_urlsafe(24): 24 random bytes = 192 bits
        assert TOKEN_CHARS.match(token)
    # The characters look random: no single one dominates 640 of them.
    counts = Counter("".join(tokens))
    assert len(counts) > 40
    assert max(counts.values()) < 40
    entropy = -sum(c / 640 * math.log2(c / 640) for c in counts.values())
    assert entropy > 5.5  # of the 6 bits a base64url character can hold


def test_owner_creates_sees_and_copies_the_link(logged_in, session):
    page = logged_in.get(reverse("session_share", args=[session.pk])).content.decode()
    assert "Create share link" in page
    assert "/s/" not in page
    path = create_link(logged_in, session)
    response = logged_in.get(reverse("session_share", args=[session.pk]))
    html = response.content.decode()
    assert f'value="http://testserver{path}"' in html
    assert 'data-copy="share-url"' in html
    assert '<svg viewBox="0 0 ' in html and "<title>QR code of the share link</title>" in html
    assert "Share link created." in html
    assert "Turn the link off" in html


def test_regenerate_replaces_the_link(logged_in, client, session):
    old_path = create_link(logged_in, session)
    new_path = create_link(logged_in, session)
    assert new_path != old_path
    logged_in.logout()
    assert client.get(old_path).status_code == 404
    assert client.get(new_path).status_code == 200


def test_revoke_makes_the_old_link_404(logged_in, client, session):
    path = create_link(logged_in, session)
    token = session.share_token
    response = logged_in.post(reverse("share_revoke", args=[session.pk]), follow=True)
    assert "Link turned off." in response.content.decode()
    session.refresh_from_db()
    assert session.share_token is None
    logged_in.logout()
    assert client.get(path).status_code == 404
    live = client.get(reverse("share_live", args=[token]))
    assert live.status_code == 404
    # The watching phones get a notice in place of the standings, and stop polling.
    assert "turned this share link off" in live.content.decode()
    assert "hx-trigger" not in live.content.decode()


def test_management_page_is_owner_only(client, django_user_model, session):
    other = django_user_model.objects.create_user("sita", password="pw-sita-12345")
    client.force_login(other)
    assert client.get(reverse("session_share", args=[session.pk])).status_code == 404
    assert client.post(reverse("share_create", args=[session.pk])).status_code == 404
    session.share_token = "kept-token-of-the-owner-000000000000"
    session.save()
    assert client.post(reverse("share_revoke", args=[session.pk])).status_code == 404
    session.refresh_from_db()
    assert session.share_token == "kept-token-of-the-owner-000000000000"


def test_management_page_needs_login(client, session):
    response = client.get(reverse("session_share", args=[session.pk]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_create_and_revoke_are_post_only(logged_in, session):
    assert logged_in.get(reverse("share_create", args=[session.pk])).status_code == 405
    assert logged_in.get(reverse("share_revoke", args=[session.pk])).status_code == 405


# --- the public page --------------------------------------------------------------------------


def test_public_page_shows_standings_logged_out(logged_in, client, session):
    services.add_round(session=session, round_input=worked_round())
    path = create_link(logged_in, session)
    logged_in.logout()
    response = client.get(path)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Tihar night" in html
    # Standings best first, with money at 2.50 per point.
    order = [html.index(f'data-player="{name}"') for name in ("Didi", "Aama", "Buwa", "Dai")]
    assert order == sorted(order)
    assert "+30" in html and "75.00" in html and "-42.50" in html
    # Settle-up, exact.
    assert "Buwa pays Didi NPR 32.50" in html
    assert "Buwa pays Aama NPR 7.50" in html
    assert "Dai pays Didi NPR 42.50" in html
    # Read-only: no links into the owner's screens.
    assert reverse("round_new", args=[session.pk]) not in html
    assert reverse("session_detail", args=[session.pk]) not in html
    assert "/rounds/" not in html
    assert 'name="robots" content="noindex"' in html
    assert response["X-Robots-Tag"] == "noindex"


def test_unknown_token_is_404(client):
    assert client.get(reverse("share_view", args=["not-a-real-token"])).status_code == 404
    assert client.get(reverse("share_live", args=["not-a-real-token"])).status_code == 404


def poll(client, path: str, etag: str | None = None):
    headers = {"HTTP_HX_REQUEST": "true"}
    if etag:
        headers["HTTP_IF_NONE_MATCH"] = etag
    return client.get(path, **headers)


def test_live_partial_is_304_until_a_round_is_added(logged_in, client, session):
    create_link(logged_in, session)
    logged_in.logout()
    live = reverse("share_live", args=[session.share_token])

    first = poll(client, live)
    assert first.status_code == 200
    etag = first["ETag"]
    assert etag.startswith('"') and etag.endswith('"')
    assert "no-cache" in first["Cache-Control"]
    # The partial carries the validator for the next ask (when its stream says
    # so, or every second without one: static/js/live.js), and its version.
    assert 'hx-trigger="live-now"' in first.content.decode()
    assert f'data-etag="{etag.strip(chr(34))}"' in first.content.decode()
    assert "If-None-Match" in first.content.decode()
    assert "<html" not in first.content.decode()

    same = poll(client, live, etag)
    assert same.status_code == 304
    assert same.content == b""
    assert same["ETag"] == etag

    services.add_round(session=session, round_input=worked_round())
    changed = poll(client, live, etag)
    assert changed.status_code == 200
    assert changed["ETag"] != etag
    assert "Buwa pays Didi NPR 32.50" in changed.content.decode()
    assert poll(client, live, changed["ETag"]).status_code == 304


@pytest.mark.parametrize("change", ["edit", "delete", "player"])
def test_live_partial_changes_on_edit_delete_and_new_player(logged_in, client, session, change):
    round_ = services.add_round(session=session, round_input=worked_round())
    create_link(logged_in, session)
    live = reverse("share_live", args=[session.share_token])
    etag = poll(client, live)["ETag"]
    if change == "edit":
        services.replace_round(
            round_=round_, given=RoundInput(worked_round().entries, winner="Aama")
        )
    elif change == "delete":
        services.delete_round(round_=round_)
    else:
        services.add_player(session=session, name="Bhai")
    assert poll(client, live, etag).status_code == 200


def test_page_embeds_the_validator_so_the_first_poll_is_304(logged_in, client, session):
    path = create_link(logged_in, session)
    html = client.get(path).content.decode()
    live = reverse("share_live", args=[session.share_token])
    etag = poll(client, live)["ETag"]
    escaped = etag.replace('"', "\\&quot;")
    assert f'hx-headers="{{&quot;If-None-Match&quot;: &quot;{escaped}&quot;}}"' in html
    assert f'hx-get="{live}"' in html
    # htmx is told to leave the page alone on 304.
    assert '{"code":"304","swap":false}' in html


# --- the command ------------------------------------------------------------------------------


def test_share_link_command_creates_then_reuses_the_token(session):
    out = io.StringIO()
    call_command("share_link", str(session.pk), stdout=out)
    session.refresh_from_db()
    assert out.getvalue() == f"/s/{session.share_token}/\n"
    again = io.StringIO()
    call_command("share_link", str(session.pk), stdout=again)
    assert again.getvalue() == out.getvalue()


def test_share_link_command_unknown_session():
    with pytest.raises(CommandError, match="id: no session 999"):
        call_command("share_link", "999")


def test_an_unchanged_poll_costs_one_query(logged_in, client, session, django_assert_num_queries):
    for _ in range(5):
        services.add_round(session=session, round_input=worked_round())
    create_link(logged_in, session)
    logged_in.logout()
    live = reverse("share_live", args=[session.share_token])
    etag = poll(client, live)["ETag"]
    with django_assert_num_queries(1):
        assert poll(client, live, etag).status_code == 304


def test_public_page_is_rendered_once_per_change_for_visitors(session, django_assert_num_queries):
    from django.test import Client

    path = reverse("share_view", args=[create_share_link(session=session)])
    services.add_round(session=session, round_input=worked_round())
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    assert "+30" in first.get(path).content.decode()
    with django_assert_num_queries(1):  # the session; its ledger comes from the cache
        response = second.get(path)
    html = response.content.decode()
    assert "+30" in html and "Didi" in html
    # Each visitor gets their own nonce, and a CSRF token that works: the
    # language switch on the page posts.
    token = filled_in_token(response)
    switched = second.post(
        reverse("set_language"), {"language": "ne", "csrfmiddlewaretoken": token}
    )
    assert switched.status_code == 302
    # A new round is a new page at once.
    services.add_round(session=session, round_input=worked_round())
    assert "+60" in second.get(path).content.decode()


def test_a_new_link_polls_itself_not_the_old_one(logged_in, client, session):
    services.add_round(session=session, round_input=worked_round())
    old = create_share_link(session=session)
    assert f"/s/{old}/live/" in client.get(reverse("share_view", args=[old])).content.decode()
    new = create_share_link(session=session)
    html = client.get(reverse("share_view", args=[new])).content.decode()
    assert f"/s/{new}/live/" in html and old not in html
    assert client.get(reverse("share_view", args=[old])).status_code == 404


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
    round_ = services.add_round(session=session, round_input=hand(5))
    changed("a round saved")
    services.replace_round(round_=round_, given=hand(9))
    changed("a round edited")
    services.delete_round(round_=round_)
    changed("a round deleted")
    services.restore_round(change=RoundChange.objects.get(action="delete"))
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


# --- The picture card ------------------------------------------------------------------------


def png_size(data: bytes) -> tuple[int, int]:
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG"
        return image.size


@pytest.mark.parametrize("language", ["en", "ne"])
def test_the_evenings_picture_is_a_png_within_bounds(logged_in, owner, language):
    from tests.samples import make_dashain

    session = make_dashain(owner)
    logged_in.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = logged_in.get(reverse("session_card", args=[session.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    width, height = png_size(response.content)
    assert width >= 600 and height >= 400
    assert len(response.content) <= 300_000
    assert "private" in response["Cache-Control"]
    # Unchanged: a bare 304; the picture of one version is drawn once.
    again = logged_in.get(
        reverse("session_card", args=[session.pk]), HTTP_IF_NONE_MATCH=response["ETag"]
    )
    assert again.status_code == 304


def test_the_picture_says_what_the_page_says(owner):
    from django.utils import translation

    from scoring.web.session_card import session_picture
    from tests.samples import make_dashain

    session = GameSession.objects.get(pk=make_dashain(owner).pk)
    with translation.override("ne"):
        picture = session_picture(session)
    assert picture.subtitle == "16 असोज 2083 (2 अक्टोबर 2026) · रु. 2.50 प्रति अंक · 2 राउन्ड"
    standings, pays = picture.sections
    assert [tuple(c.text for c in row) for row in standings.rows] == [
        ("1", "Aama", "+39", "97.50"),
        ("2", "Didi", "+7", "17.50"),
        ("3", "Dai", "-17", "-42.50"),
        ("4", "Buwa", "-29", "-72.50"),
    ]
    assert pays.lines == (
        "Buwa ले Aama लाई रु. 72.50 तिर्ने",
        "Dai ले Aama लाई रु. 25.00 तिर्ने",
        "Dai ले Didi लाई रु. 17.50 तिर्ने",
    )


def test_a_new_round_draws_a_new_picture(logged_in, session):
    first = logged_in.get(reverse("session_card", args=[session.pk]))
    logged_in.post(reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi"))
    after = logged_in.get(
        reverse("session_card", args=[session.pk]), HTTP_IF_NONE_MATCH=first["ETag"]
    )
    assert after.status_code == 200 and after.content != first.content


def test_the_picture_is_for_its_scorers_only(logged_in, session, django_user_model):
    from table.models import CoScorer

    url = reverse("session_card", args=[session.pk])
    helper = django_user_model.objects.create_user("sita", password="pw-sita-12345")
    stranger = django_user_model.objects.create_user("hari", password="pw-hari-12345")
    CoScorer.objects.create(session=session, user=helper)
    co, other = Client(), Client()
    co.force_login(helper)
    other.force_login(stranger)
    assert co.get(url).status_code == 200
    assert other.get(url).status_code == 404
    assert Client().get(url).status_code == 302  # the log-in page first
    share = reverse("session_detail", args=[session.pk])
    assert f'href="{url}"' in logged_in.get(share).content.decode()


def test_the_share_page_marks_who_deals_next(logged_in, session):
    create_share_link(session=session)
    session.refresh_from_db()
    page = Client().get(reverse("share_view", args=[session.share_token])).content.decode()
    # No round yet: the first seat deals round 1.
    assert re.search(r'Aama\s*<strong class="dealer-mark">deals</strong>', page)
    assert page.count('class="dealer-mark"') == 1
