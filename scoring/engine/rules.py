"""The house rules of a session: one immutable value (RULES.md sections 3 and 5).

A variant is a `Rules` value, built from a preset with options overridden on top.
Option names are exactly those of RULES.md, so a session file, the settings form
and the engine all speak the same words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Literal

from .maal import MaalError, PointTable, point_table_from_options
from .messages import WITHIN, EngineError, gettext_noop, message

UnseenMaal = Literal["count", "void", "kidnap"]
UnseenTunnel = Literal["count", "void"]
MaalTable = Literal["pagat", "flat", "tiers"]
DhoosAmount = Literal["fixed", "round_total"]
DhoosPayee = Literal["all", "winner", "next_winner"]

# Choices shown as words (the web translates them), so they are marked.
UNSEEN_MAAL_CHOICES: tuple[str, ...] = (
    gettext_noop("count"),
    gettext_noop("void"),
    gettext_noop("kidnap"),
)
UNSEEN_TUNNEL_CHOICES: tuple[str, ...] = (gettext_noop("count"), gettext_noop("void"))
MAAL_TABLE_CHOICES: tuple[str, ...] = ("pagat", gettext_noop("flat"), gettext_noop("tiers"))
DHOOS_AMOUNT_CHOICES: tuple[str, ...] = ("fixed", "round_total")
DHOOS_PAYEE_CHOICES: tuple[str, ...] = ("all", "winner", "next_winner")
MIN_PLAYERS = 2
MAX_PLAYERS_LIMIT = 8
MAX_OPTION_POINTS = 10_000
MAX_MASTER_CARD_VALUE = 100


class RuleError(EngineError):
    """An unknown preset or option, or an option with a value it cannot take."""


@dataclass(frozen=True, slots=True)
class Rules:
    seen_payment: int = 3
    unseen_payment: int = 10
    dublee_bonus: int = 5
    unseen_maal: UnseenMaal = "count"
    unseen_tunnel: UnseenTunnel = "void"
    better_multiplier: int = 2
    dublee_triggers_better: bool = False
    dhoos_penalty: int = 15
    max_players: int = 5
    # RULES.md v2: every default below is the rule as it was before the option
    # existed, so a session saved earlier settles exactly as it did.
    dhoos_amount: DhoosAmount = "fixed"
    dhoos_payee: DhoosPayee = "all"
    dhoos_voids_maal: bool = False
    dublee_players_pay_seen: bool = True
    dublee_min_players: int = 2
    better_after_rotation: bool = False
    # The maal calculator's point table (RULES.md section 4).
    maal_table: MaalTable = "pagat"
    alter: bool = False
    printed_jokers: bool = False
    printed_joker_value: int = 5
    master_card: bool = False
    master_card_value: int = 5
    # A house's own point table, edited by the session owner; None: `maal_table`'s.
    maal_points: PointTable | None = None

    def to_options(self) -> dict[str, Any]:
        """Every option, resolved: what an export writes under `rules`. The custom
        point table is written only when there is one."""
        options = asdict(self)
        if self.maal_points is None:
            del options["maal_points"]
        else:
            options["maal_points"] = self.maal_points.to_options()
        return options

    def differences(self, other: Rules) -> dict[str, Any]:
        """The options where self differs from other (e.g. from its preset)."""
        mine, theirs = self.to_options(), other.to_options()
        differ = {k: v for k, v in mine.items() if theirs.get(k) != v}
        if "maal_points" in theirs and "maal_points" not in mine:
            differ["maal_points"] = None
        return differ


PRESETS: dict[str, Rules] = {
    "pagat": Rules(),
    "kidnap": Rules(unseen_maal="kidnap", maal_table="tiers", alter=True),
    "murder": Rules(dublee_bonus=0, unseen_maal="void", maal_table="tiers", alter=True),
    "wikipedia": Rules(dublee_bonus=0, unseen_tunnel="count", maal_table="flat"),
    # What the Nepali-made scorekeepers default to: murder, players who saw by
    # dublees pay no seen payment, dhoos 15 to the next round's winner.
    "nepal": Rules(
        unseen_maal="void",
        maal_table="tiers",
        alter=True,
        dublee_players_pay_seen=False,
        dhoos_payee="next_winner",
        dhoos_voids_maal=True,
    ),
}
DEFAULT_PRESET = "pagat"

# One sentence per option, shown beside it wherever a user chooses it.
OPTION_HELP: dict[str, str] = {
    "seen_payment": gettext_noop(
        "What each loser who has seen the tiplu pays the winner for the game."
    ),
    "unseen_payment": gettext_noop(
        "What each loser who never saw the tiplu pays the winner for the game."
    ),
    "dublee_bonus": gettext_noop(
        "Extra paid by every loser when the winner ends with eight dublees."
    ),
    "unseen_maal": gettext_noop(
        "Maal of a player who never saw the tiplu: counts as usual, is void (murder), "
        "or is kidnapped by the winner."
    ),
    "unseen_tunnel": gettext_noop(
        "Tunnel points of a player who never saw the tiplu: void (tunnel pachaunu) or counted."
    ),
    "better_multiplier": gettext_noop(
        "A better (double) round multiplies every game payment by this."
    ),
    "dublee_triggers_better": gettext_noop("The round after a dublee win starts marked as better."),
    "dhoos_penalty": gettext_noop("What a player given dhoos pays when the dhoos amount is fixed."),
    "max_players": gettext_noop("Most players who can sit at one round (2 to 8)."),
    "dhoos_amount": gettext_noop(
        "What a player given dhoos pays: the dhoos penalty, or the round's total points (T)."
    ),
    "dhoos_payee": gettext_noop(
        "Who is paid dhoos: every other player of the round, the round's winner, "
        "or the winner of the next round the player plays."
    ),
    "dhoos_voids_maal": gettext_noop(
        "A player given dhoos counts no maal or tunnel points of their own in that round."
    ),
    "dublee_players_pay_seen": gettext_noop(
        "A loser who saw the tiplu by seven dublees pays the seen payment (off: pays none)."
    ),
    "dublee_min_players": gettext_noop(
        "Fewest players in a round for a dublee win to count (2 to 8)."
    ),
    "better_after_rotation": gettext_noop(
        "After each full rotation of the deal, the next round starts marked as better."
    ),
    "maal_table": gettext_noop("The maal calculator's point table: pagat, flat or tiers."),
    "alter": gettext_noop("Alter cards (same rank, other suit of the tiplu's colour) are maal."),
    "printed_jokers": gettext_noop("Printed jokers (putali, man) are in the decks and are maal."),
    "printed_joker_value": gettext_noop(
        "Points for each printed joker when they are in play (2 to 5)."
    ),
    "master_card": gettext_noop("The master card is in play, worth the master card value."),
    "master_card_value": gettext_noop(
        "Points for the master card when it is in play. A session's own point table "
        "sets its own value instead."
    ),
    "maal_points": gettext_noop(
        "The session's own maal point table (tiers per item), if it has one."
    ),
}

OPTION_LABELS: dict[str, str] = {
    "seen_payment": gettext_noop("Seen payment"),
    "unseen_payment": gettext_noop("Unseen payment"),
    "dublee_bonus": gettext_noop("Dublee bonus"),
    "unseen_maal": gettext_noop("Unseen maal"),
    "unseen_tunnel": gettext_noop("Unseen tunnel"),
    "better_multiplier": gettext_noop("Better multiplier"),
    "dublee_triggers_better": gettext_noop("Dublee triggers better"),
    "dhoos_penalty": gettext_noop("Dhoos penalty"),
    "max_players": gettext_noop("Max players"),
    "dhoos_amount": gettext_noop("Dhoos amount"),
    "dhoos_payee": gettext_noop("Dhoos paid to"),
    "dhoos_voids_maal": gettext_noop("Dhoos voids maal"),
    "dublee_players_pay_seen": gettext_noop("Dublee players pay seen"),
    "dublee_min_players": gettext_noop("Dublee win: fewest players"),
    "better_after_rotation": gettext_noop("Better after a rotation"),
    "maal_table": gettext_noop("Maal point table"),
    "alter": gettext_noop("Alter is maal"),
    "printed_jokers": gettext_noop("Printed jokers"),
    "printed_joker_value": gettext_noop("Printed joker value"),
    "master_card": gettext_noop("Master card"),
    "master_card_value": gettext_noop("Master card value"),
    "maal_points": gettext_noop("Own maal point table"),
}

_CHOICES: dict[str, tuple[str, ...]] = {
    "unseen_maal": UNSEEN_MAAL_CHOICES,
    "unseen_tunnel": UNSEEN_TUNNEL_CHOICES,
    "maal_table": MAAL_TABLE_CHOICES,
    "dhoos_amount": DHOOS_AMOUNT_CHOICES,
    "dhoos_payee": DHOOS_PAYEE_CHOICES,
}
_INT_RANGES: dict[str, tuple[int, int]] = {
    "seen_payment": (0, MAX_OPTION_POINTS),
    "unseen_payment": (0, MAX_OPTION_POINTS),
    "dublee_bonus": (0, MAX_OPTION_POINTS),
    "better_multiplier": (1, 100),
    "dhoos_penalty": (0, MAX_OPTION_POINTS),
    "max_players": (MIN_PLAYERS, MAX_PLAYERS_LIMIT),
    "printed_joker_value": (2, 5),
    "dublee_min_players": (MIN_PLAYERS, MAX_PLAYERS_LIMIT),
    "master_card_value": (0, MAX_MASTER_CARD_VALUE),
}
_BOOLS: frozenset[str] = frozenset(
    {
        "dublee_triggers_better",
        "alter",
        "printed_jokers",
        "master_card",
        "dhoos_voids_maal",
        "dublee_players_pay_seen",
        "better_after_rotation",
    }
)
# The custom point table is a structured value with its own editor, so it is not
# among the scalar options that forms iterate over.
TABLE_OPTION = "maal_points"
OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Rules) if f.name != TABLE_OPTION)


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
    if name in _CHOICES:
        if value not in _CHOICES[name]:
            allowed = ", ".join(_CHOICES[name])
            raise RuleError(
                message(
                    gettext_noop("rule %(name)s: must be one of %(allowed)s, got %(value)s"),
                    name=name,
                    allowed=allowed,
                    value=repr(value),
                )
            )
        return value
    if name in _BOOLS:
        if not isinstance(value, bool):
            raise RuleError(
                message(
                    gettext_noop("rule %(name)s: must be true or false, got %(value)s"),
                    name=name,
                    value=repr(value),
                )
            )
        return value
    low, high = _INT_RANGES[name]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RuleError(
            message(
                gettext_noop(
                    "rule %(name)s: must be a whole number from %(low)s to %(high)s, got %(value)s"
                ),
                name=name,
                low=low,
                high=high,
                value=repr(value),
            )
        )
    return value


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
