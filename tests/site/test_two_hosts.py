"""Two app hosts on one PostgreSQL and one Redis, as an operator runs them
(docs/hosting.md): two hosts started by scripts/host, each with its own
CACHE_DIR (as two machines have), the same DATABASE_URL and REDIS_URL. What
one host does holds on the other at its very next request: a log-out, a
deactivation, a new password, the failed log-in count, a saved round on every
page and in the live updates, which the other host's streams push at once;
and the soak runs across both with nothing lost, nothing saved twice and no
500.

Run by `make test` under scripts/with-postgres and scripts/with-redis:

    scripts/with-postgres scripts/with-redis .venv/bin/pytest -m twohost
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from http.cookies import SimpleCookie
from pathlib import Path

import pytest

from benchmarks.hosts import free_port, start_host, stop, wait_until_up

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "pw-tara-12345"
PLAYERS = ("Aama", "Buwa", "Didi", "Dai")

pytestmark = [
    pytest.mark.twohost,
    pytest.mark.skipif(
        not os.environ.get("REDIS_URL")
        or not os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="needs PostgreSQL and Redis: scripts/with-postgres scripts/with-redis",
    ),
]


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


OPENER = urllib.request.build_opener(NoRedirect)


class Answer:
    def __init__(self, status: int, headers, body: bytes) -> None:
        self.status, self.headers, self.text = status, headers, body.decode(errors="replace")

    @property
    def location(self) -> str:
        return self.headers.get("Location", "")


class Phone:
    """A browser: its own cookies, sent to whichever host it asks."""

    def __init__(self) -> None:
        self.cookies: dict[str, str] = {}

    def request(self, base: str, path: str, data=None, **headers: str) -> Answer:
        if data is not None and "csrftoken" not in self.cookies:
            self.request(base, "/accounts/login/")  # for its CSRF cookie
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()), **headers}
        body = None
        if data is not None:
            body = urllib.parse.urlencode(data).encode()
            headers["X-CSRFToken"] = self.cookies["csrftoken"]
        request = urllib.request.Request(base + path, data=body, headers=headers)
        try:
            with OPENER.open(request, timeout=60) as response:
                answer = Answer(response.status, response.headers, response.read())
        except urllib.error.HTTPError as error:
            answer = Answer(error.code, error.headers, error.read())
        for header in answer.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                if morsel["max-age"] == "0" or not morsel.value:
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value
        return answer

    def log_in(self, base: str, username: str, password: str) -> Answer:
        return self.request(base, "/accounts/login/", {"username": username, "password": password})

    def signed_in(self, base: str) -> bool:
        """Whether `base` answers this phone as signed in (the history is theirs alone)."""
        answer = self.request(base, "/history/")
        assert answer.status in (200, 302), answer.status
        return answer.status == 200


class Hosts:
    def __init__(self, a: str, b: str, env_a: dict[str, str]) -> None:
        self.a, self.b, self.env_a = a, b, env_a

    def on_a(self, code: str) -> str:
        """Python run on host A (Django set up as its app server is): what it prints."""
        result = subprocess.run(
            [sys.executable, "manage.py", "shell", "-v", "0", "-c", code],
            cwd=ROOT,
            env=self.env_a,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, result.stderr
        return result.stdout


@pytest.fixture(scope="module")
def database_url():
    """A database of its own on the cluster in DATABASE_URL, dropped afterwards."""
    import psycopg

    url = os.environ["DATABASE_URL"]
    name = f"twohost_{secrets.token_hex(4)}"
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urllib.parse.urlunsplit(urllib.parse.urlsplit(url)._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(url, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


def host_env(database_url: str, tmp: Path, name: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(
        DJANGO_SETTINGS_MODULE="tests.twohost_settings",
        SECRET_KEY="two-hosts-one-secret-" + "k" * 40,  # every host signs with the same key
        DEBUG="0",
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=database_url,
        CONN_MAX_AGE="60",
        CACHE_DIR=str(tmp / f"cache-{name}"),  # each machine its own: REDIS_URL wins
        STATIC_ROOT=str(tmp / "static"),
        LOG_LEVEL="ERROR",
    )
    return env


@pytest.fixture(scope="module")
def hosts(database_url, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("two-hosts")
    (tmp / "static").mkdir()
    env_a, env_b = host_env(database_url, tmp, "a"), host_env(database_url, tmp, "b")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT,
        env=env_a,
        check=True,
        timeout=300,
    )
    servers, bases = [], []
    try:
        for env in (env_a, env_b):
            port = free_port()
            servers.append(start_host(port, env, workers=2))
            bases.append(f"http://127.0.0.1:{port}")
        for base, server in zip(bases, servers, strict=True):
            wait_until_up(base + "/accounts/login/", server)
        yield Hosts(bases[0], bases[1], env_a)
    finally:
        for server in servers:
            stop(server)


@pytest.fixture
def user(hosts) -> str:
    """A new user, signed up on host A."""
    name = f"tara{secrets.token_hex(3)}"
    phone = Phone()
    answer = phone.request(
        hosts.a,
        "/accounts/signup/",
        {"username": name, "password1": PASSWORD, "password2": PASSWORD},
    )
    assert answer.status == 302, answer.text[:2000]
    return name


def signed_in_on_both(hosts: Hosts, username: str) -> Phone:
    phone = Phone()
    assert phone.log_in(hosts.a, username, PASSWORD).status == 302
    # Both hosts have read (and would have kept) the log-in and the user.
    for _ in range(2):
        assert phone.signed_in(hosts.a) and phone.signed_in(hosts.b)
    return phone


def test_a_log_out_on_a_is_a_log_out_on_b_at_once(hosts, user):
    phone = signed_in_on_both(hosts, user)
    cookie = dict(phone.cookies)
    assert phone.request(hosts.a, "/accounts/logout/", {}).status == 302
    stale = Phone()
    stale.cookies = cookie  # the same cookie, sent to host B
    assert not stale.signed_in(hosts.b)
    assert not stale.signed_in(hosts.a)


def test_a_deactivation_on_a_holds_on_b_at_once(hosts, user):
    phone = signed_in_on_both(hosts, user)
    hosts.on_a(
        "from django.contrib.auth import get_user_model; "
        f"u = get_user_model().objects.get(username={user!r}); u.is_active = False; u.save()"
    )
    assert not phone.signed_in(hosts.b)
    assert Phone().log_in(hosts.b, user, PASSWORD).status == 422  # refused


def test_a_new_password_on_a_ends_the_log_in_on_b_at_once(hosts, user):
    hosts.on_a(
        "from django.contrib.auth import get_user_model; "
        f"u = get_user_model().objects.get(username={user!r}); u.is_staff = True; u.save()"
    )
    here = signed_in_on_both(hosts, user)  # the phone that changes it, on A
    there = signed_in_on_both(hosts, user)  # another log-in, read on B
    new = "a-new-secret-789"
    answer = here.request(
        hosts.a,
        "/admin/password_change/",
        {"old_password": PASSWORD, "new_password1": new, "new_password2": new},
    )
    assert answer.status == 302 and answer.location.endswith("/admin/password_change/done/")
    assert here.signed_in(hosts.a) and here.signed_in(hosts.b)  # kept by the change
    assert not there.signed_in(hosts.b)
    assert Phone().log_in(hosts.b, user, PASSWORD).status == 422
    assert Phone().log_in(hosts.b, user, new).status == 302


def test_failed_log_ins_count_across_both_hosts(hosts, user):
    phone = Phone()
    answers = [phone.log_in(base, user, "wrong").status for base in [hosts.a] * 3 + [hosts.b] * 3]
    # Five failures, three on A and two on B: the sixth guess is refused unread.
    assert answers == [422, 422, 422, 422, 422, 429]
    for base in (hosts.a, hosts.b):
        answer = Phone().log_in(base, user, PASSWORD)
        assert answer.status == 429
        assert "Too many failed log-in attempts. Try again in 15 minutes." in answer.text


def round_post(ids: dict[str, int], save_key: str) -> dict[str, str]:
    maal = {"Aama": 4, "Buwa": 2, "Didi": 7, "Dai": 0}
    data = {"win_type": "normal", "winner": str(ids["Didi"]), "save_key": save_key}
    for name, pid in ids.items():
        data |= {
            f"p-{pid}-plays": "on",
            f"p-{pid}-status": "seen",
            f"p-{pid}-maal": str(maal[name]),
            f"p-{pid}-tunnel": "0",
        }
    return data


def test_a_save_on_one_host_shows_on_the_others_pages_at_once(hosts, user):
    made = hosts.on_a(
        "import json; from django.contrib.auth import get_user_model; "
        "from scoring import services; from scoring.models import GameSession, Player; "
        f"owner = get_user_model().objects.get(username={user!r}); "
        "s = GameSession.objects.create(owner=owner, name='Two hosts'); "
        "[Player.objects.create(session=s, name=n, position=i) "
        f"for i, n in enumerate({PLAYERS!r})]; "
        "token = services.create_share_link(session=s); "
        "print(json.dumps({'id': s.pk, 'token': token, "
        "'ids': {p.name: p.pk for p in s.players.all()}}))"
    )
    session = json.loads(made)
    phone = signed_in_on_both(hosts, user)
    viewer = Phone()  # a phone at the table following the share link, on host B
    base = f"/sessions/{session['id']}/"
    pages = [base, f"{base}settle/", "/", "/history/", "/leaderboard/"]
    live = f"/s/{session['token']}/live/"
    before = {}
    for _ in range(2):  # read twice: B keeps each page as it is now
        before = {path: phone.request(hosts.b, path) for path in pages}
        shown = viewer.request(hosts.b, live)
    assert all(answer.status == 200 for answer in before.values())
    assert "Round 2 ·" not in before[base].text  # the next round to deal
    etag = shown.headers["ETag"].removeprefix("W/")
    assert viewer.request(hosts.b, live, **{"If-None-Match": etag}).status == 304

    saved = phone.request(hosts.a, f"{base}rounds/new/", round_post(session["ids"], "k" * 32))
    assert saved.status == 302, saved.text[:2000]

    after = {path: phone.request(hosts.b, path) for path in pages}
    for path in pages:
        assert after[path].status == 200
        assert after[path].text != before[path].text, path
    assert "Round 2 ·" in after[base].text
    assert "1 round found" in after["/history/"].text
    # The live update: the poll with the old validator now gets the new standings.
    polled = viewer.request(hosts.b, live, **{"If-None-Match": etag})
    assert polled.status == 200 and polled.text != shown.text


class Stream:
    """A page's stream (server-sent events), read as a browser reads it."""

    def __init__(self, base: str, path: str) -> None:
        host, port = urllib.parse.urlsplit(base).netloc.split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=30)
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        self.buffer = b""
        head = self._until(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200"), head
        assert b"content-type: text/event-stream" in head.lower(), head

    def _until(self, end: bytes) -> bytes:
        while end not in self.buffer:
            data = self.sock.recv(65536)
            assert data, "the stream ended"
            self.buffer += data
        found, _end, self.buffer = self.buffer.partition(end)
        return found

    def event(self) -> tuple[str, str]:
        """The next event but beats: (its name, its data)."""
        while True:
            found = re.search(rb"event: (\w+)\ndata: ([^\n]*)\n\n", self.buffer)
            if found:
                self.buffer = self.buffer[found.end() :]
                if found[1] != b"beat":
                    return found[1].decode(), found[2].decode()
                continue
            data = self.sock.recv(65536)
            assert data, "the stream ended"
            self.buffer += data

    def close(self) -> None:
        self.sock.close()


def test_a_save_on_one_host_is_pushed_to_the_streams_on_the_other(hosts, user):
    made = hosts.on_a(
        "import json; from django.contrib.auth import get_user_model; "
        "from scoring import services; from scoring.models import GameSession, Player; "
        "from table.services import make_seats; "
        f"owner = get_user_model().objects.get(username={user!r}); "
        "s = GameSession.objects.create(owner=owner, name='Pushed'); "
        "[Player.objects.create(session=s, name=n, position=i) "
        f"for i, n in enumerate({PLAYERS!r})]; "
        "token = services.create_share_link(session=s); "
        "print(json.dumps({'id': s.pk, 'token': token, 'seat': make_seats(session=s)[0].token, "
        "'ids': {p.name: p.pk for p in s.players.all()}}))"
    )
    session = json.loads(made)
    phone = signed_in_on_both(hosts, user)
    seat = Stream(hosts.b, f"/t/{session['seat']}/stream/")
    share = Stream(hosts.b, f"/s/{session['token']}/stream/")
    try:
        name, first = seat.event()
        assert name == "version"
        assert share.event()[0] == "version"
        base = f"/sessions/{session['id']}/"
        saved = phone.request(hosts.a, f"{base}rounds/new/", round_post(session["ids"], "p" * 32))
        assert saved.status == 302, saved.text[:2000]
        name, now = seat.event()
        assert name == "version" and now != first
        # What the stream said is what the seat's poll on host B answers with.
        seat_live = f"/t/{session['seat']}/live/"
        polled = Phone().request(hosts.b, seat_live, **{"If-None-Match": f'"{now}"'})
        assert polled.status == 304
        assert share.event()[0] == "version"
        # The owner turns the seat link off on host A: its stream on B ends.
        hosts.on_a(
            "from table.models import Seat; from table.services import revoke_seat; "
            f"revoke_seat(seat=Seat.objects.get(token={session['seat']!r}))"
        )
        assert seat.event() == ("gone", "")
    finally:
        seat.close()
        share.close()


def test_the_soak_runs_across_both_hosts(database_url, hosts):
    result = subprocess.run(
        [
            sys.executable,
            "benchmarks/soak.py",
            *("--hosts", "2", "--phones", "4", "--seconds", "8", "--workers", "2"),
            *("--postgres", "--redis", "--settings", "tests.twohost_settings"),
        ],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": database_url},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "2 hosts" in out
    for line in ("lost (acknowledged, gone)  0", "duplicates                 0", "500s    "):
        assert line in out, out
    assert re.search(r"500s\s+0\n", out) and re.search(r"saves acknowledged\s+[1-9]", out), out


# --- a Redis that pauses, races, floods and hostile input (issue 31) --------------------------


@contextlib.contextmanager
def redis_paused():
    """The shared Redis stopped (SIGSTOP), as a blip or a pause of its machine
    holds it: connections stay open and every command waits; resumed after the
    block, and in any case within a minute."""
    pid = int(Path(os.environ["REDIS_PIDFILE"]).read_text().strip())
    os.kill(pid, signal.SIGSTOP)
    guard = threading.Timer(60, os.kill, (pid, signal.SIGCONT))
    guard.start()
    try:
        yield
    finally:
        os.kill(pid, signal.SIGCONT)
        guard.cancel()


def redis_has(key: str) -> bool:
    import redis

    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    try:
        return bool(client.exists(f"marriage:1:{key}"))
    finally:
        client.close()


def test_a_log_out_during_a_redis_pause_holds_on_both_hosts(hosts, user):
    phone = signed_in_on_both(hosts, user)
    old = Phone()
    old.cookies = dict(phone.cookies)  # the same cookie, kept elsewhere
    key = phone.cookies["sessionid"]
    assert redis_has(f"login-session:{key}")  # both hosts read it from Redis
    with redis_paused():
        started = time.monotonic()
        assert old.signed_in(hosts.b)  # read from the database meanwhile
        first = phone.request(hosts.a, "/accounts/logout/", {})
        again = phone.request(hosts.b, "/accounts/logout/", {})
        waited = time.monotonic() - started
        # Not done, and said so (503, try again); signed out meanwhile on both.
        assert (first.status, again.status) == (503, 503)
        assert first.headers["Retry-After"] == "5"
        assert not old.signed_in(hosts.a) and not old.signed_in(hosts.b)
    # Each request waited at most about a second for Redis.
    assert waited < 8, waited
    # Resumed: the mark every host reads was written, and the old cookie,
    # whose copy is still in Redis, opens nothing on either host.
    deadline = time.monotonic() + 30
    while not redis_has(f"login-session-ended:{key}") and time.monotonic() < deadline:
        old.signed_in(hosts.a)  # a request lets a host write a mark it could not
    assert redis_has(f"login-session-ended:{key}")
    for _ in range(4):  # every worker of both hosts, Redis read again
        assert not old.signed_in(hosts.a) and not old.signed_in(hosts.b)
    assert phone.request(hosts.a, "/accounts/logout/", {}).status == 302  # done now
    assert Phone().log_in(hosts.b, user, PASSWORD).status == 302


def test_a_page_waits_about_a_second_for_a_paused_redis(hosts, user):
    phone = signed_in_on_both(hosts, user)
    with redis_paused():
        waits = []
        for base in (hosts.a, hosts.b, hosts.a, hosts.b):
            started = time.monotonic()
            assert phone.signed_in(base)
            waits.append(time.monotonic() - started)
    # A second for the first request a process sends to Redis, then none while
    # it leaves Redis alone (accounts/cache.py); never the 8 s of four waits.
    assert max(waits) < 3, waits


@pytest.fixture
def forget_failures():
    """The failed log-ins a test makes forgotten after it: thirty from this
    address would hold up every later log-in from it (20 an address)."""
    yield
    import redis

    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    try:
        for key in client.scan_iter("marriage:1:login-failures:*"):
            client.delete(key)
    finally:
        client.close()


def test_thirty_wrong_log_ins_at_once_across_hosts_check_at_most_the_limit(
    hosts, user, forget_failures
):
    phones = [Phone() for _ in range(30)]
    for phone in phones:
        phone.request(hosts.a, "/accounts/login/")  # its CSRF cookie
    start = threading.Barrier(len(phones))

    def guess(n: int) -> int:
        start.wait()
        base = hosts.a if n % 2 else hosts.b
        return phones[n].log_in(base, user, f"wrong-{n}").status

    with concurrent.futures.ThreadPoolExecutor(len(phones)) as pool:
        answers = list(pool.map(guess, range(len(phones))))
    assert sorted(set(answers)) == [422, 429], answers
    assert answers.count(422) <= 5  # LOGIN_FAILURE_LIMIT: checked against the password
    assert Phone().log_in(hosts.b, user, PASSWORD).status == 429


def make_evening(hosts: Hosts, user: str) -> dict:
    """A session of four, an evening of a group, made on host A."""
    made = hosts.on_a(
        "import json; from django.contrib.auth import get_user_model; "
        "from scoring.models import GameSession, Player; from groups import services as g; "
        f"owner = get_user_model().objects.get(username={user!r}); "
        "s = GameSession.objects.create(owner=owner, name='Racing'); "
        "[Player.objects.create(session=s, name=n, position=i) "
        f"for i, n in enumerate({PLAYERS!r})]; "
        f"group = g.create_group(owner=owner, name='Family', currency='NPR', members=[]); "
        "g.add_evening(group=group, session=s); "
        "from table import services as t; seats = t.make_seats(session=s); "
        "print(json.dumps({'id': s.pk, 'group': group.pk, "
        "'ids': {p.name: p.pk for p in s.players.all()}, "
        "'members': {m.name: m.pk for m in group.members.all()}, "
        "'seat': seats[0].token}))"
    )
    return json.loads(made)


def test_saves_racing_renames_on_the_other_host_answer_no_5xx(hosts, user):
    evening = make_evening(hosts, user)
    saver, renamer = signed_in_on_both(hosts, user), signed_in_on_both(hosts, user)
    base = f"/sessions/{evening['id']}/"
    group = f"/groups/{evening['group']}/"
    ids, members = evening["ids"], evening["members"]
    end = time.monotonic() + 12
    acknowledged: list[int] = []
    answers: list[tuple[str, int]] = []

    def save_rounds() -> None:
        n = 0
        while time.monotonic() < end:
            n += 1
            maal = 100 + n  # tells the rounds apart
            data = round_post(ids, f"race-{n:04d}-{secrets.token_hex(6)}")
            data[f"p-{ids['Aama']}-maal"] = str(maal)
            answer = saver.request(hosts.a, f"{base}rounds/new/", data)
            if answer.status == 0:
                continue
            answers.append(("save", answer.status))
            if answer.status == 302:
                acknowledged.append(maal)
            amount = {"payer": members["Aama"], "payee": members["Buwa"], "amount": "1"}
            paid = saver.request(
                hosts.a,
                f"{group}payments/new/",
                amount | {"paid_on": "2026-10-03", "method": "cash"},
            )
            answers.append(("payment", paid.status))

    def rename() -> None:
        n = 0
        while time.monotonic() < end:
            n += 1
            name = ("Didi", "Didiji")[n % 2]
            player = renamer.request(hosts.b, f"{base}players/{ids['Didi']}/edit/", {"name": name})
            answers.append(("rename player", player.status))
            member = renamer.request(
                hosts.b, f"{group}members/{members['Dai']}/", {"name": ("Dai", "Daju")[n % 2]}
            )
            answers.append(("rename member", member.status))

    threads = [threading.Thread(target=save_rounds), threading.Thread(target=rename)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    errors = [(what, status) for what, status in answers if status >= 500]
    assert not errors, errors
    assert {status for _what, status in answers} <= {302, 422}, answers
    assert len(acknowledged) > 5 and any(w == "rename member" for w, _s in answers)
    stored = hosts.on_a(
        "import json; from scoring.models import RoundEntry; "
        f"print(json.dumps(list(RoundEntry.objects.filter(round__session_id={evening['id']}, "
        f"player_id={ids['Aama']}).values_list('maal', flat=True))))"
    )
    kept = json.loads(stored)
    # Every acknowledged round is saved, once.
    assert sorted(kept) == sorted(acknowledged)


def test_a_hundred_and_fifty_sends_from_one_seat_meet_a_429(hosts, user):
    evening = make_evening(hosts, user)
    seat = Phone()
    url = f"/t/{evening['seat']}/"
    seat.request(hosts.a, url)
    pid = evening["ids"]["Aama"]
    answers = []
    for n in range(150):
        base = hosts.a if n % 2 else hosts.b  # counted across both hosts
        answer = seat.request(
            base, url, {"position": "1", f"p-{pid}-maal": str(n % 10)}, **{"X-Seat-Send": "1"}
        )
        answers.append(answer.status)
        if answer.status == 429:
            assert int(answer.headers["Retry-After"]) in range(1, 61)
            assert "Too many sends from this seat" in answer.text
    assert answers[:30] == [200] * 30
    assert set(answers[30:]) == {429}


@pytest.mark.parametrize(
    "path",
    [
        "/t/%00/",
        "/t/%00/live/",
        "/t/%00/stream/",
        "/join/%00/",
        "/s/%00/",
        "/s/%00/stream/",
        "/m/%00/",
        "/m/%00/live/",
        "/t/%C2%B2/",
        "/m/%C2%B2/",
    ],
)
def test_hostile_tokens_answer_404_on_both_hosts(hosts, user, path):
    phone = signed_in_on_both(hosts, user)
    for base in (hosts.a, hosts.b):
        assert phone.request(base, path).status == 404
        assert phone.request(base, path, {}).status in (403, 404, 405)


def test_hostile_numbers_answer_4xx_on_both_hosts(hosts, user):
    evening = make_evening(hosts, user)
    phone = signed_in_on_both(hosts, user)
    seat = f"/t/{evening['seat']}/"
    pid = evening["ids"]["Aama"]
    for base in (hosts.a, hosts.b):
        for data in (
            {"position": "²", f"p-{pid}-maal": "3"},
            {"position": "1", f"p-{pid}-maal": "²"},
            {"position": "1", f"p-{pid}-maal": "9" * 5000},
        ):
            assert Phone().request(base, seat, data).status == 422
        feed = f"/sessions/{evening['id']}/seats/feed/?position=%C2%B2"
        assert phone.request(base, feed).status == 404
