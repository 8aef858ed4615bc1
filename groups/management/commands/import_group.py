from django.contrib.auth import get_user_model
from django.core.management.base import CommandError

from groups.services import import_group

from ._groupfiles import GroupFileCommand, read_group_file


class Command(GroupFileCommand):
    help = "Save a marriage-group/1 file (- reads stdin); prints the new group's id last."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--owner", help="username that will own the group")

    def handle(self, *args, **options):
        owner = None
        if options["owner"]:
            try:
                owner = get_user_model().objects.get(username=options["owner"])
            except get_user_model().DoesNotExist:
                raise CommandError(f"--owner: no user {options['owner']!r}", returncode=2) from None
        file = read_group_file(options["file"])
        doc = file.group
        group = import_group(doc=doc, other_games=file.other_games, owner=owner)
        others = f", {len(file.other_games)} other games" if file.other_games else ""
        self.stdout.write(
            f"{group.name}: {len(doc.members)} members, {len(doc.sessions)} evenings, "
            f"{len(doc.payments)} payments{others}"
        )
        self.stdout.write(str(group.pk))
