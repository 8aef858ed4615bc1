"""The tiplu and each player's maal tally are stored with the round, checked first."""

from __future__ import annotations

import pytest

from scoring import services
from scoring.engine import Entry, RoundError, RoundInput, make_rules
from scoring.models import GameSession, Player, Round, RoundEntry

pytestmark = pytest.mark.django_db


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
        session,
        _round(asha_maal=12, asha_tunnel=20),
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
            session,
            _round(asha_maal=15),
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
        services.add_round(session, _round(asha_maal=7), tiplu="7H", tallies={"Asha": {"tiplu": 3}})
    assert str(error.value) == (
        "player Asha, maal: 3 tiplu: only 2 are in play (the third lies under the stock)"
    )
    assert Round.objects.count() == 0


def test_a_tally_needs_the_tiplu(session):
    with pytest.raises(RoundError) as error:
        services.add_round(session, _round(), tallies={"Asha": {"poplu": 1, "marriages": 1}})
    assert str(error.value) == "tiplu: pick the tiplu card to use the maal calculator"
    with pytest.raises(RoundError) as error:
        services.add_round(session, _round(), tiplu="ZZ")
    assert str(error.value) == "tiplu: 'ZZ' is not a card: write rank then suit, such as QH or 10S"


def test_a_tally_for_someone_not_in_the_round(session):
    with pytest.raises(RoundError) as error:
        services.add_round(session, _round(), tiplu="7H", tallies={"Dipa": {"poplu": 1}})
    assert str(error.value) == "player Dipa: has a maal tally but is not in the round"


def test_replace_round_rewrites_tiplu_and_tallies(session):
    round_ = services.add_round(
        session, _round(), tiplu="7H", tallies={"Asha": {"poplu": 1, "marriages": 1}}
    )
    # Asha's marriage and Bikash's tiplu: the two tiplu in play (RULES.md section 4).
    services.replace_round(
        round_,
        _round(asha_maal=15),
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
    services.replace_round(round_, _round(asha_maal=30))
    round_.refresh_from_db()
    assert round_.tiplu == ""
    assert all(e.maal_tally is None for e in round_.entries.all())


def test_a_tiplu_alone_is_kept(session):
    round_ = services.add_round(session, _round(), tiplu="10s")
    assert Round.objects.get(pk=round_.pk).tiplu == "10S"
