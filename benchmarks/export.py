"""The session export at 1,000 rounds (issue 24): the document read from the
database (`session_doc`) and the export built from it (`export_session`),
median seconds and queries, under pagat and under nepal (next-winner dhoos).

    .venv/bin/python benchmarks/export.py [--rounds 1000] [--repeat 7]
"""

from __future__ import annotations

import argparse
import secrets
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.run import build_session, configure, measure


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="marriage-export-"))
    try:
        configure(tmp, postgres=False)
        import django

        django.setup()
        from django.contrib.auth import get_user_model
        from django.core.management import call_command

        from scoring.selectors.files import export_session, session_doc

        call_command("migrate", verbosity=0)
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
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
