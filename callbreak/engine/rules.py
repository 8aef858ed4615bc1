"""The house rules of a Call Break game: one immutable value (CALLBREAK.md §4).

Each of the 17 options is declared once, as a field of `Rules`: its default,
its range or values, its words, and the settlements it applies to. Reading a
document's `rules`, checking a value built in code and describing the options
(docs, a form) are all derived from those declarations.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from dataclasses import field as dataclass_field
from itertools import pairwise
from typing import Any, Literal, get_args, get_origin, get_type_hints

from scoring.engine.messages import EngineError, Message, gettext_noop, message

from .money import shown
from .refusals import Refusal, Where, refusal

ExcessFails = Literal["never", "at_double", "any"]
FailPenalty = Literal["bid", "shortfall"]
BonusBidScore = Literal["thirteen", "double"]
Settlement = Literal["by_rank", "winner_takes", "difference", "none"]
Multipliers = tuple[int, int, int, int]

SETTLEMENTS: tuple[Settlement, ...] = get_args(Settlement)
# Stake multiples for places 1st to 4th are bounded so a typo (600 for 6)
# is refused rather than settled.
MAX_MULTIPLIER = 1_000
WINNER_TAKES: Multipliers = (3, -1, -1, -1)

OptionKind = Literal["bool", "whole", "choice", "multipliers"]


class RuleError(EngineError):
    """Rules that cannot be: an option out of range, or options that do not go
    together. The message names the option."""


@dataclass(frozen=True, slots=True)
class Option:
    """One rule option as its declaration on `Rules` says it."""

    name: str
    default: Any
    kind: OptionKind
    label: str  # marked with gettext_noop, translated where shown
    help: str
    choices: tuple[str, ...] = ()  # kind "choice"
    low: int = 0  # kind "whole": its bounds
    high: int = 0
    nullable: bool = False  # null is a value ("no cap", "no target")
    # The settlements under which it means anything; () is all of them. Given
    # under another it is refused, never silently ignored (§4).
    only_with: tuple[Settlement, ...] = ()

    def problem(self, value: Any) -> Message | None:
        """What is wrong with `value` for this option, or None if it can take it."""
        if value is None and self.nullable:
            return None
        if self.kind == "choice":
            if isinstance(value, str) and value in self.choices:
                return None
            return message(
                gettext_noop("must be one of %(allowed)s, got %(value)s"),
                allowed=", ".join(f'"{choice}"' for choice in self.choices),
                value=shown(value),
            )
        if self.kind == "bool":
            if isinstance(value, bool):
                return None
            return message(gettext_noop("must be true or false, got %(value)s"), value=shown(value))
        if self.kind == "whole":
            if _whole(value) and self.low <= value <= self.high:
                return None
            return message(
                gettext_noop("must be a whole number from %(low)s to %(high)s, got %(value)s")
                if not self.nullable
                else gettext_noop(
                    "must be null or a whole number from %(low)s to %(high)s, got %(value)s"
                ),
                low=self.low,
                high=self.high,
                value=shown(value),
            )
        return _multipliers_problem(value)


def _whole(value: object) -> bool:
    """A JSON integer: not true/false, not 3.0."""
    return isinstance(value, int) and not isinstance(value, bool)


def _multipliers_problem(value: object) -> Message | None:
    if not isinstance(value, (list, tuple)) or len(value) != 4 or not all(map(_whole, value)):
        return message(
            gettext_noop("must be a list of 4 whole numbers, got %(value)s"),
            value=shown(value) if not isinstance(value, (list, tuple)) else f"{len(value)} items",
        )
    if any(abs(item) > MAX_MULTIPLIER for item in value):
        return message(
            gettext_noop("each must be from -%(max)s to %(max)s, got %(value)s"),
            max=f"{MAX_MULTIPLIER:,}",
            value=_listed(value),
        )
    if sum(value) != 0:
        return message(
            gettext_noop("must sum to 0, %(value)s sums to %(sum)s"),
            value=_listed(value),
            sum=sum(value),
        )
    if any(later > earlier for earlier, later in pairwise(value)):
        return message(
            gettext_noop("must not increase from 1st to 4th place, got %(value)s"),
            value=_listed(value),
        )
    return None


def _listed(value: Sequence[int]) -> str:
    return "[" + ", ".join(str(item) for item in value) + "]"


def option(
    default: Any,
    *,
    label: str,
    help: str,
    whole: tuple[int, int] | None = None,
    only_with: tuple[Settlement, ...] = (),
) -> Any:
    """A field of `Rules` that is a rule option: its default, its words, its
    range (`whole`, for a number; a `Literal` type gives a choice's values, and
    `| None` makes null a value), and the settlements it applies to."""
    return dataclass_field(
        default=default,
        metadata={"option": {"label": label, "help": help, "whole": whole, "only_with": only_with}},
    )


@dataclass(frozen=True, slots=True)
class Rules:
    """Every option of CALLBREAK.md §4, declared once, with its default. A value
    that cannot be (an option out of range, options that do not go together)
    is a RuleError when built."""

    min_bid: int = option(
        1,
        whole=(1, 2),
        label=gettext_noop("Smallest call"),
        help=gettext_noop("The smallest bid a player may call (no nil bids)."),
    )
    max_bid: int = option(
        13,
        whole=(8, 13),
        label=gettext_noop("Largest call"),
        help=gettext_noop("The largest bid a player may call (8 to 13)."),
    )
    overtrick_tenths: int = option(
        1,
        whole=(0, 10),
        label=gettext_noop("Extra hand worth (tenths)"),
        help=gettext_noop("Tenths of a point added for each hand taken beyond the call."),
    )
    overtrick_cap: int | None = option(
        None,
        whole=(0, 12),
        label=gettext_noop("Extra hands counted"),
        help=gettext_noop("At most this many extra hands count (none: every one counts)."),
    )
    excess_fails: ExcessFails = option(
        "never",
        label=gettext_noop("Too many hands fail"),
        help=gettext_noop(
            "When taking too many hands counts as failing the call: never, at double "
            "the call or more, or any hand beyond it."
        ),
    )
    fail_penalty: FailPenalty = option(
        "bid",
        label=gettext_noop("A failed call costs"),
        help=gettext_noop("A failed call scores minus the call, or minus the hands short."),
    )
    bonus_bid_threshold: int | None = option(
        None,
        whole=(5, 13),
        label=gettext_noop("Bonus calls from"),
        help=gettext_noop("Calls of at least this many hands are bonus calls (pagat: 8)."),
    )
    bonus_bid_score: BonusBidScore = option(
        "thirteen",
        label=gettext_noop("A made bonus call scores"),
        help=gettext_noop("A made bonus call scores 13 points, or double the call."),
    )
    thirteen_wins_game: bool = option(
        False,
        label=gettext_noop("Thirteen wins the game"),
        help=gettext_noop("A player who calls 13 and takes all 13 hands wins the game at once."),
    )
    deals_per_game: int | None = option(
        5,
        whole=(1, 20),
        label=gettext_noop("Deals in a game"),
        help=gettext_noop("The game ends after this many deals (none: play to a target)."),
    )
    target_score_tenths: int | None = option(
        None,
        whole=(10, 10_000),
        label=gettext_noop("Target score (tenths)"),
        help=gettext_noop("The game ends after the deal in which someone's total reaches this."),
    )
    bids_total_min: int | None = option(
        None,
        whole=(4, 52),
        label=gettext_noop("Calls total at least"),
        help=gettext_noop("A deal whose calls total less is dealt again, not recorded."),
    )
    bids_total_max: int | None = option(
        None,
        whole=(4, 52),
        label=gettext_noop("Calls total at most"),
        help=gettext_noop("A deal whose calls total more is refused."),
    )
    settlement: Settlement = option(
        "by_rank",
        label=gettext_noop("Money"),
        help=gettext_noop(
            "How the game is paid: by place, the winner takes a stake from each, "
            "the points' difference, or no money."
        ),
    )
    rank_multipliers: Multipliers = option(
        (6, -1, -2, -3),
        only_with=("by_rank",),
        label=gettext_noop("Stakes by place"),
        help=gettext_noop("Stakes won or paid by 1st, 2nd, 3rd and 4th place; they sum to 0."),
    )
    negative_pays_double: bool = option(
        False,
        only_with=("by_rank", "winner_takes"),
        label=gettext_noop("Below zero pays double"),
        help=gettext_noop("A paying player whose total is below 0 pays double."),
    )
    big_win_tenths: int | None = option(
        None,
        whole=(10, 10_000),
        only_with=("by_rank", "winner_takes"),
        label=gettext_noop("Big win doubles (tenths)"),
        help=gettext_noop("If the winner's total reaches this, every payment doubles."),
    )

    def __post_init__(self) -> None:
        values = {name: getattr(self, name) for name in OPTIONS}
        for name, value in values.items():
            problem = OPTIONS[name].problem(value)
            if problem is not None:
                raise RuleError(_rule_message(name, problem))
        # Built in code, an option is "set" when it is not its default.
        given = {name for name, value in values.items() if value != OPTIONS[name].default}
        for name, problem in cross_check(values, given):
            raise RuleError(_rule_message(name, problem) if name else problem)

    def to_options(self) -> dict[str, Any]:
        """The options that differ from their defaults, as a document's `rules`
        object writes them (an option of another settlement is never written,
        so the object reads back to these rules)."""
        options: dict[str, Any] = {}
        for name, declared in OPTIONS.items():
            value = getattr(self, name)
            if value != declared.default:
                options[name] = list(value) if isinstance(value, tuple) else value
        return options

    @property
    def multipliers(self) -> Multipliers:
        """The stake multiples for 1st to 4th place that this settlement pays."""
        return WINNER_TAKES if self.settlement == "winner_takes" else self.rank_multipliers


def _rule_message(name: str, problem: Message) -> Message:
    return message(gettext_noop("%(name)s: %(problem)s"), name=name, problem=problem)


def _declared(cls: type) -> dict[str, Option]:
    """The options of `Rules`, read from its fields' declarations."""
    hints = get_type_hints(cls)
    declared: dict[str, Option] = {}
    for item in fields(cls):
        meta = item.metadata["option"]
        hint = hints[item.name]
        args = get_args(hint)
        nullable = type(None) in args and get_origin(hint) is not Literal
        base = next((arg for arg in args if arg is not type(None)), hint) if nullable else hint
        kind: OptionKind
        choices: tuple[str, ...] = ()
        low = high = 0
        if base is bool:
            kind = "bool"
        elif get_origin(base) is Literal:
            kind, choices = "choice", tuple(get_args(base))
        elif base is int and meta["whole"] is not None:
            kind, (low, high) = "whole", meta["whole"]
        elif item.name == "rank_multipliers":
            kind = "multipliers"
        else:
            raise TypeError(f"rule option {item.name}: declare its kind")
        declared[item.name] = Option(
            name=item.name,
            default=item.default,
            kind=kind,
            label=meta["label"],
            help=meta["help"],
            choices=choices,
            low=low,
            high=high,
            nullable=nullable,
            only_with=meta["only_with"],
        )
    return declared


OPTIONS: dict[str, Option] = _declared(Rules)
OPTION_NAMES: tuple[str, ...] = tuple(OPTIONS)


def cross_check(values: Mapping[str, Any], given: set[str]) -> list[tuple[str, Message]]:
    """The options that do not go together (§4), as (option, problem); option
    "" is the game's end, which is two options. `values` are every option's
    valid value; `given` are the options the document (or the code) set, which
    is what "setting" means for an option that needs another, and for one that
    does not apply to the chosen settlement."""
    found: list[tuple[str, Message]] = []
    threshold = values["bonus_bid_threshold"]
    max_bid = values["max_bid"]
    if threshold is not None and threshold > max_bid:
        found.append(
            (
                "bonus_bid_threshold",
                message(
                    gettext_noop("%(value)s is above max_bid %(max)s"),
                    value=threshold,
                    max=max_bid,
                ),
            )
        )
    if "bonus_bid_score" in given and threshold is None:
        found.append(
            (
                "bonus_bid_score",
                message(gettext_noop("has no effect without a bonus_bid_threshold")),
            )
        )
    if values["thirteen_wins_game"] and max_bid < 13:
        found.append(
            (
                "thirteen_wins_game",
                message(gettext_noop("needs max_bid 13, but max_bid is %(max)s"), max=max_bid),
            )
        )
    if (values["deals_per_game"] is None) == (values["target_score_tenths"] is None):
        found.append(
            (
                "",
                message(
                    gettext_noop(
                        "a game ends by deals_per_game or by target_score_tenths: "
                        "set exactly one of them (a target game sets deals_per_game to null)"
                    )
                ),
            )
        )
    low, high = values["bids_total_min"], values["bids_total_max"]
    if low is not None and high is not None and low > high:
        found.append(
            (
                "bids_total_min",
                message(
                    gettext_noop("%(low)s is above bids_total_max %(high)s"), low=low, high=high
                ),
            )
        )
    for name, declared in OPTIONS.items():
        settlement = values["settlement"]
        if declared.only_with and name in given and settlement not in declared.only_with:
            found.append(
                (
                    name,
                    message(
                        gettext_noop(
                            'applies only to the %(settlements)s settlement, not "%(settlement)s"'
                        ),
                        settlements=" or ".join(f'"{kind}"' for kind in declared.only_with),
                        settlement=settlement,
                    ),
                )
            )
    return found


DEFAULT_RULES = Rules()
RULES: Where = ("rules",)


def read_rules(raw: object) -> tuple[Rules | None, list[Refusal]]:
    """A document's `rules` object (missing: {}) as Rules, or its refusals
    (E_RULES): every option's problem in the document's order, then, when every
    option is valid, the options that do not go together."""
    if not isinstance(raw, Mapping):
        return None, [
            refusal(
                "E_RULES", RULES, gettext_noop("must be an object, got %(value)s"), value=shown(raw)
            )
        ]
    found: list[Refusal] = []
    values: dict[str, Any] = {}
    for name, value in raw.items():
        declared = OPTIONS.get(name)
        if declared is None:
            found.append(
                refusal(
                    "E_RULES",
                    RULES,
                    gettext_noop("unknown option %(name)s"),
                    name=shown(name),
                )
            )
            continue
        problem = declared.problem(value)
        if problem is not None:
            found.append(Refusal("E_RULES", (*RULES, name), problem))
        else:
            values[name] = tuple(value) if declared.kind == "multipliers" else value
    if found:
        return None, found
    every = {name: values.get(name, declared.default) for name, declared in OPTIONS.items()}
    for name, problem in cross_check(every, set(values)):
        found.append(Refusal("E_RULES", (*RULES, name) if name else RULES, problem))
    if found:
        return None, found
    return Rules(**values), []
