"""One rule (scoring/selectors/versions.py): a session's version moves on every saved or
deleted session, player, round or entry, whoever writes it, once per transaction."""

from __future__ import annotations

import dataclasses

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import services
from scoring.models import GameSession, Player, RoundEntry
from scoring.selectors.versions import version_of

from .web_helpers import make_session, worked_round


def version(session: GameSession) -> str | None:
    return version_of(GameSession.objects.get(pk=session.pk))


@pytest.mark.django_db
def test_a_player_renamed_in_the_admin_shows_at_once_on_every_page(admin_client, admin_user):
    session = make_session(admin_user)
    services.add_round(session, worked_round())
    token = services.create_share_link(session=session)
    pages = [
        reverse("session_detail", args=[session.pk]),
        reverse("share_view", args=[token]),
        reverse("settle_up", args=[session.pk]),
        reverse("round_new", args=[session.pk]),
        reverse("home"),
        reverse("round_history"),
        reverse("leaderboard"),
    ]
    for url in pages:
        assert "Didi" in admin_client.get(url).content.decode(), url  # and now cached
    didi = session.players.get(name="Didi")
    response = admin_client.post(
        reverse("admin:scoring_player_change", args=[didi.pk]),
        {"session": session.pk, "name": "Sanima", "position": didi.position, "_save": "Save"},
    )
    assert response.status_code == 302
    assert session.players.filter(name="Sanima").exists()
    for url in pages:
        html = admin_client.get(url).content.decode()
        assert "Sanima" in html and "Didi" not in html, url


# Each write below is its own transaction, as in the shell or a command.
@pytest.mark.django_db(transaction=True)
def test_every_write_of_the_shell_moves_the_version(owner):
    session = make_session(owner)
    round_ = services.add_round(session, worked_round())
    seen = {version(session)}

    def moved(what: str) -> None:
        now = version(session)
        assert now not in seen, f"the version stayed after: {what}"
        seen.add(now)

    player = Player.objects.create(session=session, name="Bahini", position=9)
    moved("a player added")
    player.name = "Bhai"
    player.save()
    moved("a player renamed")
    player.delete()
    moved("a player deleted")
    entry = RoundEntry.objects.filter(round=round_).first()
    entry.dhoos = True
    entry.save()
    moved("an entry saved")
    entry.delete()
    moved("an entry deleted")
    round_.refresh_from_db()
    round_.better = True
    round_.save()
    moved("a round saved")
    round_.delete()
    moved("a round deleted")
    session.refresh_from_db()
    session.currency = "INR"
    session.save(update_fields=["currency"])
    moved("the session saved")


def session_updates(queries: CaptureQueriesContext) -> int:
    return sum('UPDATE "scoring_gamesession"' in q["sql"] for q in queries.captured_queries)


@pytest.mark.django_db
def test_a_round_write_moves_the_version_once(session):
    with CaptureQueriesContext(connection) as queries:
        round_ = services.add_round(session, worked_round())
    assert session_updates(queries) == 1
    with CaptureQueriesContext(connection) as queries:
        # A real change (the same round again writes nothing): its entries
        # deleted and written again.
        services.replace_round(round_, dataclasses.replace(worked_round(), better=True))
    assert session_updates(queries) == 1
    with CaptureQueriesContext(connection) as queries:
        services.delete_round(round_)  # the round and its four entries
    assert session_updates(queries) == 1


@pytest.mark.django_db
def test_a_rolled_back_write_leaves_no_mark_behind(session):
    before = version(session)
    with transaction.atomic():
        with pytest.raises(RuntimeError), transaction.atomic():
            Player.objects.create(session=session, name="Bahini", position=9)
            raise RuntimeError
        assert version(session) == before  # the move went with the savepoint
        Player.objects.create(session=session, name="Bhai", position=9)
        assert version(session) != before
