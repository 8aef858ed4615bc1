from django.core.management.base import BaseCommand
from django.db.models import Count

from scoring.models import GameSession


class Command(BaseCommand):
    help = "One line per saved session: id, name, number of rounds."

    def handle(self, *args, **options):
        sessions = GameSession.objects.annotate(round_count=Count("rounds")).order_by("id")
        for session in sessions:
            self.stdout.write(f"{session.pk}\t{session.name}\t{session.round_count}")
