"""Forms of a group: the group itself, a member, a payment, a file."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from localise.forms import EitherCalendarDateField
from scoring.engine.groupfile import GroupDoc, GroupFileError
from scoring.engine.limits import MAX_CURRENCY_LENGTH
from scoring.engine.names import clean_currency, player_key
from scoring.engine.purse import MAX_PAYMENT
from scoring.engine.sessionfile import shorten
from scoring.forms.files import FileForm
from scoring.forms.players import clean_name, clean_player, engine_checked
from scoring.forms.sessions import SessionForm
from scoring.models import GameSession
from scoring.words.i18n import translate

from .groupfile import OtherGameDoc, load_purse
from .models import Group, Member, Payment

MAX_MEMBERS = 60


def _clean_members(text: str) -> list[str]:
    lines = [clean_name(line) for line in text.splitlines() if clean_name(line)]
    if len(lines) > MAX_MEMBERS:
        raise forms.ValidationError(_("at most %(max)d members in a group") % {"max": MAX_MEMBERS})
    names: list[str] = []
    keys: dict[str, str] = {}
    for line in lines:
        name = clean_player(line)
        key = player_key(name)
        if key in keys:
            raise forms.ValidationError(
                _("%(name)s is listed twice (as %(as)s)") % {"name": name, "as": keys[key]}
            )
        keys[key] = name
        names.append(name)
    return names


class GroupForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100)
    currency = forms.CharField(label=_("Currency"), max_length=MAX_CURRENCY_LENGTH, initial="NPR")
    members = forms.CharField(
        label=_("Members"),
        help_text=_("One name per line, as they are written in the evenings. At least 2."),
        widget=forms.Textarea(attrs={"rows": 5, "autocomplete": "off"}),
    )

    def clean_name(self) -> str:
        name = clean_name(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("This field is required."))
        return name

    def clean_currency(self) -> str:
        if not self.cleaned_data["currency"].strip():
            raise forms.ValidationError(_("This field is required."))
        # As a session's: bounded once upper-cased (eight "ß" are sixteen letters).
        return engine_checked(clean_currency, self.cleaned_data["currency"])

    def clean_members(self) -> list[str]:
        names = _clean_members(self.cleaned_data["members"])
        if len(names) < 2:
            raise forms.ValidationError(
                _("a group needs at least 2 members, got %(count)d") % {"count": len(names)}
            )
        return names


class MemberForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=40)

    def __init__(self, *args: Any, group: Group, member: Member | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.group = group
        self.member = member

    def clean_name(self) -> str:
        if not clean_name(self.cleaned_data["name"]):
            raise forms.ValidationError(_("This field is required."))
        name = clean_player(self.cleaned_data["name"])
        members = Member.objects.filter(group=self.group)
        if self.member is not None:
            members = members.exclude(pk=self.member.pk)
        same = members.filter(name_key=player_key(name)).first()
        if same is not None:
            raise forms.ValidationError(
                _("%(name)s is a member already (as %(as)s)") % {"name": name, "as": same.name}
            )
        if self.member is None and members.count() >= MAX_MEMBERS:
            raise forms.ValidationError(
                _("at most %(max)d members in a group") % {"max": MAX_MEMBERS}
            )
        return name


class PaymentForm(forms.Form):
    payer = forms.ModelChoiceField(
        # Who paid and who was paid, never the date filter's From/To.
        label=pgettext_lazy("payment", "From"),
        queryset=Member.objects.none(),
        empty_label=_("Choose a member"),
    )
    payee = forms.ModelChoiceField(
        label=pgettext_lazy("payment", "To"),
        queryset=Member.objects.none(),
        empty_label=_("Choose a member"),
    )
    amount = forms.DecimalField(
        label=_("Amount"),
        min_value=Decimal("0.01"),
        max_value=MAX_PAYMENT,
        max_digits=12,
        decimal_places=2,
        help_text=_("Change it for a part payment."),
        # static/js/ui.js selects the amount on focus: what is typed replaces it.
        widget=forms.TextInput(
            attrs={"inputmode": "decimal", "autocomplete": "off", "data-select-on-focus": ""}
        ),
    )
    paid_on = EitherCalendarDateField(
        label=_("Date"),
        help_text=_(
            "Year-month-day, in Bikram Sambat (2083-06-16, or 2083-06-16 BS) or Gregorian "
            "(2026-10-02)."
        ),
    )
    method = forms.ChoiceField(label=_("Method"), choices=Payment.METHODS, initial="cash")
    note = forms.CharField(label=_("Note"), max_length=200, required=False)

    def __init__(self, *args: Any, group: Group, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        members = Member.objects.filter(group=group)
        self.fields["payer"].queryset = members  # type: ignore[attr-defined]
        self.fields["payee"].queryset = members  # type: ignore[attr-defined]

    def clean_note(self) -> str:
        return clean_name(self.cleaned_data.get("note", ""))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        payer, payee = data.get("payer"), data.get("payee")
        if payer is not None and payer == payee:
            self.add_error("payee", _("%(name)s cannot pay themselves") % {"name": payer.name})
        return data


class EveningForm(SessionForm):
    """The new-session form for a group's evening: its players start as the
    group's members (untick or add as on any session); a new name becomes a member."""


class AddEveningForm(forms.Form):
    session: forms.ModelChoiceField = forms.ModelChoiceField(
        label=_("Session"), queryset=GameSession.objects.none()
    )

    def __init__(self, *args: Any, sessions: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["session"].queryset = sessions  # type: ignore[attr-defined]


class GroupImportForm(FileForm):
    file = forms.FileField(
        label=_("Group file"),
        widget=forms.FileInput(attrs={"accept": ".json,application/json"}),
        help_text=_("A marriage-group/1 JSON file, e.g. one exported from this app."),
    )
    too_large_message = _("larger than the limit of %(max)s bytes for a group file")
    doc: GroupDoc | None = None
    other_games: tuple[OtherGameDoc, ...] = ()

    def read(self, text: str) -> None:
        try:
            file = load_purse(text)
            self.doc, self.other_games = file.group, file.other_games
        except GroupFileError as error:
            raise forms.ValidationError(shorten(translate(error.msg))) from None
