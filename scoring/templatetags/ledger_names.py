"""Short player names for the ledger's column heads on a phone: a name that fits
stays whole; a longer one becomes its first word or its first letters, and any
clash between short names falls back to initials, then a number. The full name
stays on the page (title, and a popover on tap)."""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable

from django import template

register = template.Library()

FITS = 7  # characters a narrow number column shows without widening


def _cut(text: str, limit: int) -> str:
    """At most `limit` characters and an ellipsis, never splitting a letter from
    its combining marks (Devanagari vowel signs, virama)."""
    if len(text) <= limit:
        return text
    end = limit - 1
    while end > 1 and unicodedata.category(text[end]) in ("Mn", "Mc"):
        end -= 1
    return text[:end] + "…"


def _short(name: str) -> str:
    if len(name) <= FITS:
        return name
    first = name.split()[0]
    return first if len(first) <= FITS else _cut(first, FITS)


def _initials(name: str) -> str:
    words = name.split()
    return "".join(w[0] for w in words) if len(words) > 1 else _cut(name, 4)


def short_names(names: Iterable[tuple[int, str]]) -> dict[int, str]:
    """{id: short name} for (id, full name) pairs, the short names all distinct."""
    names = list(names)
    shorts = {pid: _short(name) for pid, name in names}
    clash = Counter(shorts.values())
    for pid, name in names:
        if clash[shorts[pid]] > 1 and shorts[pid] != name:
            shorts[pid] = _initials(name)
    seen: Counter[str] = Counter()
    clash = Counter(shorts.values())
    for pid, _name in names:
        if clash[shorts[pid]] > 1:
            seen[shorts[pid]] += 1
            if seen[shorts[pid]] > 1:
                shorts[pid] = f"{shorts[pid]}{seen[shorts[pid]]}"
    return shorts


@register.filter
def ledger_short_names(players) -> dict[int, str]:
    return short_names((p.id, p.name) for p in players)


@register.filter
def short_of(shorts: dict[int, str], player) -> str:
    return shorts.get(player.id, player.name)
