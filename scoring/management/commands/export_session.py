from django.core.management.base import BaseCommand, CommandError

from scoring.engine.sessionfile import dumps
from scoring.models import GameSession
from scoring.services import export_session


class Command(BaseCommand):
    help = "Print a saved session as marriage-session/1 export JSON."

    def add_arguments(self, parser):
        parser.add_argument("id", type=int)

    def handle(self, *args, **options):
        try:
            session = GameSession.objects.get(pk=options["id"])
        except GameSession.DoesNotExist:
            raise CommandError(f"id: no session {options['id']}", returncode=2) from None
        self.stdout.write(dumps(export_session(session)), ending="")
