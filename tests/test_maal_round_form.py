"""The maal calculator on the round screen: tiplu and tallies posted, checked, stored, shown."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from scoring.engine.maal import PRESET_TABLES
from scoring.models import GameSession, Round
from tests.web_helpers import make_session, round_data

pytestmark = pytest.mark.django_db


ROWS = {"Aama": ("seen", 12, 10), "Buwa": ("unseen", 2), "Didi": ("seen", 7), "Dai": ("seen", 0)}


def _with_maal(session, rows=ROWS, tiplu="7H", **tallies):
    data = round_data(session, rows, "Didi")
    ids = {p.name: p.pk for p in session.players.all()}
    data["tiplu"] = tiplu
    for name, tally in tallies.items():
        data[f"p-{ids[name]}-maal_tally"] = json.dumps(tally)
    return data


def test_round_screen_has_the_calculator(logged_in, session):
    html = logged_in.get(reverse("round_new", args=[session.pk])).content.decode()
    assert '<dialog id="maal-dialog"' in html
    assert 'name="tiplu" value=""' in html
    assert "js/maal.js" in html
    for player in session.players.all():
        assert f'name="p-{player.pk}-maal_tally"' in html
    assert html.count("data-maal-open") == 4


def test_a_round_counted_with_the_calculator_is_stored_and_shown(logged_in, session):
    data = _with_maal(session, Aama={"tiplu": 1, "poplu": 2, "jhiplu": 1, "joker_tunnels": 1})
    response = logged_in.post(reverse("round_new", args=[session.pk]), data)
    assert response.status_code == 302
    round_ = Round.objects.get(session=session)
    assert round_.tiplu == "7H"
    tallies = {e.player.name: e.maal_tally for e in round_.entries.select_related("player")}
    assert tallies["Aama"] == {"poplu": 1, "marriages": 1, "joker_tunnels": 1}
    assert tallies["Buwa"] is None
    html = logged_in.get(reverse("round_detail", args=[session.pk, round_.pk])).content.decode()
    assert "7♥" in html
    assert "<b>Aama</b>: 1 poplu = 2, 1 marriage = 10, 1 tunnel of ordinary jokers = 10" in html
    # Editing shows the tiplu and the stored count, and keeps them.
    edit = reverse("round_edit", args=[session.pk, round_.pk])
    html = logged_in.get(edit).content.decode()
    assert 'name="tiplu" value="7H"' in html
    assert "&quot;marriages&quot;: 1" in html
    assert "1 poplu = 2, 1 marriage = 10, 1 tunnel of ordinary jokers = 10" in html
    opened = {"version": str(round_.version)}
    response = logged_in.post(
        edit, {**_with_maal(session, tiplu="7H", Aama=tallies["Aama"]), **opened}
    )
    assert response.status_code == 302
    assert Round.objects.get(pk=round_.pk).tiplu == "7H"


def test_points_typed_over_the_count_are_refused(logged_in, session):
    data = _with_maal(session, Aama={"poplu": 1, "marriages": 1})  # 12 maal, but tunnel 10 typed
    response = logged_in.post(reverse("round_new", args=[session.pk]), data)
    assert response.status_code == 422
    html = response.content.decode()
    assert (
        "maal: the calculator counted maal 12 and tunnel 0 (1 poplu = 2, 1 marriage = 10), "
        "not 12 and 10; count again or clear the calculator"
    ) in html
    assert not Round.objects.exists()


def test_impossible_count_and_missing_tiplu_are_refused(logged_in, session):
    url = reverse("round_new", args=[session.pk])
    html = logged_in.post(url, _with_maal(session, Aama={"tiplu": 3})).content.decode()
    assert "maal: 3 tiplu: only 2 are in play (the third lies under the stock)" in html
    html = logged_in.post(
        url, _with_maal(session, tiplu="", Aama={"poplu": 1, "marriages": 1})
    ).content.decode()
    assert "tiplu: pick the tiplu card to use the maal calculator" in html
    # The summary's link leads to the tiplu line, which can take the focus.
    assert '<li><a href="#tiplu-line">tiplu: pick the tiplu card' in html
    assert 'id="tiplu-line" tabindex="-1"' in html
    data = _with_maal(session)
    data[f"p-{session.players.get(name='Aama').pk}-maal_tally"] = "{not json"
    html = logged_in.post(url, data).content.decode()
    assert "maal: the calculator&#x27;s count is unreadable; count again" in html
    assert not Round.objects.exists()


def test_preview_shows_a_count_that_disagrees(logged_in, session):
    data = _with_maal(session, Aama={"poplu": 1})
    response = logged_in.post(
        reverse("round_preview", args=[session.pk]), data, HTTP_HX_REQUEST="true"
    )
    assert "the calculator counted maal 2 and tunnel 0" in response.content.decode()


def test_rules_page_keeps_the_custom_table(logged_in, owner):
    session = make_session(owner, maal_points=PRESET_TABLES["flat"])
    url = reverse("session_rules", args=[session.pk])
    options = session.get_rules().to_options()
    options.pop("maal_points")
    data = {"preset": "pagat"}
    for name, value in options.items():
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        else:
            data[name] = str(value)
    response = logged_in.post(url, data | {"dhoos_penalty": "20"})
    assert response.status_code == 302
    rules = GameSession.objects.get(pk=session.pk).get_rules()
    assert (rules.dhoos_penalty, rules.maal_points) == (20, PRESET_TABLES["flat"])


def test_rules_page_links_to_the_maal_pages(logged_in, session):
    html = logged_in.get(reverse("session_rules", args=[session.pk])).content.decode()
    assert reverse("maal_table", args=[session.pk]) in html
    assert reverse("maal_calculator", args=[session.pk]) in html


def test_a_master_card_tally_at_value_10(logged_in, owner):
    session = make_session(owner, master_card=True, master_card_value=10)
    rows = {"Aama": ("seen", 5), "Buwa": ("unseen", 2), "Didi": ("seen", 7), "Dai": ("seen", 10)}
    data = _with_maal(session, rows, Dai={"master_card": 1})
    response = logged_in.post(reverse("round_new", args=[session.pk]), data)
    assert response.status_code == 302
    round_ = Round.objects.get(session=session)
    entries = {e.player.name: e for e in round_.entries.select_related("player")}
    assert entries["Dai"].maal_tally == {"master_card": 1}
    # Dai's maal 10: T = 24. Aama pays 24 + 3 − 20 = 7, Buwa 24 + 10 − 8 = 26,
    # Dai 24 + 3 − 40 = −13 (Didi pays Dai 13): Didi +20.
    assert {name: e.net for name, e in entries.items()} == {
        "Aama": -7,
        "Buwa": -26,
        "Didi": 20,
        "Dai": 13,
    }
    html = logged_in.get(reverse("round_detail", args=[session.pk, round_.pk])).content.decode()
    assert "<b>Dai</b>: 1 master card = 10" in html
    # Counted at the session's value: 5 typed beside it is refused.
    rows["Dai"] = ("seen", 5)
    response = logged_in.post(
        reverse("round_new", args=[session.pk]), _with_maal(session, rows, Dai={"master_card": 1})
    )
    assert response.status_code == 422
    assert (
        "maal: the calculator counted maal 10 and tunnel 0 (1 master card = 10), "
        "not 5 and 0; count again or clear the calculator"
    ) in response.content.decode()
    assert Round.objects.filter(session=session).count() == 1
