"""Saving a round (scoring.services.rounds): the tiplu and each player's maal
tally stored with the round, checked first; and what a session carries from
round to round (the next-winner dhoos pending after each round) stored with the
round when it is saved, so the session page, the round form and the next save
read it instead of settling every round again; every change that re-settles
rewrites it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import services
from scoring.engine import Dhoos, Entry, RoundError, RoundInput, make_rules, settle_session
from scoring.models import GameSession, Player, Round, RoundEntry
from scoring.selectors.reports import PendingDhoos, build_ledger, pending_dhoos, round_setting
from scoring.selectors.rounds import saved_rounds
from tests.web_helpers import WORKED, ZEROS, entered, make_session

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
    first = entered(logged_in, session, {**WORKED, "Dai": ("seen", 0, 0, True)}, "Didi")
    first.refresh_from_db()
    assert first.pending_after == [[dai.pk, 15, 1]]
    assert pending_dhoos(session) == (PendingDhoos("Dai", 15, 1),) == settled_pending(session)
    # A round with no winner books nothing: still pending after it.
    second = entered(logged_in, session, ZEROS, None)
    second.refresh_from_db()
    assert second.pending_after == [[dai.pk, 15, 1]]
    assert round_setting(session, 3).pending == (Dhoos("Dai", 15, 1),)
    third = entered(logged_in, session, ZEROS, "Aama")
    third.refresh_from_db()
    assert third.pending_after == []
    assert pending_dhoos(session) == () == settled_pending(session)
    assert build_ledger(session).pending == ()


def test_deleting_the_round_that_books_it_makes_it_pending_again(logged_in, owner):
    session = make_session(owner, preset="nepal")
    entered(logged_in, session, {**WORKED, "Dai": ("seen", 0, 0, True)}, "Didi")
    entered(logged_in, session, ZEROS, None)
    booking = entered(logged_in, session, ZEROS, "Aama")
    services.delete_round(round_=booking)
    assert pending_dhoos(session) == (PendingDhoos("Dai", 15, 1),) == settled_pending(session)
    last = Round.objects.filter(session=session).order_by("-number").first()
    assert last is not None
    dai = session.players.get(name="Dai")
    assert last.pending_after == [[dai.pk, 15, 1]]


def test_a_round_saved_before_the_state_was_kept_is_settled_in_order(logged_in, owner):
    session = make_session(owner, preset="nepal")
    entered(logged_in, session, {**WORKED, "Dai": ("seen", 0, 0, True)}, "Didi")
    Round.objects.filter(session=session).update(pending_after=None)
    assert pending_dhoos(session) == (PendingDhoos("Dai", 15, 1),)
    assert round_setting(session, 2).pending == (Dhoos("Dai", 15, 1),)
    assert build_ledger(session).pending == (PendingDhoos("Dai", 15, 1),)


def test_changing_the_rules_works_the_carried_state_out_again(logged_in, owner):
    session = make_session(owner)  # pagat: the dhoos is paid at once, nothing carried
    entered(logged_in, session, {**WORKED, "Dai": ("seen", 0, 0, True)}, "Didi")
    assert Round.objects.get(session=session).pending_after in (None, [])
    services.recompute_session(session=session, rules=make_rules(dhoos_payee="next_winner"))
    session.refresh_from_db()
    dai = session.players.get(name="Dai")
    assert Round.objects.get(session=session).pending_after == [[dai.pk, 15, 1]]
    assert pending_dhoos(session) == (PendingDhoos("Dai", 15, 1),)


@pytest.fixture
def session():
    session = GameSession.objects.create(name="Tihar", rules=make_rules("pagat").to_options())
    for position, name in enumerate(["Asha", "Bikash", "Chandra"]):
        Player.objects.create(session=session, name=name, position=position)
    return session


def _round(asha_maal=12, asha_tunnel=0):
    return RoundInput(
        entries=(
            Entry("Asha", "seen", maal=asha_maal, tunnel=asha_tunnel),
            Entry("Bikash", "seen", maal=3),
            Entry("Chandra", "unseen"),
        ),
        winner="Asha",
    )


def test_tiplu_and_tallies_are_stored(session):
    round_ = services.add_round(
        session=session,
        round_input=_round(asha_maal=12, asha_tunnel=20),
        tiplu="7h",
        # Entered loose, stored as grouped: one marriage and a poplu.
        tallies={"Asha": {"tiplu": 1, "poplu": 2, "jhiplu": 1, "joker_tunnels": 2}},
    )
    round_.refresh_from_db()
    assert round_.tiplu == "7H"
    entries = {e.player.name: e for e in RoundEntry.objects.filter(round=round_)}
    assert entries["Asha"].maal_tally == {"poplu": 1, "marriages": 1, "joker_tunnels": 2}
    assert (entries["Asha"].maal, entries["Asha"].tunnel) == (12, 20)
    assert entries["Bikash"].maal_tally is None


def test_points_that_differ_from_the_tally_are_refused_and_nothing_is_saved(session):
    with pytest.raises(RoundError) as error:
        services.add_round(
            session=session,
            round_input=_round(asha_maal=15),
            tiplu="7H",
            tallies={"Asha": {"poplu": 1, "marriages": 1}},
        )
    assert str(error.value) == (
        "player Asha, maal: the calculator counted maal 12 and tunnel 0 "
        "(1 poplu = 2, 1 marriage = 10), not 15 and 0; count again or clear the calculator"
    )
    assert Round.objects.count() == 0


def test_impossible_tally_is_refused(session):
    with pytest.raises(RoundError) as error:
        services.add_round(
            session=session,
            round_input=_round(asha_maal=7),
            tiplu="7H",
            tallies={"Asha": {"tiplu": 3}},
        )
    assert str(error.value) == (
        "player Asha, maal: 3 tiplu: only 2 are in play (the third lies under the stock)"
    )
    assert Round.objects.count() == 0


def test_a_tally_needs_the_tiplu(session):
    with pytest.raises(RoundError) as error:
        services.add_round(
            session=session, round_input=_round(), tallies={"Asha": {"poplu": 1, "marriages": 1}}
        )
    assert str(error.value) == "tiplu: pick the tiplu card to use the maal calculator"
    with pytest.raises(RoundError) as error:
        services.add_round(session=session, round_input=_round(), tiplu="ZZ")
    assert str(error.value) == "tiplu: 'ZZ' is not a card: write rank then suit, such as QH or 10S"


def test_a_tally_for_someone_not_in_the_round(session):
    with pytest.raises(RoundError) as error:
        services.add_round(
            session=session, round_input=_round(), tiplu="7H", tallies={"Dipa": {"poplu": 1}}
        )
    assert str(error.value) == "player Dipa: has a maal tally but is not in the round"


def test_replace_round_rewrites_tiplu_and_tallies(session):
    round_ = services.add_round(
        session=session,
        round_input=_round(),
        tiplu="7H",
        tallies={"Asha": {"poplu": 1, "marriages": 1}},
    )
    # Asha's marriage and Bikash's tiplu: the two tiplu in play (RULES.md section 4).
    services.replace_round(
        round_=round_,
        given=_round(asha_maal=15),
        tiplu="KD",
        tallies={"Asha": {"marriages": 1, "poplu": 2}, "Bikash": {"tiplu": 1}},
    )
    round_.refresh_from_db()
    assert round_.tiplu == "KD"
    tallies = {e.player.name: e.maal_tally for e in round_.entries.select_related("player")}
    assert tallies == {
        "Asha": {"marriages": 1, "poplu": 2},
        "Bikash": {"tiplu": 1},
        "Chandra": None,
    }
    services.replace_round(round_=round_, given=_round(asha_maal=30))
    round_.refresh_from_db()
    assert round_.tiplu == ""
    assert all(e.maal_tally is None for e in round_.entries.all())


def test_a_tiplu_alone_is_kept(session):
    round_ = services.add_round(session=session, round_input=_round(), tiplu="10s")
    assert Round.objects.get(pk=round_.pk).tiplu == "10S"
