"""The engine's words in the page's language.

The engine (pure Python, no Django) marks its words with its own `gettext_noop`,
which `makemessages` finds, and hands out `Message` values: an id (the English
text) and the values that fill it in. Here the id is looked up in the catalogue;
a value that is itself a Message (a word such as "poplu", a breakdown line, the
field an error names) is translated too, and a tuple is a list.
"""

from __future__ import annotations

from django.utils.translation import gettext

from .engine.messages import Message


def translate(value: object) -> str:
    """A Message in the active language; a tuple as its items, translated and joined
    with ", "; anything else (a name, a number) as it is."""
    if isinstance(value, Message):
        text = gettext(value.id)
        if not value.params:
            return text
        return text % {name: translate(param) for name, param in value.params.items()}
    if isinstance(value, tuple):
        return ", ".join(translate(item) for item in value)
    return str(value)
