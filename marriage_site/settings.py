"""Settings, read from the environment (see README.md for every variable)."""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: str) -> bool:
    return os.environ.get(name, default).strip().lower() in ("1", "true", "yes", "on")


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = envbool("DEBUG", "False")
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        # Signed cookies and password resets would be forgeable with a key anyone can read.
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. With DEBUG off the app will not start on a public "
            "development key: set SECRET_KEY to a long random value, e.g. the output of "
            "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`, or set DEBUG=1 "
            "to develop on your own machine."
        )
    SECRET_KEY = "django-insecure-dev-only-set-SECRET_KEY-in-production"
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "accounts",
    "scoring",
    "stats",
    "table",
    "groups",
    "callbreak",
    "pots",
    "localise",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages, the live partials, sw.js and the manifest, compressed when the
    # browser accepts gzip (static files come compressed from whitenoise above,
    # never through this). BREACH: the CSRF token in a page is masked afresh for
    # every answer, and Django's gzip adds random bytes to every compressed body.
    "scoring.web.middleware.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "scoring.web.middleware.private_when_logged_in",
    "scoring.web.offline.offline_headers",  # which pages the service worker keeps, and whose
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "scoring.web.middleware.Refusals",  # a database outage: 503; an unusable save_key: 400
]

ROOT_URLCONF = "marriage_site.urls"
WSGI_APPLICATION = "marriage_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.csp",
                # Other apps' parts of scoring's pages (scoring/plugins.py).
                "scoring.plugins.template_parts",
            ],
        },
    },
]

# SQLite by default, so one command runs the app anywhere; DATABASE_URL switches
# to PostgreSQL for a hosted deployment.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{os.environ.get('SQLITE_PATH', BASE_DIR / 'db.sqlite3')}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0")),
        # A kept connection that died (the database restarted) is dropped before
        # a request uses it, not answered as an error by each worker in turn.
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets the share page read while a round is being saved; the busy
    # timeout makes a second writer wait instead of failing at once.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ne", "नेपाली")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Django has no Nepali number formats; ours group in lakhs (1,00,000).
FORMAT_MODULE_PATH = ["marriage_site.formats"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Asia/Kathmandu")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # whitenoise's compressed, hashed files, with the JS modules' imports hashed too.
    "staticfiles": {"BACKEND": "marriage_site.storage.StaticFilesStorage"},
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# An upload over the session-file limit is stopped before it is stored (scoring/web/uploads.py).
FILE_UPLOAD_HANDLERS = [
    "scoring.web.uploads.SizeLimitUploadHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]

SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_SECURE = envbool("SECURE_COOKIES", "False")
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", "False")
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_SECONDS > 0
SECURE_HSTS_PRELOAD = SECURE_HSTS_SECONDS > 0
BEHIND_PROXY = envbool("BEHIND_PROXY", "False")
if BEHIND_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Only this site's own files run: htmx and the app's scripts are served from
# /static/, inline <script> needs the per-request nonce, and no inline styles
# (htmx's indicator styles are in app.css; see base.html's htmx-config).
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    # The service worker (/sw.js) and the web app manifest, from the site itself.
    "worker-src": [CSP.SELF],
    "manifest-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "object-src": [CSP.NONE],
}

# What every worker and every host must agree on, read on every request: the
# log-in sessions and users. With REDIS_URL (several hosts, or several workers)
# they are read through that Redis, which every host shares: the sessions
# (accounts/sessions.py) as rows of the database with a copy in Redis, the
# users by accounts.backends.CachedUserBackend. A log-out, a new password or a
# deactivation on one host marks the sessions it ends where every host looks
# (beside the copies in Redis, and by deleting their rows, which the hosts read
# while Redis does not answer), so it holds on every host at its next request.
# Without REDIS_URL, one host: CACHE_DIR is a file cache its gunicorn workers
# share (only then are sessions and users read from a cache), and without either
# the sessions are read from the database, each process keeping its own memory
# cache, which is right for one process only (runserver, the tests).
# Failed log-in counts are never in a cache other traffic could empty: in Redis
# with REDIS_URL, otherwise in the database (accounts/ratelimit.py).
# What is computed from a session, and warm pages, are kept in each process's
# memory under versions read from the database (scoring/selectors/versions.py),
# so every host agrees on them without sharing them.
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
CACHE_DIR = os.environ.get("CACHE_DIR", "").strip()
CACHE_KEY_PREFIX = os.environ.get("CACHE_KEY_PREFIX", "marriage")
CACHES: dict[str, dict[str, object]] = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    # Rendered warm pages (scoring/web/pagecache.py), keyed on the version of what
    # they show: a copy in each process's memory is never out of date.
    "pages": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "pages"},
}
LOGIN_FAILURE_STORE = "database"
# Every wait for Redis is bounded: a second to connect, a second for an answer,
# no retries (accounts/cache.py then leaves it alone for a few seconds).
REDIS_TIMEOUT_SECONDS = 1
if REDIS_URL:
    CACHES["default"] = {
        # Django's RedisCache, except that a failed read is a miss (accounts/cache.py).
        "BACKEND": "accounts.cache.SharedRedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": CACHE_KEY_PREFIX,
        "OPTIONS": {
            "socket_connect_timeout": REDIS_TIMEOUT_SECONDS,
            "socket_timeout": REDIS_TIMEOUT_SECONDS,
        },
    }
    LOGIN_FAILURE_STORE = "redis"
elif CACHE_DIR:
    CACHES["default"] = {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": CACHE_DIR,
        # A session or user pushed out is read from the database again; more
        # entries only make that rarer.
        "OPTIONS": {"MAX_ENTRIES": 10_000},
    }
SESSION_ENGINE = "accounts.sessions"
SESSION_CACHED = bool(REDIS_URL or CACHE_DIR)
if SESSION_CACHED:
    AUTHENTICATION_BACKENDS = ["accounts.backends.CachedUserBackend"]

# Pages that follow a session live hold a stream open (scoring/web/streams.py),
# told of each change by one channel (scoring/web/push.py): Redis with
# REDIS_URL, else PostgreSQL's LISTEN/NOTIFY, else (SQLite: one process, see
# scripts/host) this process alone. LIVE_STREAMS bounds the streams each
# process holds; one more is answered 503 and its page polls instead.
if REDIS_URL:
    LIVE_CHANNEL = "redis"
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    LIVE_CHANNEL = "postgres"
else:
    LIVE_CHANNEL = "local"
LIVE_STREAMS = int(os.environ.get("LIVE_STREAMS", "1000"))
# Threads each process serves ordinary requests on (marriage_site/asgi.py).
HOST_THREADS = int(os.environ.get("THREADS", "4"))

LOGIN_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
LOGIN_FAILURE_WINDOW = int(os.environ.get("LOGIN_FAILURE_WINDOW", "900"))  # seconds
# A seat link's sends (table/limits.py): at most this many in the window.
SEAT_SEND_LIMIT = int(os.environ.get("SEAT_SEND_LIMIT", "30"))
SEAT_SEND_WINDOW = int(os.environ.get("SEAT_SEND_WINDOW", "60"))  # seconds

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
