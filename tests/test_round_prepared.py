"""One POST of the round form prepares the round once: the form settles it in
its place and checks the maal calculator's tallies, and the save takes that as
it is, unless the session changed since the form was read."""

from __future__ import annotations

import json
from unittest import mock

import pytest
from django.urls import reverse

from scoring import services
from scoring.engine import prepare, settlement
from scoring.forms import rounds as round_form
from scoring.models import Round, RoundEntry
from scoring.selectors.files import export_session, session_doc
from scoring.services import rounds as round_service
from tests.web_helpers import WORKED, round_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def counted():
    """Every settle_round, check_round_tallies and round_problems call, wherever
    it is looked up from."""
    settle = mock.Mock(wraps=settlement.settle_round)
    tallies = mock.Mock(wraps=prepare.check_round_tallies)
    problems = mock.Mock(wraps=settlement.round_problems)
    with (
        mock.patch.object(prepare, "settle_round", settle),
        mock.patch.object(round_form, "settle_round", settle),
        mock.patch.object(round_service, "settle_round", settle),
        mock.patch.object(prepare, "check_round_tallies", tallies),
        mock.patch.object(round_form, "round_problems", problems),
    ):
        yield {"settle": settle, "tallies": tallies, "problems": problems}


def _with_tally(session) -> dict[str, str]:
    # Aama's 7 maal points counted by the calculator: two tiplu.
    data = round_data(session, {**WORKED, "Aama": ("seen", 7)}, "Didi")
    ids = {p.name: p.pk for p in session.players.all()}
    data["tiplu"] = "7H"
    data[f"p-{ids['Aama']}-maal_tally"] = json.dumps({"tiplu": 2})
    return data


def test_one_new_round_post_settles_once_and_checks_tallies_once(logged_in, session, counted):
    response = logged_in.post(reverse("round_new", args=[session.pk]), _with_tally(session))
    assert response.status_code == 302
    assert counted["settle"].call_count == 1
    assert counted["tallies"].call_count == 1
    assert counted["problems"].call_count == 1
    round_ = Round.objects.get(session=session)
    assert round_.tiplu == "7H"
    aama = RoundEntry.objects.get(round=round_, player__name="Aama")
    assert aama.maal_tally == {"tiplu": 2}
    # Settled in its place: the nets a round settled alone gives.
    nets = {e.player.name: e.net for e in round_.entries.select_related("player")}
    assert sum(nets.values()) == 0
    assert nets == _nets_alone(session, round_)


def _nets_alone(session, round_: Round) -> dict[str, int]:
    result = settlement.settle_round(round_.to_input(), session.get_rules())
    return {p.player: p.net for p in result.players}


def test_one_edit_post_checks_tallies_once(logged_in, session, counted):
    logged_in.post(reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi"))
    round_ = Round.objects.get(session=session)
    counted["settle"].reset_mock()
    counted["tallies"].reset_mock()
    data = {**_with_tally(session), "version": str(round_.version)}
    response = logged_in.post(reverse("round_edit", args=[session.pk, round_.pk]), data)
    assert response.status_code == 302
    assert counted["tallies"].call_count == 1
    assert counted["settle"].call_count == 1  # in its place, by the form; the save takes it
    round_.refresh_from_db()
    assert round_.tiplu == "7H"


def test_a_round_prepared_before_the_session_changed_is_prepared_again(session, counted):
    form = round_form.RoundForm(
        list(session.players.all()),
        session.get_rules(),
        data=_with_tally(session),
        version=session.updated_at,
    )
    assert form.is_valid()
    assert form.prepared is not None
    # Another phone saves a round meanwhile: the session's version moves.
    services.add_round(session.__class__.objects.get(pk=session.pk), form.prepared.round_input)
    counted["settle"].reset_mock()
    counted["tallies"].reset_mock()
    round_ = services.add_round(
        session, form.prepared, players=list(session.players.all()), setting=None
    )
    assert counted["tallies"].call_count == 1  # checked again
    assert counted["settle"].call_count >= 1  # and settled again
    assert round_.position == 2
    assert RoundEntry.objects.get(round=round_, player__name="Aama").maal_tally == {"tiplu": 2}


# --- the export, from stored values ------------------------------------------------------------


def test_the_export_takes_stored_nets_and_says_what_settling_again_says(logged_in, session):
    from scoring.engine import sessionfile

    logged_in.post(reverse("round_new", args=[session.pk]), _with_tally(session))
    logged_in.post(
        reverse("round_new", args=[session.pk]),
        round_data(session, {**WORKED, "Dai": ("seen", 4, 0, True)}, "Aama", better=True),
    )
    settled_again = sessionfile.export_document(session_doc(session))
    settle = mock.Mock(wraps=sessionfile.settle_session)
    with mock.patch.object(sessionfile, "settle_session", settle):
        exported = export_session(session)
    assert settle.call_count == 0  # pagat never looks back: the saved nets are the nets
    assert json.dumps(exported) == json.dumps(settled_again)
    assert exported["rounds"][0]["tiplu"] == "7H"
    assert exported["rounds"][0]["entries"][0]["maal_tally"] == {"tiplu": 2}
