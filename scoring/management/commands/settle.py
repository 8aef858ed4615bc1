from scoring.engine.sessionfile import dumps, export_document

from ..sessionfiles import SessionFileCommand, read_session_file


class Command(SessionFileCommand):
    help = "Print the export of a session file (- reads stdin) without saving anything."

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, **options):
        doc = read_session_file(options["file"])
        self.stdout.write(dumps(export_document(doc)), ending="")
