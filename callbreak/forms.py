"""The forms of a Call Break game: starting one (four players, the house's
options, a stake), a deal's bids and tricks, and a game file to import.

Numbers are read by the one parser the Marriage forms use (a Nepali
keyboard's digits too); every option is then checked by the engine, whose
words name the option and the problem.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from localise.forms import EitherCalendarDateField

from .engine import OPTIONS, Rules, loads, refusals
from .engine.limits import DocumentError
from .engine.money import MoneyError, parse_money
from .engine.rules import read_rules
from .web.scoring_api import (
    FileForm,
    NotANumber,
    TooManyDigits,
    clean_player,
    parse_whole,
    player_key,
    translate,
)

SEATS = range(4)
DEVANAGARI_DIGITS = str.maketrans("०१२३४५६७८९", "0123456789")

# Each choice's words, as the form offers it.
CHOICE_WORDS: dict[str, dict[str, Any]] = {
    "settlement": {
        "by_rank": gettext_lazy("By place: 2nd, 3rd and 4th pay 1, 2 and 3 stakes to 1st"),
        "winner_takes": gettext_lazy("Winner takes: everyone else pays 1st one stake"),
        "difference": gettext_lazy("Points' difference: the stake is money per point"),
        "none": gettext_lazy("No money: scores only"),
    },
    "excess_fails": {
        "never": gettext_lazy("Never"),
        "at_double": gettext_lazy("At double the call or more"),
        "any": gettext_lazy("Any hand beyond the call"),
    },
    "fail_penalty": {
        "bid": gettext_lazy("Minus the call"),
        "shortfall": gettext_lazy("Minus the hands short"),
    },
    "bonus_bid_score": {
        "thirteen": gettext_lazy("13 points"),
        "double": gettext_lazy("Double the call"),
    },
}

# How the start form groups the options: the usual ones first, the rest in
# two folded groups.
MAIN_OPTIONS = ("settlement", "deals_per_game")
SCORING_OPTIONS = (
    "min_bid",
    "max_bid",
    "overtrick_tenths",
    "overtrick_cap",
    "excess_fails",
    "fail_penalty",
    "bonus_bid_threshold",
    "bonus_bid_score",
    "thirteen_wins_game",
    "bids_total_min",
    "bids_total_max",
)
MONEY_OPTIONS = (
    "target_score_tenths",
    "rank_multipliers",
    "negative_pays_double",
    "big_win_tenths",
)


def read_whole(raw: str, *, low: int, high: int) -> int:
    """A whole number as typed (Nepali digits too), from low to high;
    ValidationError naming the problem."""
    try:
        value = parse_whole(raw, devanagari=True, max_digits=6)
    except TooManyDigits:
        raise forms.ValidationError(_("too many digits; check the number")) from None
    except NotANumber:
        shown = raw if len(raw) <= 20 else raw[:20] + "…"
        raise forms.ValidationError(
            _("must be a whole number, got %(value)s") % {"value": repr(shown)}
        ) from None
    if not low <= value <= high:
        raise forms.ValidationError(
            _("must be from %(low)s to %(high)s, got %(value)s")
            % {"low": low, "high": high, "value": value}
        )
    return value


class WholeField(forms.CharField):
    """A whole number from `low` to `high`; blank is None where `nullable`."""

    def __init__(self, *, low: int, high: int, nullable: bool = False, **kwargs: Any) -> None:
        self.low, self.high, self.nullable = low, high, nullable
        kwargs.setdefault("required", not nullable)
        kwargs.setdefault("max_length", 8)
        super().__init__(**kwargs)
        self.widget.attrs.update({"inputmode": "numeric", "autocomplete": "off", "size": 4})

    def clean(self, value: Any) -> int | None:
        text = super().clean(value)
        if text in (None, ""):
            return None
        return read_whole(text, low=self.low, high=self.high)


class MultipliersField(forms.CharField):
    def clean(self, value: Any) -> tuple[int, ...]:
        text = super().clean(value)
        parts = [
            part
            for part in text.translate(DEVANAGARI_DIGITS)
            .replace("−", "-")
            .replace(",", " ")
            .split()
            if part
        ]
        if len(parts) != 4:
            raise forms.ValidationError(
                _("four whole numbers, for 1st to 4th place, such as 6, -1, -2, -3")
            )
        return tuple(read_whole(part, low=-1000, high=1000) for part in parts)


def _option_field(name: str) -> forms.Field:
    declared = OPTIONS[name]
    label = _(declared.label)
    help_text = _(declared.help)
    if declared.kind == "bool":
        return forms.BooleanField(required=False, label=label, help_text=help_text)
    if declared.kind == "choice":
        words = CHOICE_WORDS[name]
        return forms.ChoiceField(
            choices=[(choice, words[choice]) for choice in declared.choices],
            label=label,
            help_text=help_text,
            widget=forms.RadioSelect if name == "settlement" else forms.Select,
        )
    if declared.kind == "whole":
        return WholeField(
            low=declared.low,
            high=declared.high,
            nullable=declared.nullable,
            label=label,
            help_text=help_text,
        )
    return MultipliersField(label=label, help_text=help_text, max_length=40)


def _initial(name: str) -> Any:
    default = OPTIONS[name].default
    if name == "rank_multipliers":
        return ", ".join(str(item) for item in default)
    return default


class ForAGroup(forms.Form):
    """The day a game is played on and the group whose evening it belongs to
    (its money counting in the group's purse once the game has ended)."""

    # The group's evening the game belongs to: today unless changed (a game
    # entered after midnight, or the next morning).
    played_on = EitherCalendarDateField(label=gettext_lazy("Played on"), required=False)
    group = forms.TypedChoiceField(
        label=gettext_lazy("For a group"),
        required=False,
        coerce=int,
        empty_value=None,
        help_text=gettext_lazy("Its money counts in the group's balances once the game has ended."),
    )

    groups: dict[int, Any]

    def clean_group(self) -> Any:
        value = self.cleaned_data.get("group")
        return None if value is None else self.groups.get(value)


def offer_groups(form: ForAGroup, groups: Sequence[Any]) -> None:
    """The user's groups as the form's choices (as a pot session offers
    them), none by default."""
    form.groups = {g.pk: g for g in groups}
    form.fields["group"].choices = [  # type: ignore[attr-defined]
        ("", _("No group"))
    ] + [(g.pk, g.name) for g in groups]


class StartForm(ForAGroup):
    """A new game: four names, a stake, the house's options."""

    name = forms.CharField(
        label=gettext_lazy("Name of the game"),
        required=False,
        max_length=120,
        help_text=gettext_lazy("Optional, e.g. “Dashain, after dinner”."),
    )
    stake = forms.CharField(
        label=gettext_lazy("Stake"),
        required=False,
        max_length=14,
        help_text=gettext_lazy(
            "One stake in money, e.g. 10. Under “points' difference”, the money per point."
        ),
    )

    def __init__(self, *args: Any, groups: Sequence[Any] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        offer_groups(self, groups)
        for seat in SEATS:
            self.fields[f"player_{seat}"] = forms.CharField(
                label=_("Player %(number)s") % {"number": seat + 1}, max_length=40
            )
            self.fields[f"player_{seat}"].widget.attrs.update({"autocomplete": "off"})
        for name in OPTIONS:
            self.fields[name] = _option_field(name)
            self.fields[name].initial = _initial(name)
        self.fields["stake"].widget.attrs.update({"inputmode": "decimal", "autocomplete": "off"})
        self.rules: Rules | None = None

    def player_fields(self) -> list[forms.BoundField]:
        return [self[f"player_{seat}"] for seat in SEATS]

    def option_fields(self, names: tuple[str, ...]) -> list[forms.BoundField]:
        return [self[name] for name in names]

    def scoring_fields(self) -> list[forms.BoundField]:
        return self.option_fields(SCORING_OPTIONS)

    def money_fields(self) -> list[forms.BoundField]:
        return self.option_fields(MONEY_OPTIONS)

    def main_fields(self) -> list[forms.BoundField]:
        return self.option_fields(MAIN_OPTIONS)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        seen: dict[str, str] = {}
        names = []
        for seat in SEATS:
            field = f"player_{seat}"
            raw = data.get(field)
            if raw is None:
                continue
            try:
                name = clean_player(raw)
            except forms.ValidationError as error:
                self.add_error(field, error)
                continue
            key = player_key(name)
            if key in seen:
                self.add_error(
                    field, _("%(name)s is already a player of this game") % {"name": seen[key]}
                )
                continue
            seen[key] = name
            names.append(name)
        data["players"] = names
        options: dict[str, Any] = {}
        settlement = data.get("settlement")
        for name, declared in OPTIONS.items():
            if name not in data or self.has_error(name):
                continue
            value = data[name]
            if value == declared.default:
                continue
            if declared.only_with and settlement not in declared.only_with:
                continue  # hidden under this settlement: its value means nothing
            options[name] = list(value) if isinstance(value, tuple) else value
        if self.errors:
            return data
        rules, problems = read_rules(options)
        for problem in problems:
            option = problem.where[1] if len(problem.where) > 1 else None
            self.add_error(
                option if isinstance(option, str) and option in self.fields else None,
                str(translate(problem.problem)),
            )
        self.rules = rules
        stake_text = (data.get("stake") or "").strip().translate(DEVANAGARI_DIGITS)
        if rules is not None:
            if not stake_text and rules.settlement != "none":
                self.add_error("stake", _("a game played for money needs a stake, e.g. 10"))
            elif stake_text:
                try:
                    data["stake_amount"] = parse_money(stake_text)
                except MoneyError as error:
                    self.add_error("stake", translate(error.msg))
        data.setdefault("stake_amount", None)
        return data


def stake_of(form: StartForm) -> Decimal | None:
    return form.cleaned_data.get("stake_amount")


class DealForm:
    """A deal's four bids and four tricks as typed (`bid_0` … `tricks_3`):
    read, each bounded, before the engine checks the deal."""

    def __init__(
        self, data: Any | None, players: list[str], *, min_bid: int = 1, max_bid: int = 13
    ) -> None:
        self.data = data
        self.players = players
        self.min_bid = min_bid
        self.max_bid = max_bid
        self.errors: dict[str, str] = {}
        self.bids: list[int] = []
        self.tricks: list[int] = []

    def rows(self) -> list[dict[str, Any]]:
        """Each player's row as the form shows it: what was typed, and its problem."""
        return [
            {
                "seat": seat,
                "name": name,
                "bid": self.value(f"bid_{seat}"),
                "tricks": self.value(f"tricks_{seat}"),
                "bid_error": self.errors.get(f"bid_{seat}"),
                "tricks_error": self.errors.get(f"tricks_{seat}"),
            }
            for seat, name in enumerate(self.players)
        ]

    def value(self, name: str) -> str:
        return "" if self.data is None else str(self.data.get(name, ""))

    def is_valid(self) -> bool:
        if self.data is None:
            return False
        for seat, player in enumerate(self.players):
            for kind, target, low, high in (
                ("bid", self.bids, self.min_bid, self.max_bid),
                ("tricks", self.tricks, 0, 13),
            ):
                field = f"{kind}_{seat}"
                raw = self.value(field).strip()
                if not raw:
                    self.errors[field] = (
                        _("%(name)s's call is missing")
                        if kind == "bid"
                        else _("%(name)s's hands are missing")
                    ) % {"name": player}
                    continue
                try:
                    target.append(read_whole(raw, low=low, high=high))
                except forms.ValidationError as error:
                    self.errors[field] = f"{player}: {error.messages[0]}"
        return not self.errors


class GameFileForm(FileForm, ForAGroup):
    """A `callbreak-game/1` file: refused with every refusal, each naming its
    code and where it is; the day it was played and its group, as a new
    game's."""

    def __init__(self, *args: Any, groups: Sequence[Any] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        offer_groups(self, groups)

    file = forms.FileField(
        label=gettext_lazy("Call Break game file"),
        widget=forms.FileInput(attrs={"accept": ".json,application/json"}),
        help_text=gettext_lazy("A callbreak-game/1 file, as this app exports it."),
    )

    def read(self, text: str) -> None:
        try:
            data = loads(text)
        except DocumentError as error:
            raise forms.ValidationError(translate(error.msg)) from None
        found = refusals(data)
        if found:
            raise forms.ValidationError([refusal_line(item) for item in found])
        self.document = data


def refusal_line(item: Any) -> str:
    """`E_TRICKS_SUM: deal 3: tricks total 12, not 13`, in the reader's language."""
    parts = [item.code]
    if item.where:
        parts.append(
            ", ".join(translate(part) if not isinstance(part, str) else part for part in item.where)
        )
    parts.append(translate(item.problem))
    return ": ".join(parts)


def document_text(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
