from django.contrib.auth import get_user_model
from django.core.management.base import CommandError

from scoring.services import save_document

from ._sessionfiles import SessionFileCommand, read_session_file


class Command(SessionFileCommand):
    help = "Save a marriage-session/1 file (- reads stdin); prints the new session's id last."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--owner", help="username that will own the session")

    def handle(self, *args, **options):
        owner = None
        if options["owner"]:
            try:
                owner = get_user_model().objects.get(username=options["owner"])
            except get_user_model().DoesNotExist:
                raise CommandError(f"--owner: no user {options['owner']!r}", returncode=2) from None
        doc = read_session_file(options["file"])
        session = save_document(doc, owner=owner)
        self.stdout.write(str(session.pk))
