"""A session's details, and the new-session form (details, players and rules)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from ..engine import PRESETS
from ..engine.rules import DEFAULT_PRESET, MIN_PLAYERS
from ..engine.sessionfile import MAX_NAME_LENGTH, MAX_PLAYER_NAME_LENGTH
from .players import clean_name
from .rules import RulesFieldsMixin

MAX_SESSION_PLAYERS = 30  # far more than sit at one table; guards against a pasted essay


class SessionDetailsForm(forms.Form):
    """A session's name, date and money; the new-session form adds players and rules."""

    name = forms.CharField(label=_("Name"), max_length=MAX_NAME_LENGTH)
    played_on = forms.DateField(
        label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    currency = forms.CharField(label=_("Currency"), max_length=8, initial="NPR")
    stake_per_point = forms.DecimalField(
        label=_("Stake per point"),
        help_text=_("Money per point, e.g. 2.50; 0 to play for points only."),
        min_value=Decimal("0"),
        max_digits=12,
        decimal_places=2,
        initial=Decimal("1.00"),
    )

    def clean_name(self) -> str:
        name = clean_name(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("This field is required."))
        return name

    def clean_currency(self) -> str:
        currency = self.cleaned_data["currency"].strip().upper()
        if not currency:
            raise forms.ValidationError(_("This field is required."))
        return currency


class SessionForm(RulesFieldsMixin, SessionDetailsForm):
    players = forms.CharField(
        label=_("Players"),
        help_text=_("One name per line, in seating order. At least 2."),
        widget=forms.Textarea(attrs={"rows": 5, "autocomplete": "off"}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        preset = self.data.get("preset", DEFAULT_PRESET) if self.is_bound else DEFAULT_PRESET
        if preset not in PRESETS:
            preset = DEFAULT_PRESET
        self.add_rule_fields(PRESETS[preset], preset)

    def clean_players(self) -> list[str]:
        names: list[str] = []
        for line in self.cleaned_data["players"].splitlines():
            name = clean_name(line)
            if not name:
                continue
            if len(name) > MAX_PLAYER_NAME_LENGTH:
                raise forms.ValidationError(
                    _("%(name)s…: a name may be at most %(max)d characters")
                    % {"name": name[:20], "max": MAX_PLAYER_NAME_LENGTH}
                )
            if name.casefold() in (n.casefold() for n in names):
                raise forms.ValidationError(_("%(name)s is listed twice") % {"name": name})
            names.append(name)
        if len(names) < MIN_PLAYERS:
            raise forms.ValidationError(
                _("a session needs at least %(min)d players, got %(count)d")
                % {"min": MIN_PLAYERS, "count": len(names)}
            )
        if len(names) > MAX_SESSION_PLAYERS:
            raise forms.ValidationError(
                _("at most %(max)d players in one session") % {"max": MAX_SESSION_PLAYERS}
            )
        return names

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        self.rules = self.cleaned_rules()
        return data
