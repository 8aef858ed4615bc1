"""The session file export read from the stored rounds (scoring.selectors.files):
the stored nets, exactly what settling again says."""

from __future__ import annotations

import json
from unittest import mock

import pytest
from django.urls import reverse

from scoring.selectors.files import export_session, session_doc
from tests.web_helpers import WORKED, round_data, tallied_round

pytestmark = pytest.mark.django_db


def test_the_export_takes_stored_nets_and_says_what_settling_again_says(logged_in, session):
    from scoring.engine import sessionfile

    logged_in.post(reverse("round_new", args=[session.pk]), tallied_round(session))
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
