"""The app as one ASGI application, which scripts/host serves (gunicorn's
asgi worker class, docs/hosting.md).

The streams of the pages that follow a session live (every path ending in
/stream/, scoring/web/streams.py) are Django's async views, each held open on
the event loop for as long as its page is open, at no cost while it waits.
Every other request is Django's WSGI handler on a pool of HOST_THREADS threads
(a2wsgi), as under a threaded WSGI server: an ordinary page costs what it costs
under WSGI (Django's ASGI handler would add a thread of its own to each, about
1 ms; benchmarks/phones.py), and never waits behind a stream.
"""

import os
from typing import Any, cast

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "marriage_site.settings")
pages_handler = get_wsgi_application()  # sets Django up

from a2wsgi import WSGIMiddleware  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.handlers.asgi import ASGIHandler  # noqa: E402

from scoring.web.push import hub  # noqa: E402

STREAM_SUFFIX = "/stream/"

pages = WSGIMiddleware(cast(Any, pages_handler), workers=settings.HOST_THREADS)
streams = ASGIHandler()


async def application(scope, receive, send):
    if scope["type"] == "http":
        if scope["path"].endswith(STREAM_SUFFIX):
            await streams(scope, receive, send)
        else:
            await pages(scope, receive, send)
    elif scope["type"] == "lifespan":
        await _lifespan(receive, send)
    else:  # a WebSocket: none is served
        await send({"type": "websocket.close", "code": 1000})


async def _lifespan(receive, send):
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            # The live channel listens before the first stream opens.
            await hub.ready(0)
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await hub.stop()
            await send({"type": "lifespan.shutdown.complete"})
            return
