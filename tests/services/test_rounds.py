"""What a session carries from round to round (the next-winner dhoos pending
after each round) is stored with the round when it is saved, so the session
page, the round form and the next save read it instead of settling every
round again (issue 23, point 5); every change that re-settles rewrites it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import services
from scoring.engine import Dhoos, make_rules, settle_session
from scoring.models import Round
from scoring.selectors.reports import PendingDhoos, build_ledger, pending_dhoos, round_setting
from scoring.selectors.rounds import saved_rounds
from tests.test_web_house_rules import ZEROS, enter
from tests.web_helpers import WORKED, make_session

pytestmark = pytest.mark.django_db


def settled_pending(session):
    inputs = [r.input for r in saved_rounds(session)]
    pending = settle_session(inputs, session.get_rules(), range(1, len(inputs) + 1)).pending
    return tuple(PendingDhoos(d.player, d.amount, d.round) for d in pending)


@pytest.mark.parametrize("payee", ["next_winner", "next_round_winner"])
def test_each_save_stores_what_is_pending_after_its_round(logged_in, owner, payee):
    session = make_session(owner, preset="nepal", dhoos_payee=payee)
    dai = session.players.get(name="Dai")
    logged_in.get(reverse("round_new", args=[session.pk]))  # the form the table saves from
    first = enter(logged_in, session, {**WORKED, "Dai": ("seen", 0, 0, True)}, "Didi")
    first.refresh_from_db()
    assert first.pending_after == [[dai.pk, 15, 1]]
    assert pending_dhoos(session) == (PendingDhoos("Dai", 15, 1),) == settled_pending(session)
    # A round with no winner books nothing: still pending after it.
    second = enter(logged_in, session, ZEROS, None)
    second.refresh_from_db()
    assert second.pending_after == [[dai.pk, 15, 1]]
    assert round_setting(session, 3).pending == (Dhoos("Dai", 15, 1),)
    third = enter(logged_in, session, ZEROS, "Aama")
    third.refresh_from_db()
    assert third.pending_after == []
    assert pending_dhoos(session) == () == settled_pending(session)
    assert build_ledger(session).pending == ()


def test_deleting_the_round_that_books_it_makes_it_pending_again(logged_in, owner):
    session = make_session(owner, preset="nepal")
    enter(logged_in, session, {**WORKED, "Dai": ("seen", 0, 0, True)}, "Didi")
    enter(logged_in, session, ZEROS, None)
    booking = enter(logged_in, session, ZEROS, "Aama")
    services.delete_round(booking)
    assert pending_dhoos(session) == (PendingDhoos("Dai", 15, 1),) == settled_pending(session)
    last = Round.objects.filter(session=session).order_by("-number").first()
    assert last is not None
    dai = session.players.get(name="Dai")
    assert last.pending_after == [[dai.pk, 15, 1]]


def test_a_round_saved_before_the_state_was_kept_is_settled_in_order(logged_in, owner):
    session = make_session(owner, preset="nepal")
    enter(logged_in, session, {**WORKED, "Dai": ("seen", 0, 0, True)}, "Didi")
    Round.objects.filter(session=session).update(pending_after=None)
    assert pending_dhoos(session) == (PendingDhoos("Dai", 15, 1),)
    assert round_setting(session, 2).pending == (Dhoos("Dai", 15, 1),)
    assert build_ledger(session).pending == (PendingDhoos("Dai", 15, 1),)


def test_changing_the_rules_works_the_carried_state_out_again(logged_in, owner):
    session = make_session(owner)  # pagat: the dhoos is paid at once, nothing carried
    enter(logged_in, session, {**WORKED, "Dai": ("seen", 0, 0, True)}, "Didi")
    assert Round.objects.get(session=session).pending_after in (None, [])
    services.recompute_session(session=session, rules=make_rules(dhoos_payee="next_winner"))
    session.refresh_from_db()
    dai = session.players.get(name="Dai")
    assert Round.objects.get(session=session).pending_after == [[dai.pk, 15, 1]]
    assert pending_dhoos(session) == (PendingDhoos("Dai", 15, 1),)
