"""One markup for the server and the browser: a partial written with these tags
renders as usual, or, with `slots` true in its context, as the skeleton a
script fills (static/js/offline-preview.js, `filled`), so the markup is written
once. The skeleton puts an inert `<template>` where a value, a conditional part
or a repeated part goes; the script replaces each with text (never HTML), with
the part or without it, or with one filled copy per item.

- `{% slot name %}`: the variable `name` here, as `{{ name }}`;
  `{% slot name=value %}` the value (a variable, with filters) under that
  name. In the skeleton `<template data-slot="name">`, replaced by the text of
  `name`.
- `{% shown name if condition %}…{% else %}…{% endshown %}` (else
  optional): the first part if the condition holds, as `{% if %}`; in the
  skeleton both, as `<template data-if="name">` and `data-unless`.
- `{% each name item in sequence %}…{% endeach %}`: the content once per
  item, as `{% for %}`; in the skeleton `<template data-each="name">`, filled
  once per item of `name` (each item's values first, then those around it).
- `{% hooks class=name %}` inside a tag: nothing here; in the skeleton
  `data-hook-class="name"`: the class names in `name` are added to the
  element's (`data_player=name` sets `data-player`, and so on).
"""

from __future__ import annotations

from django import template
from django.template.base import (
    FilterExpression,
    Node,
    NodeList,
    Parser,
    Token,
    render_value_in_context,
)
from django.template.defaulttags import TemplateIfParser
from django.utils.html import format_html, format_html_join

register = template.Library()


def _skeleton(context: template.Context) -> bool:
    return bool(context.get("slots"))


def _name(bit: str) -> str:
    if not bit.isidentifier():
        raise template.TemplateSyntaxError(f"a slot's name is a plain name, got {bit}")
    return bit


class SlotNode(Node):
    def __init__(self, name: str, value: FilterExpression) -> None:
        self.name = name
        self.value = value

    def render(self, context: template.Context) -> str:
        if _skeleton(context):
            return format_html('<template data-slot="{}"></template>', self.name)
        return render_value_in_context(self.value.resolve(context), context)


@register.tag
def slot(parser: Parser, token: Token) -> SlotNode:
    bits = token.split_contents()[1:]
    if len(bits) != 1:
        raise template.TemplateSyntaxError("{% slot name %} or {% slot name=value %}")
    name, _, value = bits[0].partition("=")
    return SlotNode(_name(name), parser.compile_filter(value or name))


class ShownNode(Node):
    def __init__(self, name: str, condition, shown: NodeList, other: NodeList | None) -> None:
        self.name = name
        self.condition = condition
        self.shown = shown
        self.other = other

    def render(self, context: template.Context) -> str:
        if _skeleton(context):
            parts = format_html(
                '<template data-if="{}">{}</template>', self.name, self.shown.render(context)
            )
            if self.other is not None:
                parts += format_html(
                    '<template data-unless="{}">{}</template>',
                    self.name,
                    self.other.render(context),
                )
            return parts
        try:
            holds = self.condition.eval(context)
        except template.VariableDoesNotExist:
            holds = False
        if holds:
            return self.shown.render(context)
        return self.other.render(context) if self.other is not None else ""


@register.tag
def shown(parser: Parser, token: Token) -> ShownNode:
    bits = token.split_contents()
    if len(bits) < 4 or bits[2] != "if":
        raise template.TemplateSyntaxError("{% shown name if condition %}")
    condition = TemplateIfParser(parser, bits[3:]).parse()
    first = parser.parse(("else", "endshown"))
    other = None
    if parser.next_token().contents == "else":
        other = parser.parse(("endshown",))
        parser.delete_first_token()
    return ShownNode(_name(bits[1]), condition, first, other)


class EachNode(Node):
    def __init__(self, name: str, var: str, sequence, nodelist: NodeList) -> None:
        self.name = name
        self.var = var
        self.sequence = sequence
        self.nodelist = nodelist

    def render(self, context: template.Context) -> str:
        if _skeleton(context):
            with context.push({self.var: None}):
                body = self.nodelist.render(context)
            return format_html('<template data-each="{}">{}</template>', self.name, body)
        parts = []
        for item in self.sequence.resolve(context, ignore_failures=True) or ():
            with context.push({self.var: item}):
                parts.append(self.nodelist.render(context))
        return "".join(parts)


@register.tag
def each(parser: Parser, token: Token) -> EachNode:
    bits = token.split_contents()
    if len(bits) != 5 or bits[3] != "in":
        raise template.TemplateSyntaxError("{% each name item in sequence %}")
    nodelist = parser.parse(("endeach",))
    parser.delete_first_token()
    return EachNode(_name(bits[1]), bits[2], parser.compile_filter(bits[4]), nodelist)


class HooksNode(Node):
    def __init__(self, hooks: list[tuple[str, str]]) -> None:
        self.hooks = hooks

    def render(self, context: template.Context) -> str:
        if not _skeleton(context):
            return ""
        return format_html_join("", ' data-hook-{}="{}"', self.hooks)


@register.tag
def hooks(parser: Parser, token: Token) -> HooksNode:
    found = []
    for bit in token.split_contents()[1:]:
        attribute, _, name = bit.partition("=")
        found.append((attribute.replace("_", "-"), _name(name)))
    if not found:
        raise template.TemplateSyntaxError("{% hooks attribute=name … %}")
    return HooksNode(found)
