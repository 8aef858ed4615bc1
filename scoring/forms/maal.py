"""The maal calculator (RULES.md section 4) and the session's point-table editor,
as posted: plain Python, each bad value with its message."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from django.utils.translation import gettext as _

from ..engine import Rules
from ..engine.maal import (
    ITEM_LABELS,
    RANKS,
    SUIT_SYMBOLS,
    SUITS,
    TALLY_ITEMS,
    TALLY_LABELS,
    TIER_ITEMS,
    Card,
    MaalError,
    MaalScore,
    Tally,
    check_tiers,
    maal_cards,
    point_table_for,
    score,
)
from ..engine.messages import Message
from ..engine.numbers import NotANumber, parse_whole
from ..engine.rules import OPTION_HELP, OPTION_LABELS, check_option
from ..words.i18n import translate

MAX_COUNT = 21  # a hand's size: more of anything is a typo
CARD_ITEMS = {
    "tiplu": "tiplu",
    "poplu": "poplu",
    "jhiplu": "jhiplu",
    "alter": "alter",
    "printed_joker": "printed_jokers",
    "master_card": "master_card",
}


@dataclass
class ItemRow:
    """One +/− counter of the calculator."""

    name: str  # a Tally field
    label: str
    count: int
    card: str = ""  # the card's face for this tiplu ("8♥"), for card items
    role: str = ""


@dataclass
class Calculator:
    """The calculator's state as posted, and what it adds up to."""

    rules: Rules
    tiplu_rank: str = ""
    tiplu_suit: str = ""
    counts: dict[str, int] | None = None
    result: MaalScore | None = None
    error: str = ""

    @property
    def tiplu(self) -> Card | None:
        if self.tiplu_rank in RANKS and self.tiplu_suit in SUITS:
            return Card(self.tiplu_rank, self.tiplu_suit)
        return None

    @property
    def tiplu_code(self) -> str:
        return self.tiplu.code if self.tiplu else ""

    @property
    def tally(self) -> Tally:
        return Tally(**(self.counts or {}))

    @property
    def tally_json(self) -> str:
        return json.dumps(self.result.tally.to_dict() if self.result else {})

    @property
    def faces_json(self) -> str:
        """Each maal card's face for the tiplu, for the script to relabel the cards."""
        if not self.tiplu:
            return "{}"
        return json.dumps(dict(maal_cards(self.tiplu, self.rules)), ensure_ascii=False)

    def card_rows(self) -> list[ItemRow]:
        counts = self.counts or {}
        faces = dict(
            (role, label) for role, label in maal_cards(self.tiplu or Card("A", "S"), self.rules)
        )
        rows = []
        for role, item in CARD_ITEMS.items():
            if role not in faces:
                continue
            face = faces[role] if self.tiplu or role in ("printed_joker", "master_card") else ""
            rows.append(ItemRow(item, _(TALLY_LABELS[item]), counts.get(item, 0), face, role))
        return rows

    def other_rows(self) -> list[ItemRow]:
        """The tunnels. No marriage count: a marriage is counted from its three cards
        (best_grouping), so a count of its own would add it a second time."""
        counts = self.counts or {}
        names = ["tunnels", "joker_tunnels", "poplu_tunnels", "jhiplu_tunnels"]
        if self.rules.alter:
            names.append("alter_tunnels")
        return [ItemRow(n, _(TALLY_LABELS[n]), counts.get(n, 0)) for n in names]

    def tiplu_ranks(self) -> list[str]:
        return list(RANKS)

    def tiplu_suits(self) -> list[tuple[str, str]]:
        return [(suit, SUIT_SYMBOLS[suit]) for suit in SUITS]


def read_calculator(data: Any, rules: Rules) -> Calculator:
    """The calculator from posted data (`tiplu_rank`, `tiplu_suit`, `n-<item>`), scored.
    A `tiplu` code ("7H") is accepted in place of rank and suit."""
    calc = Calculator(rules, data.get("tiplu_rank", ""), data.get("tiplu_suit", ""))
    code = data.get("tiplu", "")
    if code and not calc.tiplu:
        try:
            card = Card.parse(code)
        except MaalError:
            pass
        else:
            calc.tiplu_rank, calc.tiplu_suit = card.rank, card.suit
    counts: dict[str, int] = {}
    for name in TALLY_ITEMS:
        raw = str(data.get(f"n-{name}", "") or "0").strip()
        try:
            value = parse_whole(raw, devanagari=True)
        except NotANumber:
            calc.error = _("%(item)s: must be a whole number, got %(value)r") % {
                "item": _(TALLY_LABELS[name]),
                "value": raw if len(raw) <= 20 else raw[:20] + "…",
            }
            value = 0
        if not 0 <= value <= MAX_COUNT and not calc.error:
            calc.error = _("%(item)s: must be from 0 to %(max)d, got %(value)d") % {
                "item": _(TALLY_LABELS[name]),
                "max": MAX_COUNT,
                "value": value,
            }
        counts[name] = max(0, min(value, MAX_COUNT))
    # A marriage count (an older page, a script) is shown as the cards it stands for.
    marriages = counts.pop("marriages", 0)
    for role in ("tiplu", "poplu", "jhiplu"):
        counts[role] += marriages
    calc.counts = counts
    if calc.error:
        return calc
    try:
        calc.result = score(calc.tally, rules)
    except MaalError as error:
        calc.error = translate(error.msg)
    return calc


# --- the point-table editor ----------------------------------------------------------------

TOGGLES = ("alter", "printed_jokers", "master_card")


@dataclass
class TableForm:
    """The editor's fields as typed, with a message per field."""

    values: dict[str, str]
    errors: dict[str, str]
    recompute_needed: bool = False

    @classmethod
    def initial(cls, rules: Rules) -> TableForm:
        table = point_table_for(rules)
        values = {item: ", ".join(map(str, getattr(table, item))) for item in TIER_ITEMS}
        values["marriage_on_top"] = "on" if table.marriage_on_top else ""
        for name in TOGGLES:
            values[f"on-{name}"] = "on" if getattr(rules, name) else ""
        return cls(values, {})

    def rows(self) -> list[dict[str, str]]:
        return [
            {
                "name": item,
                "label": _(ITEM_LABELS[item]),
                "value": self.values.get(item, ""),
                "error": self.errors.get(item, ""),
            }
            for item in TIER_ITEMS
        ]

    def toggles(self) -> list[dict[str, Any]]:
        return [
            {
                "name": f"on-{name}",
                "label": _(OPTION_LABELS[name]),
                "help": _(OPTION_HELP[name]),
                "checked": bool(self.values.get(f"on-{name}")),
            }
            for name in TOGGLES
        ]


def read_table(data: Any, rules: Rules) -> tuple[TableForm, Rules | None]:
    values = {item: str(data.get(item, "")).strip() for item in TIER_ITEMS}
    # The switches are named on-<option>: "alter" is also a row of tiers.
    for name in (*(f"on-{t}" for t in TOGGLES), "marriage_on_top"):
        values[name] = "on" if data.get(name) else ""
    form = TableForm(values, {})
    options: dict[str, Any] = {}
    for item in TIER_ITEMS:
        try:
            options[item] = list(check_tiers(values[item], Message(ITEM_LABELS[item])))
        except MaalError as error:
            form.errors[item] = translate(error.msg)
    options["marriage_on_top"] = bool(values["marriage_on_top"])
    if form.errors:
        return form, None
    toggles: dict[str, Any] = {name: bool(values[f"on-{name}"]) for name in TOGGLES}
    new_rules = replace(rules, maal_points=check_option("maal_points", options), **toggles)
    return form, new_rules
