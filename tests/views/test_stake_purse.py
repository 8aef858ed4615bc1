"""An evening whose stake changed mid-evening (tests/samples.py tihar_night:
1.00, then 2.00 from round 4, 5.00 from round 6) in the family's purse, its
records, the picture card and the owner's stats: every figure is each round at
the stake in force, as `settle` gives it (Aama 129.00, Buwa −159.00, Didi
30.00), never the points at one stake (26.00, −28.00, 2.00)."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from django.urls import reverse

from groups.selectors import evening_pieces, forget_pieces, group_purse, group_records
from groups.services import add_evening, create_group
from groups.versions import evening_versions
from scoring.engine.sessionfile import loads
from scoring.services.files import save_document
from stats.records import forget_pieces as forget_record_pieces
from stats.records import leaderboard, load_pieces, player_stats
from tests.samples import tihar_night

pytestmark = pytest.mark.django_db

D = Decimal


@pytest.fixture
def evening(owner):
    forget_pieces()
    forget_record_pieces()
    return save_document(doc=loads(json.dumps(tihar_night())), owner=owner)


@pytest.fixture
def group(owner, evening):
    group = create_group(
        owner=owner, name="Pokhara family", currency="NPR", members=["Aama", "Buwa", "Didi"]
    )
    add_evening(group=group, session=evening)
    return group


def test_the_purse_adds_each_round_at_its_stake(group, evening):
    versions = evening_versions(group.pk)
    assert evening_pieces(versions) == {
        evening.pk: {"aama": D("129.00"), "buwa": D("-159.00"), "didi": D("30.00")}
    }
    purse = group_purse(group)
    assert purse.balances == {"Aama": D("129.00"), "Buwa": D("-159.00"), "Didi": D("30.00")}
    assert [(t.payer.name, t.payee.name, t.transfer.amount) for t in purse.transfers] == [
        ("Buwa", "Aama", D("129.00")),
        ("Buwa", "Didi", D("30.00")),
    ]


def test_the_group_page_and_records_show_the_money(logged_in, group):
    html = logged_in.get(reverse("group_detail", args=[group.pk])).content.decode()
    assert "129.00" in html and "-159.00" in html
    [season] = group_records(group)
    rows = {m.name: (m.won, m.lost) for m in season.members}
    assert rows == {
        "Aama": (D("129.00"), D("0.00")),
        "Buwa": (D("0.00"), D("-159.00")),
        "Didi": (D("30.00"), D("0.00")),
    }
    assert season.best_evening is not None
    assert (season.best_evening.name, season.best_evening.value) == ("Aama", D("129.00"))


def test_the_owners_stats_follow_the_stake(owner, evening):
    pieces = load_pieces(owner)
    rounds = [r for piece in pieces for r in piece.rounds]
    assert [r.stake for r in rounds] == [D("1.00")] * 3 + [D("2.00")] * 2 + [D("5.00")] * 2
    [board] = leaderboard(rounds)
    assert [(row.name, row.points, row.money) for row in board.rows] == [
        ("Aama", 26, D("129.00")),
        ("Didi", 2, D("30.00")),
        ("Buwa", -28, D("-159.00")),
    ]
    assert pieces[0].board["didi"][3] == D("30.00")
    stats = player_stats(rounds, "didi")
    assert stats is not None
    assert [(a.currency, a.amount) for a in stats.money] == [("NPR", D("30.00"))]
    assert [s.money for s in stats.sessions] == [D("30.00")]


def test_the_picture_card_says_the_stakes_and_the_money(owner, evening):
    from scoring.web.session_card import session_picture

    picture = session_picture(evening)
    assert "NPR 1.00 → 2.00 → 5.00 per point" in picture.subtitle
    standings, pays = picture.sections
    assert [tuple(c.text for c in row) for row in standings.rows] == [
        ("1", "Aama", "+26", "129.00"),
        ("2", "Didi", "+2", "30.00"),
        ("3", "Buwa", "-28", "-159.00"),
    ]
    assert pays.lines == ("Buwa pays Aama NPR 129.00", "Buwa pays Didi NPR 30.00")


def test_the_session_page_and_summary_say_it(logged_in, evening):
    html = logged_in.get(reverse("session_detail", args=[evening.pk])).content.decode()
    assert "NPR 1.00 → 2.00 → 5.00 per point" in " ".join(html.split())
    assert "from round 4, NPR 2.00" in html and "from round 6, NPR 5.00" in html
    summary = logged_in.get(reverse("session_summary", args=[evening.pk])).content.decode()
    assert "Buwa pays Didi NPR 30.00" in summary


def test_the_groups_picture_card_pays_the_money(logged_in, group):
    from groups.cards import group_picture

    balances, pays = group_picture(group).sections
    assert [tuple(c.text for c in row) for row in balances.rows] == [
        ("Aama", "+129.00"),
        ("Buwa", "-159.00"),
        ("Didi", "+30.00"),
    ]
    assert pays.lines == ("Buwa pays Aama NPR 129.00", "Buwa pays Didi NPR 30.00")
    response = logged_in.get(reverse("group_card", args=[group.pk]))
    assert (response.status_code, response["Content-Type"]) == (200, "image/png")


@pytest.mark.parametrize(
    ("session_stake", "changes"),
    [
        ("1.00", {}),
        ("1.00", {0: "3.00"}),  # from round 1: the session's stake never used
        ("1.00", {1: "2.00", 2: "0.50", 3: "1.00"}),  # down, and back to the session's
        ("0", {4: "10.00"}),  # points only, then money
        ("2.50", {6: "7.25"}),  # the last round only
        ("1.00", {i: f"{i + 1}.00" for i in range(7)}),  # every round
    ],
)
def test_the_ledger_the_file_and_the_purse_agree(owner, session_stake, changes):
    """Whatever the stakes, the session page's standings and payments, the
    export's money and transfers, and the group's sums are one set of figures."""
    from scoring.selectors.files import export_session
    from scoring.selectors.reports import build_ledger

    forget_pieces()
    data = tihar_night()
    data["stake_per_point"] = session_stake
    for index, stake in changes.items():
        data["rounds"][index]["stake_per_point"] = stake
    session = save_document(doc=loads(json.dumps(data)), owner=owner)
    exported = export_session(session)
    assert exported == json.loads(run_settle(data))
    ledger = build_ledger(session)
    assert {s.player.name: str(s.money) for s in ledger.standings} == exported["money"]
    assert [
        {"from": p.payer, "to": p.payee, "amount": str(p.money)} for p in ledger.payments
    ] == exported["transfers"]
    pieces = evening_pieces([(session.pk, f"agree-{session.pk}-{len(changes)}")])
    assert {k: str(v) for k, v in pieces[session.pk].items()} == {
        name.lower(): amount for name, amount in exported["money"].items()
    }


def run_settle(data: dict) -> str:
    from scoring.engine.sessionfile import dumps, export_document

    return dumps(export_document(loads(json.dumps(data))))
