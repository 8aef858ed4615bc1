import os
import tempfile
from pathlib import Path

from django.core.management.base import CommandError

from localise.sessionfiles import load_session
from scoring.engine.sessionfile import SessionFileError, dumps
from scoring.models import GameSession
from scoring.selectors.files import export_session
from scoring.selectors.snapshot import read_snapshot

from ..sessionfiles import SessionFileCommand
from ..sessionfiles import session_id as session_id_arg


def write_atomically(path: Path, text: str) -> None:
    """Write via a temporary file and a rename, so an interrupted backup never
    leaves a half-written file where a good one was."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def restore_problem(text: str) -> str | None:
    """Why import_session would refuse this export, or None: a session saved
    before a limit or a rule it breaks existed is still written, but its backup
    would not restore, and whoever keeps the backups must hear of it."""
    try:
        load_session(text)
    except SessionFileError as error:
        return str(error)
    return None


class Command(SessionFileCommand):
    help = (
        "Print a saved session as marriage-session/1 export JSON, or with --all DIR "
        "write every session to DIR/session-<id>.json (a backup: import_session reads them)."
    )

    def add_arguments(self, parser):
        parser.add_argument("id", type=session_id_arg, nargs="?")
        parser.add_argument(
            "--all", metavar="DIR", dest="all_dir", help="write every session into DIR"
        )

    def handle(self, *args, **options):
        if options["all_dir"] is not None:
            if options["id"] is not None:
                raise CommandError("give a session id or --all DIR, not both", returncode=2)
            return self.export_all(Path(options["all_dir"]))
        if options["id"] is None:
            raise CommandError(
                "id: give a session id, or --all DIR for every session", returncode=2
            )
        with read_snapshot():
            try:
                session = GameSession.objects.get(pk=options["id"])
            except GameSession.DoesNotExist:
                raise CommandError(f"id: no session {options['id']}", returncode=2) from None
            text = dumps(export_session(session))
        self.stdout.write(text, ending="")
        problem = restore_problem(text)
        if problem is not None:
            raise CommandError(
                f"session {session.pk}: written, but import_session would refuse it: {problem}",
                returncode=1,
            )

    def export_all(self, directory: Path) -> None:
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise CommandError(
                f"--all: cannot create {directory}: {error.strerror}", returncode=2
            ) from None
        count = 0
        failed: list[int] = []
        unrestorable: list[int] = []  # written, but a restore would refuse the file
        # Each session is read in its own snapshot: a round saved or undone while
        # the backup runs is in a session's file whole or not at all.
        for session_id in GameSession.objects.order_by("pk").values_list("pk", flat=True):
            path = directory / f"session-{session_id}.json"
            try:
                with read_snapshot():
                    session = GameSession.objects.filter(pk=session_id).first()
                    if session is None:
                        continue  # deleted since the list was read: nothing to back up
                    text = dumps(export_session(session))
                write_atomically(path, text)
                problem = restore_problem(text)
                if problem is not None:
                    unrestorable.append(session_id)
                    self.stderr.write(
                        f"--all: session {session_id} written to {path}, but import_session "
                        f"would refuse it: {problem}"
                    )
            except OSError as error:
                failed.append(session_id)
                self.stderr.write(f"--all: cannot write {path}: {error.strerror or error}")
            except Exception as error:  # one bad session must not stop the backup of the rest
                failed.append(session_id)
                self.stderr.write(f"--all: session {session_id} not written: {error!r}")
            else:
                count += 1
        noun = "session" if count == 1 else "sessions"
        self.stdout.write(f"{count} {noun} written to {directory}")
        problems = []
        if failed:
            problems.append(f"{len(failed)} not written (session {', '.join(map(str, failed))})")
        if unrestorable:
            listed = ", ".join(map(str, unrestorable))
            problems.append(f"{len(unrestorable)} not restorable (session {listed})")
        if problems:
            raise CommandError(f"--all: {'; '.join(problems)}; see the lines above", returncode=1)
