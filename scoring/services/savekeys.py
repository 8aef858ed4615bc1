"""One-time keys that make every save happen once.

Each form that creates something (a round, a session, a player, an import)
carries a fresh key in a hidden `save_key` field. The server remembers the keys
it has saved (models.SavedKey, inside the same transaction as the save), so a
second POST with the same key (a double tap, a phone retrying on a bad line)
saves nothing new and answers with what the first one saved. A POST without a
key (a script, an older page) is saved as before.

A round's edit form carries one too (kind "edit", remembered with the round):
the edit's repeat, which carries the version the round had before that edit,
is answered as the edit was instead of being refused as a stale edit.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable

from django.db import IntegrityError
from django.http import HttpRequest

from ..models import GameSession, SavedKey

SAVE_KEY_RE = re.compile(r"[A-Za-z0-9_-]{8,64}")


def new_save_key() -> str:
    return str(uuid.uuid4())


def posted_save_key(request: HttpRequest) -> str | None:
    """The POST's key if it has a well-formed one; None means "save as before"."""
    key = request.POST.get("save_key", "") if request.method == "POST" else ""
    return key if SAVE_KEY_RE.fullmatch(key) else None


def earlier_save(
    user, key: str | None, *, kind: str | None = None, object_pk: int | None = None
) -> SavedKey | None:
    """What `user` saved under `key` before, if anything; with `kind` (and
    `object_pk`), only a save of that kind (of that object): a key used for
    something else is no answer to this save."""
    if not key or not getattr(user, "pk", None):
        return None
    saved = SavedKey.objects.filter(user=user, key=key)
    if kind is not None:
        saved = saved.filter(kind=kind)
    if object_pk is not None:
        saved = saved.filter(object_pk=object_pk)
    return saved.first()


def remember_save(
    *,
    user,
    key: str | None,
    kind: str,
    object_pk: int,
    session: GameSession | None = None,
    unless_used: bool = False,
) -> None:
    """Called inside the save's transaction: the key is kept with what it saved, or
    neither is. A second save under the same key fails the unique constraint;
    with `unless_used` (an edit, which changes what is there rather than making
    something new) a key already used for something else is left as it was and
    the save goes on without it."""
    if not key or not getattr(user, "pk", None):
        return
    fields = {"user": user, "key": key, "kind": kind, "session": session, "object_pk": object_pk}
    if unless_used:
        SavedKey.objects.bulk_create([SavedKey(**fields)], ignore_conflicts=True)
    else:
        SavedKey.objects.create(**fields)


def once[T](save: Callable[[], T], *, user, key: str | None, replay: Callable[[SavedKey], T]) -> T:
    """`save()`, or, when the same key was saved meanwhile (a repeat sent at the
    same moment, which waited for the first one's commit), `replay` of that save."""
    try:
        return save()
    except IntegrityError:
        earlier = earlier_save(user, key)
        if earlier is None:
            raise  # not the key: another unique constraint
        return replay(earlier)
