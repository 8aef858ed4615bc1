from django.core.management.base import CommandError

from groups.models import Group
from groups.selectors import group_file

from ._groupfiles import GroupFileCommand


class Command(GroupFileCommand):
    help = "Print a saved group as a marriage-group/1 file, with its balances and transfers."

    def add_arguments(self, parser):
        parser.add_argument("id", type=int)

    def handle(self, *args, **options):
        group = Group.objects.filter(pk=options["id"]).first()
        if group is None:
            raise CommandError(f"no group {options['id']}", returncode=2)
        for text in group_file(group):  # written as it is read: one evening held at a time
            self.stdout.write(text, ending="")
