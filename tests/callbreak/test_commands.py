"""`manage.py settle_callbreak FILE`: the result object as JSON on stdout; a
refused, unreadable, oversized or non-JSON file is exit status 2 with one plain
line on stderr (every refusal with --all), and nothing is saved. In process
through call_command, and as the real command line."""

from __future__ import annotations

import copy
import io
import json
import sys

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from callbreak.engine import settle_document
from callbreak.engine.limits import MAX_DOCUMENT_BYTES
from tests.callbreak.cli import manage, write
from tests.callbreak.games import C01, C09


def run(*args: str, stdin: str | None = None) -> str:
    out = io.StringIO()
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        call_command("settle_callbreak", *args, stdout=out)
    finally:
        sys.stdin = saved
    return out.getvalue()


def refused(*args: str, stdin: str | None = None) -> str:
    with pytest.raises(CommandError) as error:
        run(*args, stdin=stdin)
    assert error.value.returncode == 2
    return str(error.value)


def test_prints_the_result_object(tmp_path):
    out = run(write(tmp_path, C01))
    assert json.loads(out) == settle_document(C01)
    assert out.endswith("}\n")
    assert list(json.loads(out)) == [
        "scores",
        "ranks",
        "money",
        "transfers",
        "deal_scores",
        "deals_played",
    ]
    assert run("-", stdin=json.dumps(C09)) == run(write(tmp_path, C09, "c09.json"))
    assert json.loads(run("-", stdin=json.dumps(C09)))["money"]["Asha"] == "0.13"


def test_names_are_written_as_they_are(tmp_path):
    document = copy.deepcopy(C01) | {"players": ["आमा", "Bikash", "Chandra", "Dipa"]}
    for item in document["deals"]:
        for part in ("bids", "tricks"):
            item[part] = {("आमा" if k == "Asha" else k): v for k, v in item[part].items()}
    out = run(write(tmp_path, json.dumps(document, ensure_ascii=False)))
    assert '"आमा": 72' in out


def test_a_refused_document_is_its_first_refusal(tmp_path):
    document = json.loads(json.dumps(C01))
    document["deals"][2]["tricks"]["Bikash"] = 8
    document["deals"][4]["bids"]["Asha"] = 0
    path = write(tmp_path, document)
    assert refused(path) == "E_TRICKS_SUM: deal 3: tricks total 12, not 13"
    assert (
        refused("-", stdin=json.dumps(document)) == "E_TRICKS_SUM: deal 3: tricks total 12, not 13"
    )
    assert refused(path, "--all") == (
        "E_TRICKS_SUM: deal 3: tricks total 12, not 13\n"
        "E_BID: deal 5, bids, Asha: must be a whole number from 1 to 13, got 0"
    )


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('{"format": ', "not JSON: Expecting value at line 1, column 12"),
        ("", "not JSON: Expecting value at line 1, column 1"),
        ('{"format": "callbreak-game/1", "format": "x"}', "format: given twice"),
        ("[" * 50 + "]" * 50, "nested more than 20 deep"),
    ],
)
def test_text_that_is_not_a_document(tmp_path, text, line):
    path = write(tmp_path, text)
    assert refused(path) == f"{path}: {line}"
    assert refused("-", stdin=text) == f"-: {line}"


def test_a_float_is_read_exactly_and_refused():
    document = json.dumps(C01).replace('"stake": "10.00"', '"stake": 10.1')
    assert refused("-", stdin=document) == (
        'E_STAKE: stake: must be a money string such as "10.00", got 10.1'
    )


def test_a_file_that_cannot_be_read(tmp_path):
    missing = str(tmp_path / "nope.json")
    assert refused(missing) == f"{missing}: cannot read: No such file or directory"
    binary = tmp_path / "game.json"
    binary.write_bytes(b"\xff\xfe{}")
    assert refused(str(binary)).startswith(f"{binary}: cannot read: 'utf-8' codec can't decode")


def test_a_file_too_large_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "big.json"
    path.write_bytes(b" " * (MAX_DOCUMENT_BYTES + 1))
    assert refused(str(path)) == (
        f"{path}: larger than the limit of {MAX_DOCUMENT_BYTES:,} bytes for a session file"
    )


def test_the_largest_game_fits_the_file_limit():
    """A game of the most deals, with the longest names in 4-byte characters,
    written as json.dumps writes it (every character escaped)."""
    from callbreak.engine.limits import MAX_DEALS, MAX_NAME_LENGTH

    names = [chr(0x1F600 + seat) * MAX_NAME_LENGTH for seat in range(4)]
    item = {"bids": dict.fromkeys(names, 13), "tricks": dict.fromkeys(names, 13)}
    document = {"format": "callbreak-game/1", "players": names, "stake": "10000000.00"}
    document |= {"rules": {"deals_per_game": None, "target_score_tenths": 10_000}}
    document["deals"] = [item] * MAX_DEALS
    assert len(json.dumps(document, indent=2).encode()) < MAX_DOCUMENT_BYTES


@pytest.mark.django_db
def test_nothing_is_saved(tmp_path):
    from scoring.models import GameSession

    run(write(tmp_path, C01))
    refused(write(tmp_path, C01 | {"stake": "0"}))
    assert GameSession.objects.count() == 0


# --- the real command line ---------------------------------------------------------------


def test_cli_exit_codes_stdout_and_one_line_on_stderr(tmp_path):
    good = manage("settle_callbreak", "-", stdin=json.dumps(C01))
    assert (good.returncode, good.stderr) == (0, "")
    assert json.loads(good.stdout)["money"] == {
        "Asha": "-10.00",
        "Bikash": "-20.00",
        "Chandra": "-30.00",
        "Dipa": "60.00",
    }
    bad = json.loads(json.dumps(C01))
    bad["deals"][2]["tricks"]["Bikash"] = 8
    refused = manage("settle_callbreak", write(tmp_path, bad))
    assert (refused.returncode, refused.stdout) == (2, "")
    assert refused.stderr == "E_TRICKS_SUM: deal 3: tricks total 12, not 13\n"
    broken = manage("settle_callbreak", "-", stdin="{")
    assert (broken.returncode, broken.stdout) == (2, "")
    assert broken.stderr == (
        "-: not JSON: Expecting property name enclosed in double quotes at line 1, column 2\n"
    )
    helped = manage("settle_callbreak", "--help")
    assert "--all" in helped.stdout and "every refusal" in " ".join(helped.stdout.split())
