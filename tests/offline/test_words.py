"""The words the phone's scripts may say are declared once, in
scoring/words/offline_words.py, and the page's catalogue is built from that
table. Here the scripts are held to it: every quoted English id in
settlement.js and breakdown-words.js (a double-quoted string with a space) is
in the table, and every id of the table is one a script uses, so an id added,
renamed or reworded on one side alone fails here and not on a Nepali phone."""

from __future__ import annotations

import json
import re
from pathlib import Path

from django.utils import translation

from scoring.engine.settlement import FIELD_WORDS
from scoring.templatetags.offline import offline_catalogue
from scoring.words.offline_words import ENGINE_IDS, PHRASES, PLURALS

JS = Path(__file__).resolve().parents[2] / "static" / "js"
# A line comment, or a double-quoted string literal (escapes included): read
# left to right, so a quote inside a comment or a string never pairs with the next.
COMMENT_OR_STRING = re.compile(r'//[^\n]*|"((?:[^"\\\n]|\\.)*)"')
# Joiners, not phrases: the scripts join the phrases with these.
JOINERS = {", ", " "}


def quoted_ids(name: str) -> set[str]:
    source = (JS / name).read_text(encoding="utf-8")
    strings = (match.group(1) for match in COMMENT_OR_STRING.finditer(source))
    return {s for s in strings if s and " " in s and "\\" not in s} - JOINERS


def test_settlement_js_says_exactly_the_declared_messages_and_notes() -> None:
    used = quoted_ids("settlement.js")
    assert "maal %(points)s kidnapped by %(name)s" in used
    assert sorted(used - set(ENGINE_IDS)) == []
    assert sorted(set(ENGINE_IDS) - used) == []


def test_breakdown_words_js_says_exactly_the_declared_phrases() -> None:
    used = quoted_ids("breakdown-words.js")
    declared = {*PHRASES, *(text for ids in PLURALS for text in ids)}
    assert "plus %(w)s for unseen" in used
    assert sorted(used - declared) == []
    assert sorted(declared - used) == []


def test_the_table_has_no_id_twice() -> None:
    ids = [*ENGINE_IDS, *PHRASES, *(text for pair in PLURALS for text in pair)]
    assert len(ids) == len(set(ids))
    assert not set(ids) & set(FIELD_WORDS)


def test_the_catalogue_gives_each_form_of_a_plural() -> None:
    with translation.override("ne"):
        catalogue = json.loads(offline_catalogue())
    singular, plural = PLURALS[0]
    assert singular in catalogue and plural in catalogue
    assert all(field in catalogue for field in FIELD_WORDS)
