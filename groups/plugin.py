"""What a family's groups add to scoring (scoring.plugins): the reader's groups
on their home page, an evening's link back to its group, the purse on its
settle-up page, and `import_session --group`."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError
from django.db.models import Count

from scoring.engine.sessionfile import SessionDoc
from scoring.models import GameSession
from scoring.plugins import Context, ImportInto, Plugin

from .models import Group
from .selectors import evening_group_note, evening_problem
from .services import import_evening
from .versions import settle_up_version


def home(user_id: int) -> Context:
    # The reader's groups, with their evenings' count: listed once there is one.
    return {
        "groups": list(
            Group.objects.filter(owner_id=user_id)
            .annotate(evenings_count=Count("evenings"))
            .values_list("pk", "name", "evenings_count")
        )
    }


def session_page(session: GameSession, user_id: int | None) -> Context:
    # An evening of a group links back to it (the owner's pages only).
    return {
        "group": Group.objects.filter(evenings__session=session, owner_id=user_id)
        .only("pk", "name")
        .first()
    }


def settle_up(session: GameSession) -> Context:
    # What the group carried into the evening, its payments and balances now.
    return {"purse": evening_group_note(session)}


def _find(text: str, owner: Any) -> tuple[object, Any]:
    from .management.commands.member_links import find_group

    group = find_group(text)
    if owner is not None and owner.pk != group.owner_id:
        raise CommandError(
            f"--group: {group.name} is not {owner.get_username()}'s group", returncode=2
        )
    return group, group.owner


def _problem(group: object, doc: SessionDoc) -> str | None:
    assert isinstance(group, Group)
    return evening_problem(group, doc)


def _save(group: object, doc: SessionDoc) -> GameSession:
    assert isinstance(group, Group)
    return import_evening(group=group, doc=doc)


GROUP_IMPORT = ImportInto(
    option="--group",
    help=(
        "a group's id or name: the session becomes an evening of it (owned by the "
        "group's owner; every player must be a member)"
    ),
    find=_find,
    problem=_problem,
    save=_save,
)

PLUGIN = Plugin(
    name="groups",
    home=home,
    session_page=session_page,
    settle_up_version=settle_up_version,
    settle_up=settle_up,
    imports=(GROUP_IMPORT,),
    parts={
        "home": "groups/_home_groups.html",
        "session_page": "groups/_session_group.html",
        "settle_up": "groups/_settle_up_purse.html",
        "session_new": "groups/_group_choice.html",
    },
)
