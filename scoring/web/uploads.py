"""Uploads are bounded before they are read: a request whose body says it is
larger than a session file may be (engine.limits.MAX_FILE_BYTES, plus room for
the form's other fields) keeps none of its file, nor does an upload that turns
out larger while it streams. The view then says which limit it hit
(`too_large(request)`); the form's other fields, the CSRF token first, are
still read, so the answer is the form with a message, not a bare refusal.

What is left of such a body is read and dropped only when it is a little over
the limit (DRAIN_BYTES): the browser, still sending, then shows the form with
the message. A larger one is not read at all (Django's `connection_reset`): a
huge or endless upload cannot hold a worker, at the price of the browser maybe
showing a broken connection instead of the message. A proxy's body limit
(README, Production) refuses those before they reach the app.
"""

from __future__ import annotations

from django.core.files.uploadhandler import FileUploadHandler, StopUpload
from django.http import HttpRequest

from ..engine.limits import MAX_FILE_BYTES

FORM_OVERHEAD = 64 * 1024  # multipart boundaries, the CSRF token, the file's name
# A body up to this much past the limit is read to its end (a few seconds of a
# worker at most) so that its sender sees why it was refused.
DRAIN_BYTES = 1024 * 1024


def too_large(request: HttpRequest) -> bool:
    return getattr(request, "upload_too_large", False)


class SizeLimitUploadHandler(FileUploadHandler):
    """First of FILE_UPLOAD_HANDLERS; the handlers after it store the file."""

    def handle_raw_input(self, input_data, META, content_length, boundary, encoding=None):
        limit = MAX_FILE_BYTES + FORM_OVERHEAD
        if content_length and content_length > limit:
            self.request.upload_too_large = True
        # Checked before a byte of the body is read: a body that says it is far
        # larger is left unread once the fields before the file are in.
        self.unread = bool(content_length and content_length > limit + DRAIN_BYTES)
        self.received = 0

    def new_file(self, *args, **kwargs):
        super().new_file(*args, **kwargs)
        self.received = 0
        if too_large(self.request):
            raise StopUpload(connection_reset=self.unread)

    def receive_data_chunk(self, raw_data, start):
        self.received += len(raw_data)
        if self.received > MAX_FILE_BYTES:
            # The body said it was within the limit and the form's overhead, so
            # what is left of it is small: read and dropped.
            self.request.upload_too_large = True
            raise StopUpload(connection_reset=False)
        return raw_data

    def file_complete(self, file_size):
        return None
