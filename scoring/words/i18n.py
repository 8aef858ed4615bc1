"""The engine's words in the page's language.

The engine (pure Python, no Django) marks its words with its own `gettext_noop`,
which `makemessages` finds, and hands out `Message` values: an id (the English
text) and the values that fill it in. Here the id is looked up in the catalogue;
a value that is itself a Message (a word such as "poplu", a breakdown line, the
field an error names) is translated too, and a tuple is a list.

A session file's error names its place as a tuple (`where`) of Messages ("round 2")
and the file's keys as written ("stake_per_point"): a key is shown in the reader's
words (localise.words.file_key_text). A number the engine grouped ("1,048,576",
its English text) is grouped the reader's way ("10,48,576" in Nepali).
"""

from __future__ import annotations

import re

from django.utils.translation import get_language, gettext

from localise.numbers import NumberFormat
from localise.words import file_key_text

from ..engine.messages import Message
from ..engine.rules import OPTION_LABELS

# A number the engine wrote grouped in English (f"{count:,}"), regrouped for the reader.
ENGLISH_GROUPED = re.compile(r"-?\d{1,3}(?:,\d{3})+")


def translate(value: object, *, place: bool = False) -> str:
    """A Message in the active language; a tuple as its items, translated and joined
    with ", "; a number the engine grouped, grouped the reader's way; anything else
    (a name, a number) as it is. `place`: the
    value names where an error is, so a bare string in it is a file's key."""
    if isinstance(value, Message):
        text = gettext(value.id)
        if not value.params:
            return text
        return text % {name: _param(value.id, name, param) for name, param in value.params.items()}
    if isinstance(value, tuple):
        return ", ".join(translate(item, place=place) for item in value)
    if isinstance(value, str):
        if place:
            return file_key_text(value)
        if ENGLISH_GROUPED.fullmatch(value):
            return NumberFormat.current().num(int(value.replace(",", "")))
        return value
    return str(value)


def _param(message_id: str, name: str, value: object) -> str:
    if name == "where":
        return translate(value, place=True)
    if (
        name == "name"
        and message_id.startswith("rule %(name)s")
        and value in OPTION_LABELS
        and not (get_language() or "en").startswith("en")
    ):
        # A rule as the rules form labels it; in English the key the file writes.
        return gettext(OPTION_LABELS[str(value)])
    return translate(value)
