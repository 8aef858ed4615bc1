"""The plugin seam (scoring.plugins): an app scoring does not know, registered
in its AppConfig.ready() as Call Break's evenings or pots would be, adds to the
home page, a session's page and its settle-up, lets a scorer in, and credits
a round's values, with no change inside scoring."""

from __future__ import annotations

import copy

import pytest
from django.conf import settings as django_settings
from django.urls import reverse

from scoring import plugins
from scoring.plugins import Plugin
from scoring.selectors.versions import owned_version
from tests.web_helpers import make_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def cards_app(tmp_path, settings, monkeypatch):
    """A made-up app "cards" with its templates: registered for one test."""
    (tmp_path / "cards").mkdir()
    for slot in plugins.SLOTS:
        (tmp_path / "cards" / f"_{slot}.html").write_text(
            f'<p class="cards-{slot}">{{{{ cards_{slot} }}}}</p>\n', encoding="utf-8"
        )
    templates = copy.deepcopy(django_settings.TEMPLATES)
    templates[0]["DIRS"] = [*templates[0]["DIRS"], tmp_path]
    settings.TEMPLATES = templates
    monkeypatch.setattr(plugins, "_plugins", list(plugins.plugins()))
    return {slot: f"cards/_{slot}.html" for slot in plugins.SLOTS}


def test_the_apps_that_add_to_scoring_are_registered():
    assert [p.name for p in plugins.plugins()] == ["stats", "table", "groups"]


def test_a_plugin_adds_its_part_to_the_home_page(logged_in, owner, cards_app):
    plugins.register(
        Plugin(
            name="cards",
            home=lambda user_id: {"cards_home": f"3 games of {user_id}"},
            parts=cards_app,
        )
    )
    html = logged_in.get(reverse("home")).content.decode()
    assert f'<p class="cards-home">3 games of {owner.pk}</p>' in html


def test_what_a_plugin_lists_moves_the_home_pages_version(logged_in, cards_app):
    shown = ["Call Break night"]
    plugins.register(
        Plugin(name="cards", home=lambda _: {"cards_home": list(shown)}, parts=cards_app)
    )
    assert "Call Break night" in logged_in.get(reverse("home")).content.decode()
    shown[0] = "Pots night"
    assert "Pots night" in logged_in.get(reverse("home")).content.decode()


def test_a_plugin_adds_its_part_to_a_session_and_its_settle_up(logged_in, session, cards_app):
    plugins.register(
        Plugin(
            name="cards",
            session_page=lambda s, user_id: {"cards_session_page": f"beside {s.name}"},
            settle_up=lambda s: {"cards_settle_up": f"purse of {s.name}"},
            settle_up_version=lambda sid, owner_id: f"{owned_version(sid, owner_id)}+cards1",
            parts=cards_app,
        )
    )
    detail = logged_in.get(reverse("session_detail", args=[session.pk])).content.decode()
    assert '<p class="cards-session_page">beside Tihar night</p>' in detail
    settle = logged_in.get(reverse("settle_up", args=[session.pk])).content.decode()
    assert '<p class="cards-settle_up">purse of Tihar night</p>' in settle


def test_a_plugins_settle_up_version_none_is_a_404(logged_in, session, cards_app):
    plugins.register(Plugin(name="cards", settle_up_version=lambda sid, owner_id: None))
    assert logged_in.get(reverse("settle_up", args=[session.pk])).status_code == 404


def test_a_plugin_lets_a_scorer_in(client, owner, django_user_model, cards_app):
    from scoring.models import GameSession

    session = make_session(owner)
    sita = django_user_model.objects.create_user("sita", password="pw-sita-12345")
    client.force_login(sita)
    url = reverse("session_detail", args=[session.pk])
    assert client.get(url).status_code == 404
    plugins.register(
        Plugin(
            name="cards",
            scored_sessions=lambda user_id: GameSession.objects.filter(
                pk=session.pk if user_id == sita.pk else -1
            ).values("pk"),
        )
    )
    assert client.get(url).status_code == 200
    # Still not theirs to change: the session's details stay the owner's.
    assert client.get(reverse("session_edit", args=[session.pk])).status_code == 404


@pytest.mark.parametrize("slot", plugins.SLOTS)
def test_every_slot_is_on_a_page(slot):
    """A slot a plugin may fill is included by one of scoring's pages."""
    from pathlib import Path

    templates = Path(__file__).resolve().parents[2] / "templates"
    found = [
        path
        for path in templates.rglob("*.html")
        if f"plugin_parts.{slot} %}}{{% include part %}}" in path.read_text(encoding="utf-8")
    ]
    assert len(found) == 1, (slot, found)


def test_a_plugin_adds_to_the_form_of_a_new_round_and_the_owners_menu(logged_in, session):
    """table's parts: the seat feed on a new round's form, the seats in the menu."""
    form = logged_in.get(reverse("round_new", args=[session.pk])).content.decode()
    assert 'id="seat-feed"' in form
    detail = logged_in.get(reverse("session_detail", args=[session.pk])).content.decode()
    assert f'href="{reverse("seats_manage", args=[session.pk])}"' in detail


def test_a_part_for_no_slot_is_refused(cards_app):
    with pytest.raises(ValueError, match="cards: no slot footer"):
        plugins.register(Plugin(name="cards", parts={"footer": "cards/_home.html"}))
