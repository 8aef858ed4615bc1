"""The games a group's purse counts beside Marriage evenings (CALLBREAK.md §12).

A game app (Call Break, pot hands) registers its kind once, from its
AppConfig.ready(), with `register_game`: the document format its file carries,
how a document's money is worked out (its own engine), and optionally where
the app keeps the group's games it records at the table and how it saves an
imported one. Groups never imports those apps' models: the purse, the group
file and the pages ask this registry, and an app that is not installed is a
kind nobody registered (its games in a file are refused by name).

A game's money is keyed by its players' names exactly as the game writes them;
the purse matches them to members ignoring case, as it matches an evening's
players.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from django.utils.functional import Promise


@dataclass(frozen=True, slots=True)
class PurseGame:
    """One game of a group's evening, as the purse counts it."""

    kind: str
    # Unique within the group, stable across reads: "pots-12", "filed-3".
    key: str
    name: str
    played_on: date
    money: Mapping[str, Decimal]  # player name → won (+) or lost (−)
    version: str  # moves whenever its money may have changed
    url: str | None = None  # its own page, for a game the app keeps


@dataclass(frozen=True, slots=True)
class GameKind:
    kind: str
    format: str  # the document a group file carries: "pot-session/1"
    label: str | Promise  # "Pot hands", shown beside its money
    # A decoded document's money per player; raises the engine's DocumentRefused.
    money_of: Callable[[object], dict[str, Decimal]]
    # The group's games the app keeps itself (group id → games, any order).
    games: Callable[[int], Iterable[PurseGame]] | None = None
    # The group's games the app keeps, as (name, played_on, document) for a file.
    documents: Callable[[int], Iterable[tuple[str, date, dict[str, Any]]]] | None = None
    # Saves an imported game the app keeps itself (inside the import's
    # transaction): (group, name, played_on, document, owner) → None. Without it
    # the group keeps the document (groups.models.FiledGame).
    save: Callable[..., None] | None = None
    # A member renamed, called by keyword (group_id=, old_key= the member's
    # old name key, name= the new name): the app's games of the group take
    # the new name, as the evenings do.
    rename: Callable[..., None] | None = None
    # The same for a document the group keeps: (document, old name, new name)
    # → the document with the player renamed wherever it names them.
    rename_in: Callable[[dict[str, Any], str, str], dict[str, Any]] | None = None
    # The players (names) of the group's games still being played, which the
    # purse does not count yet: a member among them stays a member.
    playing: Callable[[int], Iterable[str]] | None = None


_kinds: dict[str, GameKind] = {}


def register_game(
    kind: str,
    *,
    format: str,
    label: str | Promise,
    money_of: Callable[[object], dict[str, Decimal]],
    games: Callable[[int], Iterable[PurseGame]] | None = None,
    documents: Callable[[int], Iterable[tuple[str, date, dict[str, Any]]]] | None = None,
    save: Callable[..., None] | None = None,
    rename: Callable[..., None] | None = None,
    rename_in: Callable[[dict[str, Any], str, str], dict[str, Any]] | None = None,
    playing: Callable[[int], Iterable[str]] | None = None,
) -> None:
    """Called once per app from its AppConfig.ready(); a second call replaces
    the first (a test's reload)."""
    _kinds[kind] = GameKind(
        kind, format, label, money_of, games, documents, save, rename, rename_in, playing
    )


def kinds() -> list[GameKind]:
    return list(_kinds.values())


def kind_of(kind: str) -> GameKind | None:
    return _kinds.get(kind)


def kind_for_format(value: object) -> GameKind | None:
    return next((k for k in _kinds.values() if k.format == value), None)


def formats() -> list[str]:
    return [k.format for k in _kinds.values()]


def still_playing(group_id: int) -> list[str]:
    """The players of the group's games still being played (each once a game)."""
    found: list[str] = []
    for kind in _kinds.values():
        if kind.playing is not None:
            found.extend(kind.playing(group_id))
    return found


def kept_games(group_id: int) -> list[PurseGame]:
    """Every game the registered apps keep for the group, by date then key."""
    found: list[PurseGame] = []
    for kind in _kinds.values():
        if kind.games is not None:
            found.extend(kind.games(group_id))
    return sorted(found, key=lambda g: (g.played_on, g.kind, g.key))
