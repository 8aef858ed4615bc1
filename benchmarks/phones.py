#!/usr/bin/env python
"""A table of phones watching a session (issue 21), against gunicorn on
127.0.0.1 set up as benchmarks/run.py's part 2; printed by run.py after it,
or alone:

    .venv/bin/python benchmarks/phones.py [--seconds 10] [--workers 2] [--postgres]

1. Latency: a phone follows a session as the seat page does (static/js/follow.js:
   a conditional request every POLL_SECONDS, and on a change the page again),
   while rounds are saved at random moments; and the scorer's open round form
   follows the seats' counts (static/js/seat-feed.js) while seats send them.
   Median and 95th percentile from each commit to the phone having the new page
   (or the count), over --saves changes.
2. Idle cost: 10 and 50 phones each polling an unchanged session once per
   POLL_SECONDS (answered 304), for --seconds: requests per second served and
   the server's CPU (every gunicorn process, from /proc), beside the same
   phones polling the trivial view, and the server with no phone at all.

Polling with conditional requests keyed on the session's version in the
database was chosen by these figures (docs/lan.md): it needs no shared memory
between processes or hosts, and an idle phone costs about what the trivial
view costs.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.hosts import free_port, start_gunicorn, stop, wait_until_up  # noqa: E402

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
    """User and system CPU of gunicorn's master and workers so far."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for process in (pid, *_children(pid)):
        try:
            fields = Path(f"/proc/{process}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def start_server(env: dict[str, str], workers: int) -> tuple[subprocess.Popen, int]:
    port = free_port()
    server = start_gunicorn(port, {**os.environ, **env}, workers=workers)
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


def table_of_phones(env: dict[str, str], owner, workers: int, seconds: int, saves: int) -> None:
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
            f"\nA table of phones: gunicorn on 127.0.0.1 ({workers} workers); each phone asks "
            f"every {POLL_SECONDS:g} s (conditional request on the session's version)"
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

        print(f"\nIdle phones for {seconds} s: server CPU (all gunicorn processes, % of one core)")
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=10, help="each idle-cost run")
    parser.add_argument("--saves", type=int, default=20, help="changes timed for latency")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--postgres", action="store_true", help="use DATABASE_URL")
    args = parser.parse_args()
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
        table_of_phones(env, owner, args.workers, args.seconds, args.saves)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
