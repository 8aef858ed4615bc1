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

3. The round at the speed of the phone (throttled_phone, below): Save →
   standings painted and Save → next form usable on a throttled phone, beside
   a trivial page and the form posted without scripts; the taps per round.
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
from typing import cast

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


# --- The round at the speed of the phone (issue 28) ----------------------------------------------
#
# The loop a family repeats forty times a night, on the phone profile the
# issue measured: 390×844 with touch, the CPU slowed four times (CDP
# Emulation.setCPUThrottlingRate) and every server answer a full second late
# (a proxy in front of gunicorn holds each answer DELAY_S, so the service
# worker's requests wait too). Timed in the page, from the tap on Save (the
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
    env: dict[str, str], owner, workers: int, rounds: int = PHONE_ROUNDS, delays=DELAYS
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
        f"server answer held (a proxy before gunicorn), {rounds} rounds, median s (× trivial)"
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
        throttled_phone(env, owner, args.workers)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
