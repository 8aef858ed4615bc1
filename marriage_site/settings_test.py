"""Test settings: plain static storage (the manifest one 404s under live_server)."""

import os
import tempfile
from pathlib import Path

# The settings refuse to start without a SECRET_KEY when DEBUG is off; tests (and
# the commands they run in subprocesses, which inherit it) use a throwaway one.
os.environ.setdefault("SECRET_KEY", "test-only-" + "x" * 40)

from .settings import *  # noqa: F403
from .settings import CACHES, DATABASES, STORAGES

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file, not Django's default in-memory database: the concurrency tests need
    # separate connections in WAL mode with the busy timeout, as in production.
    # One file per test run (pid), so parallel runs never share it.
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"marriage-test-{os.getpid()}.sqlite3")
    }

STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# One process: its memory cache is shared by every request, so sessions and
# users are read from it as in production with REDIS_URL or CACHE_DIR. The tests
# run in process on it even when REDIS_URL is set (scripts/with-redis): those
# of Redis itself say so (tests/site/test_shared_state.py), and the two-host tests
# give it to their app servers (tests/site/test_two_hosts.py).
CACHES = {**CACHES, "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
LOGIN_FAILURE_STORE = "database"
SESSION_CACHED = True
AUTHENTICATION_BACKENDS = ["accounts.backends.CachedUserBackend"]

# The service worker shows a kept page when the network has not answered in 4 s
# (scoring/web/offline.py). A busy CI machine can be that slow, and a kept copy shown
# instead of the page a browser test waits for would fail it at random: the
# tests of the race set their own short waits.
OFFLINE_NAVIGATION_TIMEOUT_MS = 60_000
OFFLINE_SAVE_TIMEOUT_MS = 60_000
