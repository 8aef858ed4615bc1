"""A seat's entry, declared once: the round form's fields for one player, as a
seat's phone sends them. The form reads them (table/forms.py), the service
keeps them (send_entry), the seat page fills its form from them, the feed
writes them to JSON for the scorer's open round form, and seat-feed.js fills
that form's line from the JSON by each field's kind, with no list of its own.
A field a round entry also has (`credited`) is credited to the seat's phone in
the round's history when the scorer saved the value it sent."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from typing import Any, Literal

Kind = Literal["choice", "points", "flag", "tally", "card"]


@dataclass(frozen=True)
class SeatValues:
    """One player's entry as a seat sends it (table/forms.py checked it). Each
    field's kind says how it is read and shown; `credited`: a round entry has
    it too."""

    status: str = field(metadata={"kind": "choice", "credited": True})  # seen or unseen
    maal: int = field(metadata={"kind": "points", "credited": True})
    tunnel: int = field(metadata={"kind": "points", "credited": True})
    dhoos: bool = field(metadata={"kind": "flag", "credited": True})
    dublees: bool = field(metadata={"kind": "flag", "credited": True})
    # The maal calculator's count (Tally.to_dict()), None when typed in.
    maal_tally: dict[str, Any] | None = field(metadata={"kind": "tally", "credited": False})
    # The round's tiplu as the seat's calculator had it: one for the round.
    tiplu: str = field(metadata={"kind": "card", "credited": False})


@dataclass(frozen=True, slots=True)
class SeatField:
    name: str
    kind: Kind
    credited: bool


SEAT_FIELDS = tuple(
    SeatField(f.name, f.metadata["kind"], f.metadata["credited"]) for f in fields(SeatValues)
)
NAMES = tuple(f.name for f in SEAT_FIELDS)
CREDITED = tuple(f.name for f in SEAT_FIELDS if f.credited)


def json_text(value: object) -> str:
    return "" if value is None else json.dumps(value, separators=(",", ":"))


def as_text(kind: Kind, value: Any) -> Any:
    """A kept value as the seat's form and the feed show it: points as digits
    (0 as empty, as typed), a count as JSON text, a flag as it is."""
    if kind == "points":
        return str(value) if value else ""
    if kind == "tally":
        return json_text(value)
    if kind == "flag":
        return bool(value)
    return value or ""


def entry_text(entry: Any) -> dict[str, Any]:
    """Every field of a kept entry (a SeatEntry) by name, as text (as_text)."""
    return {f.name: as_text(f.kind, getattr(entry, f.name)) for f in SEAT_FIELDS}


def entry_json(entry: Any) -> dict[str, Any]:
    """Every field of a kept entry by name, for the feed's JSON: as kept, the
    calculator's count as JSON text (as the round form's hidden field holds it)."""
    return {
        f.name: json_text(getattr(entry, f.name)) if f.kind == "tally" else getattr(entry, f.name)
        for f in SEAT_FIELDS
    }


def field_kinds() -> list[dict[str, str]]:
    """The fields and their kinds, for the browser (the feed's JSON)."""
    return [{"name": f.name, "kind": f.kind} for f in SEAT_FIELDS]
