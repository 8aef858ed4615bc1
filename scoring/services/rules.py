"""A session's rules: changed whole, with every saved round settled again."""

from __future__ import annotations

from django.db import transaction

from ..engine import Rules, settle_session
from ..models import GameSession
from ..selectors.rounds import rounds_with_entries
from .rounds import resettle


@transaction.atomic
def recompute_session(*, session: GameSession, rules: Rules, user=None) -> None:
    """Change a session's rules and settle every saved round again under them.
    Refused whole (RoundError) if any round is impossible under the new rules.
    Each round whose nets change gets a "rules" entry in the audit trail."""
    session = GameSession.objects.select_for_update(no_key=True).get(pk=session.pk)
    # Refuse before writing anything.
    settle_session([r.to_input(marked=True) for r in rounds_with_entries(session)], rules)
    session.rules = rules.to_options()
    session.save(update_fields=["rules"])
    resettle(session=session, rules=rules, user=user, action="rules", force=True)
