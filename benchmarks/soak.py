#!/usr/bin/env python
"""Soak test (a script, not a test): N phones play for a set time against
gunicorn on 127.0.0.1, each saving rounds, undoing the last one, and reading the
stats pages, the ledger and the session's export, while a backup
(`export_session --all`) runs over and over. Then it prints what the phones
were told against what the database holds:

- saves acknowledged (answered "saved") vs rounds stored, and how many of the
  acknowledged ones were undone later (by the phones' own undos);
- acknowledged saves missing from the database (lost) and rounds stored twice
  (duplicates): both must be 0;
- 500s (and any other unexpected answer), failed exports and failed backups:
  all must be 0. (Aama's page is a 404 while her session has no round: expected.)

Every saved round is told apart by Aama's maal, a number no other save uses.
A save that gets no answer (a timeout) is counted as "unanswered" and sent
again, twice at most, with the same one-time `save_key`, as a phone would.

Runs on a fresh SQLite database in a temporary directory, or with --postgres
on the database in DATABASE_URL (e.g. under scripts/with-postgres). With
--hosts 2 it runs two gunicorn app hosts, each with its own CACHE_DIR as two
machines have, and the phones take turns between them; --redis gives every
host the REDIS_URL (scripts/with-redis) for what they share, as
docs/hosting.md runs several hosts:

    .venv/bin/python benchmarks/soak.py [--phones 8] [--seconds 60] [--workers 3]
    scripts/with-postgres .venv/bin/python benchmarks/soak.py --postgres
    scripts/with-postgres scripts/with-redis .venv/bin/python benchmarks/soak.py \
        --postgres --redis --hosts 2
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.hosts import free_port, start_host, stop, wait_until_up  # noqa: E402
from benchmarks.run import configure  # noqa: E402

PLAYERS = ("Aama", "Buwa", "Didi", "Dai")
UNDO_ROUND = re.compile(r'name="round" value="(\d+)"')


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Phone:
    """One phone: its own log-in cookie and CSRF token, and what it was told."""

    def __init__(self, base: str, sessionid: str) -> None:
        self.base = base
        self.csrf = secrets.token_hex(16)
        self.cookie = f"sessionid={sessionid}; csrftoken={self.csrf}"
        self.opener = urllib.request.build_opener(NoRedirect)

    def request(self, path: str, data: dict[str, str] | None = None) -> tuple[int, bytes]:
        """(status, body); status 0 when no answer came (a timeout, a reset)."""
        headers = {"Cookie": self.cookie}
        body = None
        if data is not None:
            body = urllib.parse.urlencode(data).encode()
            headers["X-CSRFToken"] = self.csrf
        request = urllib.request.Request(self.base + path, data=body, headers=headers)
        try:
            with self.opener.open(request, timeout=60) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return 0, b""


class Tally:
    """Everything the phones saw, added to from every thread."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.acknowledged: dict[int, set[int]] = {}  # session id -> markers answered "saved"
        self.unanswered = 0
        self.statuses: Counter[tuple[str, int]] = Counter()
        self.failed_exports: list[str] = []
        self.backups = 0
        self.failed_backups: list[str] = []
        self.undos = 0

    def saw(self, kind: str, status: int) -> None:
        with self.lock:
            self.statuses[(kind, status)] += 1


def round_post(ids: dict[str, int], marker: int) -> dict[str, str]:
    """A round Didi wins, told apart by Aama's maal (the marker)."""
    maal = {"Aama": marker, "Buwa": 2, "Didi": 7, "Dai": 0}
    data = {"win_type": "normal", "winner": str(ids["Didi"])}
    for name, pid in ids.items():
        data |= {
            f"p-{pid}-plays": "on",
            f"p-{pid}-status": "seen",
            f"p-{pid}-maal": str(maal[name]),
            f"p-{pid}-tunnel": "0",
        }
    return data


def play(phone: Phone, session_id: int, ids, markers, deadline: float, tally: Tally, seed: int):
    rng = random.Random(seed)
    base = f"/sessions/{session_id}/"
    reads = ["/history/", "/leaderboard/", "/players/Aama/", base, f"{base}settle/"]
    while time.monotonic() < deadline:
        action = rng.random()
        if action < 0.45:
            marker = next(markers)
            # A one-time key, as the round form sends: a retry of a save that got
            # no answer must not store the round twice (counted as duplicates).
            data = round_post(ids, marker) | {"save_key": secrets.token_urlsafe(16)}
            for _attempt in range(3):
                status, _body = phone.request(f"{base}rounds/new/", data)
                tally.saw("save", status)
                if status != 0:
                    break
                with tally.lock:
                    tally.unanswered += 1
            with tally.lock:
                if status == 302:
                    tally.acknowledged.setdefault(session_id, set()).add(marker)
        elif action < 0.55:
            status, body = phone.request(f"{base}undo/")
            tally.saw("undo page", status)
            found = UNDO_ROUND.search(body.decode(errors="replace"))
            if status == 200 and found:
                status, _body = phone.request(f"{base}undo/", {"round": found[1]})
                tally.saw("undo", status)
        elif action < 0.65:
            status, body = phone.request(f"{base}export.json")
            tally.saw("export", status)
            problem = ""
            if status != 200:
                problem = f"status {status}"
            else:
                doc = json.loads(body)
                if any(not r["entries"] for r in doc["rounds"]):
                    problem = "a round without entries"
            if problem:
                with tally.lock:
                    tally.failed_exports.append(problem)
        else:
            path = rng.choice(reads)
            status, _body = phone.request(path)
            tally.saw(path.replace(str(session_id), "<id>"), status)


def back_up(directory: Path, env: dict[str, str], deadline: float, tally: Tally) -> None:
    while time.monotonic() < deadline:
        result = subprocess.run(
            [sys.executable, "manage.py", "export_session", "--all", str(directory)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        with tally.lock:
            tally.backups += 1
            if result.returncode != 0:
                tally.failed_backups.append(result.stderr.strip().splitlines()[-1:][0])


def stored_markers(session_ids: list[int]) -> tuple[Counter[tuple[int, int]], set[tuple[int, int]]]:
    """(session, marker) of every stored round (a Counter: duplicates show as 2),
    and of every round an undo removed (from the audit trail)."""
    from scoring.models import RoundChange, RoundEntry

    stored = Counter(
        RoundEntry.objects.filter(round__session_id__in=session_ids, player__name="Aama")
        .values_list("round__session_id", "maal")
        .iterator()
    )
    undone = set()
    for session_id, before in RoundChange.objects.filter(
        session_id__in=session_ids, action="undo"
    ).values_list("session_id", "before"):
        aama = next(e for e in (before or {})["entries"] if e["player"] == "Aama")
        undone.add((session_id, aama["maal"]))
    return stored, undone


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=8)
    parser.add_argument("--sessions", type=int, default=2, help="tables the phones share")
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument(
        "--workers", type=int, help="processes per host (default: scripts/host's, 1 on SQLite)"
    )
    parser.add_argument("--postgres", action="store_true", help="use DATABASE_URL")
    parser.add_argument("--hosts", type=int, default=1, help="app hosts (scripts/host)")
    parser.add_argument("--redis", action="store_true", help="use REDIS_URL (shared state)")
    parser.add_argument(
        "--settings", default="benchmarks.settings", help="the app servers' settings module"
    )
    args = parser.parse_args()
    if args.redis and not os.environ.get("REDIS_URL"):
        sys.exit("--redis needs REDIS_URL (run under scripts/with-redis)")
    if args.hosts > 1 and not args.postgres:
        sys.exit("--hosts needs --postgres: hosts share one database server")

    tmp = Path(tempfile.mkdtemp(prefix="marriage-soak-"))
    servers: list[subprocess.Popen] = []
    try:
        configure(tmp, args.postgres)
        os.environ["DJANGO_SETTINGS_MODULE"] = args.settings
        if not args.redis:
            os.environ.pop("REDIS_URL", None)
        import django

        django.setup()
        from django.contrib.auth import get_user_model
        from django.core.management import call_command
        from django.db import connection
        from django.test import Client

        from scoring.models import GameSession, Player

        call_command("migrate", verbosity=0)
        call_command("collectstatic", verbosity=0, interactive=False)
        owner = get_user_model().objects.create_user(f"soak-{secrets.token_hex(4)}")
        sessions = []
        for n in range(args.sessions):
            session = GameSession.objects.create(owner=owner, name=f"Soak table {n + 1}")
            Player.objects.bulk_create(
                Player(session=session, name=name, position=i) for i, name in enumerate(PLAYERS)
            )
            sessions.append(session)
        ids = {s.pk: {p.name: p.pk for p in s.players.all()} for s in sessions}
        connection.close()

        bases = []
        for host in range(args.hosts):
            port = free_port()
            bases.append(f"http://127.0.0.1:{port}")
            env = dict(os.environ)  # configure() put the settings there
            if args.hosts > 1:
                env["CACHE_DIR"] = str(tmp / f"cache-host-{host + 1}")  # each machine its own
            servers.append(start_host(port, env, workers=args.workers))
        for base, server in zip(bases, servers, strict=True):
            wait_until_up(f"{base}/accounts/login/", server)
        tally = Tally()
        markers = itertools.count(1)  # shared: no two saves anywhere use one marker
        phones = []
        for n in range(args.phones):
            client = Client()
            client.force_login(owner)
            # Phone n plays table n % sessions; the phones of a table take turns
            # between the hosts, so that every table is played on each at once.
            base = bases[(n // args.sessions) % len(bases)]
            phones.append(Phone(base, client.cookies["sessionid"].value))
        connection.close()
        deadline = time.monotonic() + args.seconds
        threads = [
            threading.Thread(
                target=play,
                args=(phone, sessions[i % len(sessions)].pk, ids[sessions[i % len(sessions)].pk]),
                kwargs={"markers": markers, "deadline": deadline, "tally": tally, "seed": i},
            )
            for i, phone in enumerate(phones)
        ]
        threads.append(
            threading.Thread(
                target=back_up, args=(tmp / "backup", dict(os.environ), deadline, tally)
            )
        )
        started = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - started

        stored, undone = stored_markers([s.pk for s in sessions])
        acknowledged = {(s, m) for s, ms in tally.acknowledged.items() for m in ms}
        lost = acknowledged - set(stored) - undone
        duplicates = sum(count - 1 for count in stored.values() if count > 1)
        errors = sum(n for (_kind, status), n in tally.statuses.items() if status >= 500)
        unexpected = {
            f"{kind} {status}": n
            for (kind, status), n in tally.statuses.items()
            if status not in (200, 302) and (kind, status) != ("/players/Aama/", 404)
        }
        requests = sum(tally.statuses.values())
        database = "PostgreSQL" if args.postgres else "SQLite"
        from benchmarks.run import host_shape

        where = host_shape(args.workers)
        if args.hosts > 1:
            where = f"{args.hosts} hosts × {where}"
        shared = ", Redis" if args.redis else ""
        print(
            f"soak: {args.phones} phones on {args.sessions} sessions, {where}, "
            f"{database}{shared}, {elapsed:.0f} s"
        )
        print(f"  requests answered          {requests} ({requests / elapsed:.0f}/s)")
        print(f"  saves acknowledged         {len(acknowledged)}")
        print(f"  rounds stored              {sum(stored.values())}")
        print(f"  acknowledged, then undone  {len(acknowledged & undone)}")
        print(f"  saves unanswered           {tally.unanswered}")
        print(f"  lost (acknowledged, gone)  {len(lost)}")
        print(f"  duplicates                 {duplicates}")
        print(f"  500s                       {errors}")
        print(f"  other unexpected answers   {unexpected or 0}")
        print(f"  failed exports             {len(tally.failed_exports)}")
        print(f"  backups run / failed       {tally.backups} / {len(tally.failed_backups)}")
        for problem in tally.failed_exports[:5] + tally.failed_backups[:5]:
            print(f"    {problem}")
        if lost or duplicates or errors or tally.failed_exports or tally.failed_backups:
            sys.exit(1)
    finally:
        for server in servers:
            stop(server)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
