"""One-time keys that make every save happen once.

Each form that creates something (a round, a session, a player, an import)
carries a fresh key in a hidden `save_key` field. The server remembers the keys
it has saved (models.SavedKey, inside the same transaction as the save), so a
second POST with the same key (a double tap, a phone retrying on a bad line)
saves nothing new and answers with what the first one saved. A POST without a
key (a script, an older page) is saved as before.
"""

from __future__ import annotations

import re
import uuid

from django.http import HttpRequest

SAVE_KEY_RE = re.compile(r"[A-Za-z0-9_-]{8,64}")


def new_save_key() -> str:
    return str(uuid.uuid4())


def posted_save_key(request: HttpRequest) -> str | None:
    """The POST's key if it has a well-formed one; None means "save as before"."""
    key = request.POST.get("save_key", "") if request.method == "POST" else ""
    return key if SAVE_KEY_RE.fullmatch(key) else None
