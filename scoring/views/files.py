"""Session files on the web: import a `marriage-session/1` file as a new session
of yours, and download any of your sessions as one (the same JSON as
`manage.py export_session`)."""

from __future__ import annotations

import secrets
from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext as _

from localise.sessionfiles import load_session

from .. import services
from ..engine import RoundError
from ..engine.sessionfile import SessionDoc, SessionFileError, dumps
from ..forms import refused_status
from ..forms.files import ImportForm
from ..models import GameSession
from ..selectors.files import export_session, same_evening
from ..selectors.saves import posted_save_key, saved_session
from ..selectors.snapshot import read_snapshot
from ..web.uploads import too_large
from ..words.i18n import translate
from .access import saved_key_for_user, session_for_user, sessions_for_user
from .sessions import session_saved

# The file of an import that asked first, kept in the reader's session (at most
# a session file's size) until its answer: one tap imports it, nothing re-sent.
PENDING = "import_pending"


@login_required
def session_import(request: HttpRequest) -> HttpResponse:
    earlier = saved_key_for_user(request, kind="import")
    if earlier is not None:  # a repeat (a double tap, a retry): answered as the first
        # Nothing is saved by a repeat, so its counts may be read from the database.
        return _imported(request, lambda: _counted(saved_session(earlier, owner=request.user)))
    if request.method == "POST" and "confirm" in request.POST:
        return _import_confirmed(request)
    # Bound on any POST, even an empty one, so a missing file is reported.
    if request.method == "POST":
        form = ImportForm(request.POST, request.FILES, too_large=too_large(request))
    else:
        form = ImportForm()
    if form.is_bound and form.is_valid() and form.doc is not None:
        doc = form.doc
        same = same_evening(doc, sessions_for_user(request))
        if same is not None:
            # The leaderboard would count the evening twice: ask first.
            token = secrets.token_urlsafe(16)
            request.session[PENDING] = {"token": token, "text": form.text}
            context = {
                "form": ImportForm(),
                "same": same,
                "rounds": len(doc.rounds),
                "token": token,
            }
            return render(request, "scoring/files/import.html", context)
        try:
            return _imported(request, lambda: _save(request, doc))
        except RoundError as error:  # cannot happen after loads(); never half-save anyway
            form.add_error("file", translate(error.msg))
    # A refused file is answered as every refused form (422), the form showing why.
    return render(request, "scoring/files/import.html", {"form": form}, status=refused_status(form))


# A saved session with its players and rounds counted.
Counted = tuple[GameSession, int, int]


def _save(request: HttpRequest, doc: SessionDoc) -> Counted:
    """The file saved, counted from the file: nothing that asks the database runs
    after the save's commit, so a saved import is never answered as an error (a
    repeat under the same key saved the same file)."""
    session = services.save_document(doc=doc, owner=request.user, save_key=posted_save_key(request))
    return session, len(doc.players), len(doc.rounds)


def _counted(session: GameSession) -> Counted:
    return session, session.players.count(), session.rounds.count()


def _import_confirmed(request: HttpRequest) -> HttpResponse:
    """ "Import a second copy": the file kept when the import asked."""
    pending = request.session.get(PENDING) or {}
    token = request.POST.get("confirm", "")
    if not token or not secrets.compare_digest(str(pending.get("token", "")), token):
        messages.error(request, _("That file is no longer held here; choose it again."))
        return redirect("session_import")
    try:
        doc = load_session(pending["text"])
    except SessionFileError as error:  # the rules changed since it was read
        messages.error(request, translate(error.msg))
        return redirect("session_import")
    # The kept file is forgotten before the import is saved, and the log-in
    # session written now: with cached_db sessions that is a database write,
    # which after the import's commit could answer a saved import as an error.
    del request.session[PENDING]
    request.session.save()
    request.session.modified = False  # written: the middleware need not write it again
    try:
        return _imported(request, lambda: _save(request, doc))
    except RoundError as error:  # cannot happen after loads(); never half-save anyway
        messages.error(request, translate(error.msg))
        return redirect("session_import")


def _imported(request: HttpRequest, save: Callable[[], Counted]) -> HttpResponse:
    counts: dict[str, int] = {}

    def saved() -> GameSession:
        session, counts["players"], counts["rounds"] = save()
        return session

    return session_saved(
        request,
        saved,
        lambda session: (
            _("Imported %(name)s: %(players)d players, %(rounds)d rounds.")
            % {"name": session.name, **counts}
        ),
    )


def export_filename(session: GameSession) -> str:
    slug = slugify(session.name, allow_unicode=True) or "session"
    return f"{slug}-{session.played_on:%Y-%m-%d}.json"


@login_required
def session_export(request: HttpRequest, session_id: int) -> HttpResponse:
    with read_snapshot():
        session = session_for_user(request, session_id)
        text = dumps(export_session(session))
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, export_filename(session))
    return response
