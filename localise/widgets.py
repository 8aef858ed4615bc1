"""Form widgets drawn in Python: a select with a hundred evenings in it costs a
template render per option through Django's own widget templates, most of the
time of a page that shows one (the round search)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.forms.utils import flatatt
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe


class QuickSelect(forms.Select):
    """The same markup as Django's Select (options flat: no groups), without a
    template per option."""

    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None
    ) -> SafeString:
        widget = self.get_context(name, value, attrs)["widget"]
        options = "".join(
            f'<option value="{conditional_escape(option["value"])}"'
            f"{' selected' if option['selected'] else ''}>"
            f"{conditional_escape(option['label'])}</option>"
            for _group, group_options, _index in widget["optgroups"]
            for option in group_options
        )
        attributes = flatatt(widget["attrs"])
        return mark_safe(
            f'<select name="{conditional_escape(name)}"{attributes}>{options}</select>'
        )
