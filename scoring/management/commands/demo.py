from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from localise.sessionfiles import load_session
from scoring.models import GameSession
from scoring.services import save_document

DEMO_FILE = Path(__file__).resolve().parents[2] / "demo" / "dashain.json"


class Command(BaseCommand):
    help = "Create the demo user (demo / demo) and a demo session, once."

    def handle(self, *args, **options):
        user, created = get_user_model().objects.get_or_create(username="demo")
        if created:
            user.set_password("demo")
            user.save()
        doc = load_session(DEMO_FILE.read_text(encoding="utf-8"))
        session = GameSession.objects.filter(owner=user, name=doc.name).first()
        if session is None:
            session = save_document(doc=doc, owner=user)
        self.stdout.write(f"Demo session {session.pk}: log in as demo / demo")
