from callbreak.engine import refusals, settle_document

from ._gamefiles import GameFileCommand, add_arguments, settle_file


class Command(GameFileCommand):
    help = (
        "Print the result of a callbreak-game/1 file (- reads stdin) as JSON: scores in "
        "tenths, ranks, money and who pays whom; nothing is saved. A refused file exits "
        "with status 2 and its first refusal on stderr (CODE: where: problem); --all "
        "prints every refusal."
    )

    def add_arguments(self, parser):
        add_arguments(parser)

    def handle(self, *args, **options):
        settled = settle_file(
            options["file"], refusals=refusals, settle=settle_document, every=options["all"]
        )
        self.stdout.write(settled, ending="")
