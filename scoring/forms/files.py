"""A session file to import, and what every imported file of the app shares."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from localise.numbers import NumberFormat
from localise.sessionfiles import load_session

from ..engine.limits import MAX_FILE_BYTES
from ..engine.sessionfile import SessionDoc, SessionFileError, shorten
from ..words.i18n import translate

TOO_LARGE = gettext_lazy("larger than the limit of %(max)s bytes for a session file")


class FileForm(forms.Form):
    """An uploaded file of this app's JSON (a session, a group), bounded before
    it is read: an upload stopped at the limit (scoring.web.uploads, every
    upload's first handler) arrives as no file, and is said to be too large.
    A subclass declares its `file` field and reads the text (`read`)."""

    too_large_message = TOO_LARGE

    def __init__(self, *args, too_large: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.too_large = too_large

    def _too_large(self) -> str:
        return str(self.too_large_message % {"max": NumberFormat.current().num(MAX_FILE_BYTES)})

    def full_clean(self) -> None:
        super().full_clean()
        if self.too_large and self.is_bound:
            self.errors.pop("file", None)
            self.add_error("file", self._too_large())

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_FILE_BYTES:
            raise forms.ValidationError(self._too_large())
        try:
            text = upload.read().decode("utf-8-sig")
        except UnicodeDecodeError:
            raise forms.ValidationError(_("not a text file (it must be UTF-8 JSON)")) from None
        self.read(text)
        return upload

    def read(self, text: str) -> None:
        """Parse the file's text; ValidationError with the file's own message."""
        raise NotImplementedError


class ImportForm(FileForm):
    file = forms.FileField(
        label=gettext_lazy("Session file"),
        widget=forms.FileInput(attrs={"accept": ".json,application/json"}),
        help_text=gettext_lazy(
            "A marriage-session/1 JSON file, e.g. one exported from this app. "
            "It becomes a new session of yours."
        ),
    )

    doc: SessionDoc | None = None
    text: str = ""  # the file as read, kept when the import asks before saving

    def read(self, text: str) -> None:
        try:
            self.doc = load_session(text)
            self.text = text
        except SessionFileError as error:
            # The file's own one-line message names the round, player and field.
            raise forms.ValidationError(shorten(translate(error.msg))) from None
