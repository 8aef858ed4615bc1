"""One rule keeps every reader's page current: a session's version moves
whenever the session, one of its players, rounds or round entries is saved or
deleted, whoever writes it: a view, a service, the admin, a command or the shell.

A version is made of counters moved inside the writing transaction, never of
anyone's clock alone: its owner's counter (accounts.OwnerVersion), moved once per
transaction that writes any of their sessions, and the session's `updated_at`
(which the round saves compare and swap). So the key of a read changes exactly
when a write it shows commits, whatever the order of overlapping commits and
whatever the clocks of the hosts that made them (a host 30 s behind included).
The record pages (home, history, player pages, leaderboard) use the owner's
counter alone.

Computed data (a session's ledger, a user's rounds for the record pages) is
cached under the version it was computed from (`remember`), so a change is a new
key and nothing stale is ever read; pages are rendered normally from it. The
pages that follow a session live compare versions (a poll answers 304 while
nothing changed), and each commit that moves one tells their streams
(`_Moved`, web/push.py).

The signals below are that rule's only home. Within one transaction the
version moves once, however many rows the transaction writes (a round and its
entries, a session and its cascade): later writes find it moved already. A
write that sends no signal (QuerySet.update(), bulk_create(), bulk_update())
is made only beside one that does, such as the round or session it belongs to.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import cast

from django.core.cache import caches
from django.db import connections, router, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import OuterRef, QuerySet, Subquery
from django.db.models.signals import post_delete, post_save, pre_delete, pre_save
from django.dispatch import receiver
from django.utils import timezone

from accounts.models import OwnerVersion

from ..models import GameSession, Player, Round, RoundEntry
from ..web import push

# The owner's counter as read with a session (with_owner_version).
OWNER_VERSION = "owner_version_value"


def version_of(session: GameSession) -> str:
    """E.g. "s12-1795425600.123456-v41": the session, its `updated_at` and its
    owner's counter. The counter comes with the session when it was read
    through with_owner_version (the views' access helpers), or else is read."""
    counter = session.__dict__.get(OWNER_VERSION)
    if counter is None:
        counter = _owner_counter(session.owner_id)
    return version_from(session.pk, session.updated_at, counter)


def owner_counter(session: GameSession) -> int:
    """The session's owner's counter, as version_of reads it: it moves with every
    write to any of their sessions, so of two states of one session the later
    has the higher counter (a phone keeps the newest it has seen)."""
    counter = session.__dict__.get(OWNER_VERSION)
    if counter is None:
        counter = _owner_counter(session.owner_id)
    return int(counter or 0)


def session_of(version: str) -> int:
    """The session a version (version_of) is of."""
    return int(version[1:].partition("-")[0])


def with_owner_version(sessions: QuerySet[GameSession]) -> QuerySet[GameSession]:
    """`sessions`, each read with its owner's counter (for version_of), in the
    same query."""
    counter = OwnerVersion.objects.filter(owner_id=OuterRef("owner_id")).values("value")
    return sessions.annotate(**{OWNER_VERSION: Subquery(counter[:1])})


def version_from(session_id: int, updated_at: datetime, counter: int | None) -> str:
    """A session's version from its parts as a query of one's own read them
    (its id, `updated_at` and owner's counter; None: leave the counter out,
    for a version that moves with this session alone)."""
    return f"s{session_id}-{stamp(updated_at):.6f}-v{counter or 0}"


def stamp(updated_at: datetime) -> float:
    """A stored `updated_at` as seconds, the stamp in a version."""
    if updated_at.tzinfo is None:  # a naive time is UTC: how SQLite stores it
        updated_at = updated_at.replace(tzinfo=UTC)
    return updated_at.timestamp()


def _sessions_table() -> tuple[BaseDatabaseWrapper, str]:
    connection = connections[router.db_for_read(GameSession)]
    return connection, connection.ops.quote_name(GameSession._meta.db_table)


def counters_table(connection: BaseDatabaseWrapper) -> str:
    """The owners' counters' table, quoted, for a version read in a query of one's own."""
    return connection.ops.quote_name(OwnerVersion._meta.db_table)


def _version_where(where: str, params: list[int | str]) -> str | None:
    # Asked on every warm page and every poll, so written out: the ORM takes
    # longer to build this one-row query than the database takes to answer it.
    connection, table = _sessions_table()
    counters = counters_table(connection)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT s.id, s.updated_at, c.value FROM {table} s "
            f"LEFT JOIN {counters} c ON c.owner_id = s.owner_id WHERE {where}",
            params,
        )
        row = cursor.fetchone()
    return None if row is None else version_from(*row)


def _owner_counter(owner_id: int | None) -> int:
    if owner_id is None:
        return 0
    connection = connections[router.db_for_read(OwnerVersion)]
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT value FROM {counters_table(connection)} WHERE owner_id = %s", [owner_id]
        )
        row = cursor.fetchone()
    return 0 if row is None else row[0]


def owned_version(session_id: int, owner_id: int | None) -> str | None:
    """The version of session `session_id` if `owner_id` owns it, without
    loading the rest of it; None if there is no such session of theirs."""
    if owner_id is None:
        return None
    return _version_where("s.id = %s AND s.owner_id = %s", [session_id, owner_id])


def shared_version(token: str) -> str | None:
    """The version of the session shared under `token`, without loading the rest
    of it; None if there is none (never shared, or the link was turned off)."""
    if not token:
        return None
    return _version_where("s.share_token = %s", [token])


def owner_version(owner_id: int | None) -> str:
    """The state of all of a user's sessions, for data drawn from every one of
    them (history, player pages, leaderboard): their counter, moved by every
    write to any of them (a new session, a deletion, a round...) as it commits.
    Written out, as _version_where: asked on every warm view of those pages."""
    return f"u{owner_id}-v{_owner_counter(owner_id)}"


def _move_owner(
    using: str, *, owner_id: int | None = None, session_id: int | None = None
) -> tuple[int, int] | None:
    """Move the counter of `owner_id`, or of the owner of `session_id`, in the
    current transaction: (owner, the counter's new value), None for no owner.
    An upsert: the first write of a user makes their row."""
    connection = connections[using]
    counters = counters_table(connection)
    upsert = (
        f"ON CONFLICT (owner_id) DO UPDATE SET value = {counters}.value + 1 "
        "RETURNING owner_id, value"
    )
    with connection.cursor() as cursor:
        if owner_id is not None:
            cursor.execute(
                f"INSERT INTO {counters} (owner_id, value) VALUES (%s, 1) {upsert}", [owner_id]
            )
        elif session_id is not None:
            sessions = connection.ops.quote_name(GameSession._meta.db_table)
            cursor.execute(
                f"INSERT INTO {counters} (owner_id, value) SELECT owner_id, 1 FROM {sessions} "
                f"WHERE id = %s AND owner_id IS NOT NULL {upsert}",
                [session_id],
            )
        else:
            return None
        row = cursor.fetchone()
    return None if row is None else (row[0], row[1])


# Kept as objects in this process's memory, not pickled: reading back a
# 1,000-round ledger costs a dictionary lookup. Values must be treated as
# read-only. The oldest go first beyond COMPUTED_LIMIT.
COMPUTED_LIMIT = 32
_computed: OrderedDict[str, object] = OrderedDict()
_lock = threading.Lock()


def remember[T](name: str, version: str, compute: Callable[[], T]) -> T:
    """`compute()`, kept in this process under `name` at `version`: a change of
    the version is a new key, so a value is never out of date."""
    key = f"{name}:{version}"
    with _lock:
        if key in _computed:
            _computed.move_to_end(key)
            return cast(T, _computed[key])  # what compute() gave for this key
    value = compute()
    with _lock:
        _computed[key] = value
        while len(_computed) > COMPUTED_LIMIT:
            _computed.popitem(last=False)
    return value


def forget_computed() -> None:
    """Drop everything kept per version, computed data and rendered pages
    (scoring/web/pagecache.py): as after a change (tests, benchmarks)."""
    with _lock:
        _computed.clear()
    caches["pages"].clear()


class _Moved:
    """An on-commit callback standing for "this session's version has moved in
    this transaction (at this savepoint)". Django drops pending callbacks with
    the transaction or savepoint that rolls back, so the mark never outlives
    the change it stands for. Called once the transaction has committed, it
    tells the pages that follow the session live (web/push.py): once per
    transaction, by the first mark of the session, which lives as long as any
    later one (a later one is inside its savepoint, or after it was released)."""

    __slots__ = ("owner_id", "publish", "round_ids", "savepoints", "session_id")

    def __init__(
        self, session_id: int, savepoints: tuple[str, ...], owner_id: int | None, publish: bool
    ) -> None:
        self.session_id = session_id
        self.savepoints = savepoints
        self.owner_id = owner_id  # whose counter moved with it
        self.round_ids: set[int] = set()  # its rounds written meanwhile
        self.publish = publish

    def __call__(self) -> None:
        if self.publish:
            push.publish(self.session_id)


def _savepoints(connection) -> tuple[str, ...]:
    # None stands for a nested atomic block without a savepoint (e.g. a delete's).
    return tuple(sid for sid in connection.savepoint_ids if sid is not None)


def _marks(using: str) -> list[_Moved]:
    """The marks of the current transaction at the current savepoint."""
    connection = connections[using]
    if not connection.in_atomic_block:
        return []  # autocommit: every write is its own transaction
    savepoints = _savepoints(connection)
    # run_on_commit holds (savepoint ids, callback, robust) per pending callback.
    return [
        pending[1]
        for pending in connection.run_on_commit
        if isinstance(pending[1], _Moved) and pending[1].savepoints == savepoints
    ]


def session_changed(session_id: int | None, using: str, round_id: int | None = None) -> None:
    """Move the session's version, unless this transaction has moved it already."""
    if session_id is None:
        return
    mark = next((m for m in _marks(using) if m.session_id == session_id), None)
    if mark is None:
        GameSession.objects.using(using).filter(pk=session_id).update(updated_at=timezone.now())
        moved = _move_owner(using, session_id=session_id)
        mark = _remember(session_id, using, moved[0] if moved else None)
    if mark is not None and round_id is not None:
        mark.round_ids.add(round_id)


@dataclass(frozen=True)
class RoundsSoFar:
    """A session's rounds as a new one is appended: the highest number and how
    many there are (numbers may have gaps after a delete)."""

    last_number: int
    count: int


def claim_unchanged(session: GameSession) -> RoundsSoFar | None:
    """Inside a write's transaction: move the session's version if it is still
    the one `session` was read at, and then return its rounds so far; None if
    the version had moved. The UPDATE holds the row until the commit, so an
    answer means that nothing the version covers (the session, its players,
    rounds and entries) has changed since the read, and that no other save can
    change it before this one commits. One statement: the rounds are read by
    the UPDATE's RETURNING, so a round save costs no query for its number."""
    using = router.db_for_write(GameSession)
    connection = connections[using]
    now = timezone.now()
    session_table = connection.ops.quote_name(GameSession._meta.db_table)
    round_table = connection.ops.quote_name(Round._meta.db_table)
    rounds = f"FROM {round_table} WHERE session_id = %s"
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {session_table} SET updated_at = %s WHERE id = %s AND updated_at = %s "
            f"RETURNING (SELECT COALESCE(MAX(number), 0) {rounds}), (SELECT COUNT(*) {rounds})",
            [
                connection.ops.adapt_datetimefield_value(now),
                session.pk,
                connection.ops.adapt_datetimefield_value(session.updated_at),
                session.pk,
                session.pk,
            ],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    session.updated_at = now
    moved = _move_owner(using, owner_id=session.owner_id)
    session.__dict__[OWNER_VERSION] = moved[1] if moved else None
    _remember(session.pk, using, session.owner_id)
    return RoundsSoFar(last_number=row[0], count=row[1])


def _remember(session_id: int, using: str, owner_id: int | None) -> _Moved | None:
    connection = connections[using]
    if not connection.in_atomic_block:
        push.publish(session_id)  # autocommit: the write has committed already
        return None
    first = not any(
        isinstance(pending[1], _Moved) and pending[1].session_id == session_id
        for pending in connection.run_on_commit
    )
    mark = _Moved(session_id, _savepoints(connection), owner_id, publish=first)
    transaction.on_commit(mark, using=using)
    return mark


@receiver(pre_save, sender=GameSession)
def _session_to_save(sender, instance: GameSession, raw: bool, using: str, **kwargs) -> None:
    # A save that may give the session to someone else (the admin's, the shell's:
    # the services name their fields) moves the counter of its owner until then.
    fields = kwargs.get("update_fields")
    if (
        raw
        or instance._state.adding
        or (fields is not None and not {"owner", "owner_id"} & set(fields))
    ):
        return
    before = GameSession.objects.using(using).filter(pk=instance.pk).values("owner_id").first()
    if before and before["owner_id"] not in (None, instance.owner_id):
        _move_owner(using, owner_id=before["owner_id"])


@receiver(post_save, sender=GameSession)
def _session_saved(sender, instance: GameSession, raw: bool, using: str, **kwargs) -> None:
    # The save wrote updated_at itself (GameSession.save always does). Its owner's
    # counter moves, unless it moved for this session in this transaction already.
    if raw:
        return
    mark = next((m for m in _marks(using) if m.session_id == instance.pk), None)
    if mark is None or mark.owner_id != instance.owner_id:
        moved = _move_owner(using, owner_id=instance.owner_id)
        instance.__dict__[OWNER_VERSION] = moved[1] if moved else None
        if mark is None:
            _remember(instance.pk, using, instance.owner_id)
        else:
            mark.owner_id = instance.owner_id


@receiver(post_delete, sender=GameSession)
def _session_deleted(sender, instance: GameSession, using: str, **kwargs) -> None:
    _move_owner(using, owner_id=instance.owner_id)
    push.announce(instance.pk, using=using)  # its streams end: "gone"


@receiver(post_save, sender=Player)
@receiver(post_delete, sender=Player)
def _player_changed(sender, instance: Player, using: str, raw: bool = False, **kwargs) -> None:
    if not raw:
        session_changed(instance.session_id, using)


# A deleted round moves the version before its entries go (they are deleted
# first), so that they find it moved and need no query of their own.
@receiver(post_save, sender=Round)
@receiver(pre_delete, sender=Round)
def _round_changed(sender, instance: Round, using: str, raw: bool = False, **kwargs) -> None:
    if not raw:
        session_changed(instance.session_id, using, round_id=instance.pk)


@receiver(post_save, sender=RoundEntry)
@receiver(post_delete, sender=RoundEntry)
def _entry_changed(sender, instance: RoundEntry, using: str, raw: bool = False, **kwargs) -> None:
    if raw or any(instance.round_id in m.round_ids for m in _marks(using)):
        return
    session_id: int | None
    if RoundEntry.round.is_cached(instance):
        session_id = instance.round.session_id
    else:
        rounds = Round.objects.using(using).filter(pk=instance.round_id)
        session_id = rounds.values_list("session_id", flat=True).first()
    session_changed(session_id, using, round_id=instance.round_id)
