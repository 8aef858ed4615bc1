"""A group's version: its own `updated_at`, moved by every write to the group,
its members, evenings and payments (the signals below, whoever writes), with
the versions of its evenings (each session's own, scoring/versions.py). A page
that shows the group is cached under it, and each evening's money under the
evening's own version, so a saved round recomputes that one evening.
"""

from __future__ import annotations

import hashlib

from django.db import connections, router
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils import timezone

from scoring.models import GameSession

from .models import Evening, FiledGame, Group, Member, Payment, PaymentChange


def group_changed(group_id: int | None, using: str = "default") -> None:
    if group_id is not None:
        Group.objects.using(using).filter(pk=group_id).update(updated_at=timezone.now())


@receiver(post_save, sender=Member)
@receiver(post_delete, sender=Member)
@receiver(post_save, sender=Evening)
@receiver(post_delete, sender=Evening)
@receiver(post_save, sender=Payment)
@receiver(post_delete, sender=Payment)
@receiver(post_save, sender=PaymentChange)
@receiver(post_save, sender=FiledGame)
@receiver(post_delete, sender=FiledGame)
def _changed(sender, instance, using: str, raw: bool = False, **kwargs) -> None:
    if not raw:
        group_changed(instance.group_id, using)
        if sender is Evening:
            # The session's page names its group: its version moves too.
            from scoring.selectors.versions import session_changed

            session_changed(instance.session_id, using)


def evening_versions(group_id: int) -> list[tuple[int, str]]:
    """(session id, its version) of each evening of the group, in one query."""
    connection = connections[router.db_for_read(GameSession)]
    sessions = connection.ops.quote_name(GameSession._meta.db_table)
    evenings = connection.ops.quote_name(Evening._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT s.id, s.updated_at FROM {sessions} s JOIN {evenings} e "
            "ON e.session_id = s.id WHERE e.group_id = %s ORDER BY s.id",
            [group_id],
        )
        rows = cursor.fetchall()
    from scoring.selectors.versions import version_from

    # Each evening's own version (without its owner's counter, which any save
    # of any session moves): a save recomputes that evening alone.
    return [(session_id, version_from(session_id, updated, None)) for session_id, updated in rows]


def group_version(group_id: int, owner_id: int | None) -> str | None:
    """The group's version if `owner_id` owns it, else None: its own stamp and
    a digest of its evenings' versions."""
    connection = connections[router.db_for_read(Group)]
    table = connection.ops.quote_name(Group._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT updated_at FROM {table} WHERE id = %s AND owner_id = %s", [group_id, owner_id]
        )
        row = cursor.fetchone()
    if row is None:
        return None
    from scoring.selectors.versions import stamp

    digest = hashlib.sha256(repr(evening_versions(group_id)).encode()).hexdigest()[:16]
    return f"g{group_id}-{stamp(row[0]):.6f}-{digest}"


def settle_up_version(session_id: int, owner_id: int | None) -> str | None:
    """The version of an evening's settle-up page, in one query: the session's
    own, and for an evening of a group the group's stamp, its number of
    evenings and the latest change to any of them (what it carried in, and the
    group's payments, show there). None if `owner_id` has no such session."""
    if owner_id is None:
        return None
    connection = connections[router.db_for_read(GameSession)]
    quote = connection.ops.quote_name
    sessions, evenings = quote(GameSession._meta.db_table), quote(Evening._meta.db_table)
    groups = quote(Group._meta.db_table)
    from scoring.selectors.versions import counters_table

    counters = counters_table(connection)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT s.id, s.updated_at, c.value, g.id, g.updated_at, "
            f"(SELECT MAX(o.updated_at) FROM {sessions} o JOIN {evenings} oe "
            "ON oe.session_id = o.id WHERE oe.group_id = g.id), "
            f"(SELECT COUNT(*) FROM {evenings} c WHERE c.group_id = g.id) "
            f"FROM {sessions} s LEFT JOIN {evenings} e ON e.session_id = s.id "
            f"LEFT JOIN {groups} g ON g.id = e.group_id "
            f"LEFT JOIN {counters} c ON c.owner_id = s.owner_id "
            "WHERE s.id = %s AND s.owner_id = %s",
            [session_id, owner_id],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    from scoring.selectors.versions import version_from

    own = version_from(row[0], row[1], row[2])
    if row[3] is None:
        return own
    return f"{own}+g{row[3]}-{row[4]}-{row[5]}-{row[6]}"
