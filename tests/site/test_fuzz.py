"""Bad input, thrown at random: session files at the import command and form
posts at the round form. Every one is either saved whole or refused with a
message, and after a refusal the database is exactly as it was."""

from __future__ import annotations

import json
import tempfile
from dataclasses import replace
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from scoring import services
from scoring.engine import Entry, RoundInput
from scoring.engine.numbers import parse_whole
from scoring.engine.rules import OPTION_NAMES, PRESETS
from scoring.engine.sessionfile import export_document, loads
from scoring.models import GameSession, Player, Round, RoundChange, RoundEntry
from scoring.selectors.files import export_session
from tests.web_helpers import make_session

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def db_state() -> tuple:
    """Everything a refused input could have touched."""
    return (
        list(
            GameSession.objects.order_by("pk").values_list("pk", "name", "played_on", "updated_at")
        ),
        list(Player.objects.order_by("pk").values_list("pk", "name")),
        list(
            Round.objects.order_by("pk").values_list(
                "pk", "number", "version", "winner_id", "tiplu"
            )
        ),
        list(
            RoundEntry.objects.order_by("pk").values_list(
                "pk", "player_id", "status", "maal", "tunnel", "dhoos", "net", "maal_tally"
            )
        ),
        RoundChange.objects.count(),
    )


# --- Session files -----------------------------------------------------------------------------

NAMES = ["Aama", "Buwa", "Didi", "Dai", "Bahini", "Kaka"]
junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)
small = st.one_of(st.integers(min_value=-3, max_value=40), junk)


def maybe(strategy):
    """A valid-looking value most of the time, anything at all sometimes."""
    return st.one_of(strategy, strategy, strategy, junk)


@st.composite
def session_files(draw):
    players = draw(maybe(st.lists(st.sampled_from(NAMES), min_size=0, max_size=6, unique=False)))
    names = players if isinstance(players, list) else NAMES[:3]
    names = [n for n in names if isinstance(n, str)] or ["Aama"]
    rules = draw(
        maybe(
            st.fixed_dictionaries(
                {},
                optional={
                    "preset": maybe(st.sampled_from([*PRESETS, "house"])),
                    **{name: small for name in draw(st.sets(st.sampled_from(OPTION_NAMES)))},
                },
            )
        )
    )
    entry = st.fixed_dictionaries(
        {"player": maybe(st.sampled_from([*names, "Stranger"]))},
        optional={
            "status": maybe(st.sampled_from(["seen", "unseen", "blind"])),
            "maal": small,
            "tunnel": maybe(st.integers(min_value=0, max_value=3)),
            "dhoos": maybe(st.booleans()),
            "net": small,
            "maal_tally": maybe(
                st.one_of(
                    st.dictionaries(
                        st.sampled_from(["tiplu", "poplu", "jhiplu", "marriages", "alter", "x"]),
                        st.integers(min_value=-1, max_value=3),
                        max_size=3,
                    ),
                    junk,
                )
            ),
        },
    )
    round_ = st.fixed_dictionaries(
        {"entries": maybe(st.lists(entry, max_size=6))},
        optional={
            "winner": maybe(st.one_of(st.none(), st.sampled_from([*names, "Stranger"]))),
            "win_type": maybe(st.sampled_from(["normal", "dublee", "tunnel"])),
            "better": maybe(st.booleans()),
            "tiplu": st.one_of(st.sampled_from(["7H", "qs", "10S", "ZZ", ""]), junk),
        },
    )
    document = draw(
        st.fixed_dictionaries(
            {
                "format": maybe(st.just("marriage-session/1")),
                "name": maybe(st.text(min_size=1, max_size=30)),
                "players": st.just(players),
                "rounds": maybe(st.lists(round_, max_size=5)),
            },
            optional={
                "currency": maybe(st.sampled_from(["NPR", "INR", "", "TOOLONGCODE"])),
                "stake_per_point": maybe(st.sampled_from(["2.50", "1", "-1", "abc", "1e400"])),
                "rules": st.just(rules),
                "played_on": maybe(st.sampled_from(["2026-10-02", "2026-13-01", "Tihar"])),
                "extra": junk,
            },
        )
    )
    return json.dumps(document, allow_nan=True)


@st.composite
def plausible_files(draw):
    """What a real file looks like; some rounds still break a rule (and are refused)."""
    players = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=5, unique=True))
    rounds = []
    for _ in range(draw(st.integers(0, 6))):
        playing = draw(st.lists(st.sampled_from(players), min_size=2, unique=True))
        entries = [
            {
                "player": name,
                "status": draw(st.sampled_from(["seen", "seen", "unseen"])),
                "maal": draw(st.integers(0, 30)),
                "tunnel": draw(st.sampled_from([0, 0, 0, 1])),
                "dhoos": draw(st.integers(0, 6)) == 0,
            }
            for name in playing
        ]
        rounds.append(
            {
                "winner": draw(st.sampled_from(playing)),
                "win_type": draw(st.sampled_from(["normal"] * 4 + ["dublee"])),
                "entries": entries,
            }
        )
    document = {
        "format": "marriage-session/1",
        "name": draw(st.text(min_size=1, max_size=20)),
        "currency": "NPR",
        "stake_per_point": draw(st.sampled_from(["2.50", "1", "0.25"])),
        "rules": {"preset": draw(st.sampled_from(list(PRESETS)))},
        "players": players,
        "rounds": rounds,
    }
    return json.dumps(document)


texts = st.one_of(
    plausible_files(),
    plausible_files(),
    session_files(),
    session_files().map(lambda text: text[: len(text) // 2]),  # cut short
    st.text(max_size=200),
    st.binary(max_size=200).map(lambda b: b.decode("latin-1")),
)


@pytest.fixture
def folder():
    with tempfile.TemporaryDirectory() as name:
        yield Path(name)


# Found by this test on PostgreSQL, which refuses a NUL in text outright.
NUL_NAME = (
    '{"format": "marriage-session/1", "name": "\\u0000", "currency": "NPR", '
    '"stake_per_point": "2.50", "rules": {"preset": "pagat"}, "players": ["Aama", "Buwa"]}'
)


@FUZZ
@given(text=texts)
@example(text=NUL_NAME)
def test_import_saves_whole_or_refuses_with_a_message(folder, text):
    path = folder / "session.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    before = db_state()
    known = set(GameSession.objects.values_list("pk", flat=True))
    out = StringIO()
    try:
        call_command("import_session", str(path), stdout=out)
    except CommandError as error:
        message = str(error)
        assert message.strip() and "\n" not in message.strip(), message
        assert "Traceback" not in message
        assert db_state() == before
        event("refused")
        return
    event("saved")
    # Saved: exactly one new session, and it is the whole file.
    created = GameSession.objects.exclude(pk__in=known)
    assert created.count() == 1
    session = created.get()
    assert out.getvalue().strip().splitlines()[-1] == str(session.pk)
    doc = loads(text)
    # A file without a date is saved as played today.
    expected = export_document(replace(doc, played_on=doc.played_on or session.played_on))
    assert json.loads(json.dumps(export_session(session))) == json.loads(json.dumps(expected))


# --- Round form --------------------------------------------------------------------------------

field_text = st.one_of(
    st.integers(min_value=-5, max_value=60).map(str),
    st.sampled_from(["", " ", "07", "3.5", "1e3", "٣", "99999999999999999999", "-0", "NaN"]),
    # Found refused by int() after isdigit() said yes, or taken by int() though no number.
    st.sampled_from(["²", "1_000", "５", "٣", "९", "9" * 5000]),
    st.text(max_size=6),
)


@st.composite
def round_posts(draw, ids: list[int], foreign: int):
    """Half the posts are what a browser would send (possibly a refused round), the
    other half anything at all in the same fields."""
    clean = draw(st.booleans())
    number = st.integers(min_value=0, max_value=25).map(str) if clean else field_text
    data: dict[str, str] = {}
    playing = []
    for pid in ids:
        if draw(st.integers(0, 3)) if clean else draw(st.booleans()):
            data[f"p-{pid}-plays"] = "on" if clean else draw(st.sampled_from(["on", "off", ""]))
            playing.append(pid)
        if clean or draw(st.integers(0, 9)):
            data[f"p-{pid}-status"] = draw(
                st.sampled_from(["seen", "seen", "unseen"])
                if clean
                else st.one_of(st.sampled_from(["seen", "unseen"]), st.text(max_size=6))
            )
        for field in ("maal", "tunnel"):
            if clean and field == "tunnel":
                data[f"p-{pid}-tunnel"] = draw(st.sampled_from(["", "0", "0", "1"]))
            elif clean or draw(st.integers(0, 9)):
                data[f"p-{pid}-{field}"] = draw(number)
        if draw(st.integers(0, 5) if clean else st.booleans()) == 1:
            data[f"p-{pid}-dhoos"] = "on" if clean else draw(st.sampled_from(["on", "", "yes"]))
    choices = [*map(str, ids), "none", str(foreign), "", "abc", "-1"]
    if clean and playing:
        data["winner"] = str(draw(st.sampled_from(playing)))
    elif draw(st.integers(0, 9)):
        data["winner"] = draw(st.sampled_from(choices))
    if clean or draw(st.integers(0, 9)):
        data["win_type"] = draw(
            st.sampled_from(["normal"] * 4 + ["dublee"] + ([] if clean else ["tunnel", ""]))
        )
    if draw(st.booleans()):
        data["better"] = draw(st.sampled_from(["on", "", "1"]))
    if not clean and draw(st.integers(0, 4)) == 0:
        data["tiplu"] = draw(st.sampled_from(["", "QH", "10S", "ZZ", "AH"]))
    return data


@pytest.fixture
def table():
    owner = get_user_model().objects.create_user("aama")
    session = make_session(owner, players=("Aama", "Buwa", "Didi", "Dai", "Bahini"))
    stranger = make_session(get_user_model().objects.create_user("other"), name="Elsewhere")
    client = Client()
    client.force_login(owner)
    return session, stranger.players.first().pk, client


@given(data=st.data())
@FUZZ
def test_round_form_saves_whole_or_refuses_with_a_message(table, data):
    session, foreign, client = table
    ids = list(session.players.values_list("pk", flat=True))
    post = data.draw(round_posts(ids, foreign))
    before = db_state()
    rounds_before = set(Round.objects.values_list("pk", flat=True))
    response = client.post(f"/sessions/{session.pk}/rounds/new/", post)
    event(f"status {response.status_code}")
    if response.status_code == 302:
        new = Round.objects.exclude(pk__in=rounds_before)
        assert new.count() == 1
        round_ = new.get()
        entries = list(round_.entries.select_related("player"))
        assert sum(e.net for e in entries) == 0  # what one pays, the others get
        assert {e.player_id for e in entries} == {
            pid for pid in ids if post.get(f"p-{pid}-plays") == "on"
        }
        for entry in entries:
            # A missing status is the form's default, seen; a blank number is 0.
            assert post.get(f"p-{entry.player_id}-status", "seen") == entry.status
            typed = post.get(f"p-{entry.player_id}-maal", "").strip()
            assert parse_whole(typed or "0", devanagari=True) == entry.maal
        assert RoundChange.objects.filter(round_pk=round_.pk, action="create").count() == 1
        return
    assert response.status_code == 422, response.status_code
    body = response.content.decode()
    assert 'class="errorlist' in body, post
    assert db_state() == before


@given(data=st.data())
@FUZZ
def test_round_edit_saves_whole_or_refuses_with_a_message(table, data):
    session, foreign, client = table
    ids = list(session.players.values_list("pk", flat=True))
    round_ = Round.objects.filter(session=session).first()
    if round_ is None:
        round_ = services.add_round(
            session=session,
            round_input=RoundInput(
                entries=(
                    Entry(player="Aama", status="seen", maal=5),
                    Entry(player="Buwa", status="seen", maal=3),
                ),
                winner="Aama",
            ),
        )
    round_.refresh_from_db()
    post = data.draw(round_posts(ids, foreign))
    post["version"] = str(round_.version)
    before = db_state()
    response = client.post(f"/sessions/{session.pk}/rounds/{round_.pk}/edit/", post)
    event(f"status {response.status_code}")
    if response.status_code == 302:
        round_.refresh_from_db()
        entries = list(round_.entries.all())
        assert sum(e.net for e in entries) == 0
        assert {e.player_id for e in entries} == {
            pid for pid in ids if post.get(f"p-{pid}-plays") == "on"
        }
        if round_.version == int(post["version"]):  # saved as it was: nothing written
            assert db_state() == before
        else:
            assert round_.version == int(post["version"]) + 1
        return
    assert response.status_code == 422, response.status_code
    assert 'class="errorlist' in response.content.decode(), post
    assert db_state() == before
