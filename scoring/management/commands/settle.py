from django.core.management.base import BaseCommand

from scoring.engine.sessionfile import dumps, export_document

from ._sessionfiles import read_session_file


class Command(BaseCommand):
    help = "Print the export of a session file (- reads stdin) without saving anything."

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, **options):
        doc = read_session_file(options["file"])
        self.stdout.write(dumps(export_document(doc)), ending="")
