"""Run by tests/site/test_one_declaration.py with the made-up option of plugin.py
declared (this file's name keeps it out of the usual run): every page and file
that shows or takes rule options works with it, with no other change."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from scoring.engine.rules import OPTION_NAMES, OPTIONS, PRESETS, Rules, make_rules
from scoring.models import GameSession
from scoring.templatetags.offline import rules_data

from ..web_helpers import make_session, round_data, rule_fields

pytestmark = pytest.mark.django_db
NAME = "house_tea_break"
WORKED = {"Aama": ("seen", 5), "Buwa": ("unseen", 2), "Didi": ("seen", 7), "Dai": ("seen", 0)}


def ok(response) -> str:
    assert response.status_code == 200, response.content.decode()[:3000]
    return response.content.decode()


def test_the_option_is_declared_and_derived():
    assert NAME in OPTION_NAMES
    assert OPTIONS[NAME].kind == "bool"
    assert Rules().house_tea_break is False
    assert all(getattr(rules, NAME) is False for rules in PRESETS.values())
    assert make_rules(house_tea_break=True).to_options()[NAME] is True
    assert rules_data(Rules())["schema"][NAME] == {"default": False, "kind": "bool"}


@pytest.mark.parametrize("language", ["en", "ne"])
def test_every_page_that_shows_the_options(client, owner, language):
    client.force_login(owner)
    client.post(reverse("set_language"), {"language": language})
    session = make_session(owner, house_tea_break=True)
    assert "Tea break" in ok(client.get(reverse("how_it_works")))
    assert f'name="{NAME}"' in ok(client.get(reverse("session_new")))
    assert f'name="{NAME}"' in ok(client.get(reverse("session_rules", args=[session.pk])))
    ok(client.get(reverse("round_new", args=[session.pk])))
    saved = client.post(
        reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi")
    )
    assert saved.status_code == 302
    ok(client.get(reverse("session_detail", args=[session.pk])))
    # The rules page again, now with a round: the presets side by side.
    ok(client.get(reverse("session_rules", args=[session.pk])))
    exported = json.loads(ok(client.get(reverse("session_export", args=[session.pk]))))
    assert exported["rules"][NAME] is True
    assert exported["rounds"][0]["net"] == {"Aama": 3, "Buwa": -16, "Didi": 30, "Dai": -17}


def test_the_session_form_and_the_rules_form_take_it(client, owner):
    client.force_login(owner)
    data = {
        "name": "Tea at Aama's",
        "played_on": "2026-10-02",
        "currency": "npr",
        "stake_per_point": "2.50",
        "players": "Aama\nBuwa\nDidi\nDai",
        "preset": "pagat",
        **rule_fields(make_rules(house_tea_break=True)),
    }
    assert client.post(reverse("session_new"), data).status_code == 302
    session = GameSession.objects.get(name="Tea at Aama's")
    assert session.get_rules() == make_rules(house_tea_break=True)
    data = {"preset": "pagat", **rule_fields(Rules())}
    assert client.post(reverse("session_rules", args=[session.pk]), data).status_code == 302
    session.refresh_from_db()
    assert session.get_rules() == Rules()


def test_a_file_names_it(client, owner):
    client.force_login(owner)
    document = {
        "format": "marriage-session/1",
        "name": "Tea",
        "players": ["A", "B"],
        "rules": {"preset": "pagat", NAME: True},
        "rounds": [
            {
                "winner": "A",
                "entries": [{"player": "A", "status": "seen"}, {"player": "B", "status": "seen"}],
            }
        ],
    }
    upload = SimpleUploadedFile("tea.json", json.dumps(document).encode())
    response = client.post(reverse("session_import"), {"file": upload})
    assert response.status_code == 302, response.content.decode()[:3000]
    assert GameSession.objects.get(name="Tea").get_rules() == make_rules(house_tea_break=True)
    bad = {**document, "rules": {NAME: "yes"}}
    upload = SimpleUploadedFile("bad.json", json.dumps(bad).encode())
    with translation.override("en"):
        html = client.post(reverse("session_import"), {"file": upload}).content.decode()
    assert "rule house_tea_break: must be true or false, got &#x27;yes&#x27;" in html
