"""A message's one-tap action: "Round 9 deleted." carries its Restore button.

A view tags the message (`restore_tag`); `{% message_action message %}` in
base.html renders the button, a POST form to the audit trail's restore
(scoring/views/audit.py), which checks the owner like every other view.
"""

from __future__ import annotations

import re

from django import template
from django.template.context import Context
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _

register = template.Library()

RESTORE = re.compile(r"^restore-(\d{1,12})-(\d{1,12})$")


def restore_tag(session_pk: int, change_pk: int) -> str:
    """The tag of a delete's message whose Restore undoes it."""
    return f"restore-{session_pk}-{change_pk}"


@register.simple_tag(takes_context=True)
def message_action(context: Context, message) -> str:
    for tag in (getattr(message, "extra_tags", "") or "").split():
        found = RESTORE.match(tag)
        if found:
            url = reverse(
                "round_restore",
                kwargs={"session_id": int(found[1]), "change_id": int(found[2])},
            )
            return format_html(
                '<form method="post" action="{}" class="inline-form message-action">'
                '<input type="hidden" name="csrfmiddlewaretoken" value="{}">'
                '<button type="submit" class="secondary">{}</button></form>',
                url,
                context.get("csrf_token", ""),
                _("Restore"),
            )
    return ""
