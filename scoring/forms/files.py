"""A session file to import."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..engine.sessionfile import SessionDoc, SessionFileError, loads, shorten
from ..i18n import translate

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
            raise forms.ValidationError(shorten(translate(error.msg))) from None
        return upload
