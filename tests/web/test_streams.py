"""The streams of the pages that follow a session live (scoring/web/streams.py)
and the channel that wakes them (scoring/web/push.py), in process: Django's
AsyncClient reads a stream as a phone's browser does, while the test saves
as another phone would. Each stream says its page's validator at once (the
same its poll answers with), again at each change, and "gone" once the reader
may no longer see it; a host's streams are bounded; a WSGI server answers 204
(the page polls). What a real host does across processes and hosts is in
tests/site/test_two_hosts.py and tests/browser/test_push.py."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any, cast

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.db import connections, transaction
from django.test import AsyncClient, Client
from django.urls import reverse

from scoring import services
from scoring.web import push, streams
from table import services as table_services
from table.models import CoScorer
from tests.web_helpers import make_session, worked_round

pytestmark = pytest.mark.django_db(transaction=True)


async def read(events: AsyncIterator[bytes], seconds: float = 10) -> tuple[str, str]:
    """The next event of a stream: (its name, its data)."""
    chunk = (await asyncio.wait_for(anext(events), seconds)).decode()
    fields = {}
    for line in chunk.splitlines():
        name, _colon, value = line.partition(":")
        fields[name] = value.removeprefix(" ")
    return fields["event"], fields["data"]


def etag_of(response) -> str:
    return response["ETag"].removeprefix("W/").strip('"')


def in_thread(call: Callable[[], object]):
    """A write made as another phone makes it: in a thread of its own (whose
    connection then closes, as a request's does)."""

    def made():
        try:
            return call()
        finally:
            connections.close_all()

    return sync_to_async(made, thread_sensitive=False)()


async def stream(client: AsyncClient, url: str, **headers):
    response = await client.get(url, headers=headers)
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "text/event-stream"
    return response, aiter(cast(Any, response).streaming_content)


def test_a_seat_stream_says_the_version_at_once_and_at_each_round_saved(owner):
    session = make_session(owner)
    seat = table_services.make_seats(session=session)[0]
    polled = Client().get(reverse("seat_live", args=[seat.token]))

    async def phone():
        response, events = await stream(AsyncClient(), reverse("seat_stream", args=[seat.token]))
        assert "no-cache" in response["Cache-Control"]
        assert "no-transform" in response["Cache-Control"]
        assert await read(events) == ("version", etag_of(polled))
        await in_thread(
            lambda: services.add_round(session=session, round_input=worked_round(), user=owner)
        )
        name, version = await read(events)
        assert name == "version" and version != etag_of(polled)
        # The page's poll with the old validator now answers the change, with this one.
        fresh = await in_thread(
            lambda: Client().get(
                reverse("seat_live", args=[seat.token]), HTTP_IF_NONE_MATCH=f'"{etag_of(polled)}"'
            )
        )
        assert fresh.status_code == 200 and etag_of(fresh) == version
        await events.aclose()

    asyncio.run(phone())


def test_a_revoked_seat_link_ends_its_stream(owner):
    session = make_session(owner)
    seat = table_services.make_seats(session=session)[0]

    async def phone():
        _response, events = await stream(AsyncClient(), reverse("seat_stream", args=[seat.token]))
        assert (await read(events))[0] == "version"
        await in_thread(lambda: table_services.revoke_seat(seat=seat))
        assert await read(events) == ("gone", "")
        with pytest.raises(StopAsyncIteration):
            await read(events)

    asyncio.run(phone())
    assert Client().get(reverse("seat_stream", args=[seat.token])).status_code == 404


def test_a_share_stream_follows_saves_and_ends_when_the_link_is_turned_off(owner):
    session = make_session(owner)
    token = services.create_share_link(session=session)
    polled = Client().get(reverse("share_live", args=[token]))

    async def guest():
        _response, events = await stream(AsyncClient(), reverse("share_stream", args=[token]))
        assert await read(events) == ("version", etag_of(polled))
        await in_thread(
            lambda: services.add_round(session=session, round_input=worked_round(), user=owner)
        )
        assert (await read(events))[0] == "version"
        await in_thread(lambda: services.revoke_share_link(session=session))
        assert await read(events) == ("gone", "")

    asyncio.run(guest())


def test_the_owners_stream_needs_the_owner_or_a_co_scorer(owner):
    session = make_session(owner)
    url = reverse("session_stream", args=[session.pk])
    helper = get_user_model().objects.create_user("sita", password="pw-sita-12345")
    other = get_user_model().objects.create_user("hari", password="pw-hari-12345")
    co_scorer = CoScorer.objects.create(session=session, user=helper)
    owners, helpers, others = AsyncClient(), AsyncClient(), AsyncClient()
    owners.force_login(owner)
    helpers.force_login(helper)
    others.force_login(other)
    polled = Client()
    polled.force_login(owner)
    etag = etag_of(polled.get(reverse("session_live", args=[session.pk])))

    async def table():
        anonymous = await AsyncClient().get(url)
        assert anonymous.status_code == 302
        assert anonymous["Location"].startswith(reverse("login"))
        assert (await others.get(url)).status_code == 404
        _response, mine = await stream(owners, url)
        _response, theirs = await stream(helpers, url)
        assert await read(mine) == ("version", etag)
        assert await read(theirs) == ("version", etag)
        await in_thread(
            lambda: services.add_round(session=session, round_input=worked_round(), user=helper)
        )
        assert (await read(mine))[0] == "version"
        assert (await read(theirs))[0] == "version"
        # The owner takes the co-scorer off: their stream ends, the owner's goes on.
        await in_thread(lambda: table_services.remove_co_scorer(co_scorer=co_scorer))
        assert await read(theirs) == ("gone", "")
        await in_thread(
            lambda: services.add_round(session=session, round_input=worked_round(), user=owner)
        )
        assert (await read(mine))[0] == "version"
        await mine.aclose()

    asyncio.run(table())


def test_a_log_out_ends_the_owners_stream(owner):
    session = make_session(owner)
    owners = AsyncClient()
    owners.force_login(owner)

    async def table():
        _response, events = await stream(owners, reverse("session_stream", args=[session.pk]))
        assert (await read(events))[0] == "version"
        await owners.post(reverse("logout"))  # on this phone or any other: the log-in is gone
        await in_thread(
            lambda: services.add_round(session=session, round_input=worked_round(), user=owner)
        )
        assert await read(events) == ("gone", "")

    asyncio.run(table())


def test_the_scorers_form_hears_each_count_a_seat_sends(owner):
    session = make_session(owner)
    seats = table_services.make_seats(session=session)
    scorer = AsyncClient()
    scorer.force_login(owner)
    feed = Client()
    feed.force_login(owner)
    query = "?position=1"

    async def form():
        url = reverse("seat_feed_stream", args=[session.pk]) + query
        _response, events = await stream(scorer, url)
        assert (await read(events))[0] == "version"
        values = table_services.SeatValues(
            status="seen", maal=7, tunnel=0, dhoos=False, dublees=False, maal_tally=None, tiplu=""
        )
        await in_thread(lambda: table_services.send_entry(seat=seats[2], position=1, values=values))
        name, version = await read(events)
        asked = await in_thread(lambda: feed.get(reverse("seat_feed", args=[session.pk]) + query))
        assert name == "version" and version == etag_of(asked)
        assert [e["maal"] for e in asked.json()["entries"]] == [7]
        await events.aclose()

    asyncio.run(form())


def test_a_nepali_readers_stream_says_the_nepali_pages_validator(owner):
    session = make_session(owner)
    token = services.create_share_link(session=session)
    polled = Client().get(reverse("share_live", args=[token]), HTTP_ACCEPT_LANGUAGE="ne")
    assert etag_of(polled).endswith("-ne")

    async def guest():
        url = reverse("share_stream", args=[token])
        _response, events = await stream(AsyncClient(), url, accept_language="ne")
        assert await read(events) == ("version", etag_of(polled))
        await events.aclose()

    asyncio.run(guest())


def test_a_quiet_stream_beats(owner, monkeypatch):
    monkeypatch.setattr(streams, "HEARTBEAT_SECONDS", 0.2)
    session = make_session(owner)
    token = services.create_share_link(session=session)

    async def guest():
        _response, events = await stream(AsyncClient(), reverse("share_stream", args=[token]))
        assert (await read(events))[0] == "version"
        assert await read(events) == ("beat", "")
        assert await read(events) == ("beat", "")
        await events.aclose()

    asyncio.run(guest())


def test_a_stream_is_never_compressed(owner):
    session = make_session(owner)
    token = services.create_share_link(session=session)

    async def guest():
        url = reverse("share_stream", args=[token])
        response, events = await stream(AsyncClient(), url, accept_encoding="gzip")
        assert not response.has_header("Content-Encoding")
        assert (await read(events))[0] == "version"
        await events.aclose()

    asyncio.run(guest())


def test_a_full_host_answers_503_and_the_page_polls(owner, settings):
    session = make_session(owner)
    token = services.create_share_link(session=session)
    settings.LIVE_STREAMS = 1
    url = reverse("share_stream", args=[token])

    async def guests():
        response, first = await stream(AsyncClient(), url)
        assert (await read(first))[0] == "version"
        full = await AsyncClient().get(url)
        assert full.status_code == 503
        assert full["Retry-After"] == "30"
        assert full.content == b"Too many live pages on this server just now: polling instead.\n"
        # One goes (its phone gone, the handler closes it, from its thread): another may open.
        await first.aclose()
        await sync_to_async(response.close)()
        _response, second = await stream(AsyncClient(), url)
        await second.aclose()

    asyncio.run(guests())


def test_streams_end_when_the_channel_goes_and_say_bye_when_the_host_stops(owner, monkeypatch):
    """The channel lost (Redis or PostgreSQL not answering): every stream ends
    without a word, and its page polls; the process stopping: each says "bye",
    and its page opens another at once (marriage_site/worker.py)."""
    monkeypatch.setattr(streams, "READY_SECONDS", 0.1)
    session = make_session(owner)
    token = services.create_share_link(session=session)
    url = reverse("share_stream", args=[token])

    async def guests():
        _response, first = await stream(AsyncClient(), url)
        assert (await read(first))[0] == "version"
        push.hub.listening(False)
        with pytest.raises(StopAsyncIteration):
            await read(first)
        assert (await AsyncClient().get(url)).status_code == 503  # not listening yet
        push.hub.listening(True)
        _response, second = await stream(AsyncClient(), url)
        assert (await read(second))[0] == "version"
        push.hub.close_all(bye=True)
        assert await read(second) == ("bye", "")

    asyncio.run(guests())


def test_without_an_event_loop_a_stream_is_checked_then_answered_204(owner):
    """A WSGI server (the tests' live server, runserver) holds no stream: the
    page polls. The stream is still let in only as its page is."""
    session = make_session(owner)
    token = services.create_share_link(session=session)
    assert Client().get(reverse("share_stream", args=[token])).status_code == 204
    assert Client().get(reverse("share_stream", args=["x" * 32])).status_code == 404


class Heard:
    """The channel, replaced: what would have been published."""

    def __init__(self) -> None:
        self.sessions: list[int] = []

    def publish(self, session_id: int) -> None:
        self.sessions.append(session_id)


@pytest.fixture
def heard(monkeypatch) -> Heard:
    found = Heard()
    monkeypatch.setattr(push, "_channel", found)
    return found


def test_a_change_is_published_once_when_it_commits(owner, heard):
    session = make_session(owner)
    other = make_session(owner, name="Other")
    heard.sessions.clear()
    with transaction.atomic():
        services.add_round(session=session, round_input=worked_round(), user=owner)
        # More writes in the same transaction, some in savepoints: still once.
        with transaction.atomic():
            session.save()
        with transaction.atomic():
            services.add_round(session=session, round_input=worked_round(), user=owner)
        other.save()
        assert heard.sessions == []  # nothing before the commit
    assert sorted(heard.sessions) == sorted([session.pk, other.pk])


def test_a_change_rolled_back_is_never_published(owner, heard):
    session = make_session(owner)
    heard.sessions.clear()
    with pytest.raises(RuntimeError), transaction.atomic():
        services.add_round(session=session, round_input=worked_round(), user=owner)
        raise RuntimeError
    assert heard.sessions == []
    # Rolled back to a savepoint, the outer change still commits: once.
    with transaction.atomic():
        session.save()
        with pytest.raises(RuntimeError), transaction.atomic():
            services.add_round(session=session, round_input=worked_round(), user=owner)
            raise RuntimeError
    assert heard.sessions == [session.pk]


def test_a_change_in_a_savepoint_rolled_back_leaves_a_later_one_published(owner, heard):
    session = make_session(owner)
    heard.sessions.clear()
    with transaction.atomic():
        with pytest.raises(RuntimeError), transaction.atomic():
            session.save()
            raise RuntimeError
        services.add_round(session=session, round_input=worked_round(), user=owner)
    assert heard.sessions == [session.pk]


def test_a_seat_count_and_a_deleted_session_are_published(owner, heard):
    session = make_session(owner)
    seat = table_services.make_seats(session=session)[0]
    heard.sessions.clear()
    values = table_services.SeatValues(
        status="seen", maal=3, tunnel=0, dhoos=False, dublees=False, maal_tally=None, tiplu=""
    )
    table_services.send_entry(seat=seat, position=1, values=values)
    assert heard.sessions == [session.pk]
    pk = session.pk
    session.delete()
    assert heard.sessions[-1] == pk


# --- A member's lasting link (table's member_stream) ----------------------------------------------


def _family_link(owner) -> tuple[Any, str]:
    """A group of four, no evening yet, and Aama's lasting link."""
    from groups import services as groups

    group = groups.create_group(
        owner=owner, name="Pokhara family", currency="NPR", members=["Aama", "Buwa", "Didi", "Dai"]
    )
    links = groups.make_member_links(group=group)
    link = next(link for link in links if link.member.name == "Aama")
    return group, link.token


def _tonight(owner, group, name: str):
    from groups import services as groups

    session = make_session(owner, players=("Aama", "Buwa", "Didi", "Dai"), name=name)
    groups.add_evening(group=group, session=session)
    return session


def test_a_member_stream_is_told_when_an_evening_starts_and_a_round_is_saved(owner):
    group, token = _family_link(owner)
    live = reverse("member_live", args=[token])
    between = Client().get(live)

    async def phone():
        _response, events = await stream(AsyncClient(), reverse("member_stream", args=[token]))
        assert await read(events) == ("version", etag_of(between))
        # Before the group's first evening, the group's own message tells it.
        first = await in_thread(lambda: _tonight(owner, group, "Tihar 1"))
        name, playing = await read(events)
        assert name == "version" and playing != etag_of(between)
        assert await in_thread(lambda: etag_of(Client().get(live))) == playing
        await events.aclose()
        # The page, reloaded on its new evening, follows that evening's rounds...
        _response, events = await stream(AsyncClient(), reverse("member_stream", args=[token]))
        assert await read(events) == ("version", playing)
        await in_thread(
            lambda: services.add_round(session=first, round_input=worked_round(), user=owner)
        )
        name, saved = await read(events)
        assert name == "version" and saved not in (playing, etag_of(between))
        # ...and is told when the next evening starts, though it follows this one.
        await in_thread(lambda: _tonight(owner, group, "Tihar 2"))
        name, second = await read(events)
        assert name == "version" and second != saved
        assert await in_thread(lambda: etag_of(Client().get(live))) == second
        await events.aclose()

    asyncio.run(phone())


def test_a_revoked_member_link_ends_its_stream(owner):
    from groups import services as groups
    from groups.models import MemberLink

    group, token = _family_link(owner)
    _tonight(owner, group, "Tihar 1")

    async def phone():
        _response, events = await stream(AsyncClient(), reverse("member_stream", args=[token]))
        assert (await read(events))[0] == "version"
        link = await in_thread(lambda: MemberLink.objects.select_related("member").get(token=token))
        await in_thread(lambda: groups.revoke_member_link(link=link))
        assert await read(events) == ("gone", "")

    asyncio.run(phone())
    assert Client().get(reverse("member_stream", args=[token])).status_code == 404
    assert Client().get("/m/not-a-token/stream/").status_code == 404
