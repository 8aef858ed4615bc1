"""A session's rules: changed whole, with every saved round settled again."""

from __future__ import annotations

from django.db import transaction

from ..engine import Rules, settle_round
from ..models import GameSession, RoundChange, RoundEntry
from .rounds import round_snapshot, rounds_with_entries


@transaction.atomic
def recompute_session(session: GameSession, rules: Rules, *, user=None) -> None:
    """Change a session's rules and settle every saved round again under them.
    Refused whole (RoundError) if any round is impossible under the new rules.
    Each round whose nets change gets a "rules" entry in the audit trail."""
    session = GameSession.objects.select_for_update().get(pk=session.pk)
    rounds = list(rounds_with_entries(session))
    results = [settle_round(r.to_input(), rules) for r in rounds]
    session.rules = rules.to_options()
    session.save(update_fields=["rules"])
    changed = []
    audit = []
    who = user if getattr(user, "pk", None) else None
    for round_, result in zip(rounds, results, strict=True):
        before = round_snapshot(round_)
        moved = []
        for entry in round_.entries.all():
            net = result.of(entry.player.name).net
            if net != entry.net:
                entry.net = net
                moved.append(entry)
        if moved:
            changed.extend(moved)
            audit.append(
                RoundChange(
                    session_id=session.pk,
                    round_pk=round_.pk,
                    action="rules",
                    user=who,
                    before=before,
                    after=round_snapshot(round_),
                )
            )
    RoundEntry.objects.bulk_update(changed, ["net"], batch_size=500)
    RoundChange.objects.bulk_create(audit, batch_size=500)
