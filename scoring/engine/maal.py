"""Maal points from cards: the calculator of RULES.md section 4.

Given the tiplu card, every card has a role (tiplu, poplu, jhiplu, alter,
ordinary joker, printed joker, master card, or ordinary). A player's maal is a
`Tally` (how many of each item), scored under a `PointTable` (for each item,
the total for holding 1, 2, 3 … of it). Pure: no Django.

Decisions (RULES.md is silent; each is marked **Decision** where it applies):
- Tiers beyond the listed count grow linearly: each further item adds the step
  between the last two tiers, or the only tier when one is listed. So "5 each"
  is the one tier (5,), and 5, 15, 30 goes on 45, 60 ….
- An item a preset lists as "–" (pagat has no alter, printed jokers or alter
  tunnels) takes the flat table's value when the session turns it on.
- Printed jokers: two per deck, so at most 6 in play; `printed_joker_value` is
  their value under the pagat and flat tables (the tiers table has its own tiers).
- The master card: one in play, worth `master_card_value` (default 5) under
  every preset table.
- A hand holds 21 cards at the end of a round: every card listed, maal or not,
  plus 3 per tunnel, is at most 21.
- A tunnel of maal cards (poplu, jhiplu, alter) is worth its table value, of
  which what its three cards are worth as maal on their own counts as maal and
  only the rest as tunnel (RULES.md section 4), so exposing one never costs a
  player anything under `unseen_tunnel = void`.
- In one round the players together hold no more of a maal card than exist
  (`check_round_tallies`).
- When two groupings score the same, the one with more marriages is shown.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, fields, replace
from itertools import pairwise
from typing import Any, Literal, Protocol

from .messages import WHERE, EngineError, Message, gettext_noop, message
from .numbers import NotANumber, parse_whole

Role = Literal[
    "tiplu",
    "poplu",
    "jhiplu",
    "alter",
    "ordinary_joker",
    "printed_joker",
    "master_card",
    "ordinary",
]
TunnelKind = Literal["ordinary", "ordinary_joker", "poplu", "jhiplu", "alter"]

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset({"H", "D"})
DECKS = 3
COPIES = DECKS  # each card appears once per deck
TIPLU_IN_PLAY = COPIES - 1  # the chosen tiplu lies under the stock
PRINTED_JOKERS_IN_PLAY = 2 * DECKS  # **Decision**: two printed jokers per deck
MASTER_CARDS_IN_PLAY = 1
HAND_SIZE = 21
PRINTED_JOKER = "JOKER"
MASTER_CARD = "MASTER"
MAX_TIER_POINTS = 1_000
MAX_TIERS = 8


class MaalError(EngineError):
    """A tally or card that cannot be: the message says why, for the user."""


def _at(where: str | Message, problem: Message | str) -> Message:
    """A problem of one field or item: "tiplu: 'ZZ' is not a card". A `where` that
    is a Message is a word (translated); a str is a key, shown as typed."""
    return message(
        WHERE, where=where, problem=Message(problem) if isinstance(problem, str) else problem
    )


_TIPLU = Message(gettext_noop("tiplu"))
_WHOLE_NUMBER = gettext_noop("must be a whole number, got %(value)s")


# -- cards -------------------------------------------------------------------


class MaalRules(Protocol):
    """The options the maal calculator reads (a `scoring.engine.rules.Rules`
    has them): named here so this module does not import the rules, which
    import its point tables."""

    @property
    def alter(self) -> bool: ...
    @property
    def printed_jokers(self) -> bool: ...
    @property
    def printed_joker_value(self) -> int: ...
    @property
    def master_card(self) -> bool: ...
    @property
    def master_card_value(self) -> int: ...
    @property
    def maal_table(self) -> str: ...
    @property
    def maal_points(self) -> PointTable | None: ...


@dataclass(frozen=True, slots=True)
class Card:
    """One of the 52 cards of a deck; three decks hold 3 copies of each."""

    rank: str
    suit: str

    def __post_init__(self) -> None:
        if self.rank not in RANKS:
            raise MaalError(
                message(
                    gettext_noop("%(value)s is not a card rank (A, 2 … 10, J, Q, K)"),
                    value=repr(self.rank),
                )
            )
        if self.suit not in SUITS:
            raise MaalError(
                message(gettext_noop("%(value)s is not a suit (S, H, D, C)"), value=repr(self.suit))
            )

    @property
    def code(self) -> str:
        """Short code: "QH", "10S", "AD"."""
        return f"{self.rank}{self.suit}"

    @property
    def label(self) -> str:
        """For people: "Q♥"."""
        return f"{self.rank}{SUIT_SYMBOLS[self.suit]}"

    @property
    def red(self) -> bool:
        return self.suit in RED_SUITS

    def shifted(self, step: int) -> Card:
        """The card `step` ranks away in the same suit, wrapping: above K is A,
        above A is 2 (so below 2 is A, below A is K)."""
        return Card(RANKS[(RANKS.index(self.rank) + step) % len(RANKS)], self.suit)

    @classmethod
    def parse(cls, code: str) -> Card:
        """A card from "QH", "10h", "TH", "Q♥" or "q h"; MaalError otherwise."""
        if not isinstance(code, str):
            raise MaalError(message(gettext_noop("%(value)s is not a card"), value=repr(code)))
        text = "".join(code.split()).upper()
        symbols = {symbol: letter for letter, symbol in SUIT_SYMBOLS.items()}
        if text and text[-1] in symbols:
            text = text[:-1] + symbols[text[-1]]
        rank, suit = text[:-1], text[-1:]
        rank = {"T": "10", "1": "A"}.get(rank, rank)
        if rank not in RANKS or suit not in SUITS:
            raise MaalError(
                message(
                    gettext_noop(
                        "%(value)s is not a card: write rank then suit, such as QH or 10S"
                    ),
                    value=repr(code),
                )
            )
        return cls(rank, suit)


def parse_tiplu(code: str) -> Card:
    """The tiplu card from its code, with the message naming the field."""
    try:
        return Card.parse(code)
    except MaalError as error:
        raise MaalError(_at(_TIPLU, error.msg)) from None


def all_cards() -> tuple[Card, ...]:
    """Every card of one deck, suit by suit, A to K."""
    return tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)


def _tiplu(tiplu: object) -> Card:
    """The tiplu as the card functions take it: a Card (`parse_tiplu` reads a code)."""
    if not isinstance(tiplu, Card):
        raise MaalError(
            message(
                gettext_noop("the tiplu must be a card such as QH, got %(value)s"),
                value=repr(tiplu),
            )
        )
    return tiplu


def poplu_of(tiplu: Card) -> Card:
    return _tiplu(tiplu).shifted(1)


def jhiplu_of(tiplu: Card) -> Card:
    return _tiplu(tiplu).shifted(-1)


def alter_of(tiplu: Card) -> Card:
    """Same rank, the other suit of the same colour."""
    tiplu = _tiplu(tiplu)
    other = {"H": "D", "D": "H", "S": "C", "C": "S"}[tiplu.suit]
    return Card(tiplu.rank, other)


_NO_PRINTED_JOKERS = gettext_noop("printed jokers are not in play in this session")
_NO_MASTER_CARD = gettext_noop("the master card is not in play in this session")


def card_role(card: Card | str, tiplu: Card, rules: MaalRules) -> Role:
    """What a card is worth as, once the tiplu is known. `card` may be a Card, a
    code, or PRINTED_JOKER / MASTER_CARD."""
    tiplu = _tiplu(tiplu)
    if card == PRINTED_JOKER:
        if not rules.printed_jokers:
            raise MaalError(_NO_PRINTED_JOKERS)
        return "printed_joker"
    if card == MASTER_CARD:
        if not rules.master_card:
            raise MaalError(_NO_MASTER_CARD)
        return "master_card"
    if isinstance(card, str):
        card = Card.parse(card)
    if card == tiplu:
        return "tiplu"
    if card == poplu_of(tiplu):
        return "poplu"
    if card == jhiplu_of(tiplu):
        return "jhiplu"
    if card.rank == tiplu.rank:
        if rules.alter and card == alter_of(tiplu):
            return "alter"
        return "ordinary_joker"
    return "ordinary"


def tunnel_kind(card: Card | str, tiplu: Card, rules: MaalRules) -> TunnelKind:
    """The kind of a tunnel (three identical cards, exposed after the deal) of `card`."""
    tiplu = _tiplu(tiplu)
    if isinstance(card, str):
        card = Card.parse(card)
    role = card_role(card, tiplu, rules)
    if role == "tiplu":
        raise MaalError(
            message(
                gettext_noop(
                    "a tunnel of %(card)s is impossible when %(card)s is the tiplu: "
                    "the tiplu is drawn from the stock, so no hand holds all three"
                ),
                card=card.label,
            )
        )
    if role in ("poplu", "jhiplu", "alter", "ordinary_joker"):
        return role
    return "ordinary"


def maal_cards(tiplu: Card, rules: MaalRules) -> tuple[tuple[Role, str], ...]:
    """The maal a player can hold for this tiplu, as (role, label) for a picker."""
    tiplu = _tiplu(tiplu)
    cards: list[tuple[Role, str]] = [
        ("tiplu", tiplu.label),
        ("poplu", poplu_of(tiplu).label),
        ("jhiplu", jhiplu_of(tiplu).label),
    ]
    if rules.alter:
        cards.append(("alter", alter_of(tiplu).label))
    if rules.printed_jokers:
        cards.append(("printed_joker", "Joker"))
    if rules.master_card:
        cards.append(("master_card", "Master"))
    return tuple(cards)


# -- point tables --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PointTable:
    """For each item, the total for holding 1, 2, 3 … of it (RULES.md section 4).

    `poplu` applies to poplu and jhiplu, each kind counted on its own;
    `poplu_tunnel` counts tunnels of poplu and of jhiplu together. With
    `marriage_on_top` (flat) a marriage adds its points on top of its three
    cards; otherwise (pagat, tiers) each card counts toward one item only.
    """

    tiplu: tuple[int, ...]
    poplu: tuple[int, ...]
    alter: tuple[int, ...]
    marriage: tuple[int, ...]
    printed_joker: tuple[int, ...]
    master_card: tuple[int, ...]
    tunnel: tuple[int, ...]
    joker_tunnel: tuple[int, ...]
    poplu_tunnel: tuple[int, ...]
    alter_tunnel: tuple[int, ...]
    marriage_on_top: bool = False

    def to_options(self) -> dict[str, Any]:
        return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()}


TIER_ITEMS: tuple[str, ...] = tuple(
    f.name for f in fields(PointTable) if f.name != "marriage_on_top"
)
ITEM_LABELS: dict[str, str] = {
    "tiplu": gettext_noop("Tiplu"),
    "poplu": gettext_noop("Poplu, jhiplu (each kind)"),
    "alter": gettext_noop("Alter"),
    "marriage": gettext_noop("Marriage"),
    "printed_joker": gettext_noop("Printed joker / man"),
    "master_card": gettext_noop("Master card"),
    "tunnel": gettext_noop("Tunnel of ordinary cards"),
    "joker_tunnel": gettext_noop("Tunnel of ordinary jokers"),
    "poplu_tunnel": gettext_noop("Tunnel of poplu or jhiplu"),
    "alter_tunnel": gettext_noop("Tunnel of alter"),
}

# RULES.md section 4, column by column; () is the table's "–".
PRESET_TABLES: dict[str, PointTable] = {
    "pagat": PointTable(
        tiplu=(3, 7),
        poplu=(2, 5, 10),
        alter=(),
        marriage=(10, 30),
        printed_joker=(),
        master_card=(5,),
        tunnel=(5,),
        joker_tunnel=(10,),
        poplu_tunnel=(20,),
        alter_tunnel=(),
    ),
    "flat": PointTable(
        tiplu=(3,),
        poplu=(2,),
        alter=(5,),
        marriage=(10,),
        printed_joker=(5,),
        master_card=(5,),
        tunnel=(5,),
        joker_tunnel=(5,),
        poplu_tunnel=(15,),
        alter_tunnel=(30,),
        marriage_on_top=True,
    ),
    "tiers": PointTable(
        tiplu=(3, 8),
        poplu=(2, 5, 10),
        alter=(5, 15, 30),
        marriage=(10, 25),
        printed_joker=(5, 15, 30),
        master_card=(5,),
        tunnel=(5, 15, 30, 45),
        joker_tunnel=(5, 15, 30, 45),
        poplu_tunnel=(10, 30, 45),
        alter_tunnel=(35,),
    ),
}


def check_tiers(value: object, where: str | Message) -> tuple[int, ...]:
    """One row of a table: 1 to 8 whole numbers, never falling (holding more
    never scores less). `where` names the row: an item's label as a Message (a
    word, translated), or its key as typed in a session file."""
    if isinstance(value, str):
        parts = [p for p in value.replace(",", " ").split() if p]
        try:
            value = [parse_whole(p, devanagari=True) for p in parts]
        except NotANumber:
            raise MaalError(
                _at(where, gettext_noop("write whole numbers such as 2, 5, 10"))
            ) from None
    if not isinstance(value, (list, tuple)):
        raise MaalError(
            _at(
                where,
                message(
                    gettext_noop("must be a list of points such as 2, 5, 10, got %(value)s"),
                    value=repr(value),
                ),
            )
        )
    tiers = tuple(value)
    if not tiers:
        raise MaalError(
            _at(where, gettext_noop("give at least one number (0 if it is worth nothing)"))
        )
    if len(tiers) > MAX_TIERS:
        raise MaalError(
            _at(
                where,
                message(
                    gettext_noop("at most %(max)s tiers, got %(count)s"),
                    max=MAX_TIERS,
                    count=len(tiers),
                ),
            )
        )
    for tier in tiers:
        if isinstance(tier, bool) or not isinstance(tier, int) or not 0 <= tier <= MAX_TIER_POINTS:
            raise MaalError(
                _at(
                    where,
                    message(
                        gettext_noop(
                            "each tier must be a whole number from 0 to %(max)s, got %(value)s"
                        ),
                        max=MAX_TIER_POINTS,
                        value=repr(tier),
                    ),
                )
            )
    if any(later < earlier for earlier, later in pairwise(tiers)):
        raise MaalError(
            _at(
                where,
                message(
                    gettext_noop("holding more must not score less, got %(tiers)s"),
                    tiers=", ".join(map(str, tiers)),
                ),
            )
        )
    return tiers


def point_table_from_options(options: object) -> PointTable:
    """A custom table from a session file or the editor: every item's tiers."""
    if isinstance(options, PointTable):
        options = options.to_options()
    if not isinstance(options, Mapping):
        raise MaalError(
            message(
                gettext_noop("must be an object of tiers per item, got %(value)s"),
                value=repr(options),
            )
        )
    unknown = set(options) - {*TIER_ITEMS, "marriage_on_top"}
    if unknown:
        raise MaalError(
            message(gettext_noop("unknown item %(value)s"), value=repr(sorted(unknown)[0]))
        )
    values: dict[str, Any] = {}
    for item in TIER_ITEMS:
        if item not in options:
            raise MaalError(_at(item, gettext_noop("missing")))
        values[item] = check_tiers(options[item], item)
    on_top = options.get("marriage_on_top", False)
    if not isinstance(on_top, bool):
        raise MaalError(
            _at(
                "marriage_on_top",
                message(gettext_noop("must be true or false, got %(value)s"), value=repr(on_top)),
            )
        )
    return PointTable(**values, marriage_on_top=on_top)


def point_table_for(rules: MaalRules) -> PointTable:
    """The table a session scores with: its custom table, else its preset table
    with the "–" items a session turns on filled from the flat table."""
    if rules.maal_points is not None:
        return rules.maal_points
    master = (rules.master_card_value,)
    table = replace(PRESET_TABLES[rules.maal_table], master_card=master)
    flat = replace(
        PRESET_TABLES["flat"], printed_joker=(rules.printed_joker_value,), master_card=master
    )
    if rules.maal_table == "flat":
        return flat
    # **Decision**: "–" means the source has no such item; a house that adds it
    # gets the standard (flat) value.
    filled = {item: getattr(flat, item) for item in TIER_ITEMS if not getattr(table, item)}
    return replace(table, **filled)


def tier_points(tiers: tuple[int, ...], count: int) -> int:
    """The total for holding `count` of an item. **Decision**: past the last
    listed tier, each further one adds the last step (or the only tier)."""
    if count <= 0 or not tiers:
        return 0
    if count <= len(tiers):
        return tiers[count - 1]
    step = tiers[-1] - tiers[-2] if len(tiers) >= 2 else tiers[-1]
    return tiers[-1] + step * (count - len(tiers))


# -- tallies -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Tally:
    """How many of each item a player holds. Each card is in one item: `tiplu`,
    `poplu` and `jhiplu` count the cards outside `marriages`."""

    tiplu: int = 0
    poplu: int = 0
    jhiplu: int = 0
    marriages: int = 0
    alter: int = 0
    printed_jokers: int = 0
    master_card: int = 0
    tunnels: int = 0  # of ordinary cards
    joker_tunnels: int = 0
    poplu_tunnels: int = 0
    jhiplu_tunnels: int = 0
    alter_tunnels: int = 0

    @property
    def tiplu_cards(self) -> int:
        return self.tiplu + self.marriages

    @property
    def poplu_cards(self) -> int:
        return self.poplu + self.marriages

    @property
    def jhiplu_cards(self) -> int:
        return self.jhiplu + self.marriages

    @property
    def tunnel_count(self) -> int:
        return (
            self.tunnels
            + self.joker_tunnels
            + self.poplu_tunnels
            + self.jhiplu_tunnels
            + self.alter_tunnels
        )

    @property
    def card_count(self) -> int:
        """Cards in the hand: maal cards plus three per tunnel."""
        return (
            self.tiplu_cards
            + self.poplu_cards
            + self.jhiplu_cards
            + self.alter
            + self.printed_jokers
            + self.master_card
            + 3 * self.tunnel_count
        )

    def to_dict(self) -> dict[str, int]:
        """The items held (zeros left out): what a round stores."""
        return {k: v for k, v in asdict(self).items() if v}

    @classmethod
    def from_dict(cls, data: object) -> Tally:
        if not isinstance(data, Mapping):
            raise MaalError(
                message(
                    gettext_noop("a tally must be an object of counts, got %(value)s"),
                    value=repr(data),
                )
            )
        names = set(TALLY_ITEMS)
        values: dict[str, int] = {}
        for key, value in data.items():
            if key not in names:
                raise MaalError(
                    message(gettext_noop("unknown maal item %(value)s"), value=repr(key))
                )
            if isinstance(value, bool) or not isinstance(value, int):
                raise MaalError(
                    _at(Message(TALLY_LABELS[key]), message(_WHOLE_NUMBER, value=repr(value)))
                )
            if value < 0:
                raise MaalError(
                    _at(
                        Message(TALLY_LABELS[key]),
                        message(gettext_noop("must not be negative, got %(value)s"), value=value),
                    )
                )
            values[key] = value
        return cls(**values)


TALLY_ITEMS: tuple[str, ...] = tuple(f.name for f in fields(Tally))
TALLY_LABELS: dict[str, str] = {
    "tiplu": gettext_noop("tiplu"),
    "poplu": gettext_noop("poplu"),
    "jhiplu": gettext_noop("jhiplu"),
    "marriages": gettext_noop("marriages"),
    "alter": gettext_noop("alter"),
    "printed_jokers": gettext_noop("printed jokers"),
    "master_card": gettext_noop("master card"),
    "tunnels": gettext_noop("tunnels of ordinary cards"),
    "joker_tunnels": gettext_noop("tunnels of ordinary jokers"),
    "poplu_tunnels": gettext_noop("tunnels of poplu"),
    "jhiplu_tunnels": gettext_noop("tunnels of jhiplu"),
    "alter_tunnels": gettext_noop("tunnels of alter"),
}


def _with_marriages(count: int) -> Message | str:
    """ " (2 marriages included)" after a count of tiplu, poplu or jhiplu, or ""."""
    if not count:
        return ""
    if count == 1:
        return message(gettext_noop(" (%(count)s marriage included)"), count=count)
    return message(gettext_noop(" (%(count)s marriages included)"), count=count)


_KIND_WORDS: dict[str, Message] = {
    "poplu": Message(gettext_noop("poplu")),
    "jhiplu": Message(gettext_noop("jhiplu")),
    "alter": Message(gettext_noop("alter")),
}
_TUNNELS_OF = gettext_noop("%(count)s tunnels of %(kind)s: three decks hold only %(max)s %(kind)s")
_HELD = gettext_noop("%(count)s %(kind)s%(with_marriages)s: three decks hold only %(max)s")
_HELD_AND_TUNNEL = gettext_noop(
    "%(count)s %(kind)s%(with_marriages)s and a tunnel of %(kind)s: the tunnel holds all %(max)s"
)


def check_tally(tally: Tally, rules: MaalRules) -> None:
    """Refuse a tally no hand could hold, saying why."""
    for name in TALLY_ITEMS:
        value = getattr(tally, name)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise MaalError(
                _at(
                    Message(TALLY_LABELS[name]),
                    message(
                        gettext_noop("must be a whole number ≥ 0, got %(value)s"), value=repr(value)
                    ),
                )
            )
    with_marriages = _with_marriages(tally.marriages)
    if tally.tiplu_cards > TIPLU_IN_PLAY:
        raise MaalError(
            message(
                gettext_noop(
                    "%(count)s tiplu%(with_marriages)s: only %(max)s are in play "
                    "(the third lies under the stock)"
                ),
                count=tally.tiplu_cards,
                with_marriages=with_marriages,
                max=TIPLU_IN_PLAY,
            )
        )
    for kind in ("poplu", "jhiplu"):
        held = getattr(tally, f"{kind}_cards")
        tunnels = getattr(tally, f"{kind}_tunnels")
        word = _KIND_WORDS[kind]
        if tunnels > 1:
            raise MaalError(message(_TUNNELS_OF, count=tunnels, kind=word, max=COPIES))
        if held > COPIES:
            raise MaalError(
                message(_HELD, count=held, kind=word, with_marriages=with_marriages, max=COPIES)
            )
        if tunnels and held:
            raise MaalError(
                message(
                    _HELD_AND_TUNNEL,
                    count=held,
                    kind=word,
                    with_marriages=with_marriages,
                    max=COPIES,
                )
            )
    if not rules.alter and (tally.alter or tally.alter_tunnels):
        raise MaalError(
            gettext_noop(
                "alter is off in this session: the alter cards are ordinary jokers "
                "(a tunnel of them is a tunnel of ordinary jokers)"
            )
        )
    alter = _KIND_WORDS["alter"]
    if tally.alter_tunnels > 1:
        raise MaalError(message(_TUNNELS_OF, count=tally.alter_tunnels, kind=alter, max=COPIES))
    if tally.alter > COPIES:
        raise MaalError(
            message(_HELD, count=tally.alter, kind=alter, with_marriages="", max=COPIES)
        )
    if tally.alter and tally.alter_tunnels:
        raise MaalError(
            message(_HELD_AND_TUNNEL, count=tally.alter, kind=alter, with_marriages="", max=COPIES)
        )
    joker_suits = 2 if rules.alter else 3
    if tally.joker_tunnels > joker_suits:
        raise MaalError(
            message(
                gettext_noop(
                    "%(count)s tunnels of ordinary jokers: they come in only %(suits)s suits, "
                    "so at most %(suits)s tunnels"
                ),
                count=tally.joker_tunnels,
                suits=joker_suits,
            )
        )
    if tally.printed_jokers and not rules.printed_jokers:
        raise MaalError(_NO_PRINTED_JOKERS)
    if tally.printed_jokers > PRINTED_JOKERS_IN_PLAY:
        raise MaalError(
            message(
                gettext_noop("%(count)s printed jokers: only %(max)s are in play (two per deck)"),
                count=tally.printed_jokers,
                max=PRINTED_JOKERS_IN_PLAY,
            )
        )
    if tally.master_card and not rules.master_card:
        raise MaalError(_NO_MASTER_CARD)
    if tally.master_card > MASTER_CARDS_IN_PLAY:
        raise MaalError(
            message(
                gettext_noop("%(count)s master cards: there is only one"), count=tally.master_card
            )
        )
    if tally.card_count > HAND_SIZE:
        raise MaalError(
            message(
                gettext_noop("%(count)s cards of maal and tunnels: a hand holds only %(max)s"),
                count=tally.card_count,
                max=HAND_SIZE,
            )
        )


def tally_from_cards(
    cards: Iterable[Card | str],
    tiplu: Card,
    rules: MaalRules,
    tunnels: Iterable[Card | str] = (),
) -> Tally:
    """A tally from the maal cards a player shows and one card per exposed tunnel.
    Ordinary cards and ordinary jokers are allowed and worth nothing. Marriages
    are left for `best_grouping` to form."""
    tiplu = _tiplu(tiplu)
    cards, tunnels = list(cards), list(tunnels)
    in_hand = len(cards) + 3 * len(tunnels)
    if in_hand > HAND_SIZE:
        raise MaalError(
            message(
                gettext_noop(
                    "%(count)s cards (every card listed, and 3 per tunnel): "
                    "a hand holds only %(max)s"
                ),
                count=in_hand,
                max=HAND_SIZE,
            )
        )
    counts: Counter[str] = Counter()
    copies: Counter[Card] = Counter()
    for card in cards:
        role = card_role(card, tiplu, rules)
        counts[role] += 1
        if role not in ("printed_joker", "master_card"):
            copies[card if isinstance(card, Card) else Card.parse(card)] += 1
    tunnel_counts: Counter[str] = Counter()
    for card in tunnels:
        kind = tunnel_kind(card, tiplu, rules)
        tunnel_counts[kind] += 1
        copies[card if isinstance(card, Card) else Card.parse(card)] += COPIES
    for card, held in copies.items():
        if held > COPIES:
            raise MaalError(
                message(
                    gettext_noop(
                        "%(count)s × %(card)s: three decks hold only %(max)s of each card "
                        "(a tunnel is all three)"
                    ),
                    count=held,
                    card=card.label,
                    max=COPIES,
                )
            )
    tally = Tally(
        tiplu=counts["tiplu"],
        poplu=counts["poplu"],
        jhiplu=counts["jhiplu"],
        alter=counts["alter"],
        printed_jokers=counts["printed_joker"],
        master_card=counts["master_card"],
        tunnels=tunnel_counts["ordinary"],
        joker_tunnels=tunnel_counts["ordinary_joker"],
        poplu_tunnels=tunnel_counts["poplu"],
        jhiplu_tunnels=tunnel_counts["jhiplu"],
        alter_tunnels=tunnel_counts["alter"],
    )
    check_tally(tally, rules)
    return tally


# -- scoring -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MaalLine:
    item: str  # a Tally field
    count: int
    points: int
    text: Message  # "2 poplu = 5"
    maal: int = 0  # of a maal tunnel's points, what counts as maal (the rest is tunnel)


@dataclass(frozen=True, slots=True)
class MaalScore:
    tally: Tally  # the grouping scored (marriages formed for the most points)
    maal: int  # points for cards, marriages and maal tunnels' cards: the maal field
    tunnel: int  # the rest of the tunnels' points: the tunnel field
    lines: tuple[MaalLine, ...]
    tunnel_maal: int = 0  # of `maal`, what maal tunnels' cards are worth

    @property
    def legacy_split(self) -> tuple[int, int]:
        """(maal, tunnel) as rounds saved before the maal tunnel split stored
        them: every tunnel point as tunnel."""
        return self.maal - self.tunnel_maal, self.tunnel + self.tunnel_maal

    @property
    def total(self) -> int:
        return self.maal + self.tunnel

    @property
    def parts(self) -> tuple[Message, ...]:
        """The breakdown as messages to translate: each line, or "no maal"."""
        return tuple(line.text for line in self.lines) or (Message(gettext_noop("no maal")),)

    @property
    def breakdown(self) -> str:
        """ "2 poplu = 5, 1 marriage = 10" (or "no maal")."""
        return ", ".join(map(str, self.parts))


_LINE = gettext_noop("%(count)s %(what)s = %(points)s")


def _line(item: str, count: int, points: int, one: str, more: str, maal: int = 0) -> MaalLine:
    """A breakdown line, "2 poplu = 5": `one` and `more` are the item's words."""
    what = Message(one if count == 1 else more)
    text = message(_LINE, count=count, what=what, points=points)
    return MaalLine(item, count, points, text, maal=maal)


def _card_lines(tally: Tally, table: PointTable) -> list[MaalLine]:
    """Lines for cards and marriages; with marriage_on_top the marriage cards
    also count as cards."""
    extra = tally.marriages if table.marriage_on_top else 0
    items = [
        ("tiplu", tally.tiplu + extra, table.tiplu, gettext_noop("tiplu"), gettext_noop("tiplu")),
        ("poplu", tally.poplu + extra, table.poplu, gettext_noop("poplu"), gettext_noop("poplu")),
        (
            "jhiplu",
            tally.jhiplu + extra,
            table.poplu,
            gettext_noop("jhiplu"),
            gettext_noop("jhiplu"),
        ),
        (
            "marriages",
            tally.marriages,
            table.marriage,
            gettext_noop("marriage"),
            gettext_noop("marriages"),
        ),
        ("alter", tally.alter, table.alter, gettext_noop("alter"), gettext_noop("alter")),
        (
            "printed_jokers",
            tally.printed_jokers,
            table.printed_joker,
            gettext_noop("printed joker"),
            gettext_noop("printed jokers"),
        ),
        (
            "master_card",
            tally.master_card,
            table.master_card,
            gettext_noop("master card"),
            gettext_noop("master cards"),
        ),
    ]
    return [
        _line(item, count, tier_points(tiers, count), one, more)
        for item, count, tiers, one, more in items
        if count
    ]


def _tunnel_lines(tally: Tally, table: PointTable) -> list[MaalLine]:
    lines = []
    if tally.tunnels:
        points = tier_points(table.tunnel, tally.tunnels)
        one, more = gettext_noop("tunnel"), gettext_noop("tunnels")
        lines.append(_line("tunnels", tally.tunnels, points, one, more))
    if tally.joker_tunnels:
        points = tier_points(table.joker_tunnel, tally.joker_tunnels)
        one = gettext_noop("tunnel of ordinary jokers")
        more = gettext_noop("tunnels of ordinary jokers")
        lines.append(_line("joker_tunnels", tally.joker_tunnels, points, one, more))
    # Tunnels of poplu and of jhiplu are one item of the table, counted together.
    # A maal tunnel's three cards count as maal, as three of them held would
    # (never more than the row's value); only the rest is tunnel points.
    count = tally.poplu_tunnels + tally.jhiplu_tunnels
    if count:
        points = tier_points(table.poplu_tunnel, count)
        as_maal = min(points, count * tier_points(table.poplu, COPIES))
        if not tally.jhiplu_tunnels:
            one, more = gettext_noop("tunnel of poplu"), gettext_noop("tunnels of poplu")
        elif not tally.poplu_tunnels:
            one, more = gettext_noop("tunnel of jhiplu"), gettext_noop("tunnels of jhiplu")
        else:  # at least one of each, so never one tunnel
            one = more = gettext_noop("tunnels of poplu and jhiplu")
        lines.append(_line("poplu_tunnels", count, points, one, more, maal=as_maal))
    if tally.alter_tunnels:
        points = tier_points(table.alter_tunnel, tally.alter_tunnels)
        as_maal = min(points, tally.alter_tunnels * tier_points(table.alter, COPIES))
        one, more = gettext_noop("tunnel of alter"), gettext_noop("tunnels of alter")
        lines.append(_line("alter_tunnels", tally.alter_tunnels, points, one, more, maal=as_maal))
    return lines


def _points(tally: Tally, table: PointTable) -> int:
    return sum(line.points for line in _card_lines(tally, table))


def best_grouping(tally: Tally, table: PointTable) -> Tally:
    """The same cards grouped into the number of marriages that scores most.
    Only marriages can be formed more than one way: each takes one tiplu, one
    poplu and one jhiplu."""
    t, p, j = tally.tiplu_cards, tally.poplu_cards, tally.jhiplu_cards
    options = [
        replace(tally, tiplu=t - m, poplu=p - m, jhiplu=j - m, marriages=m)
        for m in range(min(t, p, j) + 1)
    ]
    # max() keeps the first best; reversed so that ties go to more marriages.
    return max(reversed(options), key=lambda option: _points(option, table))


def score(tally: Tally, rules: MaalRules, table: PointTable | None = None) -> MaalScore:
    """Check the tally, group it for the most points, and score it."""
    check_tally(tally, rules)
    table = table or point_table_for(rules)
    grouped = best_grouping(tally, table)
    card_lines = _card_lines(grouped, table)
    tunnel_lines = _tunnel_lines(grouped, table)
    tunnel_maal = sum(line.maal for line in tunnel_lines)
    return MaalScore(
        tally=grouped,
        maal=sum(line.points for line in card_lines) + tunnel_maal,
        tunnel=sum(line.points for line in tunnel_lines) - tunnel_maal,
        lines=tuple(card_lines + tunnel_lines),
        tunnel_maal=tunnel_maal,
    )


def score_cards(
    cards: Iterable[Card | str],
    tiplu: Card,
    rules: MaalRules,
    tunnels: Iterable[Card | str] = (),
) -> MaalScore:
    return score(tally_from_cards(cards, tiplu, rules, tunnels), rules)


def check_entry_tally(
    data: object, tiplu: str, rules: MaalRules, maal: int, tunnel: int
) -> tuple[str, MaalScore]:
    """A stored tally checked against the maal and tunnel points entered beside
    it: (the tiplu's code, the score). MaalError if the tally is impossible or
    its points differ (someone typed over the calculator's numbers)."""
    if not tiplu:
        raise MaalError(_at(_TIPLU, gettext_noop("pick the tiplu card to use the maal calculator")))
    code = parse_tiplu(tiplu).code
    result = score(Tally.from_dict(data), rules)
    # A round saved before maal tunnels were split counted them all as tunnel;
    # it keeps the points it was settled on.
    if (maal, tunnel) == result.legacy_split != (result.maal, result.tunnel):
        return code, replace(result, maal=maal, tunnel=tunnel, tunnel_maal=0)
    if (maal, tunnel) != (result.maal, result.tunnel):
        raise MaalError(
            message(
                gettext_noop(
                    "the calculator counted maal %(maal)s and tunnel %(tunnel)s (%(breakdown)s), "
                    "not %(entered_maal)s and %(entered_tunnel)s; "
                    "count again or clear the calculator"
                ),
                maal=result.maal,
                tunnel=result.tunnel,
                breakdown=result.parts,
                entered_maal=maal,
                entered_tunnel=tunnel,
            )
        )
    return code, result


# -- a round: every player's tally together -------------------------------------------

# What exists of each maal card in one round (RULES.md section 4 Decision), and
# how many of it a tally holds: a marriage holds one tiplu, one poplu and one
# jhiplu; a tunnel its three cards.
ROUND_COPIES: tuple[tuple[str, int], ...] = (
    (gettext_noop("tiplu"), TIPLU_IN_PLAY),
    (gettext_noop("poplu"), COPIES),
    (gettext_noop("jhiplu"), COPIES),
    (gettext_noop("alter"), COPIES),
    (gettext_noop("printed jokers"), PRINTED_JOKERS_IN_PLAY),
    (gettext_noop("master cards"), MASTER_CARDS_IN_PLAY),
)


def _copies_held(tally: Tally) -> dict[str, int]:
    return {
        "tiplu": tally.tiplu_cards,
        "poplu": tally.poplu_cards + COPIES * tally.poplu_tunnels,
        "jhiplu": tally.jhiplu_cards + COPIES * tally.jhiplu_tunnels,
        "alter": tally.alter + COPIES * tally.alter_tunnels,
        "printed jokers": tally.printed_jokers,
        "master cards": tally.master_card,
    }


def check_round_tallies(tallies: Mapping[str, Tally]) -> None:
    """Refuse a round whose players together hold more of a maal card than exist,
    naming the card and who holds it ("Dai 2, Aama 1")."""
    held = {player: _copies_held(tally) for player, tally in tallies.items()}
    for card, in_play in ROUND_COPIES:
        holders = {player: counts[card] for player, counts in held.items() if counts[card]}
        if sum(holders.values()) > in_play:
            raise MaalError(_too_many_held(card, in_play, holders))


def check_added_tally(others: Mapping[str, Tally], player: str, tally: Tally) -> None:
    """Refuse `player`'s tally for what it adds to the others' of the same round
    (each seat sends its own): a card it holds more of than exist, or one the
    others hold no more of than exist and with it would. A card the others hold
    too many of already is one of theirs to count again: it never blocks this
    one, which may be the true count."""
    mine = _copies_held(tally)
    held = {name: _copies_held(t) for name, t in others.items() if name != player}
    for card, in_play in ROUND_COPIES:
        before = sum(counts[card] for counts in held.values())
        if mine[card] > in_play or before <= in_play < before + mine[card]:
            holders = {name: counts[card] for name, counts in held.items() if counts[card]}
            holders[player] = mine[card]
            raise MaalError(_too_many_held(card, in_play, holders))


def _too_many_held(card: str, in_play: int, holders: Mapping[str, int]) -> Message:
    return message(
        gettext_noop("%(count)s %(kind)s held by %(players)s: only %(max)s in play"),
        count=sum(holders.values()),
        kind=message(card),
        players=", ".join(f"{player} {n}" for player, n in holders.items()),
        max=in_play,
    )
