"""Session files on the web: import a `marriage-session/1` file as a new session
of yours, and download any of your sessions as one (the same JSON as
`manage.py export_session`)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext as _

from .. import services
from ..engine import RoundError
from ..engine.sessionfile import dumps
from ..forms.files import ImportForm
from ..i18n import translate
from ..models import GameSession
from ..snapshot import read_snapshot
from ..uploads import too_large
from .access import session_for_user


@login_required
def session_import(request: HttpRequest) -> HttpResponse:
    # Bound on any POST, even an empty one, so a missing file is reported.
    if request.method == "POST":
        form = ImportForm(request.POST, request.FILES, too_large=too_large(request))
    else:
        form = ImportForm()
    if form.is_bound and form.is_valid() and form.doc is not None:
        try:
            session = services.save_document(form.doc, owner=request.user)
        except RoundError as error:  # cannot happen after loads(); never half-save anyway
            form.add_error("file", translate(error.msg))
        else:
            messages.success(
                request,
                _("Imported %(name)s: %(players)d players, %(rounds)d rounds.")
                % {
                    "name": session.name,
                    "players": len(form.doc.players),
                    "rounds": len(form.doc.rounds),
                },
            )
            return redirect("session_detail", session_id=session.pk)
    # A refused file is a client error (400), the form showing why.
    status = 400 if form.is_bound else 200
    return render(request, "scoring/files/import.html", {"form": form}, status=status)


def export_filename(session: GameSession) -> str:
    slug = slugify(session.name, allow_unicode=True) or "session"
    return f"{slug}-{session.played_on:%Y-%m-%d}.json"


@login_required
def session_export(request: HttpRequest, session_id: int) -> HttpResponse:
    with read_snapshot():
        session = session_for_user(request, session_id)
        text = dumps(services.export_session(session))
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, export_filename(session))
    return response
