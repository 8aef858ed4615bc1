"""What the "How scoring works" page shows, computed by the engine itself: the
worked example of RULES.md section 2, each rule option on a small round settled
under its values, the presets side by side and the maal point tables. Nothing
here is typed in as a result, so the page can never disagree with a settlement.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from localise.templatetags.local_format import rule_value

from ..engine import PRESETS, RoundError, RoundInput, RoundResult, Rules, settle_session
from ..engine.maal import (
    ITEM_LABELS,
    PRESET_TABLES,
    TALLY_ITEMS,
    TALLY_LABELS,
    TIER_ITEMS,
    MaalError,
    PointTable,
    Tally,
    score,
)
from ..engine.rules import OPTION_HELP, OPTION_LABELS, OPTION_NAMES, OPTIONS, TABLE_OPTION
from ..engine.settlement import Entry, settle_round
from .i18n import translate

DEFAULT_RULES = Rules()

# RULES.md section 2: C wins; A seen with 5, B unseen with 2, C 7, D seen with 0.
WORKED = RoundInput(
    entries=(
        Entry("A", "seen", 5),
        Entry("B", "unseen", 2),
        Entry("C", "seen", 7),
        Entry("D", "seen", 0),
    ),
    winner="C",
)


def _with(round_: RoundInput, player: str, **changes: Any) -> RoundInput:
    entries = tuple(replace(e, **changes) if e.player == player else e for e in round_.entries)
    return replace(round_, entries=entries)


DUBLEE_WIN = replace(WORKED, win_type="dublee")
UNSEEN_TUNNEL = _with(WORKED, "B", tunnel=5)
BETTER = replace(WORKED, better=True)
DHOOS = _with(WORKED, "D", dhoos=True)
DHOOS_WITH_MAAL = _with(WORKED, "A", dhoos=True)
BY_DUBLEES = _with(WORKED, "A", dublees=True)
FIVE_PLAYERS = replace(WORKED, entries=(*WORKED.entries, Entry("E", "seen", 3)))
THREE_DUBLEE = replace(DUBLEE_WIN, entries=WORKED.entries[:3])
# RULES.md 3a: a second unseen player with maal, so the two could settle.
TWO_UNSEEN = replace(WORKED, entries=(*WORKED.entries, Entry("E", "unseen", 4)))
# The rounds before the one shown, for the options that look back.
AFTER_A_DUBLEE = (DUBLEE_WIN, replace(WORKED, better=None))
FIFTH_ROUND = (*(replace(WORKED, better=None),) * 5,)

HOUSE_TABLE = replace(PRESET_TABLES["pagat"], tiplu=(5, 10), marriage=(15, 40))


@dataclass(frozen=True, slots=True)
class NetsExample:
    """Rounds settled in order under each value; the last one is shown. `lead`
    says what came before it (a catalogue id with %(round)s), for the options
    that look back."""

    rounds: tuple[RoundInput, ...]
    lead: str = ""


@dataclass(frozen=True, slots=True)
class MaalExample:
    """One hand's maal under each value."""

    tally: Tally
    base: Rules = DEFAULT_RULES


# Each option: the values shown (the default first) and what they are tried on.
# An option without one here gets one found for it (_plain_option).
EXAMPLES: dict[str, tuple[tuple[Any, ...], NetsExample | MaalExample]] = {
    "seen_payment": ((3, 5), NetsExample((WORKED,))),
    "unseen_payment": ((10, 20), NetsExample((WORKED,))),
    "dublee_bonus": ((5, 0), NetsExample((DUBLEE_WIN,))),
    "unseen_maal": (("count", "void", "kidnap"), NetsExample((WORKED,))),
    "unseen_tunnel": (("void", "count"), NetsExample((UNSEEN_TUNNEL,))),
    "better_multiplier": ((2, 3), NetsExample((BETTER,))),
    "dublee_triggers_better": (
        (False, True),
        NetsExample(
            AFTER_A_DUBLEE,
            gettext_noop("The round after C won by eight dublees: %(round)s"),
        ),
    ),
    "dhoos_penalty": ((15, 25), NetsExample((DHOOS,))),
    "max_players": ((5, 4), NetsExample((FIVE_PLAYERS,))),
    "dhoos_amount": (("fixed", "round_total"), NetsExample((DHOOS,))),
    "dhoos_payee": (
        ("all", "winner", "next_winner", "next_round_winner"),
        NetsExample((DHOOS,)),
    ),
    "dhoos_voids_maal": ((False, True), NetsExample((DHOOS_WITH_MAAL,))),
    "dublee_players_pay_seen": ((True, False), NetsExample((BY_DUBLEES,))),
    "dublee_min_players": ((2, 4), NetsExample((THREE_DUBLEE,))),
    "better_after_rotation": (
        (False, True),
        NetsExample(
            FIFTH_ROUND,
            gettext_noop("Round 5 of an evening that has played this round every time: %(round)s"),
        ),
    ),
    "unseen_pairs": (("settle", "skip"), NetsExample((TWO_UNSEEN,))),
    "dhoos_pays_total": ((False, True), NetsExample((DHOOS_WITH_MAAL,))),
    "dublee_player_bonus": ((0, 2), NetsExample((BY_DUBLEES,))),
    "maal_table": (("pagat", "flat", "tiers"), MaalExample(Tally(tiplu=1, poplu=2, marriages=1))),
    "alter": ((False, True), MaalExample(Tally(tiplu=1, alter=1))),
    "printed_jokers": ((False, True), MaalExample(Tally(printed_jokers=1))),
    "printed_joker_value": (
        (5, 2),
        MaalExample(Tally(printed_jokers=2), Rules(printed_jokers=True)),
    ),
    "master_card": ((False, True), MaalExample(Tally(master_card=1))),
    "master_card_value": ((5, 10), MaalExample(Tally(master_card=1), Rules(master_card=True))),
    TABLE_OPTION: ((None, HOUSE_TABLE), MaalExample(Tally(tiplu=1, marriages=1))),
}


@dataclass(frozen=True, slots=True)
class Cell:
    value: int | None  # None: refused under this value (see the column's problem)
    changed: bool  # differs from the default's column


@dataclass(frozen=True, slots=True)
class Row:
    label: str
    cells: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class Column:
    head: str
    problem: str  # why the round or hand is refused, or what is left pending; or ""


@dataclass(frozen=True, slots=True)
class Option:
    name: str
    label: str
    help: str
    default: str
    setting: str  # the round (or hand) the example is tried on, in words
    kind: str  # "nets" or "maal"
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]


def worked_example() -> RoundResult:
    return settle_round(WORKED, PRESETS["pagat"])


def describe_round(round_: RoundInput) -> str:
    """ "A: seen, maal 5; B: unseen, maal 2; C: seen, maal 7, wins; D: seen, maal 0"."""
    parts = []
    for e in round_.entries:
        words = [
            _("%(name)s: seen, maal %(maal)s") % {"name": e.player, "maal": e.maal}
            if e.status == "seen"
            else _("%(name)s: unseen, maal %(maal)s") % {"name": e.player, "maal": e.maal}
        ]
        if e.tunnel:
            words.append(_("tunnel %(points)s") % {"points": e.tunnel})
        if e.dublees:
            words.append(_("saw by dublees"))
        if e.dhoos:
            words.append(_("given dhoos"))
        if e.player == round_.winner:
            words.append(_("wins by eight dublees") if round_.win_type == "dublee" else _("wins"))
        parts.append(", ".join(words))
    text = "; ".join(parts)
    if round_.better:
        text += _(" (a better round)")
    return text


def _describe_setting(example: NetsExample) -> str:
    shown = describe_round(example.rounds[-1])
    return _(example.lead) % {"round": shown} if example.lead else shown


# The calculator's words for one of an item, where they differ from TALLY_LABELS.
ONE = {"marriages": "marriage", "printed_jokers": "printed joker"}


def describe_tally(tally: Tally) -> str:
    """ "1 tiplu, 2 poplu, 1 marriage" as the calculator names the items."""
    return ", ".join(
        f"{count} {_(ONE.get(item, TALLY_LABELS[item]) if count == 1 else TALLY_LABELS[item])}"
        for item in TALLY_ITEMS
        if (count := getattr(tally, item))
    )


def _head(name: str, value: Any) -> str:
    if name == TABLE_OPTION:
        return _("the preset's table") if value is None else _("own table")
    return rule_value(value)


def _cells(values: Sequence[int | None]) -> tuple[Cell, ...]:
    return tuple(Cell(v, i > 0 and v != values[0]) for i, v in enumerate(values))


def _nets_option(name: str, values: tuple[Any, ...], example: NetsExample) -> Option:
    columns: list[Column] = []
    nets: list[dict[str, int] | None] = []
    for value in values:
        rules = replace(Rules(), **{name: value})
        try:
            result = settle_session(example.rounds, rules).rounds[-1]
        except RoundError as error:
            columns.append(Column(_head(name, value), translate(error.problem)))
            nets.append(None)
            continue
        owes = (
            _("%(name)s owes %(amount)s dhoos to the next round's winner, even sitting it out")
            if rules.dhoos_payee == "next_round_winner"
            else _("%(name)s owes %(amount)s dhoos to the next winner")
        )
        pending = ", ".join(
            owes % {"name": d.player, "amount": d.amount} for d in result.dhoos_deferred
        )
        columns.append(Column(_head(name, value), pending))
        nets.append(result.nets)
    players = [e.player for e in example.rounds[-1].entries]
    rows = tuple(
        Row(player, _cells([n[player] if n is not None else None for n in nets]))
        for player in players
    )
    return _option(name, values, _describe_setting(example), "nets", columns, rows)


def _maal_option(name: str, values: tuple[Any, ...], example: MaalExample) -> Option:
    columns, points = [], []
    for value in values:
        rules = replace(example.base, **{name: value})
        try:
            total: int | None = score(example.tally, rules).total
            problem = ""
        except MaalError as error:
            total, problem = None, translate(error.msg)
        columns.append(Column(_head(name, value), problem))
        points.append(total)
    setting = _("A hand holding %(cards)s") % {"cards": describe_tally(example.tally)}
    rows = (Row(_("maal points"), _cells(points)),)
    return _option(name, values, setting, "maal", columns, rows)


def _option(
    name: str,
    values: tuple[Any, ...],
    setting: str,
    kind: str,
    columns: list[Column],
    rows: tuple[Row, ...],
) -> Option:
    return Option(
        name=name,
        label=_(OPTION_LABELS[name]),
        help=_(OPTION_HELP[name]),
        default=_head(name, values[0]),
        setting=setting,
        kind=kind,
        columns=tuple(columns),
        rows=rows,
    )


def _plain_values(name: str) -> tuple[Any, ...]:
    """An option's values to show, the default first: both of a bool, every choice,
    a whole number's default and the low end of its range (or the high one)."""
    declared = OPTIONS[name]
    others: tuple[Any, ...]
    if declared.kind == "bool":
        others = (not declared.default,)
    elif declared.kind == "choice":
        others = tuple(c for c in declared.choices if c != declared.default)
    elif declared.kind == "whole":
        others = (declared.low if declared.default != declared.low else declared.high,)
    else:
        others = ()
    return (declared.default, *others)


def _build(name: str, values: tuple[Any, ...], example: NetsExample | MaalExample) -> Option:
    if isinstance(example, NetsExample):
        return _nets_option(name, values, example)
    return _maal_option(name, values, example)


def _shows_a_change(option: Option) -> bool:
    changed = any(cell.changed for row in option.rows for cell in row.cells)
    return changed or any(column.problem for column in option.columns)


def _plain_option(name: str) -> Option:
    """An option with no example of its own (a new one, say): its values on the
    worked example (or a hand of a tiplu and a marriage, for the maal calculator's),
    else on the first of the other options' examples where they change a figure, so
    the page shows what the option does without an example written for it."""
    values = _plain_values(name)
    first: NetsExample | MaalExample = (
        NetsExample((WORKED,))
        if OPTIONS[name].settles
        else MaalExample(Tally(tiplu=1, marriages=1))
    )
    tried = [first, *(e for _, e in EXAMPLES.values() if type(e) is type(first) and e != first)]
    for example in dict.fromkeys(tried):
        option = _build(name, values, example)
        if _shows_a_change(option):
            return option
    return _build(name, values, first)


def options() -> list[Option]:
    """Every option of Rules, in the order of the dataclass, with its example."""
    built: list[Option] = []
    for name in (*OPTION_NAMES, TABLE_OPTION):
        if name in EXAMPLES:
            values, example = EXAMPLES[name]
            built.append(_build(name, values, example))
        else:
            built.append(_plain_option(name))
    return built


@dataclass(frozen=True, slots=True)
class PresetRow:
    label: str
    values: tuple[str, ...]


def presets() -> dict[str, Any]:
    """The presets side by side: every option some preset sets apart from the
    default, then the worked example's nets under each."""
    names = list(PRESETS)
    differing = [n for n in OPTION_NAMES if len({getattr(p, n) for p in PRESETS.values()}) > 1]
    rows = [
        PresetRow(_(OPTION_LABELS[n]), tuple(rule_value(getattr(PRESETS[p], n)) for p in names))
        for n in differing
    ]
    nets = [settle_round(WORKED, PRESETS[p]).nets for p in names]
    net_rows = [
        Row(player, _cells([n[player] for n in nets]))
        for player in (e.player for e in WORKED.entries)
    ]
    same = [_(OPTION_LABELS[n]) for n in OPTION_NAMES if n not in differing]
    return {
        "heads": [rule_value(p) for p in names],
        "rows": rows,
        "nets": net_rows,
        "same": ", ".join(same),
    }


def _tiers_text(table: PointTable, item: str) -> str:
    tiers = getattr(table, item)
    if not tiers:
        return "–"
    text = ", ".join(str(t) for t in tiers)
    if item == "marriage" and table.marriage_on_top:
        return _("%(tiers)s each, on top of its cards") % {"tiers": text}
    if len(tiers) == 1:
        return _("%(tiers)s each") % {"tiers": text}
    return text


def maal_tables() -> dict[str, Any]:
    """RULES.md section 4's table, from the engine's own point tables."""
    names = list(PRESET_TABLES)
    return {
        "heads": [rule_value(n) for n in names],
        "rows": [
            PresetRow(
                _(ITEM_LABELS[item]), tuple(_tiers_text(PRESET_TABLES[n], item) for n in names)
            )
            for item in TIER_ITEMS
        ],
    }


def page() -> dict[str, Any]:
    """Everything the page shows, in the active language."""
    worked = worked_example()
    return {
        "worked": worked,
        "worked_setting": describe_round(WORKED),
        "worked_rules": PRESETS["pagat"],
        "options": options(),
        "presets": presets(),
        "maal": maal_tables(),
    }
