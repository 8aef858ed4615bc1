"""The engine's words: a message is an id (its English text, with `%(name)s`
placeholders) and the values that fill it in.

The engine imports nothing from Django, so it cannot translate. It marks its
words with the local `gettext_noop` below, which `makemessages` finds like
Django's own, and hands out `Message` values; the web layer looks the id up in
the catalogue and fills in the values (`scoring.words.i18n.translate`), translating any
value that is itself a `Message`. `str()` of a message is its English text, so
the command line and the session-file errors read as they always did.

A value that is a tuple is a list: its items are shown (and translated) one by
one and joined with ", " (a maal breakdown, the places an error names).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any


def gettext_noop(text: str) -> str:
    """Mark `text` for the translation catalogue; return it unchanged."""
    return text


@dataclass(frozen=True, slots=True)
class Message:
    """An engine message: `id` is the catalogue key, `params` fill its placeholders."""

    id: str
    params: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def __str__(self) -> str:
        if not self.params:
            return self.id
        return self.id % {name: _english(value) for name, value in self.params.items()}


def _english(value: Any) -> str:
    if isinstance(value, tuple):
        return ", ".join(_english(item) for item in value)
    return str(value)


# An error's place before its message: "tiplu: 'ZZ' is not a card", and a place
# inside a wider one: "round 2, player Buwa, maal: must not be negative, got -3".
WHERE = gettext_noop("%(where)s: %(problem)s")
WITHIN = gettext_noop("%(where)s, %(problem)s")


def message(msgid: str, **params: Any) -> Message:
    """`message(gettext_noop("maal %(points)s void"), points=4)`, briefly."""
    return Message(msgid, MappingProxyType(params))


class EngineError(ValueError):
    """Every error the engine raises: `msg` says what is wrong, for the user, and
    `str()` is its English text."""

    def __init__(self, msg: Message | str) -> None:
        self.msg = msg if isinstance(msg, Message) else Message(msg)
        super().__init__(str(self.msg))
