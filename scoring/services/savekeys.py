"""One-time keys that make every save happen once.

Each form that creates something (a round, a session, a player, an import)
carries a fresh key in a hidden `save_key` field. The server remembers the keys
it has saved (models.SavedKey, inside the same transaction as the save), so a
second POST with the same key (a double tap, a phone retrying on a bad line)
saves nothing new and answers with what the first one saved. A POST without a
key (a script, an older page) is saved as before; a malformed key is refused
(400), never taken for no key.

A key answers only the save it was kept with: the same kind of save (a round,
a session, a player, an import, an edit of the same round) in the same session
by the same user. Sent with anything else it is refused as reused (400), and
nothing is looked up by the id it saved. The key is looked at before the form
is: its repeat is answered as the first save was, even when the form alone
would now be refused (the session full since, the rules changed since).

A round's edit form carries one too (kind "edit", remembered with the round):
the edit's repeat, which carries the version the round had before that edit,
is answered as the edit was instead of being refused as a stale edit.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable

from django.db import IntegrityError

from ..models import GameSession, SavedKey
from ..selectors.saves import earlier_save, same_save


def new_save_key() -> str:
    return str(uuid.uuid4())


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


def once[T](
    *,
    save: Callable[[], T],
    user,
    key: str | None,
    replay: Callable[[SavedKey], T],
    kind: str,
    session_id: int | None = None,
) -> T:
    """`save()`, or, when the same key was saved meanwhile (a repeat sent at the
    same moment, which waited for the first one's commit), `replay` of that save
    if it was the same `kind` of save (in session `session_id`, `same_save`),
    else SaveKeyRefused: a key kept with another save is never replayed as this
    one."""
    try:
        return save()
    except IntegrityError:
        earlier = earlier_save(user, key)
        if earlier is None:
            raise  # not the key: another unique constraint
        return replay(same_save(earlier, kind=kind, session_id=session_id))
