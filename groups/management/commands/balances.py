import json

from groups.groupfile import purse_summary

from ._groupfiles import GroupFileCommand, read_group_file


class Command(GroupFileCommand):
    help = (
        "Print a marriage-group/1 file's balances (other_games counted) and the fewest "
        "payments that clear them, as JSON (- reads stdin); nothing is saved."
    )

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, **options):
        doc = read_group_file(options["file"])
        self.stdout.write(json.dumps(purse_summary(doc), indent=2, ensure_ascii=False))
