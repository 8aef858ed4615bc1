"""The engine's words: a message is an id (its English text, with `%(name)s`
placeholders) and the values that fill it in.

The engine imports nothing from Django, so it cannot translate. It marks its
words with the local `gettext_noop` below, which `makemessages` finds like
Django's own, and hands out `Message` values; the web layer looks the id up in
the catalogue and fills in the values (`scoring.i18n.translate`), translating any
value that is itself a `Message`. `str()` of a message is its English text, so
the command line and the session-file errors read as they always did.
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
        return self.id % {name: str(value) for name, value in self.params.items()}


def message(msgid: str, **params: Any) -> Message:
    """`message(gettext_noop("maal %(points)s void"), points=4)`, briefly."""
    return Message(msgid, MappingProxyType(params))


class EngineError(ValueError):
    """Every error the engine raises: `message` says what is wrong, for the user."""

    def __init__(self, msg: Message | str) -> None:
        self.msg = msg if isinstance(msg, Message) else Message(msg)
        super().__init__(str(self.msg))
