"""`manage.py settle_pot FILE`: the result object as JSON on stdout; a refused,
unreadable or non-JSON file is exit status 2 with one plain line on stderr
(every refusal with --all), and nothing is saved."""

from __future__ import annotations

import copy
import io
import json
import sys

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from callbreak.engine.limits import MAX_DOCUMENT_BYTES, MAX_NAME_LENGTH
from pots.engine import settle_document
from pots.engine.limits import MAX_HANDS, MAX_PLAYERS
from tests.callbreak.cli import manage, write
from tests.pots.sessions import EXAMPLE


def run(*args: str, stdin: str | None = None) -> str:
    out = io.StringIO()
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        call_command("settle_pot", *args, stdout=out)
    finally:
        sys.stdin = saved
    return out.getvalue()


def refused(*args: str, stdin: str | None = None) -> str:
    with pytest.raises(CommandError) as error:
        run(*args, stdin=stdin)
    assert error.value.returncode == 2
    return str(error.value)


def test_prints_the_result_object(tmp_path):
    out = run(write(tmp_path, EXAMPLE))
    assert json.loads(out) == settle_document(EXAMPLE)
    assert list(json.loads(out)) == ["money", "per_hand", "transfers"]
    assert run("-", stdin=json.dumps(EXAMPLE)) == out


def test_a_refused_document_is_its_first_refusal(tmp_path):
    document = copy.deepcopy(EXAMPLE)
    document["hands"][1]["took"]["Bikash"] = "3.00"
    document["hands"][2]["put_in"]["Dipa"] = "1.00"
    assert refused(write(tmp_path, document)) == (
        "P_NOT_ZERO_SUM: hand 2: took 3.00 and carry_out 5.00 make 8.00, not the pot of 9.00 "
        "(put in 9.00, carry_in 0.00)"
    )
    assert refused("-", "--all", stdin=json.dumps(document)).splitlines() == [
        "P_NOT_ZERO_SUM: hand 2: took 3.00 and carry_out 5.00 make 8.00, not the pot of 9.00 "
        "(put in 9.00, carry_in 0.00)",
        'P_UNKNOWN_PLAYER: hand 3, put_in: "Dipa" is not one of the players',
    ]


def test_text_that_is_not_a_document(tmp_path):
    assert refused("-", stdin="[1,]") == "-: not JSON: Expecting value at line 1, column 4"
    missing = str(tmp_path / "nope.json")
    assert refused(missing) == f"{missing}: cannot read: No such file or directory"


def test_the_largest_session_fits_the_file_limit():
    names = [chr(0x1F600 + seat) * MAX_NAME_LENGTH for seat in range(MAX_PLAYERS)]
    amounts = dict.fromkeys(names, "10000000.00")
    hand = {"game": "teen_patti", "put_in": amounts, "took": amounts}
    document = {"format": "pot-session/1", "players": names, "hands": [hand] * MAX_HANDS}
    assert len(json.dumps(document, indent=2).encode()) < MAX_DOCUMENT_BYTES


@pytest.mark.django_db
def test_nothing_is_saved(tmp_path):
    from scoring.models import GameSession

    run(write(tmp_path, EXAMPLE))
    assert GameSession.objects.count() == 0


def test_cli_exit_codes_stdout_and_one_line_on_stderr(tmp_path):
    good = manage("settle_pot", write(tmp_path, EXAMPLE))
    assert (good.returncode, good.stderr) == (0, "")
    assert json.loads(good.stdout)["money"] == {
        "Asha": "-13.00",
        "Bikash": "21.00",
        "Chandra": "-8.00",
    }
    bad = manage("settle_pot", "-", stdin=json.dumps(EXAMPLE | {"format": "pots/1"}))
    assert (bad.returncode, bad.stdout) == (2, "")
    assert bad.stderr == 'P_DOC: format: must be "pot-session/1", got "pots/1"\n'
    helped = manage("settle_pot", "--help")
    assert "--all" in helped.stdout and "every refusal" in " ".join(helped.stdout.split())
