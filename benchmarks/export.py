"""The exports.

1. The session export at 1,000 rounds (issue 24): the document read from the
   database (`session_doc`) and the export built from it (`export_session`),
   median seconds and queries, under pagat and under nepal (next-winner dhoos).
2. A family group's file at 10,000 rounds (500 evenings of 20 rounds; issue
   31), downloaded from one host worker (scripts/host) as a phone does: the time to its
   first byte beside the log-in page's of the same worker, the whole download,
   and the worker's memory (its resident size before, its peak during, what it
   holds after). The file is sent as it is read (groups.selectors.group_file);
   the targets: the first byte within 6x the log-in page's, the worker under
   80 MB.

    .venv/bin/python benchmarks/export.py [--rounds 1000] [--repeat 7] [--evenings 500]
"""

from __future__ import annotations

import argparse
import http.client
import os
import secrets
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.hosts import free_port, start_host, stop, wait_until_up
from benchmarks.run import GROUP_ROUNDS, build_group, build_session, configure, measure

FIRST_BYTE_TARGET = 6.0  # × the log-in page's first byte, from the same worker
WORKER_MB_TARGET = 80.0


def worker_memory(master: int) -> dict[str, float]:
    """The one gunicorn worker's resident size now and its peak so far (MB)."""
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    (worker,) = children
    status = Path(f"/proc/{worker}/status").read_text().splitlines()
    fields = {line.split(":")[0]: line.split()[1] for line in status if line.startswith("Vm")}
    return {"rss": int(fields["VmRSS"]) / 1024, "peak": int(fields["VmHWM"]) / 1024}


def fetch(port: int, path: str, cookie: str) -> tuple[float, float, int]:
    """(seconds to the first byte of the body, seconds to the last, bytes)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    start = time.perf_counter()
    connection.request("GET", path, headers={"Cookie": cookie})
    response = connection.getresponse()
    response.read(1)
    first = time.perf_counter() - start
    size = 1 + len(response.read())
    whole = time.perf_counter() - start
    assert response.status == 200, (path, response.status)
    connection.close()
    return first, whole, size


def group_file_download(env: dict[str, str], evenings: int, repeat: int) -> None:
    from django.contrib.auth import get_user_model
    from django.test import Client

    owner = get_user_model().objects.create_user(f"family-{secrets.token_hex(4)}")
    group = build_group(owner, evenings)
    client = Client()
    client.force_login(owner)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    port = free_port()
    server = start_host(port, {**os.environ, **env}, workers=1)
    try:
        wait_until_up(f"http://127.0.0.1:{port}/accounts/login/", server)
        for _ in range(5):  # the worker warmed up, as one that has served pages
            fetch(port, "/accounts/login/", cookie)
        before = worker_memory(server.pid)
        export = f"/groups/{group.pk}/export.json"
        logins, firsts, wholes = [], [], []
        size = 0
        for _ in range(repeat):
            logins.append(fetch(port, "/accounts/login/", cookie)[0])
            first, whole, size = fetch(port, export, cookie)
            firsts.append(first)
            wholes.append(whole)
        after = worker_memory(server.pid)
    finally:
        stop(server)
    login, first = statistics.median(logins), statistics.median(firsts)
    rounds = evenings * GROUP_ROUNDS
    print(
        f"\nA group's file at {rounds:,} rounds ({evenings} evenings), from one gunicorn "
        f"worker (median of {repeat}): {size / 1e6:.1f} MB"
    )
    print(f"{'':34} {'ms':>8} {'× log-in':>9}")
    print(f"{'log-in page, first byte':34} {login * 1000:8.1f} {1:9.1f}")
    print(f"{'group file, first byte':34} {first * 1000:8.1f} {first / login:9.1f}")
    whole = statistics.median(wholes)
    print(f"{'group file, whole download':34} {whole * 1000:8.1f} {whole / login:9.1f}")
    print(
        f"worker: {before['rss']:.0f} MB before, peak {after['peak']:.0f} MB during, "
        f"{after['rss']:.0f} MB held after"
    )
    print(
        f"Targets: first byte within {FIRST_BYTE_TARGET:g}× the log-in page: "
        f"{'yes' if first / login <= FIRST_BYTE_TARGET else 'NO'} ({first / login:.1f}×); "
        f"worker under {WORKER_MB_TARGET:g} MB: "
        f"{'yes' if after['peak'] < WORKER_MB_TARGET else 'NO'} ({after['peak']:.0f} MB)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument(
        "--evenings", type=int, default=500, help="the group's evenings (of 20 rounds; 0: none)"
    )
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="marriage-export-"))
    try:
        env = configure(tmp, postgres=False)
        import django

        django.setup()
        from django.contrib.auth import get_user_model
        from django.core.management import call_command

        from scoring.selectors.files import export_session, session_doc

        call_command("migrate", verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        owner = get_user_model().objects.create_user(f"bench-{secrets.token_hex(4)}")
        print(f"{'export at ' + str(args.rounds) + ' rounds':32} {'ms':>8} {'queries':>8}")
        for preset in ("pagat", "nepal"):
            session = build_session(owner, args.rounds, f"Export {preset}", preset)
            for name, call in (
                (f"session_doc, {preset}", lambda s=session: session_doc(s)),
                (f"export_session, {preset}", lambda s=session: export_session(s)),
            ):
                seconds, queries = measure(call, args.repeat)
                print(f"{name:32} {seconds * 1000:8.1f} {queries:8d}")
        if args.evenings:
            group_file_download(env, args.evenings, args.repeat)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
