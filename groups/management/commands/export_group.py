from django.core.management.base import CommandError

from groups.models import Group
from groups.selectors import group_doc
from scoring.engine.groupfile import dumps, export_group

from ._groupfiles import GroupFileCommand


class Command(GroupFileCommand):
    help = "Print a saved group as a marriage-group/1 file, with its balances and transfers."

    def add_arguments(self, parser):
        parser.add_argument("id", type=int)

    def handle(self, *args, **options):
        group = Group.objects.filter(pk=options["id"]).first()
        if group is None:
            raise CommandError(f"no group {options['id']}", returncode=2)
        self.stdout.write(dumps(export_group(group_doc(group))), ending="")
