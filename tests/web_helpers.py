"""Shared by the tests/test_web_* files: a logged-in owner, a session, round POST data."""

from __future__ import annotations

import re
from decimal import Decimal

from scoring.engine import Entry, RoundInput, make_rules
from scoring.engine.settlement import Status
from scoring.models import GameSession, Player


def make_session(
    owner,
    players=("Aama", "Buwa", "Didi", "Dai"),
    stake="2.50",
    preset="pagat",
    name="Tihar night",
    **options,
) -> GameSession:
    session = GameSession.objects.create(
        owner=owner,
        name=name,
        stake_per_point=Decimal(stake),
        rules=make_rules(preset, **options).to_options(),
    )
    Player.objects.bulk_create(
        Player(session=session, name=name, position=i) for i, name in enumerate(players)
    )
    return session


def round_data(
    session: GameSession,
    rows: dict[str, tuple],
    winner: str | None,
    win_type: str = "normal",
    better: bool = False,
) -> dict[str, str]:
    """POST data of the round form. rows: name -> (status, maal[, tunnel[, dhoos]]);
    a session player missing from rows sits the round out."""
    data: dict[str, str] = {"win_type": win_type}
    ids = {p.name: p.pk for p in session.players.all()}
    for name, pid in ids.items():
        if name not in rows:
            data[f"p-{pid}-status"] = "seen"
            data[f"p-{pid}-maal"] = ""
            data[f"p-{pid}-tunnel"] = ""
            continue
        status, maal, tunnel, dhoos = (*rows[name], 0, False)[:4]
        data[f"p-{pid}-plays"] = "on"
        data[f"p-{pid}-status"] = status
        data[f"p-{pid}-maal"] = str(maal)
        data[f"p-{pid}-tunnel"] = str(tunnel)
        if dhoos:
            data[f"p-{pid}-dhoos"] = "on"
    data["winner"] = str(ids[winner]) if winner else "none"
    if better:
        data["better"] = "on"
    return data


# RULES.md worked example (preset pagat), with the family's names:
# Didi wins; Aama seen 5, Buwa unseen 2, Didi 7, Dai seen 0.
# T = 14, n = 4. Nets: Aama +3, Buwa −16, Didi +30, Dai −17.
WORKED: dict[str, tuple[Status, int]] = {
    "Aama": ("seen", 5),
    "Buwa": ("unseen", 2),
    "Didi": ("seen", 7),
    "Dai": ("seen", 0),
}


def worked_round() -> RoundInput:
    """RULES.md's worked example: Didi wins; nets Aama +3, Buwa −16, Didi +30, Dai −17."""
    return RoundInput(
        entries=(
            Entry("Aama", "seen", 5),
            Entry("Buwa", "unseen", 2),
            Entry("Didi", "seen", 7),
            Entry("Dai", "seen", 0),
        ),
        winner="Didi",
    )


def rule_fields(rules) -> dict[str, str]:
    """The rules as the form posts them: ticked boxes as "on", unticked left out.
    The maal point table has its own page, not a field here."""
    data = {}
    for name, value in rules.to_options().items():
        if name == "maal_points" or value is False:
            continue
        data[name] = "on" if value is True else str(value)
    return data


def rules_post(rules, **overrides) -> dict[str, str]:
    """The rules form's POST: these rules (preset pagat as the base), with overrides;
    an override of None leaves that field out."""
    data = {"preset": "pagat", **rule_fields(rules)}
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


def filled_in_token(response) -> str:
    """A page has this request's values in it: the nonce the CSP header names.
    Returns its CSRF token."""
    html = response.content.decode()
    found = re.search(r'nonce="([^"]+)"', html)
    assert found is not None
    nonce = found.group(1)
    assert f"'nonce-{nonce}'" in response.headers["Content-Security-Policy"]
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert token is not None
    return token.group(1)
