"""Who may see what: one helper per owned object, used by every view.

Each answers 404 for anything the reader does not own, so another user's
session, round, player or change looks exactly like one that does not exist.

A session's co-scorers (the table app's CoScorer, invited by the owner,
known here through scoring.plugins) are
let in by the `*_for_scorer` helpers only: the round views (enter, edit,
delete, undo, restore), the session's page and its history. Every
other view (the session's details, rules, players, share link, seats, files)
fetches through `session_for_user` and keeps answering them 404.
"""

from __future__ import annotations

from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from .. import plugins
from ..models import GameSession, Player, Round, RoundChange, SavedKey
from ..selectors.rounds import rounds_with_entries
from ..selectors.saves import earlier_save, posted_save_key, repeated_save
from ..selectors.versions import owned_version, shared_version, with_owner_version


def session_for_user(request: HttpRequest, session_id: int) -> GameSession:
    # With its owner's counter: its version (versions.py) costs no query of its own.
    sessions = with_owner_version(GameSession.objects.all())
    return get_object_or_404(sessions, pk=session_id, owner=request.user)


def session_version_for_user(request: HttpRequest, session_id: int) -> str:
    """The version of the reader's session (versions.py), without loading it:
    all a warm page needs (scoring/web/pagecache.py)."""
    version = owned_version(session_id, request.user.pk)
    if version is None:
        raise Http404
    return version


def _scored_by(request: HttpRequest) -> QuerySet[GameSession]:
    user_id = request.user.pk
    if user_id is None:
        return GameSession.objects.none()
    # The sessions scored without owning them (scoring.plugins: the table's
    # co-scorers) as subqueries, not joins: one row per session.
    scored = Q(owner_id=user_id)
    for others in plugins.scored_sessions(user_id):
        scored |= Q(pk__in=others)
    return GameSession.objects.filter(scored)


def _scores(session: GameSession, user_id: int) -> bool:
    """Whether `user_id` scores `session` without owning it (scoring.plugins)."""
    return any(others.filter(pk=session.pk).exists() for others in plugins.scored_sessions(user_id))


def session_for_scorer(request: HttpRequest, session_id: int) -> GameSession:
    """The reader's session, or one they co-score: for the views that read the
    ledger or write rounds. Marked, so round_for_user and change_for_user let the
    co-scorer through for this session alone."""
    # With its owner's counter: its version (versions.py) costs no query of its own.
    # Read by id, then the reader checked: the owner needs no second query, and a
    # plain query builds in half the time of one asking both at once.
    user_id = request.user.pk
    session = with_owner_version(GameSession.objects.filter(pk=session_id)).first()
    if (
        session is None
        or user_id is None
        or (session.owner_id != user_id and not _scores(session, user_id))
    ):
        raise Http404
    session.scorer_id = user_id
    return session


def session_version_for_scorer(request: HttpRequest, session_id: int) -> str:
    """session_version_for_user, for the owner or a co-scorer."""
    version = owned_version(session_id, request.user.pk)
    if version is not None:
        return version
    owner_id = _scored_by(request).filter(pk=session_id).values_list("owner_id", flat=True).first()
    version = owned_version(session_id, owner_id) if owner_id is not None else None
    if version is None:
        raise Http404
    return version


def is_owner(request: HttpRequest, session: GameSession) -> bool:
    return session.owner_id is not None and session.owner_id == request.user.pk


def sessions_for_user(request: HttpRequest) -> QuerySet[GameSession]:
    return GameSession.objects.filter(owner_id=request.user.pk)


def saved_key_for_user(
    request: HttpRequest, *, kind: str | None = None, session_id: int | None = None
) -> SavedKey | None:
    """What the reader saved before under the POST's one-time key, if this POST
    repeats that save (scoring/services/savekeys.py): a repeat answers with it. Asked
    before the form is read; a malformed key, or one kept with another kind of
    save or in another session, is refused (SaveKeyRefused, answered 400).
    Every view names its `kind`; without one, any earlier save answers."""
    if kind is None:
        return earlier_save(request.user, posted_save_key(request))
    return repeated_save(request, kind=kind, session_id=session_id)


def _check_owner(request: HttpRequest, session: GameSession) -> None:
    if not is_owner(request, session):
        raise Http404


def _check_scorer(request: HttpRequest, session: GameSession) -> None:
    """The owner, or a co-scorer of this session (fetched by session_for_scorer)."""
    scorer = getattr(session, "scorer_id", None)
    if not is_owner(request, session) and (scorer is None or scorer != request.user.pk):
        raise Http404


def round_for_user(request: HttpRequest, session: GameSession, round_id: int) -> Round:
    """A round of the reader's `session` (owned or co-scored), with its entries and players."""
    _check_scorer(request, session)
    return get_object_or_404(rounds_with_entries(session), pk=round_id)


def player_for_user(request: HttpRequest, session: GameSession, player_id: int) -> Player:
    _check_owner(request, session)
    return get_object_or_404(Player, pk=player_id, session=session)


def change_for_user(request: HttpRequest, session: GameSession, change_id: int) -> RoundChange:
    """One entry of the audit trail of the reader's `session` (owned or co-scored)."""
    _check_scorer(request, session)
    return get_object_or_404(RoundChange, pk=change_id, session=session)


def shared_session_version(token: str) -> str:
    """The version of the session shared under `token`, without loading it; a
    link never made or turned off is a 404, as for shared_session."""
    version = shared_version(token)
    if version is None:
        raise Http404
    return version


def shared_session(token: str) -> GameSession:
    """The session shared under `token`, for anyone holding the link."""
    # The token must be non-empty: a revoked session has share_token NULL.
    if not token:
        raise Http404
    return get_object_or_404(with_owner_version(GameSession.objects.all()), share_token=token)
