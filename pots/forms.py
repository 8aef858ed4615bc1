"""The pot session's forms: a new session, a hand (who put in what, and who
took the pot, or a split, or the pot carried on), and a file to import. Money
is read as the engine reads it (a money string, at most two decimals), so
nothing typed turns into another number."""

from __future__ import annotations

import json
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from callbreak.engine.money import MoneyError, cents, parse_money
from callbreak.engine.refusals import DocumentRefused
from localise.forms import EitherCalendarDateField
from pots.engine import refusals as pot_refusals
from pots.engine.limits import MAX_PLAYERS
from scoring.engine.names import player_key
from scoring.engine.sessionfile import shorten
from scoring.forms.files import FileForm
from scoring.forms.players import clean_name, clean_player
from scoring.words.i18n import translate

GAMES = [
    ("teen_patti", _("Flash (Teen Patti)")),
    ("in_between", _("In-Between")),
    ("other", _("Other")),
]
OUTCOMES = [
    ("winners", _("Took the pot (tick two or more for a split)")),
    ("took", _("Took part of it; the rest carries on")),
    ("carry", _("Nobody: the pot carries on to the next hand")),
]


def money_field(label: Any, *, required: bool = False) -> forms.CharField:
    return forms.CharField(
        label=label,
        required=required,
        max_length=14,
        widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off", "size": 7}),
    )


def paisa(value: str, *, zero: bool = True) -> int:
    try:
        return cents(parse_money(value.strip(), zero=zero))
    except MoneyError as error:
        raise forms.ValidationError(translate(error.msg)) from None


class PotSessionForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100, initial="")
    played_on = EitherCalendarDateField(label=_("Played on"))
    players = forms.CharField(
        label=_("Players"),
        help_text=_("One name a line, 2 to 10 players, in seat order."),
        widget=forms.Textarea(attrs={"rows": 5, "autocapitalize": "words"}),
        max_length=MAX_PLAYERS * 42,
    )
    group = forms.TypedChoiceField(
        label=_("For a group"), required=False, coerce=int, empty_value=None
    )

    def __init__(self, *args: Any, groups: Sequence[Any] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.groups = {g.pk: g for g in groups}
        self.fields["group"].choices = [  # type: ignore[attr-defined]
            ("", _("No group"))
        ] + [(g.pk, g.name) for g in groups]

    def clean_players(self) -> list[str]:
        names: list[str] = []
        for line in self.cleaned_data["players"].splitlines():
            if not line.strip():
                continue
            name = clean_player(clean_name(line))
            if player_key(name) in {player_key(n) for n in names}:
                raise forms.ValidationError(_("%(name)s is listed twice.") % {"name": name})
            names.append(name)
        if not 2 <= len(names) <= MAX_PLAYERS:
            raise forms.ValidationError(
                _("A pot session has 2 to 10 players, got %(count)s.") % {"count": len(names)}
            )
        return names

    def clean_group(self) -> Any:
        value = self.cleaned_data.get("group")
        return None if value is None else self.groups.get(value)


class HandForm(forms.Form):
    """One hand. The boot fills every player's amount on the phone (and here,
    for a player left blank); each can be changed before saving."""

    game = forms.ChoiceField(label=_("Game"), choices=GAMES, initial="teen_patti")
    boot = money_field(_("Each put in"))
    outcome = forms.ChoiceField(
        label=_("Who took the pot?"), choices=OUTCOMES, initial="winners", widget=forms.RadioSelect
    )

    def __init__(
        self, *args: Any, players: Sequence[str], carry_in: int = 0, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.players = list(players)
        self.carry_in = carry_in
        for seat, name in enumerate(self.players):
            self.fields[f"put_{seat}"] = money_field(_("%(name)s put in") % {"name": name})
            self.fields[f"win_{seat}"] = forms.BooleanField(label=name, required=False)
            self.fields[f"took_{seat}"] = money_field(_("%(name)s took") % {"name": name})

    def seat_rows(self) -> list[tuple[str, Any, Any, Any]]:
        return [
            (name, self[f"put_{seat}"], self[f"win_{seat}"], self[f"took_{seat}"])
            for seat, name in enumerate(self.players)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        boot_text = (data.get("boot") or "").strip()
        boot = 0
        if boot_text:
            try:
                boot = paisa(boot_text)
            except forms.ValidationError as error:
                self.add_error("boot", error)
                return data
        put_in: list[int] = []
        for seat in range(len(self.players)):
            text = (data.get(f"put_{seat}") or "").strip()
            try:
                put_in.append(paisa(text) if text else boot)
            except forms.ValidationError as error:
                self.add_error(f"put_{seat}", error)
        if self.errors:
            return data
        pot = sum(put_in) + self.carry_in
        if not pot:
            raise forms.ValidationError(_("Nobody put anything in: the pot is empty."))
        outcome = data.get("outcome")
        winners: list[int] = []
        took: list[int] | None = None
        carry_out = 0
        if outcome == "winners":
            winners = [s for s in range(len(self.players)) if data.get(f"win_{s}")]
            if not winners:
                self.add_error("outcome", _("Tick who took the pot."))
            for seat in winners:
                if not put_in[seat]:
                    self.add_error(
                        f"put_{seat}",
                        _("%(name)s took the pot but put nothing in.")
                        % {"name": self.players[seat]},
                    )
        elif outcome == "took":
            took = []
            for seat in range(len(self.players)):
                text = (data.get(f"took_{seat}") or "").strip()
                try:
                    took.append(paisa(text) if text else 0)
                except forms.ValidationError as error:
                    self.add_error(f"took_{seat}", error)
            if took and len(took) == len(self.players) and sum(took) > pot:
                self.add_error(
                    "outcome",
                    _("Taken out %(took)s, more than the pot %(pot)s.")
                    % {"took": f"{sum(took) / 100:.2f}", "pot": f"{pot / 100:.2f}"},
                )
            elif took:
                carry_out = pot - sum(took)
        elif outcome == "carry":
            took = [0] * len(self.players)
            carry_out = pot
        data["hand"] = {
            "put_in": put_in,
            "winners": winners,
            "took": took,
            "carry_out": carry_out,
            "game": data.get("game") or "",
        }
        return data


def initial_for(players: Sequence[str], hand: Any) -> dict[str, Any]:
    """An edit form's values: the hand as it was saved."""
    initial: dict[str, Any] = {"game": hand.game or "other"}
    for seat in range(len(players)):
        put = (list(hand.put_in) + [0] * len(players))[seat]
        initial[f"put_{seat}"] = f"{Decimal(put) / 100:.2f}"
        initial[f"win_{seat}"] = seat in (hand.winners or [])
        if hand.took is not None:
            took = (list(hand.took) + [0] * len(players))[seat]
            initial[f"took_{seat}"] = f"{Decimal(took) / 100:.2f}" if took else ""
    if hand.took is None:
        initial["outcome"] = "winners"
    elif hand.carry_out and not any(hand.took):
        initial["outcome"] = "carry"
    else:
        initial["outcome"] = "took"
    return initial


class PotImportForm(FileForm):
    file = forms.FileField(
        label=_("Pot session file"),
        widget=forms.FileInput(attrs={"accept": ".json,application/json"}),
        help_text=_("A pot-session/1 JSON file, e.g. one exported from this app."),
    )
    name = forms.CharField(label=_("Name"), max_length=100)
    played_on = EitherCalendarDateField(label=_("Played on"))
    group = forms.TypedChoiceField(
        label=_("For a group"), required=False, coerce=int, empty_value=None
    )
    too_large_message = _("larger than the limit of %(max)s bytes for a pot session file")
    document: Any = None

    def __init__(self, *args: Any, groups: Sequence[Any] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.groups = {g.pk: g for g in groups}
        self.fields["group"].choices = [  # type: ignore[attr-defined]
            ("", _("No group"))
        ] + [(g.pk, g.name) for g in groups]

    def clean_group(self) -> Any:
        value = self.cleaned_data.get("group")
        return None if value is None else self.groups.get(value)

    def read(self, text: str) -> None:
        from callbreak.engine.limits import DocumentError, loads

        try:
            data = loads(text)
        except DocumentError as error:
            raise forms.ValidationError(shorten(translate(error.msg))) from None
        found = pot_refusals(data)
        if found:
            first = found[0]
            where = ", ".join(translate(part) for part in first.where)
            problem = translate(first.problem)
            raise forms.ValidationError(
                shorten(
                    f"{first.code}: {where}: {problem}" if where else f"{first.code}: {problem}"
                )
            )
        self.document = data


__all__ = ["DocumentRefused", "HandForm", "PotImportForm", "PotSessionForm", "initial_for", "json"]
