#!/usr/bin/env python
"""A table of phones watching a session (issues 21 and 29), against app hosts
on 127.0.0.1 started by scripts/host as benchmarks/run.py's part 2; printed by
run.py after it, or alone:

    .venv/bin/python benchmarks/phones.py [--seconds 10] [--saves 20] [--push-only]
    scripts/with-postgres scripts/with-redis .venv/bin/python benchmarks/phones.py \
        --postgres --two-hosts

1. Polling, what a page does without its stream (table_of_phones): a phone
   follows a session as follow.js does with no stream (a conditional request
   every POLL_SECONDS, and on a change the page again) while rounds are saved
   at random moments; and the scorer's open round form follows the seats'
   counts (seat-feed.js). Median and 95th percentile from each commit to the
   phone having it, over --saves changes; then the host's CPU for 10 and 50
   idle phones polling an unchanged session (304), beside the trivial view.
2. Push (table_of_streams): three seat pages each keep their stream and fetch
   the page again when it says so, while the scorer's phone saves rounds
   through the host: from each save's answer to each page in hand. Then the
   host's CPU for 10, 50 and 500 idle open streams beside as many phones
   polling and on the trivial view, memory per stream, and the seat page's
   and trivial view's times as idle streams pile up (capacity).
3. --two-hosts: the same save → seat page with the saves on host A and the
   seat pages on host B (one PostgreSQL; the channel is Redis with
   REDIS_URL, else PostgreSQL's LISTEN/NOTIFY).

The figures and what they decided: docs/benchmarks.md, docs/lan.md.

4. The round at the speed of the phone (throttled_phone, below): Save →
   standings painted and Save → next form usable on a throttled phone, beside
   a trivial page and the form posted without scripts; the taps per round.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import os
import random
import re
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import cast

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.hosts import free_port, start_host, stop, wait_until_up  # noqa: E402

PHONE_COUNTS = (10, 50)


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(entry.name))
    return found


def cpu_seconds(pid: int) -> float:
    """User and system CPU of the host's gunicorn master and workers so far."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for process in (pid, *_children(pid)):
        try:
            fields = Path(f"/proc/{process}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def start_server(env: dict[str, str], workers: int | None) -> tuple[subprocess.Popen, int]:
    port = free_port()
    server = start_host(port, {**os.environ, **env}, workers=workers)
    wait_until_up(f"http://127.0.0.1:{port}/bench/trivial/", server)
    return server, port


class Phone(threading.Thread):
    """One phone: a kept connection, a request every `every` seconds from a
    random phase, with the ETag of the last answer (If-None-Match)."""

    def __init__(self, port: int, path: str, every: float, until: float, headers=None):
        super().__init__(daemon=True)
        self.port, self.path, self.every, self.until = port, path, every, until
        self.headers = dict(headers or {})
        self.statuses: list[int] = []

    def run(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        tick = time.monotonic() + random.random() * self.every
        etag = ""
        while tick < self.until:
            time.sleep(max(0.0, tick - time.monotonic()))
            headers = dict(self.headers)
            if etag:
                headers["If-None-Match"] = etag
            connection.request("GET", self.path, headers=headers)
            response = connection.getresponse()
            response.read()
            etag = response.getheader("ETag") or etag
            self.statuses.append(response.status)
            tick += self.every
        connection.close()


def idle_cost(
    pid: int, port: int, path: str, phones: int, every: float, seconds: int, headers=None
):
    """(requests/s, server CPU % of one core, statuses seen) for `phones` polling `path`."""
    until = time.monotonic() + seconds
    crowd = [Phone(port, path, every, until, headers) for _ in range(phones)]
    before, start = cpu_seconds(pid), time.monotonic()
    for phone in crowd:
        phone.start()
    for phone in crowd:
        phone.join()
    wall = time.monotonic() - start
    used = cpu_seconds(pid) - before
    count = sum(len(p.statuses) for p in crowd)
    statuses = sorted({s for p in crowd for s in p.statuses})
    return count / wall, 100 * used / wall, statuses


class Follower(threading.Thread):
    """A page following its session as follow.js does: a conditional poll every
    `every` seconds; on a 200, the page itself (or the feed's JSON) is fetched,
    and the moment it is in hand is noted."""

    def __init__(self, port: int, poll: str, page: str | None, every: float, headers=None):
        super().__init__(daemon=True)
        self.port, self.poll, self.page, self.every = port, poll, page, every
        self.headers = dict(headers or {})
        self.seen: list[float] = []
        self.stop = threading.Event()
        self.changed = threading.Event()

    def run(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        etag = ""
        tick = time.monotonic()
        while not self.stop.is_set():
            time.sleep(max(0.0, tick - time.monotonic()))
            headers = dict(self.headers)
            if etag:
                headers["If-None-Match"] = etag
            connection.request("GET", self.poll, headers=headers)
            response = connection.getresponse()
            response.read()
            if response.status == 200:
                fresh = bool(etag)
                etag = response.getheader("ETag") or etag
                if self.page is not None:
                    connection.request("GET", self.page, headers=self.headers)
                    connection.getresponse().read()
                if fresh:
                    self.seen.append(time.perf_counter())
                    self.changed.set()
            tick += self.every
        connection.close()


def latencies(follower: Follower, change, saves: int) -> list[float]:
    """Seconds from each `change()` (which returns once committed) to the follower
    having it, the changes at random moments against the polls' phase."""
    follower.start()
    time.sleep(follower.every * 1.5)  # its first answer in hand: a 200, then 304s
    found = []
    for _ in range(saves):
        time.sleep(random.uniform(0.2, 1.2) * follower.every)
        follower.changed.clear()
        change()
        committed = time.perf_counter()
        if not follower.changed.wait(10):
            raise SystemExit("a follower did not see a change within 10 s")
        found.append(follower.seen[-1] - committed)
    follower.stop.set()
    follower.join()
    return found


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def table_of_phones(
    env: dict[str, str], owner, workers: int | None, seconds: int, saves: int
) -> None:
    from django.test import Client
    from django.urls import reverse

    from benchmarks.run import build_session, round_post
    from scoring.web.live import POLL_SECONDS
    from table import services as table_services

    session = build_session(owner, 10, f"Phones {secrets.token_hex(3)}")
    seats = table_services.make_seats(session=session)
    seat_live = reverse("seat_live", args=[seats[0].token])
    seat_page = reverse("seat_page", args=[seats[0].token])
    client = Client()
    client.force_login(owner)
    cookie = {"Cookie": f"sessionid={client.cookies['sessionid'].value}"}
    server, port = start_server(env, workers)
    try:
        print(
            "\nA table of phones polling (a page without its stream): scripts/host on 127.0.0.1; "
            f"each phone asks every {POLL_SECONDS:g} s (a conditional request on the version)"
        )

        def save_round() -> None:
            answer = client.post(reverse("round_new", args=[session.pk]), round_post(session))
            assert answer.status_code == 302, answer.status_code

        seat = Follower(port, seat_live, seat_page, POLL_SECONDS)
        saved = latencies(seat, save_round, saves)
        position = {"n": session.rounds.count() + 1}
        feed = f"{reverse('seat_feed', args=[session.pk])}?position="

        def send_count() -> None:
            table_services.send_entry(
                seat=seats[1],
                position=position["n"],
                values=table_services.SeatValues(
                    status="seen",
                    maal=random.randint(0, 40),
                    tunnel=0,
                    dhoos=False,
                    dublees=False,
                    maal_tally=None,
                    tiplu="",
                ),
            )

        scorer = Follower(port, feed + str(position["n"]), None, POLL_SECONDS, cookie)
        counted = latencies(scorer, send_count, saves)
        # The share page (htmx, every POLL_SECONDS): its poll's answer is the new part.
        from scoring.services import create_share_link

        token = create_share_link(session=session)
        share = Follower(port, reverse("share_live", args=[token]), None, POLL_SECONDS)
        shared = latencies(share, save_round, saves)
        print(f"{'latency, commit to the phone having it':44} {'median':>8} {'p95':>8} {'max':>8}")
        for name, values in (
            ("a round saved → a seat page shows it", saved),
            ("a seat's count → the scorer's open form", counted),
            ("a round saved → the share page", shared),
        ):
            print(
                f"{name:44} {statistics.median(values) * 1000:6.0f}ms "
                f"{percentile(values, 0.95) * 1000:6.0f}ms {max(values) * 1000:6.0f}ms"
            )

        print(f"\nIdle phones for {seconds} s: server CPU (the host's processes, % of one core)")
        print(f"{'phones polling':44} {'req/s':>8} {'CPU %':>8} {'CPU ms/req':>11}")
        start, before = time.monotonic(), cpu_seconds(server.pid)
        time.sleep(seconds)
        idle = 100 * (cpu_seconds(server.pid) - before) / (time.monotonic() - start)
        print(f"{'none (the server idle)':44} {0:8.1f} {idle:8.1f} {'':>11}")
        for phones in PHONE_COUNTS:
            for name, path, headers in (
                (f"{phones} seat pages, unchanged (304)", seat_live, None),
                (f"{phones} on the trivial view (200)", "/bench/trivial/", None),
                (
                    f"{phones} owner's pages, unchanged (304)",
                    reverse("session_live", args=[session.pk]),
                    cookie,
                ),
            ):
                rate, cpu, statuses = idle_cost(
                    server.pid, port, path, phones, POLL_SECONDS, seconds, headers
                )
                assert statuses in ([200], [200, 304]), (name, statuses)
                per = 10 * (cpu - idle) / rate if rate else 0.0  # ms of CPU per request
                print(f"{name:44} {rate:8.1f} {cpu:8.1f} {per:11.2f}")
    finally:
        stop(server)


# --- Push (issue 29): each page keeps a stream, told of every change -----------------------------
# The phones here are asyncio clients: a stream each (as static/js/stream.js
# keeps it), and on each "version" after the first the page fetched again, as
# the browser does. The saves go through a host as the scorer's phone posts
# them (one-time key, CSRF), so that the channel carries them as it would.

EVENT = re.compile(rb"event: (\w+)\ndata: ([^\n]*)\n\n")
STREAM_COUNTS = (10, 50, 500)
LATENCY = "from the save’s answer to the page in hand"
LATENCY_HEAD = f"{LATENCY:52} {'median':>8} {'p95':>8} {'max':>8}"


async def ask(port: int, path: str, headers=None, body: bytes = b"") -> tuple[int, bytes]:
    """One request on a connection of its own: (status, the whole answer)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    method = "POST" if body else "GET"
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
    for name, value in (headers or {}).items():
        head += f"{name}: {value}\r\n"
    if body:
        head += "Content-Type: application/x-www-form-urlencoded\r\n"
        head += f"Content-Length: {len(body)}\r\n"
    writer.write(head.encode() + b"\r\n" + body)
    answer = await reader.read()
    writer.close()
    return int(answer.split(b" ", 2)[1]), answer


class Stream:
    """A page's stream, held open: each event is noted, and `on_version` is
    called for each "version" after the first."""

    def __init__(self, port: int, path: str, on_version=None) -> None:
        self.port, self.path, self.on_version = port, path, on_version
        self.events: list[bytes] = []
        self.task: asyncio.Task | None = None

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.writer.write(
            f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Accept: text/event-stream\r\n\r\n".encode()
        )
        head = await self.reader.readuntil(b"\r\n\r\n")
        if b" 200 " not in head.split(b"\r\n", 1)[0]:
            raise RuntimeError(f"{self.path}: {head.split(b'\r\n', 1)[0].decode()}")
        self.buffer = b""
        while not self.events:
            await self._read()
        self.task = asyncio.get_running_loop().create_task(self._follow())

    async def _read(self) -> None:
        data = await self.reader.read(65536)
        if not data:
            raise ConnectionError("the stream ended")
        self.buffer += data
        while (found := EVENT.search(self.buffer)) is not None:
            self.buffer = self.buffer[found.end() :]
            self.events.append(found[1])
            if found[1] == b"version" and len(self.events) > 1 and self.on_version:
                await self.on_version()

    async def _follow(self) -> None:
        with contextlib.suppress(ConnectionError, asyncio.CancelledError):
            while True:
                await self._read()

    def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
        self.writer.close()


class SeatPhone:
    """A seat page: its stream; on each change, the page fetched again (the
    moment it is in hand noted)."""

    def __init__(self, port: int, token: str) -> None:
        self.port, self.page = port, f"/t/{token}/"
        self.seen: list[float] = []
        self.stream = Stream(port, f"/t/{token}/stream/", self.changed)

    async def changed(self) -> None:
        status, _answer = await ask(self.port, self.page)
        assert status == 200, status
        self.seen.append(time.perf_counter())


class Scorer:
    """The scorer's phone: logged in, it saves rounds through a host as its form posts them."""

    def __init__(self, session, owner) -> None:
        from django.test import Client

        client = Client()
        client.force_login(owner)
        self.session = session
        self.cookie = f"sessionid={client.cookies['sessionid'].value}"

    async def save(self, port: int) -> float:
        """Posts a round; the moment its answer is in hand."""
        import urllib.parse

        from benchmarks.run import round_post

        if not hasattr(self, "csrf"):
            _status, answer = await ask(port, "/accounts/login/")
            found = re.search(rb"csrftoken=([^;]+);", answer)
            assert found, answer[:600]
            self.csrf = found[1].decode()
        data = await asyncio.to_thread(round_post, self.session)
        status, answer = await ask(
            port,
            f"/sessions/{self.session.pk}/rounds/new/",
            {"Cookie": f"{self.cookie}; csrftoken={self.csrf}", "X-CSRFToken": self.csrf},
            urllib.parse.urlencode(data).encode(),
        )
        assert status == 302, answer[:600]
        return time.perf_counter()


async def push_latencies(save_port: int, seat_port: int, tokens, scorer, saves: int):
    """Seconds from each save's answer (on save_port) to each seat page (on
    seat_port) having the page again, for `saves` saves at random moments."""
    phones = [SeatPhone(seat_port, token) for token in tokens]
    for phone in phones:
        await phone.stream.open()
    found = []
    try:
        for _ in range(saves):
            await asyncio.sleep(random.uniform(0.3, 1.0))
            before = [len(phone.seen) for phone in phones]
            answered = await scorer.save(save_port)
            deadline = time.monotonic() + 10
            while any(len(p.seen) <= n for p, n in zip(phones, before, strict=True)):
                if time.monotonic() > deadline:
                    raise SystemExit("a seat page did not see a save within 10 s")
                await asyncio.sleep(0.002)
            found += [p.seen[n] - answered for p, n in zip(phones, before, strict=True)]
    finally:
        for phone in phones:
            phone.stream.close()
    return found


def host_rss_kb(pid: int) -> int:
    total = 0
    for process in (pid, *_children(pid)):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{process}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total


async def hold(port: int, path: str, count: int) -> list[Stream]:
    """`count` streams of `path`, opened 50 at a time, each past its first event."""
    held: list[Stream] = []
    while len(held) < count:
        batch = [Stream(port, path) for _ in range(min(50, count - len(held)))]
        await asyncio.gather(*(stream.open() for stream in batch))
        held += batch
    return held


def page_ms(port: int, path: str, times: int = 40) -> float:
    """The median time of `path`, asked `times` times in a row on one connection."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    spent = []
    for _ in range(times):
        start = time.perf_counter()
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        assert response.status == 200, (path, response.status)
        spent.append(time.perf_counter() - start)
    connection.close()
    return 1000 * statistics.median(spent)


def raise_file_limit() -> None:
    import resource

    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def print_latencies(title: str, values: list[float]) -> None:
    print(
        f"{title:52} {statistics.median(values) * 1000:6.0f}ms "
        f"{percentile(values, 0.95) * 1000:6.0f}ms {max(values) * 1000:6.0f}ms  (n={len(values)})"
    )


def table_of_streams(env: dict[str, str], owner, seconds: int, saves: int) -> None:
    """One host (scripts/host, its defaults): save → seat page by push; idle
    CPU of 10, 50 and 500 open streams beside as many phones polling and the
    trivial view; memory per stream; ordinary pages as streams pile up."""
    from benchmarks.run import build_session
    from table import services as table_services

    raise_file_limit()
    session = build_session(owner, 10, f"Streams {secrets.token_hex(3)}")
    tokens = [seat.token for seat in table_services.make_seats(session=session)]
    scorer = Scorer(session, owner)
    server, port = start_server(env, None)
    try:
        print(
            "\nA table of phones by push: scripts/host on 127.0.0.1 (its defaults), "
            "each page keeping its stream"
        )
        print(LATENCY_HEAD)
        found = asyncio.run(push_latencies(port, port, tokens[:3], scorer, saves))
        print_latencies("a round saved → three seat pages show it", found)

        idle_seconds = max(seconds, 20)  # at least one beat of every stream
        print(
            f"\nIdle for {idle_seconds} s: the host's CPU (% of one core) and memory, "
            "open streams beside phones polling every second and the trivial view"
        )
        print(f"{'':40} {'req/s':>8} {'CPU %':>8} {'CPU ms/req':>11} {'KB/stream':>10}")
        start, before = time.monotonic(), cpu_seconds(server.pid)
        time.sleep(idle_seconds)
        idle = 100 * (cpu_seconds(server.pid) - before) / (time.monotonic() - start)
        print(f"{'none (the host idle)':40} {0:8.1f} {idle:8.1f}")
        seat_live = f"/t/{tokens[0]}/live/"
        for count in STREAM_COUNTS:
            rss = host_rss_kb(server.pid)
            waited = idle_streams(server.pid, port, tokens, count, idle_seconds)
            _held, cpu, grown = asyncio.run(waited)
            per_kb = (grown - rss) / count
            print(f"{f'{count} open streams':40} {0:8.1f} {cpu:8.1f} {'':>11} {per_kb:10.0f}")
            for name, path in (
                (f"{count} seat pages polling (304)", seat_live),
                (f"{count} on the trivial view (200)", "/bench/trivial/"),
            ):
                rate, cpu, statuses = idle_cost(server.pid, port, path, count, 1.0, seconds)
                assert statuses in ([200], [200, 304], [304]), (name, statuses)
                per = 10 * (cpu - idle) / rate if rate else 0.0
                print(f"{name:40} {rate:8.1f} {cpu:8.1f} {per:11.2f}")
    finally:
        stop(server)
    capacity(env, session, tokens)
    serving_cost(env, tokens[0])


async def idle_streams(pid: int, port: int, tokens, count: int, seconds: int):
    """(streams held, the host's CPU % while they wait, its RSS with them open)."""
    held = await hold(port, f"/t/{tokens[0]}/stream/", count)
    await asyncio.sleep(1)
    rss = host_rss_kb(pid)
    start, before = time.monotonic(), cpu_seconds(pid)
    await asyncio.sleep(seconds)
    cpu = 100 * (cpu_seconds(pid) - before) / (time.monotonic() - start)
    beats = sum(stream.events.count(b"beat") for stream in held)
    assert beats >= count // 2, f"only {beats} beats from {count} streams"
    for stream in held:
        stream.close()
    await asyncio.sleep(0.5)
    return len(held), cpu, rss


CAPACITY_STEPS = (0, 500, 1000, 2000, 4000, 8000)


def capacity(env: dict[str, str], session, tokens) -> None:
    """Ordinary pages (the seat page, the trivial view) as open streams pile up
    on one host process, unbounded here (LIVE_STREAMS), until the seat page
    takes twice what it took with none."""
    server, port = start_server({**env, "LIVE_STREAMS": "100000"}, None)
    page = f"/t/{tokens[0]}/"

    async def grow() -> None:
        held: list[Stream] = []
        base = None
        print(
            "\nOrdinary pages as idle streams pile up on one host process "
            "(median of 40 in a row, ms)"
        )
        print(f"{'open streams':>12} {'seat page':>10} {'× none':>7} {'trivial':>8} {'host MB':>8}")
        for step in CAPACITY_STEPS:
            try:
                held += await hold(port, f"/t/{tokens[1]}/stream/", step - len(held))
            except (OSError, RuntimeError) as error:
                print(f"{step:12}  could not open more: {error}")
                break
            seat_ms = await asyncio.to_thread(page_ms, port, page)
            trivial_ms = await asyncio.to_thread(page_ms, port, "/bench/trivial/")
            base = base or seat_ms
            print(
                f"{len(held):12} {seat_ms:10.2f} {seat_ms / base:7.2f} {trivial_ms:8.2f} "
                f"{host_rss_kb(server.pid) / 1024:8.0f}"
            )
            if seat_ms >= 2 * base:
                print(f"Ordinary page times doubled by {len(held)} open streams.")
                break
        else:
            print(f"Ordinary page times not doubled by {len(held)} open streams.")
        for stream in held:
            stream.close()

    try:
        asyncio.run(grow())
    finally:
        stop(server)


def cpu_per_request(pid: int, port: int, path: str, times: int = 400) -> float:
    """The host's CPU per request of `path`, asked `times` times in a row (ms)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for _ in range(20):  # warm
        connection.request("GET", path)
        connection.getresponse().read()
    before = cpu_seconds(pid)
    for _ in range(times):
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        assert response.status in (200, 304), (path, response.status)
    connection.close()
    return 1000 * (cpu_seconds(pid) - before) / times


def serving_cost(env: dict[str, str], token: str) -> None:
    """What an ordinary request costs on the host (the pages through Django's
    WSGI handler on a thread pool, beside the streams) against gunicorn's sync
    workers serving the same app as WSGI (how hosts ran before streams)."""
    full_env = {**os.environ, **env}
    port = free_port()
    sync = subprocess.Popen(
        [
            str(Path(sys.executable).with_name("gunicorn")),
            "marriage_site.wsgi",
            *("--bind", f"127.0.0.1:{port}", "--workers", "1"),
            *("--no-control-socket", "--log-level", "warning"),
        ],
        cwd=ROOT,
        env=full_env,
    )
    host, host_port = start_server(env, None)
    pages = (
        ("trivial view", "/bench/trivial/"),
        ("log-in page", "/accounts/login/"),
        ("seat page", f"/t/{token}/"),
    )
    try:
        wait_until_up(f"http://127.0.0.1:{port}/bench/trivial/", sync)
        print("\nAn ordinary request's CPU (ms, 400 in a row): the host, and WSGI's sync worker")
        print(f"{'request':20} {'gunicorn sync':>14} {'scripts/host':>13}")
        for name, path in pages:
            before = cpu_per_request(sync.pid, port, path)
            now = cpu_per_request(host.pid, host_port, path)
            print(f"{name:20} {before:14.2f} {now:13.2f}")
    finally:
        stop(sync)
        stop(host)


def two_hosts(env: dict[str, str], owner, saves: int, workers: int) -> None:
    """Two hosts on one PostgreSQL (and one Redis, with REDIS_URL: the channel
    is then Redis's, else PostgreSQL's), each started by scripts/host: three
    seat pages on host B, rounds saved on host A."""
    from benchmarks.run import build_session
    from table import services as table_services

    session = build_session(owner, 10, f"Two hosts {secrets.token_hex(3)}")
    tokens = [seat.token for seat in table_services.make_seats(session=session)]
    scorer = Scorer(session, owner)
    tmp = Path(env["STATIC_ROOT"]).parent
    servers = []
    try:
        ports = []
        for name in ("a", "b"):
            host_env = {**env, "CACHE_DIR": str(tmp / f"cache-{name}")}
            server, port = start_server(host_env, workers)
            servers.append(server)
            ports.append(port)
        channel = "Redis" if os.environ.get("REDIS_URL") else "PostgreSQL (LISTEN/NOTIFY)"
        print(
            f"\nTwo hosts (scripts/host, {workers} processes each) on one PostgreSQL, the live "
            f"channel {channel}: rounds saved on host A, three seat pages on host B"
        )
        print(LATENCY_HEAD)
        found = asyncio.run(push_latencies(ports[0], ports[1], tokens[:3], scorer, saves))
        print_latencies("a round saved on A → three seat pages on B", found)
        same = asyncio.run(push_latencies(ports[0], ports[0], tokens[:3], scorer, saves))
        print_latencies("a round saved on A → three seat pages on A", same)
        median, p95 = statistics.median(found), percentile(found, 0.95)
        verdict = "yes" if median <= 0.25 and p95 <= 0.5 else "NO"
        print(f"Target, across hosts: median ≤ 250 ms and p95 ≤ 500 ms: {verdict}")
    finally:
        for server in servers:
            stop(server)


# --- The round at the speed of the phone (issue 28) ----------------------------------------------
#
# The loop a family repeats forty times a night, on the phone profile the
# issue measured: 390×844 with touch, the CPU slowed four times (CDP
# Emulation.setCPUThrottlingRate) and every server answer held (a proxy in
# front of the host holds each answer DELAYS, so the service worker's requests
# wait too). Timed in the page, from the tap on Save (the
# submit event) to the frame that shows (requestAnimationFrame) the standings
# after the round and, separately, the next round's form ready to type in
# (its number, dealer line and empty boxes); then to the server's
# confirmation. Beside: the same loop as a form without scripts posts it (the
# POST, its redirect, the session page; then "Enter round" and the form), and
# a trivial page fetched through the same proxy. Taps are counted as the
# scorer's finger makes them (typed digits aside).

CHROMIUM = "/usr/lib/chromium/chromium"
# Every server answer this late: a full second (the bound), and a
# round trip of 150 ms (the network the issue measured on).
DELAYS = (1.0, 0.15)
CPU_SLOWDOWN = 4
PHONE_ROUNDS = 5
HAND = {"Aama": 5, "Buwa": 2, "Didi": 7, "Dai": 0, "Bahini": 3}


class DelayingProxy(threading.Thread):
    """An HTTP proxy on 127.0.0.1 that answers every request as `port` does,
    `delay` seconds late (the whole answer held, as a slow network would)."""

    def __init__(self, port: int, delay: float) -> None:
        super().__init__(daemon=True)
        import http.server

        upstream, wait = port, delay

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:  # quiet
                pass

            def relay(self) -> None:
                started = time.monotonic()
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                connection = http.client.HTTPConnection("127.0.0.1", upstream, timeout=60)
                headers = {k: v for k, v in self.headers.items() if k.lower() != "connection"}
                connection.request(self.command, self.path, body=body, headers=headers)
                answer = connection.getresponse()
                content = answer.read()
                connection.close()
                time.sleep(max(0.0, wait - (time.monotonic() - started)))
                self.send_response(answer.status, answer.reason)
                for name, value in answer.getheaders():
                    if name.lower() not in ("transfer-encoding", "connection", "content-length"):
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)

            do_GET = do_POST = do_HEAD = relay

        class Server(http.server.ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request, client_address) -> None:
                # The browser gave up on a connection (a page left, a send aborted).
                if not isinstance(sys.exc_info()[1], ConnectionError):
                    super().handle_error(request, client_address)

        self.server = Server(("127.0.0.1", free_port()), Handler)
        self.port = self.server.server_address[1]

    def run(self) -> None:
        self.server.serve_forever()

    def stop(self) -> None:
        self.server.shutdown()


# Installed on the round form before Save is tapped: notes the tap (the
# submit) and when the frame that first shows the standings after the round,
# and the one that first shows the next form ready, have been painted (the
# start of the frame after it); then the confirmation.
WATCH_SAVE_JS = """(number) => {
  const seen = {};
  window.__saved = seen;
  document.addEventListener("submit", () => { seen.tap = performance.now(); }, true);
  const painted = (name) => requestAnimationFrame(() => {
    seen[name] = performance.now() - seen.tap;
  });
  const marked = {};
  function mark(name) {
    if (marked[name]) return;
    marked[name] = true;
    painted(name);
  }
  function frame() {
    const table = document.querySelector("#round-saved:not([hidden]) #standings");
    const head = table && table.querySelectorAll("th")[3];
    if (seen.tap && head && head.textContent.trim() === `Round ${number}` &&
        table.querySelectorAll("tr[data-player]").length)
      mark("standings");
    const ready = document.querySelector('input[name="number"]').value === String(number + 1) &&
      document.querySelector(".next-round").textContent.includes(String(number + 1)) &&
      !document.querySelector('input[name="winner"]:checked') &&
      [...document.querySelectorAll('input[name$="-maal"]')].every((box) => box.value === "");
    if (seen.tap && ready) mark("form");
    const said = document.getElementById("round-saved-status");
    if (seen.tap && said && said.textContent.trim() === `Round ${number} saved.`)
      mark("confirmed");
    if (!(seen.standings && seen.form && seen.confirmed)) requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);
}"""

# The standings the page shows: {name: points}.
SHOWN_JS = """() => Object.fromEntries([...document.querySelectorAll("#standings tr[data-player]")]
  .map((row) => [row.dataset.player, row.cells[2].textContent.trim()]))"""


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def _phone(browser, base: str, cookie: str, java_script: bool = True):
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
        java_script_enabled=java_script,
        bypass_csp=True,  # wait_for_function evaluates its text, which the pages' policy forbids
    )
    context.add_cookies([{"name": "sessionid", "value": cookie, "url": base}])
    page = context.new_page()
    page.set_default_timeout(120_000)
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    return context, page


def _play(page, taps: list[int]) -> None:
    """The round, as the scorer's finger makes it: the winner, each maal box."""
    page.locator(".pick", has_text="Bahini").tap()
    taps[0] += 1
    for name, points in HAND.items():
        if points:
            page.locator(f'.player-row[data-player="{name}"] input[name$="-maal"]').tap()
            taps[0] += 1
            page.keyboard.type(str(points))


def _round_loop(port: int, session, cookie: str, delay: float, rounds: int) -> dict[str, object]:
    """The loop measured through a proxy `delay` seconds late: {name: [seconds]}
    and the taps, with scripts (saved in place) and without (the form posted)."""
    from playwright.sync_api import sync_playwright

    from scoring.models import Round
    from scoring.selectors.reports import build_ledger

    proxy = DelayingProxy(port, delay)
    proxy.start()
    base = f"http://127.0.0.1:{proxy.port}"
    form = f"{base}/sessions/{session.pk}/rounds/new/"
    found: dict[str, list] = {
        name: [] for name in ("trivial", "standings", "form", "confirmed", "posted", "next")
    }
    taps_each: list[int] = []
    taps_plain: list[int] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"]
            )
            context, page = _phone(browser, base, cookie)
            for _ in range(3):
                start = time.perf_counter()
                page.goto(f"{base}/bench/trivial/")
                found["trivial"].append(time.perf_counter() - start)
            page.goto(form)
            # The service worker in charge (the page as a phone has it after its first visit).
            page.wait_for_function("() => Boolean(navigator.serviceWorker.controller)")
            page.goto(form)
            for _ in range(rounds):
                number = Round.objects.filter(session=session).count() + 1
                taps = [0]
                _play(page, taps)
                page.evaluate(WATCH_SAVE_JS, number)
                page.get_by_role("button", name="Save round").tap()
                taps[0] += 1
                page.wait_for_function(
                    "() => ['standings', 'form', 'confirmed'].every((k) => window.__saved[k])"
                )
                seen = page.evaluate("() => window.__saved")
                for name in ("standings", "form", "confirmed"):
                    found[name].append(seen[name] / 1000)
                taps_each.append(taps[0])
                # Confirmed as it was shown: no figure of the phone's differed.
                if page.locator("#round-saved-alert *").count():
                    raise SystemExit("the server's figures differed from the phone's")
                # What the phone painted is the server's ledger, point for point.
                ledger = {r.player.name: _signed(r.points) for r in build_ledger(session).standings}
                if page.evaluate(SHOWN_JS) != ledger:
                    raise SystemExit(f"the phone's standings are not the server's: {ledger}")
            context.close()
            # The same loop as a form posts it without scripts: POST, redirect, session page.
            context, page = _phone(browser, base, cookie, java_script=False)
            for _ in range(max(2, rounds // 2)):
                page.goto(form)
                taps = [0]
                _play(page, taps)
                start = time.perf_counter()
                page.get_by_role("button", name="Save round").tap()
                taps[0] += 1
                page.locator(".standings-saved tr[data-player]").first.wait_for()
                found["posted"].append(time.perf_counter() - start)
                page.get_by_role("link", name="Enter round").tap()
                taps[0] += 1
                page.locator('#round-form input[name="winner"]').first.wait_for()
                found["next"].append(time.perf_counter() - start)
                taps_plain.append(taps[0])
            context.close()
            browser.close()
    finally:
        proxy.stop()
    return {**found, "taps": taps_each, "taps plain": taps_plain}


def throttled_phone(
    env: dict[str, str], owner, workers: int | None, rounds: int = PHONE_ROUNDS, delays=DELAYS
) -> None:
    """Prints Save → standings painted and Save → next form usable on the
    throttled phone, each answer `delays` seconds late, beside a trivial page
    and the form posted without scripts, and the taps per round."""
    from django.test import Client

    from benchmarks.run import build_session

    # Playwright's sync API runs an event loop in this thread; the ORM reads
    # between its calls are synchronous all the same.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    session = build_session(owner, 10, f"Throttled {secrets.token_hex(3)}")
    client = Client()
    client.force_login(owner)
    cookie = client.cookies["sessionid"].value
    server, port = start_server(env, workers)
    try:
        runs = {delay: _round_loop(port, session, cookie, delay, rounds) for delay in delays}
    finally:
        stop(server)
    print(
        f"\nThe round at the speed of the phone: 390×844 with touch, CPU ÷{CPU_SLOWDOWN}, every "
        f"server answer held (a proxy before the host), {rounds} rounds, median s (× trivial)"
    )
    print(f"{'':44}" + "".join(f"{f'answers {d:g} s late':>22}" for d in delays))
    rows = [
        ("trivial page (through the same proxy)", "trivial"),
        ("Save → standings painted", "standings"),
        ("Save → next form usable", "form"),
        ("Save → the server's confirmation shown", "confirmed"),
        ("without scripts: Save → session page", "posted"),
        ("without scripts: Save → next form (+1 tap)", "next"),
    ]
    for label, name in rows:
        cells = []
        for delay in delays:
            values = cast(list, runs[delay][name])
            trivial = statistics.median(cast(list, runs[delay]["trivial"]))
            median = statistics.median(values)
            cells.append(f"{median:8.2f} ({median / trivial:4.2f}×) max {max(values):.2f}")
        print(f"{label:44}" + "".join(f"{cell:>22}" for cell in cells))
    taps = statistics.median(cast(list, runs[delays[0]]["taps"]))
    plain = statistics.median(cast(list, runs[delays[0]]["taps plain"]))
    print(f"taps per plain 5-player round: {taps:g} (without scripts, back to the form: {plain:g})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=10, help="each idle-cost run")
    parser.add_argument("--saves", type=int, default=20, help="changes timed for latency")
    parser.add_argument(
        "--workers", type=int, help="host processes (default: scripts/host's, 1 on SQLite)"
    )
    parser.add_argument("--postgres", action="store_true", help="use DATABASE_URL")
    parser.add_argument(
        "--two-hosts",
        action="store_true",
        help="only save on host A → seat pages on host B (needs --postgres; Redis if REDIS_URL)",
    )
    parser.add_argument("--push-only", action="store_true", help="only the figures by push")
    args = parser.parse_args()
    if args.two_hosts and not args.postgres:
        sys.exit("--two-hosts: needs --postgres, under scripts/with-postgres")
    from benchmarks.run import configure

    tmp = Path(tempfile.mkdtemp(prefix="marriage-phones-"))
    try:
        env = configure(tmp, args.postgres)
        import django

        django.setup()
        from django.contrib.auth import get_user_model
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        owner = get_user_model().objects.create_user(f"bench-{secrets.token_hex(4)}")
        if args.two_hosts:
            two_hosts(env, owner, args.saves, args.workers or 2)
            return
        if not args.push_only:
            table_of_phones(env, owner, args.workers, args.seconds, args.saves)
        table_of_streams(env, owner, args.seconds, args.saves)
        throttled_phone(env, owner, args.workers)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
