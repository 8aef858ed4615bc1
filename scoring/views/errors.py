"""The 500 page: in the site's style and the reader's language, and built
without the database, which may be what failed. For a save it says to check
the ledger before trying again: the round may have been saved."""

from __future__ import annotations

import re
import sys

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.shortcuts import render
from django.views.decorators.csrf import requires_csrf_token

from ..web.middleware import OUTAGE, outage_page

SESSION_PATH = re.compile(r"^/sessions/(\d+)/")


@requires_csrf_token
def server_error(request: HttpRequest) -> HttpResponse:
    if isinstance(sys.exception(), OUTAGE):  # raised outside a view (a middleware's query)
        return outage_page(request)
    match = SESSION_PATH.match(request.path)
    context = {
        # Stand-ins for what the top bar would read from the database.
        "user": AnonymousUser(),
        "messages": [],
        "session_id": int(match[1]) if match else None,
        "saving": request.method == "POST",
    }
    try:
        return render(request, "500.html", context, status=500)
    except Exception:  # the page itself failed: the plainest answer there is
        return HttpResponseServerError(
            "Server error. If you were saving a round, check the ledger before saving again.",
            content_type="text/plain; charset=utf-8",
        )
