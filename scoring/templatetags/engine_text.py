"""`{{ note|engine_text }}`: an engine message or breakdown note in the page's language."""

from django import template

from ..engine.messages import Message
from ..engine_text import engine_message

register = template.Library()


@register.filter
def engine_text(message: object) -> str:
    return engine_message(message if isinstance(message, Message) else str(message))
