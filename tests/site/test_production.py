"""Production serving: gunicorn with whitenoise, DEBUG off, static files collected
with content-hashed names, served compressed with far-future cache headers;
without DEBUG and a SECRET_KEY the app refuses to start."""

from __future__ import annotations

import json
import os
import re
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).with_name("gunicorn")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("production")
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL",)}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    env.update(
        DJANGO_SETTINGS_MODULE="marriage_site.settings",
        SECRET_KEY=secrets.token_urlsafe(50),
        DEBUG="0",
        ALLOWED_HOSTS="127.0.0.1",
        SQLITE_PATH=str(tmp / "db.sqlite3"),
    )
    static_root = tmp / "static"
    env["STATIC_ROOT"] = str(static_root)
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=120,
    )
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=120,
    )
    port = free_port()
    process = subprocess.Popen(
        [
            str(GUNICORN),
            "marriage_site.wsgi",
            *("--bind", f"127.0.0.1:{port}", "--workers", "1", "--no-control-socket"),
            *("--log-level", "warning"),
        ],
        cwd=ROOT,
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(base + "/accounts/login/", timeout=2).close()
                break
            except (urllib.error.URLError, ConnectionError):
                if time.monotonic() > deadline or process.poll() is not None:
                    raise AssertionError("gunicorn did not start") from None
                time.sleep(0.2)
        yield base, static_root
    finally:
        process.terminate()
        process.wait(timeout=20)


def get(url: str, **headers: str):
    return urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10)


def test_pages_reference_hashed_static_files_served_compressed_and_cached(server):
    base, static_root = server
    with get(base + "/accounts/login/") as page:
        assert page.status == 200
        body = page.read().decode()
        assert page.headers["Content-Security-Policy"].startswith("default-src 'self'")
        assert page.headers["X-Content-Type-Options"] == "nosniff"
        assert page.headers["X-Frame-Options"] == "DENY"
    css = re.search(r'href="(/static/css/app\.[0-9a-f]{12}\.css)"', body)
    assert css, "the stylesheet is not referenced by its hashed name"
    htmx = re.search(r'src="(/static/django_htmx/htmx-2\.min\.[0-9a-f]{12}\.js)"', body)
    assert htmx, "htmx is not served from /static/ by its hashed name"
    for encoding in ("br", "gzip"):
        with get(base + css.group(1), **{"Accept-Encoding": encoding}) as response:
            assert response.status == 200
            assert response.headers["Content-Encoding"] == encoding
            assert "immutable" in response.headers["Cache-Control"]
            assert "max-age=315360000" in response.headers["Cache-Control"]
    assert (static_root / "staticfiles.json").exists()


def test_debug_is_off_and_errors_are_plain(server):
    base, _static = server
    with pytest.raises(urllib.error.HTTPError) as missing:
        get(base + "/no-such-page/")
    assert missing.value.code == 404
    assert b"Traceback" not in missing.value.read()
    assert b"URLconf" not in missing.value.read()


def test_pages_go_out_gzipped_and_static_files_as_whitenoise_compressed_them(server):
    import gzip

    base, _static = server
    accept = {"Accept-Encoding": "gzip, br"}
    for path in ("/accounts/login/", "/sw.js", "/manifest.webmanifest"):
        with get(base + path, **accept) as response:
            assert response.headers["Content-Encoding"] == "gzip", path
            assert "Accept-Encoding" in response.headers["Vary"], path
            assert gzip.decompress(response.read()), path
    with get(base + "/accounts/login/") as plain:
        assert plain.headers["Content-Encoding"] is None
        body = plain.read().decode()
    # The stylesheet: whitenoise's own brotli file, not gzipped again on the way.
    css = re.search(r'href="(/static/css/app\.[0-9a-f]{12}\.css)"', body).group(1)
    with get(base + css, **accept) as response:
        assert response.headers["Content-Encoding"] == "br"
    # An image (the manifest's first icon): sent as it is, a PNG gains nothing.
    with get(base + "/manifest.webmanifest") as response:
        icon = json.loads(response.read())["icons"][0]["src"]
    with get(urllib.parse.urljoin(base, icon), **accept) as response:
        assert response.headers["Content-Encoding"] is None
        assert response.read().startswith(b"\x89PNG")


def _start(**env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DEBUG")}
    clean.pop("DJANGO_SETTINGS_MODULE", None)
    return subprocess.run(
        [sys.executable, "-c", "import marriage_site.wsgi"],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_without_debug_and_secret_key_the_app_refuses_to_start():
    refused = _start(DEBUG="0")
    assert refused.returncode != 0
    assert "SECRET_KEY is not set. With DEBUG off the app will not start" in refused.stderr
    assert _start(DEBUG="0", SECRET_KEY="s" * 50).returncode == 0
    assert _start(DEBUG="1").returncode == 0


def test_modules_import_each_other_by_hashed_names(server):
    """static/js's ES modules import each other by relative names, which
    collectstatic rewrites to the hashed ones (marriage_site/storage.py); the
    service worker imports the queue module by the name static() gives it."""
    base, static_root = server
    with get(base + "/accounts/login/") as page:
        body = page.read().decode()
    offline = re.search(r'<script type="module" src="(/static/js/offline\.[0-9a-f]{12}\.js)"', body)
    assert offline, "offline.js is not loaded as a module by its hashed name"
    with get(base + offline.group(1)) as response:
        imports = re.findall(r'^import .* from "(\./[^"]+)";$', response.read().decode(), re.M)
    # The queue, and what the phone knows of each session (known.js).
    assert len(imports) == 2 and re.fullmatch(r"\./offline-queue\.[0-9a-f]{12}\.js", imports[0])
    assert re.fullmatch(r"\./known\.[0-9a-f]{12}\.js", imports[1])
    with get(base + "/sw.js") as response:
        worker = re.findall(r'^import .* from "([^"]+)";$', response.read().decode(), re.M)
    assert worker == [urllib.parse.urljoin(offline.group(1), imports[0])]
    # The round form's preview: the engine's copy, the words, the queue, offline.js and
    # next-round.js, which follows the chain of rounds kept on the phone with the
    # engine's copy, the chain and the queue.
    imported = []
    for module, expected in (
        (
            "offline-preview",
            [
                "./breakdown-words.js",
                "./known.js",
                "./next-round.js",
                "./offline-queue.js",
                "./offline.js",
                "./settlement.js",
                "./slots.js",
            ],
        ),
        (
            "next-round",
            [
                "./known.js",
                "./offline-queue.js",
                "./session-chain.js",
                "./settlement.js",
                "./slots.js",
            ],
        ),
        # Save answered in place: the form's reading of its round, the queue, the
        # page's sender, the engine's rules, the markup's skeletons, the standings.
        (
            "round-save",
            [
                "./offline-preview.js",
                "./offline-queue.js",
                "./offline.js",
                "./settlement.js",
                "./slots.js",
                "./standings.js",
            ],
        ),
    ):
        (hashed,) = (static_root / "js").glob(f"{module}.*.js")  # the hashed copy
        found = re.findall(r'^import .* from "(\./[^"]+)";$', hashed.read_text(), re.M)
        names = sorted(re.sub(r"\.[0-9a-f]{12}\.js$", ".js", name) for name in found)
        assert names == expected, module
        imported += found
    for name in imported:
        assert re.search(r"\.[0-9a-f]{12}\.js$", name), name
        with get(urllib.parse.urljoin(base + "/static/js/", name)) as response:
            assert response.status == 200
            assert response.headers["Content-Type"].startswith("text/javascript")
