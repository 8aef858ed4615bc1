"""The rules: a preset select plus one field per rule option, each with its
one-sentence help; used by the new-session form and the rules page."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from localise.forms import WholeNumberField
from localise.words import rule_value_text

from ..engine import PRESETS, Rules
from ..engine.rules import (
    OPTION_NAMES,
    OPTIONS,
    RuleError,
    closest_preset,
    make_rules,
)
from ..words.i18n import translate

PRESET_CHOICES = [
    ("pagat", _("pagat (standard)")),
    ("kidnap", _("kidnap")),
    ("murder", _("murder")),
    ("wikipedia", _("wikipedia")),
    ("nepal", _("nepal (Nepali apps)")),
]
assert [name for name, _label in PRESET_CHOICES] == list(PRESETS)


class RulesFieldsMixin(forms.Form):
    """A preset select plus one field per rule option, each with its one-sentence help.
    A form itself (no fields of its own), so the forms it is mixed into are typed."""

    option_names = OPTION_NAMES

    def add_rule_fields(self, initial_rules: Rules, preset: str) -> None:
        fields_ = self.fields
        fields_["preset"] = forms.ChoiceField(
            label=_("Rules preset"),
            choices=PRESET_CHOICES,
            initial=preset,
            help_text=_("A starting point; every option below can be changed."),
        )
        options = initial_rules.to_options()
        for name in OPTION_NAMES:
            declared = OPTIONS[name]
            # Engine words (marked in the engine), translated at display.
            label = _(declared.label)
            help_text = _(declared.help)
            if declared.kind == "choice":
                fields_[name] = forms.ChoiceField(
                    label=label,
                    help_text=help_text,
                    choices=[(c, rule_value_text(c)) for c in declared.choices],
                    initial=options[name],
                )
            elif declared.kind == "bool":
                fields_[name] = forms.BooleanField(
                    label=label, help_text=help_text, required=False, initial=options[name]
                )
            else:
                fields_[name] = WholeNumberField(
                    label=label,
                    help_text=help_text,
                    min_value=declared.low,
                    max_value=declared.high,
                    initial=options[name],
                )
            fields_[name].widget.attrs["data-option"] = name

    def rule_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in OPTION_NAMES]

    def cleaned_rules(self) -> Rules | None:
        """The rules chosen, or None (with the error added) if they do not make sense."""
        data = self.cleaned_data
        if any(name not in data for name in OPTION_NAMES) or "preset" not in data:
            return None
        try:
            return make_rules(data["preset"], **{name: data[name] for name in OPTION_NAMES})
        except RuleError as error:
            self.add_error(None, translate(error.msg))
            return None


def preset_options() -> dict[str, dict[str, Any]]:
    """Every preset's options, for the small script that fills the form on a preset change."""
    return {name: rules.to_options() for name, rules in PRESETS.items()}


class RulesForm(RulesFieldsMixin, forms.Form):
    recompute = forms.BooleanField(
        label=_("Recompute every round"),
        required=False,
        help_text=_("The session has rounds: settle every saved round again under the new rules."),
    )

    def __init__(self, *args: Any, rules: Rules, has_rounds: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.has_rounds = has_rounds
        preset = closest_preset(rules)
        if self.is_bound and self.data.get("preset") in PRESETS:
            preset = self.data["preset"]
        self.add_rule_fields(rules, preset)
        if not has_rounds:
            del self.fields["recompute"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        self.rules = self.cleaned_rules()
        if self.has_rounds and not data.get("recompute"):
            self.add_error(
                "recompute",
                _("rounds are saved: tick this to settle every round again under the new rules"),
            )
        return data
