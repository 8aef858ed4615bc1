"""One rule keeps every reader's page current: a session's version (its
`updated_at`, see pagecache.py) moves whenever the session, one of its
players, rounds or round entries is saved or deleted, whoever writes it: a
view, a service, the admin, a command or the shell.

The signals below are that rule's only home. Within one transaction the
version moves once, however many rows the transaction writes (a round and its
entries, a session and its cascade): later writes find it moved already. A
write that sends no signal (QuerySet.update(), bulk_create(), bulk_update())
is made only beside one that does, such as the round or session it belongs to.
"""

from __future__ import annotations

from django.db import connections, transaction
from django.db.models.signals import post_delete, post_save, pre_delete
from django.dispatch import receiver
from django.utils import timezone

from .models import GameSession, Player, Round, RoundEntry


class _Moved:
    """A no-op on-commit callback standing for "this session's version has
    moved in this transaction (at this savepoint)". Django drops pending
    callbacks with the transaction or savepoint that rolls back, so the mark
    never outlives the change it stands for."""

    __slots__ = ("round_ids", "savepoints", "session_id")

    def __init__(self, session_id: int, savepoints: tuple[str, ...]) -> None:
        self.session_id = session_id
        self.savepoints = savepoints
        self.round_ids: set[int] = set()  # its rounds written meanwhile

    def __call__(self) -> None:
        pass


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
        func
        for _sids, func, _robust in connection.run_on_commit
        if isinstance(func, _Moved) and func.savepoints == savepoints
    ]


def session_changed(session_id: int | None, using: str, round_id: int | None = None) -> None:
    """Move the session's version, unless this transaction has moved it already."""
    if session_id is None:
        return
    mark = next((m for m in _marks(using) if m.session_id == session_id), None)
    if mark is None:
        GameSession.objects.using(using).filter(pk=session_id).update(updated_at=timezone.now())
        mark = _remember(session_id, using)
    if mark is not None and round_id is not None:
        mark.round_ids.add(round_id)


def _remember(session_id: int, using: str) -> _Moved | None:
    connection = connections[using]
    if not connection.in_atomic_block:
        return None
    mark = _Moved(session_id, _savepoints(connection))
    transaction.on_commit(mark, using=using)
    return mark


@receiver(post_save, sender=GameSession)
def _session_saved(sender, instance: GameSession, raw: bool, using: str, **kwargs) -> None:
    # The save wrote updated_at itself (GameSession.save always does).
    if not raw and not any(m.session_id == instance.pk for m in _marks(using)):
        _remember(instance.pk, using)


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
    if RoundEntry.round.is_cached(instance):
        session_id = instance.round.session_id
    else:
        rounds = Round.objects.using(using).filter(pk=instance.round_id)
        session_id = rounds.values_list("session_id", flat=True).first()
    session_changed(session_id, using, round_id=instance.round_id)
