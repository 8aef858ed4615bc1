"""What a one-time key saved before (services/savekeys.py keeps them): the reads
that answer a repeated save as the first one was answered. A key answers only
the same kind of save, in the same session, by the same user."""

from __future__ import annotations

import re

from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_noop

from ..models import GameSession, Player, SavedKey

SAVE_KEY_RE = re.compile(r"[A-Za-z0-9_-]{8,64}")


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


class AlreadySaved(Exception):
    """A repeated save whose round has been deleted since: nothing to show but its session."""

    def __init__(self, session_id: int | None) -> None:
        super().__init__("saved already")
        self.session_id = session_id


def saved_object[M: Model](
    saved: SavedKey, objects: QuerySet[M], *kinds: str, gone: int | None = None
) -> M:
    """What a key kept with one of `kinds` saved, among `objects` (the reader's
    own); AlreadySaved, naming session `gone` to go back to, if deleted since."""
    found = (
        objects.filter(pk=saved.object_pk).first()
        if saved.kind in kinds and saved.object_pk
        else None
    )
    if found is None:
        raise AlreadySaved(gone)
    return found


def saved_player(saved: SavedKey, *, session: GameSession) -> Player:
    """The player a key added to `session`; AlreadySaved if removed since."""
    return saved_object(saved, Player.objects.filter(session=session), "player", gone=session.pk)


def saved_session(saved: SavedKey, *, owner) -> GameSession:
    """The session a key saved (a new session or an import); AlreadySaved if it
    has been deleted since."""
    return saved_object(saved, GameSession.objects.filter(owner=owner), "session", "import")
