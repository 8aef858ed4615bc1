"""`manage.py seat_links SID [--base URL]`: one line per player of session SID,
`NAME<TAB>URL`, making the seat links that do not exist yet. The base is the
address the phones reach the app by: by default this machine's first private
address on --port (8000), as `make lan` prints it."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse

from scoring.models import GameSession
from table import services
from table.lan import lan_url, private_addresses


class Command(BaseCommand):
    help = "Print NAME<TAB>URL for each player's seat link of a session, making missing ones."

    def add_arguments(self, parser):
        parser.add_argument("id", type=int)
        parser.add_argument("--base", default="", help="e.g. http://192.168.1.20:8000")
        parser.add_argument(
            "--port", type=int, default=8000, help="without --base: make lan's port"
        )

    def handle(self, *args, **options):
        try:
            session = GameSession.objects.get(pk=options["id"])
        except GameSession.DoesNotExist:
            raise CommandError(f"id: no session {options['id']}", returncode=2) from None
        base = options["base"].rstrip("/")
        if not base:
            addresses = private_addresses()
            base = lan_url(addresses[0], options["port"]).rstrip("/") if addresses else ""
        if base and not base.startswith(("http://", "https://")):
            raise CommandError(f"--base: must start with http:// or https://, got {base!r}", 2)
        for seat in services.make_seats(session=session):
            self.stdout.write(
                f"{seat.player.name}\t{base}{reverse('seat_page', args=[seat.token])}"
            )
