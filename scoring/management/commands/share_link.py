from django.core.management.base import BaseCommand, CommandError

from scoring.models import GameSession
from scoring.views_share import share_path


class Command(BaseCommand):
    help = "Print the path of a session's read-only share page, creating the link if needed."

    def add_arguments(self, parser):
        parser.add_argument("id", type=int)

    def handle(self, *args, **options):
        try:
            session = GameSession.objects.get(pk=options["id"])
        except GameSession.DoesNotExist:
            raise CommandError(f"id: no session {options['id']}", returncode=2) from None
        self.stdout.write(share_path(session))
