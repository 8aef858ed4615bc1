from django.contrib.auth import get_user_model
from django.core.management.base import CommandError

from localise.templatetags.local_format import local_date
from scoring.models import GameSession
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
        parser.add_argument(
            "--group",
            help=(
                "a group's id or name: the session becomes an evening of it (owned by the "
                "group's owner; every player must be a member)"
            ),
        )
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
        group = None
        if options["group"]:
            from groups.management.commands.member_links import find_group

            group = find_group(options["group"])
            if owner is not None and owner.pk != group.owner_id:
                raise CommandError(
                    f"--group: {group.name} is not {owner.get_username()}'s group", returncode=2
                )
            owner = group.owner
        doc = read_session_file(options["file"])
        if group is not None:
            from groups.selectors import evening_problem

            problem = evening_problem(group, doc)
            if problem:
                raise CommandError(f"--group: {problem}", returncode=2)
        if not options["second_copy"]:
            # The same question as the web import: the owner's own sessions (or,
            # without --owner, the sessions nobody owns).
            same = same_evening(doc, GameSession.objects.filter(owner=owner))
            if same is not None:
                raise already_have(same, rounds=len(doc.rounds))
        if group is not None:
            from groups.services import import_evening

            session = import_evening(group=group, doc=doc)
        else:
            session = save_document(doc=doc, owner=owner)
        self.stdout.write(str(session.pk))


def already_have(same: GameSession, *, rounds: int) -> CommandError:
    """The web import's question, as one line that says how to answer it."""
    counted = f"{rounds} round" if rounds == 1 else f"{rounds} rounds"
    return CommandError(
        f"You already have this evening: {same.name} (id {same.pk}), {counted}, "
        f"saved on {local_date(same.created_at)}. Nothing imported; {SECOND_COPY} imports "
        "a second copy anyway (the leaderboard then counts the evening twice).",
        returncode=1,
    )
