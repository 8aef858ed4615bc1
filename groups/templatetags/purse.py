"""The new-session form's group choice: the reader's groups, each a link to a
new evening of that group (its players the group's members)."""

from __future__ import annotations

from django import template

from ..models import Group

register = template.Library()


@register.simple_tag(takes_context=True)
def reader_groups(context: template.Context) -> list[Group]:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return []
    return list(Group.objects.filter(owner_id=user.pk).only("id", "name")[:20])
