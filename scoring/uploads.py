"""Uploads are bounded before they are read: a request whose body says it is
larger than a session file may be (engine.limits.MAX_FILE_BYTES, plus room for
the form's other fields) keeps none of its file, nor does an upload that turns
out larger while it streams. The view then says which limit it hit
(`too_large(request)`); the form's other fields, the CSRF token first, are
still read, so the answer is the form with a message, not a bare refusal."""

from __future__ import annotations

from django.core.files.uploadhandler import FileUploadHandler, StopUpload
from django.http import HttpRequest

from .engine.limits import MAX_FILE_BYTES

FORM_OVERHEAD = 64 * 1024  # multipart boundaries, the CSRF token, the file's name


def too_large(request: HttpRequest) -> bool:
    return getattr(request, "upload_too_large", False)


class SizeLimitUploadHandler(FileUploadHandler):
    """First of FILE_UPLOAD_HANDLERS; the handlers after it store the file."""

    def handle_raw_input(self, input_data, META, content_length, boundary, encoding=None):
        if content_length and content_length > MAX_FILE_BYTES + FORM_OVERHEAD:
            self.request.upload_too_large = True
        self.received = 0

    def new_file(self, *args, **kwargs):
        super().new_file(*args, **kwargs)
        self.received = 0
        if too_large(self.request):
            raise StopUpload(connection_reset=False)  # the rest is read and dropped

    def receive_data_chunk(self, raw_data, start):
        self.received += len(raw_data)
        if self.received > MAX_FILE_BYTES:
            self.request.upload_too_large = True
            raise StopUpload(connection_reset=False)
        return raw_data

    def file_complete(self, file_size):
        return None
