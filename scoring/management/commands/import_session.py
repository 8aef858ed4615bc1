from django.contrib.auth import get_user_model
from django.core.management.base import CommandError

from localise.templatetags.local_format import local_date
from scoring import plugins
from scoring.models import GameSession
from scoring.plugins import ImportInto
from scoring.selectors.files import same_evening
from scoring.services import save_document

from ..sessionfiles import SessionFileCommand, read_session_file

SECOND_COPY = "--second-copy"


class Command(SessionFileCommand):
    help = (
        "Save a marriage-session/1 file (- reads stdin); prints the new session's id last. "
        "A file holding an evening the owner already has is not imported (exit status 1) "
        f"unless {SECOND_COPY} is given."
    )

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--owner", help="username that will own the session")
        # Other places a file may go (scoring.plugins: --group, a family's evening).
        for into in plugins.imports():
            parser.add_argument(into.option, help=into.help)
        parser.add_argument(
            SECOND_COPY,
            action="store_true",
            help=(
                "import the file even when the owner already has this evening "
                "(a second copy counts the evening twice on the leaderboard)"
            ),
        )

    def handle(self, *args, **options):
        owner = None
        if options["owner"]:
            try:
                owner = get_user_model().objects.get(username=options["owner"])
            except get_user_model().DoesNotExist:
                raise CommandError(f"--owner: no user {options['owner']!r}", returncode=2) from None
        into, place = None, None
        for option in plugins.imports():
            if options.get(_dest(option)):
                into = option
                place, owner = option.find(options[_dest(option)], owner)
                break
        doc = read_session_file(options["file"])
        if into is not None:
            problem = into.problem(place, doc)
            if problem:
                raise CommandError(f"{into.option}: {problem}", returncode=2)
        if not options["second_copy"]:
            # The same question as the web import: the owner's own sessions (or,
            # without --owner, the sessions nobody owns).
            same = same_evening(doc, GameSession.objects.filter(owner=owner))
            if same is not None:
                raise already_have(same, rounds=len(doc.rounds))
        session = into.save(place, doc) if into is not None else save_document(doc=doc, owner=owner)
        self.stdout.write(str(session.pk))


def _dest(into: ImportInto) -> str:
    """The option's name in `options`, as argparse gives it ("--group": group)."""
    return into.option.lstrip("-").replace("-", "_")


def already_have(same: GameSession, *, rounds: int) -> CommandError:
    """The web import's question, as one line that says how to answer it."""
    counted = f"{rounds} round" if rounds == 1 else f"{rounds} rounds"
    return CommandError(
        f"You already have this evening: {same.name} (id {same.pk}), {counted}, "
        f"saved on {local_date(same.created_at)}. Nothing imported; {SECOND_COPY} imports "
        "a second copy anyway (the leaderboard then counts the evening twice).",
        returncode=1,
    )
