"""Where other apps join scoring's pages, checks and commands, without scoring
knowing them: the plugin seam.

The most boring one Django offers: a registry of plain functions. Each app
that adds to a session (`table`: seats and co-scorers; `groups`: a family's
purse; later Call Break's evenings, pots) registers one `Plugin` in its
AppConfig.ready(); scoring calls what is registered and imports no plugin
(tests/site/test_layout.py reads that from the code, and that scoring names
none of their relations in an ORM lookup). Every hook is optional
and several plugins may fill the same one: their answers are added together,
in the order of INSTALLED_APPS. A page shows a plugin's part by including
the plugin's own template in a slot (`parts`, by a name of SLOTS; the page
loops over `plugin_parts.<slot>`, from the context processor
`template_parts`), which reads the context names that plugin gives
(`co_scored`, `groups`, `group`, `purse`) or the page's own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet

from .engine.sessionfile import SessionDoc
from .engine.settlement import RoundInput
from .models import GameSession

Context = dict[str, object]


@dataclass(frozen=True, slots=True)
class ImportInto:
    """Somewhere a session file may be imported other than its owner's
    sessions, as an option of `import_session` (groups: `--group`, an evening of
    a family's group). Each function raises CommandError with one plain line."""

    option: str  # "--group"
    help: str
    # The option's value → the place, and the owner it gives (`owner`: --owner's).
    find: Callable[[str, Any], tuple[object, Any]]
    # Why the file cannot go there, or None.
    problem: Callable[[object, SessionDoc], str | None]
    # Saved there: the new session.
    save: Callable[[object, SessionDoc], GameSession]


@dataclass(frozen=True, slots=True)
class Plugin:
    name: str
    # The sessions user `user_id` scores without owning them (table: a
    # co-scorer), as a queryset of GameSession ids (it is used as a subquery).
    scored_sessions: Callable[[int], QuerySet[GameSession, Any]] | None = None
    # The home page of user `user_id`: names added to its context; what they
    # hold is part of the page's version, so a change there shows at once.
    home: Callable[[int], Context] | None = None
    # A session's page (its owner's or a scorer's; `user_id` the reader):
    # names added to its context (groups: the group of an evening).
    session_page: Callable[[GameSession, int | None], Context] | None = None
    # A session's settle-up page, for its owner `owner_id`: the page's version
    # with the session's own in it (one query), None when they own no such
    # session; and the names its part adds to the context.
    settle_up_version: Callable[[int, int | None], str | None] | None = None
    settle_up: Callable[[GameSession], Context] | None = None
    # A round as it is saved: by player, the values their seat's own phone
    # sent (table), for the round's history (`from_seat`).
    round_sources: (
        Callable[[GameSession, int, RoundInput, Sequence[str]], dict[str, list[str]]] | None
    ) = None
    # Options of the import_session command.
    imports: tuple[ImportInto, ...] = ()
    # The plugin's templates, by the slot of scoring's page they go in.
    parts: Mapping[str, str] = field(default_factory=dict)


_plugins: list[Plugin] = []


def register(plugin: Plugin) -> None:
    """Called from an AppConfig.ready(); registering the same name again
    replaces it (a test's settings may reload an app)."""
    unknown = set(plugin.parts) - set(SLOTS)
    if unknown:  # a part no page would show
        raise ValueError(f"{plugin.name}: no slot {', '.join(sorted(unknown))} (SLOTS)")
    _plugins[:] = [p for p in _plugins if p.name != plugin.name]
    _plugins.append(plugin)


def plugins() -> tuple[Plugin, ...]:
    return tuple(_plugins)


def scored_sessions(user_id: int) -> list[QuerySet[GameSession, Any]]:
    return [p.scored_sessions(user_id) for p in _plugins if p.scored_sessions is not None]


def home(user_id: int) -> Context:
    context: Context = {}
    for plugin in _plugins:
        if plugin.home is not None:
            context.update(plugin.home(user_id))
    return context


def session_page(session: GameSession, user_id: int | None) -> Context:
    context: Context = {}
    for plugin in _plugins:
        if plugin.session_page is not None:
            context.update(plugin.session_page(session, user_id))
    return context


def settle_up_versions(session_id: int, owner_id: int | None) -> list[str | None]:
    """Each plugin's version of the settle-up page (none: no plugin shows there)."""
    return [
        p.settle_up_version(session_id, owner_id)
        for p in _plugins
        if p.settle_up_version is not None
    ]


def settle_up(session: GameSession) -> Context:
    context: Context = {}
    for plugin in _plugins:
        if plugin.settle_up is not None:
            context.update(plugin.settle_up(session))
    return context


def round_sources(
    session: GameSession, position: int, round_: RoundInput, players: Sequence[str]
) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for plugin in _plugins:
        if plugin.round_sources is not None:
            found.update(plugin.round_sources(session, position, round_, players))
    return found


def imports() -> tuple[ImportInto, ...]:
    return tuple(into for p in _plugins for into in p.imports)


# Where a page includes other apps' templates: the home page's lists, a
# session page's head, its owner's menu (the middle, and the end for files and
# printouts), its settle-up, the form of a new round, and the new-session form.
SLOTS = (
    "home",
    "session_page",
    "session_menu",
    "session_exports",
    "settle_up",
    "round_new",
    "session_new",
)


def parts(slot: str) -> list[str]:
    """The templates other apps put in `slot` of a page, in their order."""
    assert slot in SLOTS, slot
    return [p.parts[slot] for p in _plugins if slot in p.parts]


def template_parts(request: object) -> dict[str, object]:
    """A context processor: `plugin_parts.<slot>`, the templates a page
    includes there (`{% for part in plugin_parts.home %}{% include part %}…`)."""
    return {"plugin_parts": {slot: parts(slot) for slot in SLOTS}}
