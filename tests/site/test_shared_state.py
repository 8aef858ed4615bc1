"""State every worker and host must share (marriage_site/settings.py): with
REDIS_URL the cache, the log-in sessions and users, and the failed log-in
counts live in Redis; without it the counts live in the database, where no
other traffic can push them out. Compressed answers (GZipMiddleware)."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache, caches
from django.test import Client
from django.urls import reverse

from accounts import ratelimit
from accounts.models import LoginFailures, LoginSession
from benchmarks.hosts import free_port

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "pw-didi-12345"
REDIS_URL = os.environ.get("REDIS_URL", "")
WORKED = {
    "Aama": ("seen", 3),
    "Buwa": ("unseen", 0),
    "Didi": ("seen", 10),
    "Dai": ("seen", 0),
}
needs_redis = pytest.mark.skipif(not REDIS_URL, reason="needs REDIS_URL (scripts/with-redis)")


def settings_under(**env: str) -> dict[str, object]:
    """Some of the production settings as a process started with `env` has them."""
    script = (
        "import json; from marriage_site import settings as s; print(json.dumps({"
        "'cache': s.CACHES['default'], 'pages': s.CACHES['pages']['BACKEND'], "
        "'sessions': getattr(s, 'SESSION_ENGINE', 'db'), 'cached': s.SESSION_CACHED, "
        "'backends': getattr(s, 'AUTHENTICATION_BACKENDS', None), "
        "'store': s.LOGIN_FAILURE_STORE, 'middleware': s.MIDDLEWARE}))"
    )
    base = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CACHE_DIR")}
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=base | {"SECRET_KEY": "x" * 50} | env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    import json

    return json.loads(result.stdout)


def test_with_redis_url_everything_shared_lives_in_redis():
    got = settings_under(REDIS_URL="redis://127.0.0.1:6399/2", CACHE_DIR="/tmp/ignored")
    assert got["cache"] == {
        "BACKEND": "accounts.cache.SharedRedisCache",
        "LOCATION": "redis://127.0.0.1:6399/2",
        "KEY_PREFIX": "marriage",
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }
    assert got["sessions"] == "accounts.sessions" and got["cached"] is True
    assert got["backends"] == ["accounts.backends.CachedUserBackend"]
    assert got["store"] == "redis"
    # Warm pages stay in each process: keyed on versions read from the database.
    assert got["pages"] == "django.core.cache.backends.locmem.LocMemCache"


def test_one_host_keeps_its_file_cache_and_counts_in_the_database():
    got = settings_under(CACHE_DIR="/tmp/marriage-cache")
    assert got["cache"]["BACKEND"] == "django.core.cache.backends.filebased.FileBasedCache"
    assert got["sessions"] == "accounts.sessions" and got["cached"] is True
    assert got["store"] == "database"
    alone = settings_under()
    assert alone["cache"]["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"
    # Each process's memory is no place for log-ins several workers share.
    assert alone["sessions"] == "accounts.sessions" and alone["cached"] is False
    assert alone["store"] == "database"


def test_gzip_comes_after_whitenoise():
    middleware = settings_under()["middleware"]
    gzip_at = middleware.index("scoring.web.middleware.GZipMiddleware")
    # Static files leave from whitenoise, already compressed, never through gzip.
    assert middleware.index("whitenoise.middleware.WhiteNoiseMiddleware") == gzip_at - 1


# --- failed log-in counts ----------------------------------------------------------


def login(client: Client, username: str, password: str, ip: str = "10.0.0.1"):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip
    )


@pytest.fixture
def didi(db):
    return get_user_model().objects.create_user("didi", password=PASSWORD)


def test_counts_survive_any_other_traffic_in_the_cache(didi):
    client = Client()
    for _attempt in range(5):
        assert login(client, "didi", "wrong").status_code == 422
    # Ordinary traffic fills the cache (and a file cache culls a third of it at
    # 300 entries): the counts are not in it.
    for n in range(1_000):
        cache.set(f"traffic-{n}", "x" * 100)
    cache.clear()
    assert login(client, "didi", PASSWORD).status_code == 429
    assert LoginFailures.objects.count() == 3  # username here, username anywhere, address


def test_one_username_guessed_from_many_addresses_is_limited(didi):
    for n in range(20):
        assert login(Client(), "didi", "wrong", ip=f"10.1.0.{n}").status_code == 422
    assert login(Client(), "didi", PASSWORD, ip="10.2.0.1").status_code == 429
    # Another username from those addresses is not held up.
    get_user_model().objects.create_user("buwa", password=PASSWORD)
    assert login(Client(), "buwa", PASSWORD, ip="10.1.0.1").status_code == 302


def test_a_window_is_whole_and_then_starts_again(didi, monkeypatch):
    now = [1_800_000_000.0]
    monkeypatch.setattr("accounts.ratelimit.time.time", lambda: now[0])
    client = Client()
    for _attempt in range(4):
        login(client, "didi", "wrong")
    now[0] += 899  # the fifth failure, just inside the window, does not extend it
    login(client, "didi", "wrong")
    assert login(client, "didi", PASSWORD).status_code == 429
    now[0] += 2
    assert login(client, "didi", "wrong").status_code == 422  # a new window: 1 failure
    assert login(client, "didi", PASSWORD).status_code == 302
    # Expired windows are deleted as new failures come.
    assert LoginFailures.objects.filter(until__lte=now[0]).count() == 0


@pytest.mark.django_db(transaction=True)
def test_database_counts_are_atomic_across_threads():
    from django.db import connection

    keys = [("login-failures:race", 10_000)]

    def fail_ten_times() -> None:
        for _ in range(10):
            ratelimit.record_failure(keys)
        connection.close()  # this thread's own

    threads = [threading.Thread(target=fail_ten_times) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert LoginFailures.objects.get(key="login-failures:race").count == 40


@pytest.fixture
def redis_counts(settings):
    settings.CACHES = {
        **settings.CACHES,
        "default": {
            "BACKEND": "accounts.cache.SharedRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "marriage-test",
        },
    }
    settings.LOGIN_FAILURE_STORE = "redis"
    caches["default"].clear()
    yield caches["default"]
    caches["default"].clear()


@needs_redis
def test_redis_counts_lock_and_survive_other_traffic(didi, redis_counts):
    client = Client()
    for _attempt in range(5):
        assert login(client, "didi", "wrong").status_code == 422
    for n in range(1_000):
        redis_counts.set(f"traffic-{n}", "x" * 100)
    response = login(client, "didi", PASSWORD)
    assert response.status_code == 429
    assert "Try again in 15 minutes." in response.content.decode()
    assert not LoginFailures.objects.exists()  # in Redis, not the database
    assert login(Client(), "didi", PASSWORD, ip="10.0.0.2").status_code == 302


@needs_redis
def test_redis_counts_are_atomic_and_expire(redis_counts):
    key = "login-failures:race"
    keys = [(key, 10_000)]
    threads = [
        threading.Thread(target=lambda: [ratelimit.record_failure(keys) for _ in range(25)])
        for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    full = redis_counts.make_and_validate_key(key)
    client = redis_counts._cache.get_client(full)
    assert int(client.get(full)) == 100
    assert 0 < client.ttl(full) <= 900  # the window from the first failure
    # The next attempt is the 101st: past a limit of 100, within one of 101.
    assert ratelimit.count_attempt([(key, 100)]) in range(899, 901)
    assert ratelimit.count_attempt([(key, 102)]) == 0


# --- compressed answers ------------------------------------------------------------


def gzipped(response) -> str:
    assert response["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response["Vary"]
    return gzip.decompress(response.content).decode()


@pytest.mark.django_db
def test_pages_partials_the_worker_and_the_manifest_go_out_gzipped(logged_in, session, client):
    from scoring import services
    from tests.web_helpers import worked_round

    services.add_round(session=session, round_input=worked_round())
    token = services.create_share_link(session=session)
    gz = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}
    round_form = logged_in.get(reverse("round_new", args=[session.pk]), **gz)
    html = gzipped(round_form)
    assert 'name="save_key"' in html and len(round_form.content) < len(html) / 3
    live = Client().get(reverse("share_live", args=[token]), **gz)
    assert "Didi" in gzipped(live)
    # The next poll: a bare 304 for the validator the page holds, compressed or not.
    etag = live["ETag"]
    assert etag.startswith('W/"')  # weakened, as a compressed body must be
    again = Client().get(
        reverse("share_live", args=[token]), HTTP_IF_NONE_MATCH=etag.removeprefix("W/"), **gz
    )
    assert again.status_code == 304
    assert 'addEventListener("fetch"' in gzipped(Client().get(reverse("service_worker"), **gz))
    assert '"start_url"' in gzipped(Client().get(reverse("web_manifest"), **gz))
    # Without Accept-Encoding, plain.
    assert "Content-Encoding" not in Client().get(reverse("web_manifest"))


@pytest.mark.django_db
def test_each_compressed_page_carries_its_own_masked_csrf_token(logged_in, session):
    # BREACH: the secret behind the token never appears twice the same way.
    gz = {"HTTP_ACCEPT_ENCODING": "gzip"}
    url = reverse("round_new", args=[session.pk])
    tokens = set()
    for _ in range(3):
        html = gzipped(logged_in.get(url, **gz))
        start = html.index('name="csrfmiddlewaretoken" value="') + 34
        tokens.add(html[start : start + 64])
    assert len(tokens) == 3


@pytest.mark.django_db
def test_while_redis_is_away_pages_are_read_from_the_database(owner, session, settings, caplog):
    from tests.web_helpers import round_data

    client = Client()
    client.force_login(owner)  # signed in while Redis answered
    port = free_port()  # now nothing listens there
    settings.CACHES = {
        **settings.CACHES,
        "default": {
            "BACKEND": "accounts.cache.SharedRedisCache",
            "LOCATION": f"redis://127.0.0.1:{port}/0",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        },
    }
    page = reverse("session_detail", args=[session.pk])
    assert client.get(page).status_code == 200
    saved = client.post(
        reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi")
    )
    assert saved.status_code == 302
    assert "Round 1 saved." in client.get(page).content.decode()
    assert "Redis read failed, read from the database instead" in caplog.text
    # A log-out cannot reach the other hosts' copies: refused, not half done, and
    # said as an outage (503, try again), never a traceback.
    refused = client.post(reverse("logout"))
    assert refused.status_code == 503 and refused["Retry-After"] == "5"
    # Ended all the same where the hosts read it meanwhile (the database): the
    # cookie, kept by the phone, opens nothing; and trying again, it is still
    # not said to be done while the mark every host reads cannot be written.
    again = client.post(reverse("logout"))
    assert again.status_code == 503
    assert client.get(page).status_code == 302
    assert client.get(reverse("login")).status_code == 200
    # Kept marked ended in the database until its mark is written in Redis.
    assert LoginSession.objects.filter(user_id=owner.pk, ended=True).count() == 1


def test_the_deploy_check_says_nothing_without_redis(settings):
    from accounts.checks import check_redis_keeps_the_counts

    settings.REDIS_URL = ""
    assert check_redis_keeps_the_counts(None) == []


def test_the_deploy_check_says_nothing_of_a_redis_it_cannot_ask(settings):
    from accounts.checks import check_redis_keeps_the_counts

    # Not started yet when the check runs, say: the docs are all there is then.
    settings.REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    assert check_redis_keeps_the_counts(None) == []


@needs_redis
def test_the_deploy_check_warns_of_a_redis_that_evicts(settings):
    import redis

    from accounts.checks import check_redis_keeps_the_counts

    settings.REDIS_URL = REDIS_URL
    assert check_redis_keeps_the_counts(None) == []  # scripts/with-redis: noeviction
    client = redis.Redis.from_url(REDIS_URL)
    client.config_set("maxmemory-policy", "allkeys-lru")
    client.config_set("maxmemory", "100mb")
    try:
        [warning] = check_redis_keeps_the_counts(None)
    finally:
        client.config_set("maxmemory-policy", "noeviction")
        client.config_set("maxmemory", "0")
    assert warning.id == "accounts.W001"
    assert warning.msg == (
        "Redis may evict keys (maxmemory-policy allkeys-lru, maxmemory 104857600): "
        "the failed log-in counts could be pushed out by other keys."
    )
