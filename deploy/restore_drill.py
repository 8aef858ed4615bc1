"""The restore drill's check (deploy/restore-drill runs it on a scratch
database): import every session file of a backup with import_session, export
it again with export_session and compare the two byte for byte. One process,
so a backup of hundreds of sessions is checked in seconds, not one Django
start per file.

    python deploy/restore_drill.py BACKUP/sessions
"""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    directory = Path(sys.argv[1])
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "marriage_site.settings")
    import django

    django.setup()
    from django.core.management import call_command

    sessions = rounds = 0
    for file in sorted(directory.glob("session-*.json")):
        printed = io.StringIO()
        call_command("import_session", str(file), "--second-copy", stdout=printed)
        new_id = printed.getvalue().split()[-1]
        again = io.StringIO()
        call_command("export_session", new_id, stdout=again)
        text = file.read_text(encoding="utf-8")
        if again.getvalue() != text:
            print(f"restore-drill: {file} does not restore as it was saved", file=sys.stderr)
            return 1
        sessions += 1
        rounds += len(json.loads(text)["rounds"])
    print(
        f"restore-drill: {sessions} sessions, {rounds} rounds from {directory.parent}: "
        "each imports and exports again byte for byte"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
