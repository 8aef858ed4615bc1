"""Offline at the table: the service worker, the web app manifest and the page
shown offline for a page this phone never opened (README "Offline at the table")."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from ..web.offline import service_worker_config

# The top bar's red, and the dark theme's (static/css/app.css, --topbar).
THEME_LIGHT = "#b3261e"
THEME_DARK = "#5c1410"
BACKGROUND = "#fbf8f3"


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """/sw.js, at the root so that its scope is the whole site. Rendered, not a
    static file: its precache list, and the queue module it imports, are what
    static() names now, hashed in production."""
    config = service_worker_config(
        offline_url=reverse("offline_page"),
        login_url=reverse("login"),
        logout_url=reverse("logout"),
    )
    response = render(
        request,
        "scoring/offline/sw.js",
        {"config": config, "queue_script": json.dumps(static("js/offline-queue.js"))},
        content_type="application/javascript; charset=utf-8",
    )
    # The browser checks for a new worker on every visit: never from a cache.
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def web_manifest(request: HttpRequest) -> HttpResponse:
    manifest = {
        "name": _("Marriage scorekeeper"),
        "short_name": _("Marriage"),
        "description": _("Scores, settlements and the ledger for Nepali Marriage."),
        "id": "/",
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "orientation": "portrait",
        "background_color": BACKGROUND,
        "theme_color": THEME_LIGHT,
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("icons/maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }
    response = HttpResponse(
        json.dumps(manifest, ensure_ascii=False), content_type="application/manifest+json"
    )
    response.headers["Cache-Control"] = "no-cache"
    return response


@require_GET
def offline_page(request: HttpRequest) -> HttpResponse:
    """What the worker shows offline for a page it does not hold. Precached
    signed out, so it names nobody; the rounds waiting to send are listed by script."""
    return render(request, "scoring/offline/page.html", {"offline_fallback": True})
