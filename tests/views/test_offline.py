"""Offline at the table, server side (README): the service worker and the web app
manifest as served, the icons, which pages the worker may keep and whose, the
log-out that clears the browser's cache, and what the round form hands the
preview worked out on the phone. The browser side: tests/browser/test_offline.py."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from scoring import services
from scoring.engine import Entry, RoundInput
from scoring.selectors.reports import chain_rounds, round_setting
from scoring.templatetags.offline import chain_state
from scoring.web.offline import (
    NAVIGATION_TIMEOUT_MS,
    RECHECK_MS,
    SAVE_TIMEOUT_MS,
    precache,
    user_bucket,
)
from tests.web_helpers import make_session

pytestmark = pytest.mark.django_db
STATIC = Path(settings.BASE_DIR) / "static"
PASSWORD = "tihar-cards-2083"


@pytest.fixture
def owner():
    return get_user_model().objects.create_user("aama", password=PASSWORD)


@pytest.fixture
def owner_client(owner):
    client = Client()
    client.force_login(owner)
    return client


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_service_worker_is_served_at_the_root_with_its_headers(client, settings):
    # The test settings wait longer (see settings_test.py); production's waits are these.
    del settings.OFFLINE_NAVIGATION_TIMEOUT_MS, settings.OFFLINE_SAVE_TIMEOUT_MS
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert response["Cache-Control"] == "no-cache"
    assert response["Service-Worker-Allowed"] == "/"
    body = response.content.decode()
    config = json.loads(re.search(r"const CONFIG = (\{.*\});", body).group(1))
    assert "{{" not in body and "{%" not in body
    urls, version = precache()
    assert config["precache"] == urls and config["version"] == version
    # Every static file of ours, as static() names it, and htmx.
    for name in ("css/app.css", "js/offline.js", "js/settlement.js", "icons/icon-192.png"):
        assert f"/static/{name}" in config["precache"]
    assert any("htmx" in url for url in config["precache"])
    assert config["offlineUrl"] == reverse("offline_page")
    assert config["queueScript"] in config["precache"]
    # How long a hanging network is waited for (milliseconds).
    assert config["navigationTimeout"] == NAVIGATION_TIMEOUT_MS == 4_000
    assert config["saveTimeout"] == SAVE_TIMEOUT_MS == 10_000
    # How soon a page shown from the phone while online asks whether the network answers.
    assert config["recheck"] == RECHECK_MS == 5_000


def test_the_worker_waits_as_long_as_the_settings_say(client, settings):
    settings.OFFLINE_NAVIGATION_TIMEOUT_MS = 300
    settings.OFFLINE_SAVE_TIMEOUT_MS = 600
    settings.OFFLINE_RECHECK_MS = 200
    body = client.get("/sw.js").content.decode()
    config = json.loads(re.search(r"const CONFIG = (\{.*\});", body).group(1))
    waits = (config["navigationTimeout"], config["saveTimeout"], config["recheck"])
    assert waits == (300, 600, 200)


def test_a_share_poll_waits_as_long_as_the_worker_waits_for_a_page(client, settings):
    # static/js/live.js: a poll unanswered this long puts up the offline banner.
    settings.OFFLINE_NAVIGATION_TIMEOUT_MS = 300
    assert 'data-poll-wait="300"' in client.get(reverse("login")).content.decode()
    del settings.OFFLINE_NAVIGATION_TIMEOUT_MS
    assert 'data-poll-wait="4000"' in client.get(reverse("login")).content.decode()


def test_the_cache_version_follows_the_files():
    assert re.fullmatch(r"[0-9a-f]{16}", precache()[1])


def test_the_manifest_makes_the_app_installable(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Marriage scorekeeper"
    assert manifest["short_name"] == "Marriage"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] and manifest["background_color"]
    icons = {(icon["sizes"], icon.get("purpose", "any")): icon for icon in manifest["icons"]}
    assert set(icons) == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for (sizes, _purpose), icon in icons.items():
        path = STATIC / icon["src"].removeprefix("/static/")
        assert png_size(path) == tuple(int(n) for n in sizes.split("x"))
        assert icon["type"] == "image/png"


def test_the_manifest_speaks_nepali(client):
    manifest = json.loads(
        client.get("/manifest.webmanifest", headers={"accept-language": "ne"}).content
    )
    assert manifest["name"] == "म्यारिज अंक पुस्तिका"


def test_every_page_links_the_manifest_and_both_theme_colours(client):
    html = client.get(reverse("login")).content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert 'name="theme-color" media="(prefers-color-scheme: light)"' in html
    assert 'name="theme-color" media="(prefers-color-scheme: dark)"' in html
    assert "/static/js/offline.js" in html


def test_the_policy_allows_the_worker_and_the_manifest_from_the_site_only(client):
    policy = client.get(reverse("login"))["Content-Security-Policy"]
    assert "worker-src 'self'" in policy
    assert "manifest-src 'self'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


def test_the_session_pages_are_marked_for_keeping_under_their_user(owner, owner_client):
    session = make_session(owner)
    bucket = user_bucket(owner)
    assert re.fullmatch(r"u[0-9a-f]{24}", bucket)
    for name in ("session_detail", "round_new", "settle_up", "session_share"):
        response = owner_client.get(reverse(name, args=[session.pk]))
        assert response["X-Offline-Cache"] == "1", name
        assert response["X-Offline-User"] == bucket
    # Not kept: pages that change by themselves, htmx parts, anything not GET.
    response = owner_client.get(reverse("session_changes", args=[session.pk]))
    assert "X-Offline-Cache" not in response and response["X-Offline-User"] == bucket
    response = owner_client.get(reverse("session_detail", args=[session.pk]), HTTP_HX_REQUEST="1")
    assert "X-Offline-Cache" not in response and "X-Offline-User" not in response
    # Another user's session is a 404: nothing to keep.
    other = Client()
    other.force_login(get_user_model().objects.create_user("buwa", password=PASSWORD))
    response = other.get(reverse("session_detail", args=[session.pk]))
    assert response.status_code == 404 and "X-Offline-Cache" not in response


def test_each_user_has_their_own_name_and_it_tells_nothing(owner):
    other = get_user_model().objects.create_user("buwa", password=PASSWORD)
    assert user_bucket(owner) != user_bucket(other)
    assert str(owner.pk) not in user_bucket(owner)[1:3]
    assert user_bucket(None) == "public"


def test_the_share_link_is_kept_as_public(owner, client):
    from scoring.services import create_share_link

    session = make_session(owner)
    create_share_link(session=session)
    session.refresh_from_db()
    response = client.get(reverse("share_view", args=[session.share_token]))
    assert response["X-Offline-Cache"] == "1"
    assert response["X-Offline-User"] == "public"


def test_the_offline_page_names_nobody(owner_client):
    response = owner_client.get(reverse("offline_page"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "data-fallback" in html
    assert 'data-user=""' in html
    assert "X-Offline-Cache" not in response


def test_log_out_tells_the_browser_to_drop_its_cache(owner_client):
    response = owner_client.post(reverse("logout"))
    assert response.status_code == 302
    assert response["Clear-Site-Data"] == '"cache"'


def test_the_round_form_carries_what_the_phone_settles_with(owner, owner_client):
    session = make_session(owner, preset="nepal")
    html = owner_client.get(reverse("round_new", args=[session.pk])).content.decode()
    rules = re.search(r'data-rules="([^"]+)"', html).group(1).replace("&quot;", '"')
    # The options' schema as the engine declares them, and the session's values.
    assert json.loads(rules)["values"]["unseen_maal"] == "void"
    assert json.loads(rules)["schema"]["dhoos_payee"]["default"] == "all"
    assert '<template id="breakdown-template">' in html
    assert re.search(r'data-pending="\[\]"', html)
    assert "/static/js/offline-preview.js" in html


def test_the_phone_preview_has_the_engine_words_in_nepali(owner, owner_client):
    session = make_session(owner)
    owner_client.post(reverse("set_language"), {"language": "ne"})
    html = owner_client.get(reverse("round_new", args=[session.pk])).content.decode()
    raw = re.search(r'data-catalogue="([^"]+)"', html).group(1)
    catalogue = json.loads(raw.replace("&quot;", '"').replace("&#x27;", "'").replace("&amp;", "&"))
    assert catalogue["%(name)s has no entry in this round"] == "%(name)s यो राउन्डमा हुनुहुन्न"
    assert all(text != catalogue[text] for text in catalogue)


def test_the_offline_words_are_in_nepali(client):
    html = client.get(reverse("login"), headers={"accept-language": "ne"}).content.decode()
    assert 'data-offline-at="अफलाइन — %(time)s सम्मको स्थिति"' in html
    assert 'data-fix="सच्याउनुहोस्"' in html


def chain_of(html: str) -> dict:
    found = re.search(r'data-chain="([^"]+)"', html)
    assert found, "no data-chain on the form"
    raw = found.group(1)
    return json.loads(raw.replace("&quot;", '"').replace("&#x27;", "'").replace("&amp;", "&"))


def test_the_new_round_form_says_where_the_session_stands(owner, owner_client):
    """What the phone needs to follow the rounds it keeps (static/js/session-chain.js):
    the round's number, the dhoos pending before it, where the rotation stands,
    the seats in dealing order and the words of the line above the form. An
    edit's form follows nothing."""
    from scoring import services
    from scoring.engine import Entry, RoundInput

    session = make_session(owner, preset="nepal", better_after_rotation=True)
    entries = (Entry("Aama", "seen", 6), Entry("Buwa", "seen", 2), Entry("Didi", dhoos=True))
    round_ = services.add_round(
        session=session,
        round_input=RoundInput(entries=(*entries, Entry("Dai", "seen", 3)), winner="Aama"),
        players=list(session.players.all()),
    )
    chain = chain_of(owner_client.get(reverse("round_new", args=[session.pk])).content.decode())
    assert chain["start"] == {
        "number": 2,
        "pending": [{"player": "Didi", "amount": 15, "from": 1}],
        "counter": 1,
        "players": 4,
        "since": None,
        "dublee": False,
    }
    assert chain["seats"] == ["Aama", "Buwa", "Didi", "Dai"]
    assert chain["words"]["round"] == "Round %(number)s"
    edit = owner_client.get(reverse("round_edit", args=[session.pk, round_.pk])).content.decode()
    assert "data-chain=" not in edit
    owner_client.post(reverse("set_language"), {"language": "ne"})
    html = owner_client.get(reverse("round_new", args=[session.pk])).content.decode()
    words = chain_of(html)["words"]
    assert words["deals"] == "%(dealer)s ले पत्ता बाँड्नुहुन्छ"
    assert words["afterKept"] == ("यही फोनमा हिसाब गरिएको, यसमा राखिएका र अझै नपठाइएका राउन्डहरूपछि।")


def test_a_send_from_the_queue_waits_as_long_as_a_save(client, settings):
    settings.OFFLINE_SAVE_TIMEOUT_MS = 1234
    html = client.get(reverse("login")).content.decode()
    assert 'data-save-wait="1234"' in html


def test_the_session_page_and_the_form_carry_the_saved_rounds_for_kept_edits(owner, owner_client):
    """Under nepal (dhoos to the next winner), better after a rotation, the
    session's page and the new round's form carry the chain: the next round,
    and the latest saved rounds (marks as the table set them) with the state
    before them, which next-round.js settles again with the edits waiting on
    the phone."""
    session = make_session(owner, preset="nepal", better_after_rotation=True)
    players = list(session.players.all())
    given = RoundInput(
        (Entry("Aama", "seen", 6), Entry("Buwa", "seen", 2), Entry("Didi", dhoos=True)),
        winner="Aama",
    )
    plain = RoundInput((Entry("Aama", "seen", 3), Entry("Buwa", "seen", 4)), winner="Buwa")
    rounds = [
        services.add_round(session=session, round_input=r, players=players)
        for r in (plain, given, plain)
    ]
    for url in (f"/sessions/{session.pk}/", f"/sessions/{session.pk}/rounds/new/"):
        chain = chain_of(owner_client.get(url).content.decode())
        assert chain["start"]["number"] == 4
        assert chain["players"] == [{"id": str(p.pk), "name": p.name} for p in players]
        assert chain["saved"]["start"] == {
            "number": 1,
            "pending": [],
            "counter": 0,
            "players": 0,
            "since": None,
            "dublee": False,
        }
        assert [r["id"] for r in chain["saved"]["rounds"]] == [str(r.pk) for r in rounds]
        second = chain["saved"]["rounds"][1]["round"]
        assert second["winner"] == "Aama"
        assert second["better"] is False  # the mark the form set
        assert [e["dhoos"] for e in second["entries"]] == [False, False, True]
    # The latest rounds only: the state before them as the server has it.
    window = chain_rounds(session, latest=1)
    assert window is not None
    before = round_setting(session, 3)
    assert window.start.number == 3
    assert chain_state(3, window.start.better, window.start.pending) == chain_state(
        3, before.better, before.pending
    )
    assert [d.player for d in window.start.pending] == ["Didi"]
    assert [pk for pk, _round in window.rounds] == [rounds[2].pk]


def test_rules_that_never_look_back_carry_no_saved_rounds(owner, owner_client):
    session = make_session(owner, preset="pagat")
    chain = chain_of(owner_client.get(f"/sessions/{session.pk}/").content.decode())
    assert chain["saved"] is None
    assert chain["start"]["number"] == 1
