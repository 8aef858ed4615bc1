"""Session files on the web: import a `marriage-session/1` file as a new session
of yours, and download any of your sessions as one (the same JSON as
`manage.py export_session`)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from . import services
from .engine import RoundError
from .engine.sessionfile import SessionDoc, SessionFileError, dumps, loads
from .models import GameSession

# A 1,000-round night exports to well under 1 MB; anything much bigger is not a session file.
MAX_FILE_BYTES = 5 * 1024 * 1024


class ImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Session file"),
        widget=forms.FileInput(attrs={"accept": ".json,application/json"}),
        help_text=gettext_lazy(
            "A marriage-session/1 JSON file, e.g. one exported from this app. "
            "It becomes a new session of yours."
        ),
    )

    doc: SessionDoc | None = None

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_FILE_BYTES:
            raise forms.ValidationError(
                _("too large (%(size)d bytes; at most %(max)d)")
                % {"size": upload.size, "max": MAX_FILE_BYTES}
            )
        try:
            text = upload.read().decode("utf-8-sig")
        except UnicodeDecodeError:
            raise forms.ValidationError(_("not a text file (it must be UTF-8 JSON)")) from None
        try:
            self.doc = loads(text)
        except SessionFileError as error:
            # The file's own one-line message names the round, player and field.
            raise forms.ValidationError(str(error)) from None
        return upload


@login_required
def session_import(request: HttpRequest) -> HttpResponse:
    # Bound on any POST, even an empty one, so a missing file is reported.
    form = ImportForm(request.POST, request.FILES) if request.method == "POST" else ImportForm()
    if form.is_bound and form.is_valid() and form.doc is not None:
        try:
            session = services.save_document(form.doc, owner=request.user)
        except RoundError as error:  # cannot happen after loads(); never half-save anyway
            form.add_error("file", str(error))
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
    return render(request, "scoring/import_form.html", {"form": form})


def export_filename(session: GameSession) -> str:
    slug = slugify(session.name, allow_unicode=True) or "session"
    return f"{slug}-{session.played_on:%Y-%m-%d}.json"


@login_required
def session_export(request: HttpRequest, session_id: int) -> HttpResponse:
    session = get_object_or_404(GameSession, pk=session_id, owner=request.user)
    response = HttpResponse(
        dumps(services.export_session(session)), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = content_disposition_header(True, export_filename(session))
    return response
