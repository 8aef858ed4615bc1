"""One rule (scoring/selectors/versions.py): a session's version moves on every saved or
deleted session, player, round or entry, whoever writes it, once per transaction."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import services
from scoring.models import GameSession, Player, RoundEntry
from scoring.selectors.versions import owner_version, version_of
from tests.web_helpers import make_session, worked_round


def version(session: GameSession) -> str | None:
    return version_of(GameSession.objects.get(pk=session.pk))


@pytest.mark.django_db
def test_a_player_renamed_in_the_admin_shows_at_once_on_every_page(admin_client, admin_user):
    session = make_session(admin_user)
    services.add_round(session=session, round_input=worked_round())
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
    round_ = services.add_round(session=session, round_input=worked_round())
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
        round_ = services.add_round(session=session, round_input=worked_round())
    assert session_updates(queries) == 1
    with CaptureQueriesContext(connection) as queries:
        # A real change (the same round again writes nothing): its entries
        # deleted and written again.
        services.replace_round(
            round_=round_, given=dataclasses.replace(worked_round(), better=True)
        )
    assert session_updates(queries) == 1
    with CaptureQueriesContext(connection) as queries:
        services.delete_round(round_=round_)  # the round and its four entries
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


# Versions that depend on no clock: a host's clock may be behind, and saves may
# commit in another order than they began (each stamped when it began).


class Clock:
    """timezone.now() on a host whose clock is `offset` off, set as the test goes."""

    def __init__(self, monkeypatch) -> None:
        from django.utils import timezone

        self.real = timezone.now
        self.offset = timedelta(0)
        monkeypatch.setattr(timezone, "now", lambda: self.real() + self.offset)


def record_pages(session: GameSession) -> list[str]:
    return [
        reverse("home"),
        reverse("round_history"),
        reverse("leaderboard"),
        reverse("player_detail", args=["Didi"]),
        reverse("session_detail", args=[session.pk]),
    ]


@pytest.mark.django_db(transaction=True)
def test_a_save_stamped_earlier_but_committed_later_shows_at_once(logged_in, owner, monkeypatch):
    # Two overlapping saves: the one that began first (stamped earlier) commits
    # last. Each page was read and kept between the two commits.
    clock = Clock(monkeypatch)
    dashain, tihar = make_session(owner, name="Dashain"), make_session(owner, name="Tihar")
    services.add_round(session=tihar, round_input=worked_round())
    pages = record_pages(dashain)
    for url in pages:
        logged_in.get(url)  # kept, under the version as it is now
    before = {url: logged_in.get(url).content.decode() for url in pages}
    clock.offset = -timedelta(seconds=5)  # began 5 s before the other save committed
    services.add_round(session=dashain, round_input=worked_round())
    for url in pages:
        html = logged_in.get(url).content.decode()
        assert html != before[url], url
    assert "2 rounds found" in logged_in.get(reverse("round_history")).content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_host_30_seconds_behind_changes_every_page_at_once(logged_in, client, owner, monkeypatch):
    clock = Clock(monkeypatch)
    session = make_session(owner)
    token = services.create_share_link(session=session)
    services.add_round(session=session, round_input=worked_round())  # host A, on time
    share = reverse("share_view", args=[token])
    pages = [*record_pages(session), share]
    for url in pages:
        assert "Didi" in logged_in.get(url).content.decode(), url  # now kept
    # Host B, 30 s behind, renames Didi: its stamp is older than the version's.
    clock.offset = -timedelta(seconds=30)
    didi = session.players.get(name="Didi")
    didi.name = "Sanima"
    didi.save()
    for url in pages:
        html = logged_in.get(url).content.decode()
        if url != reverse("player_detail", args=["Didi"]):
            assert "Sanima" in html and "Didi" not in html, url
    assert logged_in.get(reverse("player_detail", args=["Didi"])).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_a_stamp_a_session_had_before_is_a_new_version(owner, monkeypatch):
    # Host A saves at 12:00:00 and at 12:00:30; host B, 30 s behind, saves at
    # what its clock calls 12:00:00 again: the same updated_at as the first
    # save, yet a new version (the owner's counter moved).
    from django.utils import timezone

    noon = datetime(2026, 10, 2, 6, 15, tzinfo=UTC)
    now = [noon]
    monkeypatch.setattr(timezone, "now", lambda: now[0])
    session = make_session(owner)
    first = version(session)
    now[0] = noon + timedelta(seconds=30)
    services.add_round(session=session, round_input=worked_round())
    second = version(session)
    now[0] = noon  # host B
    session.refresh_from_db()
    session.name = "Renamed on B"
    session.save(update_fields=["name"])
    assert GameSession.objects.get(pk=session.pk).updated_at == noon
    assert len({first, second, version(session)}) == 3


@pytest.mark.django_db
def test_a_session_given_to_someone_else_moves_both_owners(owner, django_user_model):
    session = make_session(owner)
    other = django_user_model.objects.create_user("sita")
    before = owner_version(owner.pk), owner_version(other.pk)
    session.owner = other
    session.save()  # as the admin does
    after = owner_version(owner.pk), owner_version(other.pk)
    assert before[0] != after[0] and before[1] != after[1]


@pytest.mark.django_db
def test_a_deleted_session_moves_its_owners_version(owner):
    session = make_session(owner)
    before = owner_version(owner.pk)
    services.delete_session(session=session)
    assert owner_version(owner.pk) != before
