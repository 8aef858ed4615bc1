"""A group's evenings' players are its members: a player who joins an evening
of a group later (the session's players page, a rename there) becomes a member
too, whoever saves the player, so the group's balances and its list of who
pays whom always name everyone who played."""

from __future__ import annotations

from django.db.models import Max
from django.db.models.signals import post_save
from django.dispatch import receiver

from scoring.models import Player

from .models import Evening, Member


@receiver(post_save, sender=Player)
def _player_joins_the_group(sender, instance: Player, raw: bool = False, **kwargs) -> None:
    if raw:
        return
    group_id = (
        Evening.objects.filter(session_id=instance.session_id)
        .values_list("group_id", flat=True)
        .first()
    )
    if group_id is None:
        return
    if Member.objects.filter(group_id=group_id, name_key=instance.name_key).exists():
        return
    top = Member.objects.filter(group_id=group_id).aggregate(top=Max("position"))["top"]
    Member.objects.create(group_id=group_id, name=instance.name, position=(top or 0) + 1)
