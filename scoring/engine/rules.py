"""The house rules of a session: one immutable value (RULES.md sections 3 and 5).

A variant is a `Rules` value, built from a preset with options overridden on top.
Option names are exactly those of RULES.md, so a session file, the settings form
and the engine all speak the same words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from dataclasses import field as dataclass_field
from typing import Any, Literal, get_args, get_origin, get_type_hints

from .maal import MaalError, PointTable, point_table_from_options
from .messages import WITHIN, EngineError, gettext_noop, message

UnseenMaal = Literal["count", "void", "kidnap"]
UnseenTunnel = Literal["count", "void"]
MaalTable = Literal["pagat", "flat", "tiers"]
DhoosAmount = Literal["fixed", "round_total"]
DhoosPayee = Literal["all", "winner", "next_winner", "next_round_winner"]
UnseenPairs = Literal["settle", "skip"]

MIN_PLAYERS = 2
MAX_PLAYERS_LIMIT = 8
MAX_OPTION_POINTS = 10_000
MAX_MASTER_CARD_VALUE = 100
# The presets of RULES.md section 5, in its order; each option below names the
# value a preset gives it where that is not the option's default.
PRESET_NAMES: tuple[str, ...] = ("pagat", "kidnap", "murder", "wikipedia", "nepal")
DEFAULT_PRESET = "pagat"

OptionKind = Literal["bool", "whole", "choice", "table"]
# What a round's result may read from the rounds before it: its better default,
# or the dhoos pending before it.
LooksBack = Literal["better", "dhoos"]


class RuleError(EngineError):
    """An unknown preset or option, or an option with a value it cannot take."""


@dataclass(frozen=True, slots=True)
class Option:
    """One rule option, as its declaration on `Rules` says it: everything the
    engine, the forms, the pages, the words and the browser know of it."""

    name: str
    default: Any
    kind: OptionKind
    label: str  # marked with gettext_noop, translated where shown
    help: str  # one sentence, shown beside it wherever a user chooses it
    choices: tuple[str, ...] = ()  # kind "choice": its values, the default first or not
    low: int = 0  # kind "whole": its bounds
    high: int = 0
    presets: Mapping[str, Any] = dataclass_field(default_factory=dict)  # preset -> value
    # A value in `looks_back_when` makes a round's result depend on earlier rounds.
    looks_back: LooksBack | None = None
    looks_back_when: tuple[Any, ...] = (True,)
    # Part of one round's settlement (what the browser's copy reads); False: the
    # maal calculator's (section 4).
    settles: bool = True

    def checks(self, value: Any) -> bool:
        """Whether `value` is one this option can take (the custom table aside)."""
        if self.kind == "choice":
            return isinstance(value, str) and value in self.choices
        if self.kind == "bool":
            return isinstance(value, bool)
        if self.kind == "whole":
            return (
                isinstance(value, int)
                and not isinstance(value, bool)
                and self.low <= value <= self.high
            )
        return True

    def schema(self) -> dict[str, Any]:
        """The option as JSON data (the browser's copy of the settlement reads it)."""
        data: dict[str, Any] = {"default": self.default, "kind": self.kind}
        if self.kind == "choice":
            data["choices"] = list(self.choices)
        elif self.kind == "whole":
            data["min"], data["max"] = self.low, self.high
        if self.looks_back:
            data["looks_back"] = self.looks_back
        return data


def option(
    default: Any,
    *,
    label: str,
    help: str,
    whole: tuple[int, int] | None = None,
    presets: Mapping[str, Any] | None = None,
    looks_back: LooksBack | None = None,
    looks_back_when: tuple[Any, ...] = (True,),
    settles: bool = True,
) -> Any:
    """A field of `Rules` that is a rule option: its default, its words, its range
    (`whole`, for a number; a `Literal` type gives a choice's values), its value in
    each preset that plays it differently, whether a round under some of its
    values depends on the rounds before it, and whether it is part of a round's
    settlement or of the maal calculator. Everything else is derived from it."""
    return dataclass_field(
        default=default,
        metadata={
            "option": {
                "label": label,
                "help": help,
                "whole": whole,
                "presets": dict(presets or {}),
                "looks_back": looks_back,
                "looks_back_when": looks_back_when,
                "settles": settles,
            }
        },
    )


POINTS = (0, MAX_OPTION_POINTS)


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule option is declared here, once (CONTRIBUTING: "A new rule option").
    RULES.md v2 and later: each default is the rule as it was before the option
    existed, so a session saved earlier settles exactly as it did."""

    seen_payment: int = option(
        3,
        whole=POINTS,
        label=gettext_noop("Seen payment"),
        help=gettext_noop("What each loser who has seen the tiplu pays the winner for the game."),
    )
    unseen_payment: int = option(
        10,
        whole=POINTS,
        label=gettext_noop("Unseen payment"),
        help=gettext_noop("What each loser who never saw the tiplu pays the winner for the game."),
    )
    dublee_bonus: int = option(
        5,
        whole=POINTS,
        presets={"murder": 0, "wikipedia": 0},
        label=gettext_noop("Dublee bonus"),
        help=gettext_noop("Extra paid by every loser when the winner ends with eight dublees."),
    )
    unseen_maal: UnseenMaal = option(
        "count",
        presets={"kidnap": "kidnap", "murder": "void", "nepal": "void"},
        label=gettext_noop("Unseen maal"),
        help=gettext_noop(
            "Maal of a player who never saw the tiplu: counts as usual, is void (murder), "
            "or is kidnapped by the winner."
        ),
    )
    unseen_tunnel: UnseenTunnel = option(
        "void",
        presets={"wikipedia": "count"},
        label=gettext_noop("Unseen tunnel"),
        help=gettext_noop(
            "Tunnel points of a player who never saw the tiplu: void (tunnel pachaunu) or counted."
        ),
    )
    better_multiplier: int = option(
        2,
        whole=(1, 100),
        label=gettext_noop("Better multiplier"),
        help=gettext_noop("A better (double) round multiplies every game payment by this."),
    )
    dublee_triggers_better: bool = option(
        False,
        looks_back="better",
        label=gettext_noop("Dublee triggers better"),
        help=gettext_noop("The round after a dublee win starts marked as better."),
    )
    dhoos_penalty: int = option(
        15,
        whole=POINTS,
        label=gettext_noop("Dhoos penalty"),
        help=gettext_noop("What a player given dhoos pays when the dhoos amount is fixed."),
    )
    max_players: int = option(
        5,
        whole=(MIN_PLAYERS, MAX_PLAYERS_LIMIT),
        label=gettext_noop("Max players"),
        help=gettext_noop("Most players who can sit at one round (2 to 8)."),
    )
    dhoos_amount: DhoosAmount = option(
        "fixed",
        label=gettext_noop("Dhoos amount"),
        help=gettext_noop(
            "What a player given dhoos pays: the dhoos penalty, or the round's total points (T)."
        ),
    )
    dhoos_payee: DhoosPayee = option(
        "all",
        presets={"nepal": "next_winner"},
        looks_back="dhoos",
        looks_back_when=("next_winner", "next_round_winner"),
        label=gettext_noop("Dhoos paid to"),
        help=gettext_noop(
            "Who is paid dhoos: every other player of the round, the round's winner, "
            "the winner of the next round the player plays, or the winner of the next "
            "won round even if the player sits it out."
        ),
    )
    dhoos_voids_maal: bool = option(
        False,
        presets={"nepal": True},
        label=gettext_noop("Dhoos voids maal"),
        help=gettext_noop(
            "A player given dhoos counts no maal or tunnel points of their own in that round."
        ),
    )
    dublee_players_pay_seen: bool = option(
        True,
        presets={"nepal": False},
        label=gettext_noop("Dublee players pay seen"),
        help=gettext_noop(
            "A loser who saw the tiplu by seven dublees pays the seen payment (off: pays none)."
        ),
    )
    dublee_min_players: int = option(
        2,
        whole=(MIN_PLAYERS, MAX_PLAYERS_LIMIT),
        label=gettext_noop("Dublee win: fewest players"),
        help=gettext_noop("Fewest players in a round for a dublee win to count (2 to 8)."),
    )
    better_after_rotation: bool = option(
        False,
        looks_back="better",
        label=gettext_noop("Better after a rotation"),
        help=gettext_noop(
            "After each full rotation of the deal, the next round starts marked as better."
        ),
    )
    # RULES.md v3 (section 3a): the house rules of other scorekeeper apps.
    unseen_pairs: UnseenPairs = option(
        "settle",
        label=gettext_noop("Unseen players settle"),
        help=gettext_noop(
            "Whether two unseen players settle their points with each other (settle) "
            "or only with the seen players (skip)."
        ),
    )
    dhoos_pays_total: bool = option(
        False,
        label=gettext_noop("Dhoos plays a dead hand"),
        help=gettext_noop(
            "A loser given dhoos plays a dead hand: their points go to the winner and they "
            "pay the round's total points, with no seen or unseen payment."
        ),
    )
    dublee_player_bonus: int = option(
        0,
        whole=POINTS,
        label=gettext_noop("Dublee player bonus"),
        help=gettext_noop(
            "What the winner pays each seen loser who saw the tiplu by seven dublees."
        ),
    )
    # The maal calculator's point table (RULES.md section 4).
    maal_table: MaalTable = option(
        "pagat",
        presets={"kidnap": "tiers", "murder": "tiers", "wikipedia": "flat", "nepal": "tiers"},
        settles=False,
        label=gettext_noop("Maal point table"),
        help=gettext_noop("The maal calculator's point table: pagat, flat or tiers."),
    )
    alter: bool = option(
        False,
        presets={"kidnap": True, "murder": True, "nepal": True},
        settles=False,
        label=gettext_noop("Alter is maal"),
        help=gettext_noop("Alter cards (same rank, other suit of the tiplu's colour) are maal."),
    )
    printed_jokers: bool = option(
        False,
        settles=False,
        label=gettext_noop("Printed jokers"),
        help=gettext_noop("Printed jokers (putali, man) are in the decks and are maal."),
    )
    printed_joker_value: int = option(
        5,
        whole=(2, 5),
        settles=False,
        label=gettext_noop("Printed joker value"),
        help=gettext_noop("Points for each printed joker when they are in play (2 to 5)."),
    )
    master_card: bool = option(
        False,
        settles=False,
        label=gettext_noop("Master card"),
        help=gettext_noop("The master card is in play, worth the master card value."),
    )
    master_card_value: int = option(
        5,
        whole=(0, MAX_MASTER_CARD_VALUE),
        settles=False,
        label=gettext_noop("Master card value"),
        help=gettext_noop(
            "Points for the master card when it is in play. A session's own point table "
            "sets its own value instead."
        ),
    )
    # A house's own point table, edited by the session owner; None: `maal_table`'s.
    # A structured value with its own editor: not among the scalar options.
    maal_points: PointTable | None = option(
        None,
        settles=False,
        label=gettext_noop("Own maal point table"),
        help=gettext_noop("The session's own maal point table (tiers per item), if it has one."),
    )

    def to_options(self) -> dict[str, Any]:
        """Every option, resolved: what an export writes under `rules`. The custom
        point table is written only when there is one."""
        options = {name: getattr(self, name) for name in OPTION_NAMES}
        if self.maal_points is not None:
            options[TABLE_OPTION] = self.maal_points.to_options()
        return options

    def differences(self, other: Rules) -> dict[str, Any]:
        """The options where self differs from other (e.g. from its preset)."""
        mine, theirs = self.to_options(), other.to_options()
        differ = {k: v for k, v in mine.items() if theirs.get(k) != v}
        if "maal_points" in theirs and "maal_points" not in mine:
            differ["maal_points"] = None
        return differ

    def looks_back(self, what: LooksBack | None = None) -> bool:
        """Whether a round's result can depend on the rounds before it: through its
        better default (`what="better"`), the dhoos pending before it
        (`what="dhoos"`) or either (None). Read from the options' declarations."""
        return any(
            getattr(self, o.name) in o.looks_back_when
            for o in OPTIONS.values()
            if o.looks_back is not None and what in (None, o.looks_back)
        )


def _declared(cls: type) -> dict[str, Option]:
    """The options of a `Rules` class, read from its fields' declarations."""
    hints = get_type_hints(cls)
    declared: dict[str, Option] = {}
    for item in fields(cls):
        meta = item.metadata["option"]
        kind: OptionKind
        choices: tuple[str, ...] = ()
        low = high = 0
        if item.name == TABLE_OPTION:
            kind = "table"
        elif hints[item.name] is bool:
            kind = "bool"
        elif get_origin(hints[item.name]) is Literal:
            kind, choices = "choice", tuple(get_args(hints[item.name]))
        elif hints[item.name] is int and meta["whole"] is not None:
            kind, (low, high) = "whole", meta["whole"]
        else:
            raise TypeError(
                f"rule option {item.name}: declare it as bool, int with whole=(low, high), "
                "or a Literal of its values"
            )
        unknown = set(meta["presets"]) - set(PRESET_NAMES)
        if unknown:
            raise TypeError(f"rule option {item.name}: no preset {sorted(unknown)[0]!r}")
        declared[item.name] = Option(
            name=item.name,
            default=item.default,
            kind=kind,
            label=meta["label"],
            help=meta["help"],
            choices=choices,
            low=low,
            high=high,
            presets=meta["presets"],
            looks_back=meta["looks_back"],
            looks_back_when=meta["looks_back_when"],
            settles=meta["settles"],
        )
    return declared


# The custom point table is a structured value with its own editor, so it is not
# among the scalar options that forms iterate over.
TABLE_OPTION = "maal_points"
OPTIONS: dict[str, Option] = _declared(Rules)
OPTION_NAMES: tuple[str, ...] = tuple(name for name in OPTIONS if name != TABLE_OPTION)
OPTION_LABELS: dict[str, str] = {o.name: o.label for o in OPTIONS.values()}
OPTION_HELP: dict[str, str] = {o.name: o.help for o in OPTIONS.values()}
# Every value a choice can take (words a reader sees: localise/words.py translates them).
CHOICE_VALUES: tuple[str, ...] = tuple(
    dict.fromkeys(c for o in OPTIONS.values() for c in o.choices)
)


def option_schema() -> dict[str, dict[str, Any]]:
    """Every option of a round's settlement as JSON data: kind, default, values."""
    return {o.name: o.schema() for o in OPTIONS.values() if o.settles}


def check_option(name: str, value: Any) -> Any:
    """Return the option's value if it is valid, else raise RuleError naming it."""
    if name == TABLE_OPTION:
        if value is None:
            return None
        try:
            return point_table_from_options(value)
        except MaalError as error:
            raise RuleError(
                message(
                    WITHIN,
                    where=message(gettext_noop("rule %(name)s"), name=name),
                    problem=error.msg,
                )
            ) from None
    if name not in OPTION_NAMES:
        raise RuleError(message(gettext_noop("unknown rule option %(name)s"), name=repr(name)))
    declared = OPTIONS[name]
    if declared.checks(value):
        return value
    if declared.kind == "choice":
        raise RuleError(
            message(
                gettext_noop("rule %(name)s: must be one of %(allowed)s, got %(value)s"),
                name=name,
                allowed=", ".join(declared.choices),
                value=repr(value),
            )
        )
    if declared.kind == "bool":
        raise RuleError(
            message(
                gettext_noop("rule %(name)s: must be true or false, got %(value)s"),
                name=name,
                value=repr(value),
            )
        )
    raise RuleError(
        message(
            gettext_noop(
                "rule %(name)s: must be a whole number from %(low)s to %(high)s, got %(value)s"
            ),
            name=name,
            low=declared.low,
            high=declared.high,
            value=repr(value),
        )
    )


def _preset(name: str) -> Rules:
    """A preset: every option at its default but those whose declaration names it."""
    values = {
        o.name: check_option(o.name, o.presets[name]) for o in OPTIONS.values() if name in o.presets
    }
    return Rules(**values)


PRESETS: dict[str, Rules] = {name: _preset(name) for name in PRESET_NAMES}
# The values of a choice option, for the code that names them.
UNSEEN_MAAL_CHOICES = OPTIONS["unseen_maal"].choices
UNSEEN_TUNNEL_CHOICES = OPTIONS["unseen_tunnel"].choices
MAAL_TABLE_CHOICES = OPTIONS["maal_table"].choices
DHOOS_AMOUNT_CHOICES = OPTIONS["dhoos_amount"].choices
DHOOS_PAYEE_CHOICES = OPTIONS["dhoos_payee"].choices


def make_rules(preset: str = DEFAULT_PRESET, **overrides: Any) -> Rules:
    """A preset with options overridden on top; every value is checked."""
    if preset not in PRESETS:
        raise RuleError(
            message(
                gettext_noop("unknown rules preset %(name)s (one of %(presets)s)"),
                name=repr(preset),
                presets=", ".join(PRESETS),
            )
        )
    checked = {name: check_option(name, value) for name, value in overrides.items()}
    return replace(PRESETS[preset], **checked)


def rules_from_options(options: Mapping[str, Any]) -> Rules:
    """Rules from a session file's `rules` object: an optional preset plus options."""
    options = dict(options)
    preset = options.pop("preset", DEFAULT_PRESET)
    if not isinstance(preset, str):
        raise RuleError(
            message(
                gettext_noop("rule preset: must be a preset name, got %(value)s"),
                value=repr(preset),
            )
        )
    return make_rules(preset, **options)


def preset_of(rules: Rules) -> str | None:
    """The name of the preset these rules equal exactly, if any."""
    for name, preset in PRESETS.items():
        if preset == rules:
            return name
    return None


def closest_preset(rules: Rules) -> str:
    """The preset from which the fewest options differ (for describing a variant)."""
    return min(PRESETS, key=lambda name: len(rules.differences(PRESETS[name])))
