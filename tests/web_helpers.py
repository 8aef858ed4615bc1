"""Shared by the tests of pages: a session, round POST data, a round entered, a
form's field errors, and phones posting to the live server at once."""

from __future__ import annotations

import json
import re
import secrets
import threading
import urllib.error
import urllib.parse
import urllib.request
from decimal import Decimal
from html import unescape

from django.db import OperationalError, connection, connections
from django.test import Client
from django.urls import reverse

from scoring import services
from scoring.engine import PRESETS, Entry, RoundInput, make_rules
from scoring.engine.settlement import Status
from scoring.models import GameSession, Player, Round, RoundEntry


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


ZEROS = {"Aama": ("seen", 0), "Buwa": ("seen", 0), "Didi": ("seen", 0), "Dai": ("seen", 0)}


def entered(client, session, rows, winner, **kwargs):
    """Enter a round through the round form; the round saved."""
    response = client.post(
        reverse("round_new", args=[session.pk]), round_data(session, rows, winner, **kwargs)
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    return Round.objects.filter(session=session).order_by("-number").first()


def nets(round_: Round) -> dict[str, int]:
    return {
        e.player.name: e.net
        for e in RoundEntry.objects.filter(round=round_).select_related("player")
    }


def page(client, name, session) -> str:
    return client.get(reverse(name, args=[session.pk])).content.decode()


def everything() -> list:
    return [
        list(GameSession.objects.values_list("id", "name", "updated_at")),
        list(Player.objects.values_list("id", "name", "name_key")),
        list(Round.objects.values_list("id", "number", "version")),
        list(RoundEntry.objects.values_list("id", "maal", "net", "maal_tally")),
    ]


def field_errors(html: str, field: str) -> str:
    html = unescape(html)
    part = html[html.index(f'id="field-{field}"') :]
    return part[: part.index("</div>")]


INVISIBLE = "a player name must have a visible letter or digit, not only invisible characters"


def invisible_in(name: str, code: str) -> str:
    return (
        f"{name} contains an invisible character (U+{code}, a zero-width or text-direction "
        "control); type the name again without it"
    )


def database_goes_away_after(monkeypatch, name: str):
    """services.<name> commits, then every query fails: a database stopped at the
    worst moment. Returns the wrapper to run the request under."""
    down: list[bool] = []

    def refuse(execute, sql, params, many, context):
        if down:
            raise OperationalError("server closed the connection unexpectedly")
        return execute(sql, params, many, context)

    saving = getattr(services, name)

    def save_then_lose_the_database(*args, **kwargs):
        saved = saving(*args, **kwargs)
        down.append(True)  # the commit is done; the database stops now
        return saved

    monkeypatch.setattr(services, name, save_then_lose_the_database)
    return connection.execute_wrapper(refuse)


def tallied_round(session) -> dict[str, str]:
    # Aama's 7 maal points counted by the calculator: two tiplu.
    data = round_data(session, {**WORKED, "Aama": ("seen", 7)}, "Didi")
    ids = {p.name: p.pk for p in session.players.all()}
    data["tiplu"] = "7H"
    data[f"p-{ids['Aama']}-maal_tally"] = json.dumps({"tiplu": 2})
    return data


def enter(client, session, rows, winner, **kwargs):
    return client.post(
        reverse("round_new", args=[session.pk]), round_data(session, rows, winner, **kwargs)
    )


def field_block(html: str, name: str) -> str:
    return html.split(f'id="field-{name}"')[1].split("</div>")[0]


def last_message(client, url) -> str:
    """The newest message shown on `url` (earlier ones come from entering rounds)."""
    response = client.get(url)
    return [str(m) for m in response.context["messages"]][-1]


def session_post(**overrides) -> dict[str, str]:
    """A complete new-session form: preset pagat with its own values."""
    data = {
        "name": "Dashain at Aama's",
        "played_on": "2026-10-02",
        "currency": "npr",
        "stake_per_point": "2.50",
        "players": "Aama\nBuwa\n  Didi  \n\nDai\n",
        "preset": "pagat",
        **rule_fields(PRESETS["pagat"]),
    }
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


class Phone:
    """One phone: its own log-in cookie, sending form posts with a CSRF token."""

    def __init__(self, base_url: str, user) -> None:
        client = Client()
        client.force_login(user)
        self.base_url = base_url
        self.csrf = secrets.token_hex(16)  # a 32-character secret, sent as cookie and header
        self.cookie = f"sessionid={client.cookies['sessionid'].value}; csrftoken={self.csrf}"

    def post(self, path: str, data: dict[str, str]) -> tuple[int, str]:
        request = urllib.request.Request(
            self.base_url + path,
            data=urllib.parse.urlencode(data).encode(),
            headers={"Cookie": self.cookie, "X-CSRFToken": self.csrf},
            method="POST",
        )
        opener = urllib.request.build_opener(NoRedirect)
        try:
            with opener.open(request, timeout=60) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def at_once(*calls):
    """Run the calls in threads released together; their results in order."""
    barrier = threading.Barrier(len(calls))
    results: list[object] = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            results[index] = call()
        finally:
            connections.close_all()  # a thread's own connection would outlive the test

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results


def hand(session, maal: int) -> dict[str, str]:
    """A round told apart from the others by Aama's maal."""
    rows = {"Aama": ("seen", maal), "Buwa": ("seen", 2), "Didi": ("seen", 7), "Dai": ("seen", 0)}
    return round_data(session, rows, "Didi")


def _dhoos_evening(client, session) -> list[Round]:
    """Round 1: the worked example, Dai given dhoos. Round 2: Dai sits out, Aama
    wins. Round 3: Dai plays, Buwa wins."""
    first = entered(client, session, {**WORKED, "Dai": ("seen", 0, 0, True)}, "Didi")
    three = {k: v for k, v in ZEROS.items() if k != "Dai"}
    second = entered(client, session, three, "Aama")
    return [first, second]


def played(session, *rounds: tuple[str | None, dict[str, bool]]) -> list[Round]:
    names = [p.name for p in session.players.all()]
    return [
        services.add_round(
            session=session,
            round_input=RoundInput(
                entries=tuple(Entry(n, dhoos=dhoos.get(n, False)) for n in names), winner=winner
            ),
        )
        for winner, dhoos in rounds
    ]


def page_text(response) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())
