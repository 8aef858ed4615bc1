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

import re
import uuid
from collections.abc import Callable

from django.db import IntegrityError
from django.http import HttpRequest
from django.utils.translation import gettext_noop

from ..models import GameSession, SavedKey

SAVE_KEY_RE = re.compile(r"[A-Za-z0-9_-]{8,64}")


def new_save_key() -> str:
    return str(uuid.uuid4())


class SaveKeyRefused(Exception):
    """A POST's key that cannot be used: malformed, or kept with another save.
    Answered 400 with the message (scoring/web/middleware.py), before anything is saved."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem  # a gettext_noop msgid


MALFORMED = gettext_noop(
    "This form's one-time key is not one this site makes, so nothing was saved. "
    "Reload the page and save again."
)
REUSED = gettext_noop(
    "This form's one-time key was used for another save, so nothing was saved. "
    "Reload the page and save again."
)


def posted_save_key(request: HttpRequest) -> str | None:
    """The POST's key; None without one ("save as before"). SaveKeyRefused for a
    key that is there but malformed (7 or 65 characters, a "."), which a repeat
    would otherwise save a second time."""
    if request.method != "POST" or "save_key" not in request.POST:
        return None
    key = request.POST.get("save_key", "")
    if not SAVE_KEY_RE.fullmatch(key):
        raise SaveKeyRefused(MALFORMED)
    return key


def same_save(
    saved: SavedKey, *, kind: str, session_id: int | None = None, object_pk: int | None = None
) -> SavedKey:
    """`saved` if it was kept with this kind of save (in session `session_id`,
    of object `object_pk` for an edit); SaveKeyRefused (reused) otherwise."""
    if (
        saved.kind != kind
        or (session_id is not None and saved.session_id != session_id)
        or (object_pk is not None and saved.object_pk != object_pk)
    ):
        raise SaveKeyRefused(REUSED)
    return saved


def repeated_save(
    request: HttpRequest,
    *,
    kind: str,
    session_id: int | None = None,
    object_pk: int | None = None,
) -> SavedKey | None:
    """What this POST's key saved before, if the POST repeats that save; None for
    a POST without a key or under a key never saved. Called before the form is
    read. SaveKeyRefused for a malformed key or one kept with another save."""
    key = posted_save_key(request)
    saved = earlier_save(request.user, key)
    if saved is None:
        return None
    return same_save(saved, kind=kind, session_id=session_id, object_pk=object_pk)


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


def once[T](
    save: Callable[[], T],
    *,
    user,
    key: str | None,
    replay: Callable[[SavedKey], T],
    kind: str | None = None,
    session_id: int | None = None,
) -> T:
    """`save()`, or, when the same key was saved meanwhile (a repeat sent at the
    same moment, which waited for the first one's commit), `replay` of that save
    if it was the same `kind` of save (`same_save`), else SaveKeyRefused. Every
    caller names its kind; without one, `replay` alone judges the earlier save."""
    try:
        return save()
    except IntegrityError:
        earlier = earlier_save(user, key)
        if earlier is None:
            raise  # not the key: another unique constraint
        if kind is not None:
            earlier = same_save(earlier, kind=kind, session_id=session_id)
        return replay(earlier)
