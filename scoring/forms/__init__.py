"""The app's forms, one module per subject."""

from __future__ import annotations

from typing import Any


def refused_status(form: Any) -> int:
    """The status of a page showing `form`: 422 when it was sent and refused (the
    form says why, beside each field), 200 when it was not sent."""
    return 422 if form.is_bound and form.errors else 200
