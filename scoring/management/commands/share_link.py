from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse

from scoring import services
from scoring.models import GameSession

from ..sessionfiles import session_id


class Command(BaseCommand):
    help = "Print the path of a session's read-only share page, creating the link if needed."

    def add_arguments(self, parser):
        parser.add_argument("id", type=session_id)

    def handle(self, *args, **options):
        try:
            session = GameSession.objects.get(pk=options["id"])
        except GameSession.DoesNotExist:
            raise CommandError(f"id: no session {options['id']}", returncode=2) from None
        if not session.share_token:
            services.create_share_link(session=session)
        self.stdout.write(reverse("share_view", args=[session.share_token]))
