from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from localise.forms import EitherCalendarDateField
from localise.widgets import QuickSelect
from scoring.engine.rules import PRESETS

from .records import HistoryFilter

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def variant_choices() -> list[tuple[str, StrOrPromise]]:
    return [
        ("", _("Any rules")),
        *((name, _("%(preset)s preset") % {"preset": _(name)}) for name in PRESETS),
        ("maal-kidnap", _("Unseen maal kidnapped (किडन्याप)")),
        ("maal-murder", _("Unseen maal murdered (मर्डर)")),
    ]


class HistoryForm(forms.Form):
    """The round history's filters; every field may be left empty."""

    # One option per evening and per player: drawn without a template per option.
    session = forms.TypedChoiceField(
        label=_("Evening"), required=False, coerce=int, empty_value=None, widget=QuickSelect
    )
    player = forms.ChoiceField(label=_("Player"), required=False, widget=QuickSelect)
    winner = forms.ChoiceField(label=_("Winner"), required=False, widget=QuickSelect)
    # Either calendar, as on the session form: "2083-06-16" is Bikram Sambat.
    date_from = EitherCalendarDateField(label=pgettext_lazy("date range", "From"), required=False)
    date_to = EitherCalendarDateField(label=pgettext_lazy("date range", "To"), required=False)
    variant = forms.ChoiceField(label=_("Rules"), required=False, widget=QuickSelect)
    dublee = forms.BooleanField(label=_("Dublee wins only"), required=False)
    victims = forms.BooleanField(label=_("Kidnapped or murdered maal only"), required=False)
    dhoos = forms.BooleanField(label=_("Rounds with dhoos only"), required=False)
    sort = forms.ChoiceField(
        label=_("Order"),
        required=False,
        choices=[("recent", _("Newest first")), ("swing", _("Biggest swings first"))],
        widget=QuickSelect,
    )

    def __init__(
        self,
        *args,
        players: dict[str, str],
        evenings: Sequence[tuple[int, str]] = (),
        **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        names = sorted(players.items(), key=lambda item: item[1].casefold())
        for name, choices in (
            ("session", [("", _("Any evening")), *evenings]),
            ("player", [("", _("Anyone")), *names]),
            ("winner", [("", _("Anyone")), *names]),
            ("variant", variant_choices()),
        ):
            field = self.fields[name]
            assert isinstance(field, forms.ChoiceField)
            field.choices = choices

    def clean(self):
        data = super().clean()
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and start > end:
            self.add_error("date_to", _("The end date is before the start date."))
        return data

    def to_filter(self) -> HistoryFilter:
        data = self.cleaned_data
        return HistoryFilter(
            player=data.get("player") or "",
            winner=data.get("winner") or "",
            date_from=data.get("date_from"),
            date_to=data.get("date_to"),
            variant=data.get("variant") or "",
            dublee=bool(data.get("dublee")),
            victims=bool(data.get("victims")),
            sort=data.get("sort") or "recent",
            session=data.get("session"),
            dhoos=bool(data.get("dhoos")),
        )
