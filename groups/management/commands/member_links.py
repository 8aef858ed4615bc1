"""`manage.py member_links GROUP [--base URL]`: one line per member of the
group (its id, or its name), `NAME<TAB>URL`, making the links that do not
exist yet. Each link opens its member's seat in the group's evening in
progress, whichever evening that is (docs/groups.md). The base is as for
`seat_links`: by default this machine's first private address on --port."""

from __future__ import annotations

from django.core.management.base import CommandError
from django.urls import reverse

from groups import services
from groups.models import Group
from scoring.management.sessionfiles import SessionFileCommand
from table.lan import lan_url, private_addresses


def find_group(text: str) -> Group:
    """A group by its id (ASCII digits) or its exact name; one line if none or several."""
    if text.isascii() and text.isdigit() and len(text) < 12:
        group = Group.objects.filter(pk=int(text)).first()
    else:
        named = list(Group.objects.filter(name=text)[:2])
        if len(named) > 1:
            raise CommandError(f"group: several groups are named {text!r}; give its id", 2)
        group = named[0] if named else None
    if group is None:
        raise CommandError(f"group: no group {text[:100]!r}", returncode=2)
    return group


class Command(SessionFileCommand):
    help = "Print NAME<TAB>URL for each member's lasting link of a group, making missing ones."

    def add_arguments(self, parser):
        parser.add_argument("group", help="the group's id or name")
        parser.add_argument("--base", default="", help="e.g. http://192.168.1.20:8000")
        parser.add_argument(
            "--port", type=int, default=8000, help="without --base: make lan's port"
        )

    def handle(self, *args, **options):
        group = find_group(options["group"])
        base = options["base"].rstrip("/")
        if not base:
            addresses = private_addresses()
            base = lan_url(addresses[0], options["port"]).rstrip("/") if addresses else ""
        if base and not base.startswith(("http://", "https://")):
            raise CommandError(f"--base: must start with http:// or https://, got {base!r}", 2)
        for link in services.make_member_links(group=group):
            self.stdout.write(
                f"{link.member.name}\t{base}{reverse('member_seat', args=[link.token])}"
            )
