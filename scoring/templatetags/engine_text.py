"""`{{ note|engine_text }}`: an engine message, breakdown note or maal breakdown in
the page's language."""

from django import template

from ..words.i18n import translate

register = template.Library()


@register.filter
def engine_text(message: object) -> str:
    return translate(message)
