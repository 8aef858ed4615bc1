"""Live pages by push (docs/lan.md, "Live everywhere"): "session N changed",
from the commit that changed it to every stream that follows N
(scoring/web/streams.py), on every host, without any stream asking the
database in the meantime.

One channel carries it, chosen by the settings (`LIVE_CHANNEL`):

- ``redis`` (with `REDIS_URL`): PUBLISH on one Redis channel; every process of
  every host subscribes once.
- ``postgres`` (PostgreSQL without Redis): NOTIFY; every process LISTENs on one
  connection of its own. Hosts on one PostgreSQL hear each other.
- ``local`` (SQLite): within this process. A host on SQLite is one process
  (scripts/host), since SQLite tells no other process about a commit; a save
  made by another process (a command, the shell) reaches the streams at their
  next periodic check instead (streams.RECHECK_SECONDS).

A message is only the session's id (or, for what is not one session, an
app's own negative id: groups tells a family's member links by minus the
group's id). Each stream then asks what its page
shows, with the page's own access check, so a message never carries anything
a reader may not see, and a lost or doubled message costs one check at most.

`publish` is called after the commit (versions.py's on-commit mark, once per
committed transaction and session; `announce` for the other writes a page
follows: a seat's count, a seat or co-scorer taken away). It never raises: the
save has been made, and a page that misses the message catches up at its
stream's next check, or by polling (static/js/stream.js).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
import weakref
from typing import Protocol

from django.conf import settings
from django.db import DatabaseError, connection, transaction

logger = logging.getLogger("scoring.push")

# The name Redis and PostgreSQL know the channel by (a PostgreSQL identifier).
CHANNEL = "marriage_live"
# A channel connection silent this long is asked whether it is alive.
PING_SECONDS = 15
# Reconnecting after the channel failed: from this, doubling, to RECONNECT_MAX.
RECONNECT_FIRST = 0.5
RECONNECT_MAX = 10.0


class Follower:
    """One stream's place in the hub: woken when its session changes, closed
    when the channel goes (the page then polls until its stream opens again)."""

    __slots__ = ("__weakref__", "bye", "closed", "session_id", "woken")

    def __init__(self, session_id: int) -> None:
        self.session_id = session_id
        self.woken = asyncio.Event()
        self.closed = False
        self.bye = False  # closed as this process stops: the page opens another at once

    def close(self, *, bye: bool = False) -> None:
        self.closed = True
        self.bye = bye
        self.woken.set()


class Hub:
    """This process's streams, by the session each follows. Everything here
    runs on the event loop that serves the streams; other threads (a save, in
    a worker thread) reach it through `wake_threadsafe`."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        # Weak: a stream whose response was never sent (the phone went at once)
        # leaves nothing behind.
        self._following: dict[int, weakref.WeakSet[Follower]] = {}
        self._listener: asyncio.Task[None] | None = None
        self._listening = asyncio.Event()

    # --- streams -----------------------------------------------------------------------------

    def follow(self, session_id: int) -> Follower:
        self._start()
        follower = Follower(session_id)
        self._following.setdefault(session_id, weakref.WeakSet()).add(follower)
        return follower

    def leave(self, follower: Follower) -> None:
        found = self._following.get(follower.session_id)
        if found is not None:
            found.discard(follower)
            if not found:
                del self._following[follower.session_id]

    def leave_threadsafe(self, follower: Follower) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        if _on_loop(loop):
            self.leave(follower)
        else:
            loop.call_soon_threadsafe(self.leave, follower)

    def count(self) -> int:
        """Streams open in this process."""
        return sum(len(found) for found in self._following.values())

    async def ready(self, seconds: float) -> bool:
        """Whether the channel listens (waiting up to `seconds` for it): only
        then does a stream opened now hear every later change."""
        self._start()
        try:
            await asyncio.wait_for(self._listening.wait(), seconds)
        except TimeoutError:
            return False
        return True

    # --- the channel's side ------------------------------------------------------------------

    def wake(self, session_id: int) -> None:
        for follower in list(self._following.get(session_id, ())):
            follower.woken.set()

    def wake_threadsafe(self, session_id: int) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            return  # no stream in this process
        if _on_loop(loop):
            self.wake(session_id)
        else:
            loop.call_soon_threadsafe(self.wake, session_id)

    def listening(self, now: bool) -> None:
        """The channel listens again (every stream checks: a change may have
        gone unheard meanwhile), or has stopped (every stream closes, and its
        page polls until a stream can open again)."""
        if now:
            self._listening.set()
            for found in list(self._following.values()):
                for follower in list(found):
                    follower.woken.set()
        else:
            self._listening.clear()
            self.close_all()

    def close_all(self, *, bye: bool = False) -> None:
        """Every stream ends: with "bye" (this process stops: the page opens
        another at once, elsewhere) or without (the channel went: it polls)."""
        for found in list(self._following.values()):
            for follower in list(found):
                follower.close(bye=bye)

    def _start(self) -> None:
        loop = asyncio.get_running_loop()
        if self.loop is not loop:  # a new loop (a test's): start afresh on it
            self.loop = loop
            self._listening = asyncio.Event()
            self._following = {}
            self._listener = None
        if self._listener is None or self._listener.done():
            self._listener = loop.create_task(channel().listen(self), name="live channel")

    async def stop(self) -> None:
        self.close_all()
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
            self._listener = None


def _on_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


hub = Hub()


class Channel(Protocol):
    def publish(self, session_id: int) -> None: ...

    async def listen(self, hub: Hub) -> None: ...


class LocalChannel:
    """Within this process: the one process of a host on SQLite."""

    def publish(self, session_id: int) -> None:
        hub.wake_threadsafe(session_id)

    async def listen(self, hub: Hub) -> None:
        hub.listening(True)
        await asyncio.Event().wait()  # until the process stops


class RedisChannel:
    """PUBLISH to, and SUBSCRIBE on, one channel of the Redis every host shares."""

    def __init__(self, url: str, prefix: str) -> None:
        self.url = url
        self.name = f"{prefix}:{CHANNEL}"
        self._client = None
        self._lock = threading.Lock()
        self._quiet_until = 0.0

    def _publisher(self):
        import redis

        with self._lock:
            if self._client is None:
                # A Redis that does not answer holds a save's answer up for a
                # second at most, and only the first: see publish.
                self._client = redis.Redis.from_url(
                    self.url, socket_connect_timeout=1, socket_timeout=1
                )
            return self._client

    def publish(self, session_id: int) -> None:
        from redis.exceptions import RedisError

        if time.monotonic() < self._quiet_until:
            return  # failed a moment ago: the streams have closed, the pages poll
        try:
            self._publisher().publish(self.name, str(session_id))
        except RedisError as error:
            self._quiet_until = time.monotonic() + RECONNECT_MAX
            logger.warning("live channel: Redis publish failed: %s", error)

    async def listen(self, hub: Hub) -> None:
        import redis.asyncio as aioredis
        from redis.exceptions import RedisError

        delay = RECONNECT_FIRST
        while True:
            client = aioredis.Redis.from_url(
                self.url, socket_connect_timeout=2, socket_keepalive=True
            )
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.name)
                hub.listening(True)
                delay = RECONNECT_FIRST
                heard = time.monotonic()
                while True:
                    message = await pubsub.get_message(timeout=PING_SECONDS)
                    if message is None:
                        if time.monotonic() - heard > 3 * PING_SECONDS:
                            raise ConnectionError("no answer to its pings")
                        await pubsub.ping()
                        continue
                    heard = time.monotonic()
                    if message.get("type") == "message":
                        _wake(hub, message.get("data"))
            except (RedisError, OSError) as error:
                logger.warning("live channel: Redis subscription lost: %s", error)
            finally:
                hub.listening(False)
                await _quietly(pubsub.aclose())
                await _quietly(client.aclose())
            await asyncio.sleep(delay)
            delay = min(delay * 2, RECONNECT_MAX)


class PostgresChannel:
    """NOTIFY on the app's own connection; LISTEN on one connection of this process's."""

    def publish(self, session_id: int) -> None:
        # Called after the commit, so the connection is in autocommit and the
        # notification leaves at once (inside a transaction it would leave at
        # its commit, which is as right).
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, str(session_id)])
        except DatabaseError as error:
            logger.warning("live channel: NOTIFY failed: %s", error)

    async def listen(self, hub: Hub) -> None:
        import psycopg

        delay = RECONNECT_FIRST
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(
                    _listen_params(), autocommit=True, connect_timeout=5
                )
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    hub.listening(True)
                    delay = RECONNECT_FIRST
                    while True:
                        async for notify in conn.notifies(timeout=PING_SECONDS):
                            _wake(hub, notify.payload)
                        # Silent for a while: is the connection still there?
                        await asyncio.wait_for(conn.execute("SELECT 1"), PING_SECONDS)
            except (psycopg.Error, OSError, TimeoutError) as error:
                logger.warning("live channel: PostgreSQL LISTEN lost: %s", error)
            finally:
                hub.listening(False)
            await asyncio.sleep(delay)
            delay = min(delay * 2, RECONNECT_MAX)


def _listen_params() -> str:
    from psycopg.conninfo import make_conninfo

    database = settings.DATABASES["default"]
    found = {
        "dbname": database.get("NAME"),
        "user": database.get("USER"),
        "password": database.get("PASSWORD"),
        "host": database.get("HOST"),
        "port": database.get("PORT"),
    }
    # A connection that died without a word (a network cut) is found within a minute.
    found |= {"keepalives": 1, "keepalives_idle": 30, "keepalives_interval": 10}
    found["keepalives_count"] = 3
    return make_conninfo("", **{k: str(v) for k, v in found.items() if v})


def _wake(hub: Hub, payload: object) -> None:
    if isinstance(payload, bytes):
        payload = payload.decode("ascii", "replace")
    if isinstance(payload, str) and payload.removeprefix("-").isdigit() and len(payload) < 20:
        hub.wake(int(payload))


async def _quietly(closing) -> None:
    with contextlib.suppress(Exception):  # already broken: nothing more to close
        await closing


_channel: Channel | None = None
_channel_lock = threading.Lock()


def channel() -> Channel:
    global _channel
    with _channel_lock:
        if _channel is None:
            kind = settings.LIVE_CHANNEL
            if kind == "redis":
                _channel = RedisChannel(settings.REDIS_URL, settings.CACHE_KEY_PREFIX)
            elif kind == "postgres":
                _channel = PostgresChannel()
            else:
                _channel = LocalChannel()
        return _channel


def publish(session_id: int) -> None:
    """Tell every stream following `session_id`, on every host, that it changed.
    Called once its change has committed."""
    channel().publish(session_id)


def announce(session_id: int, using: str | None = None) -> None:
    """`publish`, once the current transaction commits (at once outside one)."""
    transaction.on_commit(_Announce(session_id), using=using)


class _Announce:
    __slots__ = ("session_id",)

    def __init__(self, session_id: int) -> None:
        self.session_id = session_id

    def __call__(self) -> None:
        publish(self.session_id)


def reset_channel() -> None:
    """Choose the channel again from the settings (tests that change them)."""
    global _channel
    with _channel_lock:
        _channel = None
