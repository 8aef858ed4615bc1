"""The maal calculator's endpoint, its page, and the session's point-table editor."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.template import Context, Template
from django.urls import reverse

from scoring import services
from scoring.engine import Entry, RoundInput
from scoring.engine.maal import PRESET_TABLES
from scoring.models import GameSession
from scoring.selectors.rounds import rounds_with_entries
from tests.web_helpers import make_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner(client):
    user = get_user_model().objects.create_user("owner", password="pw-12345-long")
    client.force_login(user)
    return user


@pytest.fixture
def session(owner):
    return make_session(owner)


def _calc(client, session, htmx=True, **data):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse("maal_calculator", args=[session.pk]), data, **headers)


def test_calculator_partial_counts_and_groups(client, session):
    response = _calc(
        client, session, tiplu_rank="7", tiplu_suit="H", **{"n-tiplu": "1", "n-poplu": "2"}
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html
    # Tiplu + poplu + poplu: no jhiplu, so no marriage: 3 + 5.
    assert 'data-maal="8"' in html
    assert "1 tiplu = 3" in html
    assert "2 poplu = 5" in html
    response = _calc(
        client,
        session,
        tiplu_rank="7",
        tiplu_suit="H",
        **{"n-tiplu": "1", "n-poplu": "2", "n-jhiplu": "1", "n-joker_tunnels": "1"},
    )
    html = response.content.decode()
    assert 'data-maal="12"' in html
    assert 'data-tunnel="10"' in html
    assert 'data-ok="1"' in html
    assert 'data-tiplu="7H"' in html
    assert "1 poplu = 2" in html
    assert "1 marriage = 10" in html
    assert "1 tunnel of ordinary jokers = 10" in html
    assert "&quot;marriages&quot;: 1" in html
    assert "8♥" in html  # the poplu's face, for relabelling the cards


def test_calculator_refuses_impossible_counts_with_the_reason(client, session):
    html = _calc(client, session, tiplu="AS", **{"n-tiplu": "3"}).content.decode()
    assert "3 tiplu: only 2 are in play (the third lies under the stock)" in html
    assert 'data-ok=""' in html
    html = _calc(client, session, tiplu="AS", **{"n-marriages": "1", "n-poplu_tunnels": "1"})
    assert "and a tunnel of poplu: the tunnel holds all 3" in html.content.decode()
    html = _calc(client, session, tiplu="AS", **{"n-alter": "1"}).content.decode()
    assert "alter is off in this session" in html
    html = _calc(client, session, **{"n-poplu": "x"}).content.decode()
    assert "poplu: must be a whole number, got &#x27;x&#x27;" in html


def test_calculator_without_tiplu_counts_but_cannot_be_used(client, session):
    html = _calc(client, session, **{"n-poplu": "3"}).content.decode()
    assert 'data-maal="10"' in html
    assert 'data-ok=""' in html
    assert "Pick the tiplu" in html


def test_calculator_page_works_without_javascript(client, session):
    url = reverse("maal_calculator", args=[session.pk])
    page = client.get(url).content.decode()
    assert "<html" in page
    assert 'name="tiplu_rank"' in page
    assert "<dt>Tiplu:</dt> <dd><b>3, 7</b></dd>" in page  # the pagat table
    page = client.post(url, {"tiplu_rank": "K", "tiplu_suit": "D", "n-poplu": "1"})
    html = page.content.decode()
    assert "<html" in html
    assert "1 poplu = 2" in html
    assert "A♦" in html  # above K is A


def test_calculator_shows_only_the_session_items(client, owner):
    session = make_session(owner, preset="kidnap", printed_jokers=True)
    html = client.get(reverse("maal_calculator", args=[session.pk])).content.decode()
    assert 'name="n-alter"' in html
    assert 'name="n-printed_jokers"' in html
    assert 'name="n-master_card"' not in html
    assert 'name="n-alter_tunnels"' in html
    html = _calc(client, session, tiplu="QC", **{"n-alter": "2"}).content.decode()
    assert "2 alter = 15" in html


def test_other_users_get_404(client, session):
    other = get_user_model().objects.create_user("other", password="pw-12345-long")
    client.force_login(other)
    assert client.get(reverse("maal_calculator", args=[session.pk])).status_code == 404
    assert _calc(client, session, tiplu="AS").status_code == 404
    assert client.get(reverse("maal_table", args=[session.pk])).status_code == 404
    assert client.post(reverse("maal_table", args=[session.pk]), {}).status_code == 404


def test_anonymous_users_are_sent_to_log_in(client):
    session = make_session(None)
    response = client.get(reverse("maal_calculator", args=[session.pk]))
    assert response.status_code == 302


# --- the point-table editor ----------------------------------------------------------------


def _table_data(**changes):
    data = {item: ", ".join(map(str, tiers)) for item, tiers in _tiers().items()}
    data.update(changes)
    return data


def _tiers():
    options = PRESET_TABLES["tiers"].to_options()
    options.pop("marriage_on_top")
    return options


def test_editor_shows_the_table_in_force(client, session):
    html = client.get(reverse("maal_table", args=[session.pk])).content.decode()
    assert 'name="tiplu" value="3, 7"' in html
    assert 'name="poplu" value="2, 5, 10"' in html
    assert "The pagat table" in html


def test_editor_saves_a_custom_table_before_the_first_round(client, session):
    url = reverse("maal_table", args=[session.pk])
    data = _table_data(tiplu="4, 9", alter="6") | {"marriage_on_top": "on"}
    response = client.post(url, data)
    assert response.status_code == 302
    rules = GameSession.objects.get(pk=session.pk).get_rules()
    assert rules.maal_points is not None
    assert rules.maal_points.tiplu == (4, 9)
    assert rules.maal_points.alter == (6,)
    assert rules.maal_points.marriage_on_top is True
    assert rules.alter is False  # its switch was not ticked
    html = _calc(client, session, tiplu="7H", **{"n-tiplu": "1", "n-marriages": "1"})
    # On top: 2 tiplu (9) + poplu 2 + jhiplu 2 + marriage 10.
    assert 'data-maal="23"' in html.content.decode()
    page = client.get(url).content.decode()
    assert "This session's own table" in page
    assert 'name="tiplu" value="4, 9"' in page


def test_editor_turns_items_on(client, session):
    url = reverse("maal_table", args=[session.pk])
    client.post(url, _table_data() | {"on-alter": "on", "on-master_card": "on"})
    rules = GameSession.objects.get(pk=session.pk).get_rules()
    assert (rules.alter, rules.printed_jokers, rules.master_card) == (True, False, True)
    html = _calc(client, session, tiplu="7H", **{"n-alter": "2", "n-master_card": "1"})
    assert "2 alter = 15, 1 master card = 5" in html.content.decode().replace("</li><li>", ", ")


def test_editor_refuses_bad_tiers_with_a_message_and_saves_nothing(client, session):
    url = reverse("maal_table", args=[session.pk])
    response = client.post(url, _table_data(tiplu="7, 3", poplu="two"))
    assert response.status_code == 422
    html = response.content.decode()
    assert "Tiplu: holding more must not score less, got 7, 3" in html
    assert "Poplu, jhiplu (each kind): write whole numbers such as 2, 5, 10" in html
    assert GameSession.objects.get(pk=session.pk).get_rules().maal_points is None


def test_editor_after_rounds_needs_recompute(client, session):
    services.add_round(
        session=session,
        round_input=RoundInput(
            entries=(Entry("Aama", maal=3), Entry("Buwa"), Entry("Didi"), Entry("Dai")),
            winner="Aama",
        ),
    )
    url = reverse("maal_table", args=[session.pk])
    response = client.post(url, _table_data())
    assert "tick “recompute every round”" in response.content.decode()
    assert GameSession.objects.get(pk=session.pk).get_rules().maal_points is None
    response = client.post(url, _table_data() | {"recompute": "on"})
    assert response.status_code == 302
    rules = GameSession.objects.get(pk=session.pk).get_rules()
    assert rules.maal_points == PRESET_TABLES["tiers"]
    # Back to the preset's table.
    response = client.post(url, {"reset": "1", "recompute": "on"})
    assert response.status_code == 302
    assert GameSession.objects.get(pk=session.pk).get_rules().maal_points is None


# --- template helpers ------------------------------------------------------------------------


def test_round_page_helpers(session):
    round_ = services.add_round(
        session=session,
        round_input=RoundInput(
            entries=(Entry("Aama", maal=12), Entry("Buwa"), Entry("Didi"), Entry("Dai")),
            winner="Aama",
        ),
        tiplu="10S",
        tallies={"Aama": {"poplu": 1, "marriages": 1}},
    )
    round_ = rounds_with_entries(session).get(pk=round_.pk)
    html = Template("{% load maal %}{% include 'scoring/maal/_round.html' %}").render(
        Context({"round": round_, "session": session})
    )
    assert "10♠" in html
    assert "<b>Aama</b>: 1 poplu = 2, 1 marriage = 10" in html
    assert "Buwa" not in html
    # After the table changes, the items are shown instead of a wrong breakdown.
    session.rules = session.get_rules().to_options() | {"maal_table": "flat"}
    session.save()
    html = Template("{% load maal %}{% include 'scoring/maal/_round.html' %}").render(
        Context({"round": round_, "session": session})
    )
    assert "1 poplu, 1 marriages (counted under an earlier point table)" in html


def test_dialog_renders_for_the_round_screen(session):
    html = Template("{% load maal %}{% maal_dialog session %}").render(
        Context({"session": session, "csrf_token": "t"})
    )
    assert '<dialog id="maal-dialog"' in html
    assert 'name="n-tiplu"' in html
    # Marriages are formed from the cards: a count of its own would add them twice.
    assert 'name="n-marriages"' not in html
    assert "data-maal-use" in html
    assert f'hx-post="/sessions/{session.pk}/maal/"' in html


def test_a_posted_marriage_count_is_shown_as_its_cards(client, session):
    """No page has a marriage count any more; one posted by an older page or a script
    becomes its three cards, so adding the cards as well cannot count it twice."""
    html = _calc(
        client, session, htmx=False, tiplu="7H", **{"n-marriages": "1", "n-poplu": "1"}
    ).content.decode()
    assert 'name="n-marriages"' not in html
    assert 'name="n-tiplu" value="1"' in html
    assert 'name="n-poplu" value="2"' in html
    assert 'name="n-jhiplu" value="1"' in html
    assert 'data-maal="12"' in html  # 1 poplu = 2, 1 marriage = 10
    assert "Marriages and tunnels" not in html
    assert "Tunnels shown right after the deal" in html
