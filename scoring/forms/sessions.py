"""A session's details, and the new-session form (details, players and rules)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from localise.forms import EitherCalendarDateField, PlainDecimalField

from ..engine import PRESETS, Rules
from ..engine.limits import MAX_CURRENCY_LENGTH, MAX_SESSION_PLAYERS
from ..engine.names import clean_currency, clean_session_name, player_key
from ..engine.rules import DEFAULT_PRESET, MIN_PLAYERS, closest_preset, preset_of
from ..engine.sessionfile import MAX_NAME_LENGTH, MAX_PLAYER_NAME_LENGTH
from .players import clean_name, clean_player, engine_checked
from .rules import RulesFieldsMixin


class SessionDetailsForm(forms.Form):
    """A session's name, date and money; the new-session form adds players and rules."""

    name = forms.CharField(label=_("Name"), max_length=MAX_NAME_LENGTH)
    played_on = EitherCalendarDateField(
        label=_("Date"),
        help_text=_(
            "Year-month-day, in Bikram Sambat (2083-06-16, or 2083-06-16 BS) or Gregorian "
            "(2026-10-02)."
        ),
    )
    currency = forms.CharField(label=_("Currency"), max_length=MAX_CURRENCY_LENGTH, initial="NPR")
    stake_per_point = PlainDecimalField(
        label=_("Stake per point"),
        help_text=_("Money per point, e.g. 2.50; 0 to play for points only."),
        min_value=Decimal("0"),
        max_digits=12,
        decimal_places=2,
        initial=Decimal("1.00"),
    )

    def clean_name(self) -> str:
        if not clean_name(self.cleaned_data["name"]):
            raise forms.ValidationError(_("This field is required."))
        return engine_checked(clean_session_name, self.cleaned_data["name"])

    def clean_currency(self) -> str:
        if not self.cleaned_data["currency"].strip():
            raise forms.ValidationError(_("This field is required."))
        # Bounded once upper-cased, as stored: eight "ß" are sixteen letters.
        return engine_checked(clean_currency, self.cleaned_data["currency"])


class SessionForm(RulesFieldsMixin, SessionDetailsForm):
    players = forms.CharField(
        label=_("Players"),
        help_text=_("One name per line, in seating order. At least 2."),
        widget=forms.Textarea(attrs={"rows": 5, "autocomplete": "off"}),
    )

    def __init__(
        self,
        *args: Any,
        suggested: str = DEFAULT_PRESET,
        rules: Rules | None = None,
        **kwargs: Any,
    ) -> None:
        """`suggested`: the preset the form opens on (suggested_preset); `rules`:
        the exact rules it opens on instead (a group's last evening), under the
        preset they equal or the closest one."""
        super().__init__(*args, **kwargs)
        preset = self.data.get("preset", suggested) if self.is_bound else suggested
        if preset not in PRESETS:
            preset = DEFAULT_PRESET
        if rules is not None and not self.is_bound:
            self.add_rule_fields(rules, preset_of(rules) or closest_preset(rules))
            return
        self.add_rule_fields(PRESETS[preset], preset)

    def clean_players(self) -> list[str]:
        lines = [line for line in self.cleaned_data["players"].splitlines() if clean_name(line)]
        if len(lines) > MAX_SESSION_PLAYERS:  # before any name is looked at
            raise forms.ValidationError(
                _("at most %(max)d players in one session") % {"max": MAX_SESSION_PLAYERS}
            )
        names: list[str] = []
        keys: dict[str, str] = {}
        for line in lines:
            name = clean_name(line)
            if len(name) > MAX_PLAYER_NAME_LENGTH:
                raise forms.ValidationError(
                    _("%(name)s…: a name may be at most %(max)d characters")
                    % {"name": name[:20], "max": MAX_PLAYER_NAME_LENGTH}
                )
            name = clean_player(name)
            key = player_key(name)
            if key in keys:
                if keys[key] == name:
                    raise forms.ValidationError(_("%(name)s is listed twice") % {"name": name})
                raise forms.ValidationError(
                    _("%(name)s is listed twice (as %(as)s)") % {"name": name, "as": keys[key]}
                )
            keys[key] = name
            names.append(name)
        if len(names) < MIN_PLAYERS:
            raise forms.ValidationError(
                _("a session needs at least %(min)d players, got %(count)d")
                % {"min": MIN_PLAYERS, "count": len(names)}
            )
        return names

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        self.rules = self.cleaned_rules()
        return data
