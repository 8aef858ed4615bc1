"""The hidden one-time key of a form that creates something (see scoring/services/savekeys.py)."""

from __future__ import annotations

from django import template
from django.utils.html import format_html

from ..selectors.saves import SaveKeyRefused, posted_save_key
from ..services.savekeys import new_save_key

register = template.Library()


@register.simple_tag(takes_context=True)
def save_key_field(context: template.Context) -> str:
    """A fresh key; a refused form shown again keeps the key it was posted with
    (nothing was saved under it), and a cached page gets its stand-in."""
    key = context.get("save_key")
    request = context.get("request")
    if not key and request is not None:
        try:
            key = posted_save_key(request)
        except SaveKeyRefused:  # a page shown for a POST whose key was not used
            key = None
    return format_html(
        '<input type="hidden" name="save_key" value="{}" data-save-key>', key or new_save_key()
    )
