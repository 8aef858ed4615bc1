from callbreak.management.gamefiles import GameFileCommand, add_arguments, settle_file
from pots.engine import refusals, settle_document


class Command(GameFileCommand):
    help = (
        "Print the result of a pot-session/1 file (- reads stdin) as JSON: each player's "
        "money per hand and in all, and who pays whom; nothing is saved. A refused file "
        "exits with status 2 and its first refusal on stderr (CODE: where: problem); --all "
        "prints every refusal."
    )

    def add_arguments(self, parser):
        add_arguments(parser)

    def handle(self, *args, **options):
        settled = settle_file(
            options["file"], refusals=refusals, settle=settle_document, every=options["all"]
        )
        self.stdout.write(settled, ending="")
