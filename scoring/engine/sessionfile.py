"""The `marriage-session/1` session file: read one into values, write an export.

Pure: JSON-like data in, dataclasses out. Every error names the round number,
player and field, so a one-line message tells the user what to fix.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal
from typing import Any

from .ledger import money_totals, settle_evening, stakes_in_force, totals
from .limits import (
    MAX_CURRENCY_LENGTH,
    MAX_FILE_BYTES,
    MAX_JSON_DEPTH,
    MAX_NAME_LENGTH,
    MAX_PLAYER_NAME_LENGTH,
    MAX_ROUND_ENTRIES,
    MAX_ROUNDS,
    MAX_SESSION_PLAYERS,
    check_depth,
    first_duplicate,
    object_pairs,
)
from .maal import MaalError, Tally, check_entry_tally, check_round_tallies, parse_tiplu
from .messages import WHERE, WITHIN, EngineError, Message, gettext_noop, message
from .names import PlayerNameError, clean_currency, clean_session_name, player_key
from .names import clean_player_name as clean_name
from .numbers import NotANumber, parse_decimal
from .rules import RuleError, Rules, rules_from_options
from .settlement import (
    BookedDhoos,
    Dhoos,
    Entry,
    RoundError,
    RoundInput,
    RoundResult,
    settle_round,
    settle_session,
)

FORMAT = "marriage-session/1"
__all__ = ["MAX_FILE_BYTES", "MAX_NAME_LENGTH", "MAX_PLAYER_NAME_LENGTH"]  # re-exported
STAKE_MAX_DIGITS = 12
STAKE_DECIMAL_PLACES = 2
MAX_MESSAGE_LENGTH = 300


class SessionFileError(EngineError):
    """A session file that cannot be read; the message is one line for the user,
    naming where in the file: "round 2, player Buwa, maal: must not be negative"."""

    def __init__(self, msg: Message | str) -> None:
        super().__init__(msg)
        self.args = (shorten(str(self.msg)),)


def shorten(text: str) -> str:
    """A message quotes the bad value; a pasted megabyte must not become the message
    (nor its translation)."""
    if len(text) > MAX_MESSAGE_LENGTH:
        return text[: MAX_MESSAGE_LENGTH - 1] + "…"
    return text


# Where in the file: a tuple of parts, shown joined with ", ". Keys of the file
# are shown as typed; these are words.
Place = tuple[Message | str, ...]
SESSION_FILE: Place = (Message(gettext_noop("session file")),)


def _round(number: int) -> Message:
    return message(gettext_noop("round %(number)s"), number=number)


def _entry(number: int) -> Message:
    return message(gettext_noop("entry %(number)s"), number=number)


def _player(name: str) -> Message:
    return message(gettext_noop("player %(name)s"), name=name)


def _at(where: Place, problem: Message | str) -> Message:
    """ "round 2, winner: missing": the place, then the problem."""
    return message(
        WHERE, where=where, problem=problem if isinstance(problem, Message) else Message(problem)
    )


@dataclass(frozen=True, slots=True)
class RoundMaal:
    """What the maal calculator kept of a round: the tiplu card's code ("QH") and
    each counted player's tally (Tally.to_dict()). Empty when it was not used."""

    tiplu: str = ""
    tallies: Mapping[str, Mapping[str, int]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SessionDoc:
    name: str
    currency: str
    stake_per_point: Decimal
    rules: Rules
    players: tuple[str, ...]
    rounds: tuple[RoundInput, ...] = field(default=())
    played_on: date | None = None
    # One per round when any round used the calculator, else empty.
    maal: tuple[RoundMaal, ...] = field(default=())
    # One per round when any round changed the stake (the stake from that round
    # on, None where it keeps the one before), else empty.
    stakes: tuple[Decimal | None, ...] = field(default=())

    def maal_of(self, index: int) -> RoundMaal:
        return self.maal[index] if index < len(self.maal) else RoundMaal()

    def stake_of(self, index: int) -> Decimal | None:
        """The stake round `index` (from 0) sets from itself on; None: it keeps
        the one in force."""
        return self.stakes[index] if index < len(self.stakes) else None

    def stakes_in_force(self) -> list[Decimal]:
        """Each round's stake in force: the session's until a round sets another."""
        return stakes_in_force(
            self.stake_per_point, (self.stake_of(i) for i in range(len(self.rounds)))
        )


def stakes_per_round(stakes: Sequence[Decimal | None]) -> tuple[Decimal | None, ...]:
    """SessionDoc.stakes: one per round, or () when no round changes the stake."""
    return tuple(stakes) if any(stake is not None for stake in stakes) else ()


def maal_per_round(maal: Sequence[RoundMaal]) -> tuple[RoundMaal, ...]:
    """SessionDoc.maal: one per round, or () when no round used the calculator,
    so a document read from a file equals one built without the field."""
    return tuple(maal) if any(m != RoundMaal() for m in maal) else ()


def parse_stake(value: object) -> Decimal:
    """A stake per point: a decimal string such as "2.50" (or a whole number), ≥ 0."""
    not_decimal = message(
        gettext_noop('stake_per_point: must be a decimal string such as "2.50", got %(value)s'),
        value=repr(value),
    )
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise SessionFileError(not_decimal)
    try:  # ASCII digits and one ".": never "1_000", "٣" or "NaN"
        stake = parse_decimal(str(value))
    except NotANumber:
        stake = Decimal("NaN")
    if not stake.is_finite():
        raise SessionFileError(not_decimal)
    if stake < 0:
        raise SessionFileError(
            message(
                gettext_noop("stake_per_point: must be zero or more, got %(value)s"),
                value=repr(value),
            )
        )
    stake = abs(stake)  # "-0" is zero, not "-0.00"
    exponent = stake.normalize().as_tuple().exponent
    if isinstance(exponent, int) and -exponent > STAKE_DECIMAL_PLACES:
        raise SessionFileError(
            message(
                gettext_noop("stake_per_point: at most %(places)s decimal places, got %(value)s"),
                places=STAKE_DECIMAL_PLACES,
                value=repr(value),
            )
        )
    if stake >= Decimal(10) ** (STAKE_MAX_DIGITS - STAKE_DECIMAL_PLACES):
        raise SessionFileError(
            message(gettext_noop("stake_per_point: too large, got %(value)s"), value=repr(value))
        )
    return stake.quantize(Decimal(1).scaleb(-STAKE_DECIMAL_PLACES))


def round_stake_problem(value: object) -> Message | None:
    """What is wrong with a round's stake from that round on, None if nothing:
    a decimal such as "2.50" (or a whole number), more than zero, at most two
    places and bounded as the session's stake. The session file and the round
    form say the same, each naming its field."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return message(
            gettext_noop('must be a number such as "2.50", got %(value)s'), value=repr(value)
        )
    text = str(value).strip()
    try:  # ASCII digits and one ".": never "1_000", "٣" or "NaN"
        stake = parse_decimal(text) if len(text) <= 4 * STAKE_MAX_DIGITS else Decimal("NaN")
    except NotANumber:
        stake = Decimal("NaN")
    if not stake.is_finite():
        return message(
            gettext_noop('must be a number such as "2.50", got %(value)s'), value=repr(value)
        )
    if stake <= 0:
        return message(gettext_noop("must be more than 0, got %(value)s"), value=repr(value))
    exponent = stake.normalize().as_tuple().exponent
    if isinstance(exponent, int) and -exponent > STAKE_DECIMAL_PLACES:
        return message(
            gettext_noop("at most %(places)s decimal places, got %(value)s"),
            places=STAKE_DECIMAL_PLACES,
            value=repr(value),
        )
    if stake >= Decimal(10) ** (STAKE_MAX_DIGITS - STAKE_DECIMAL_PLACES):
        return message(gettext_noop("too large, got %(value)s"), value=repr(value))
    return None


def parse_round_stake(value: object) -> Decimal:
    """A round's stake from that round on, as stored (two places); ValueError if
    `round_stake_problem` finds anything wrong with it."""
    if round_stake_problem(value) is not None:
        raise ValueError(value)
    return parse_decimal(str(value).strip()).quantize(Decimal(1).scaleb(-STAKE_DECIMAL_PLACES))


def _printable(text: str, where: Place) -> str:
    """Text as it can be shown and stored: no control characters (PostgreSQL
    refuses a NUL in text outright, and none belongs in a name)."""
    bad = next((c for c in text if unicodedata.category(c) == "Cc"), None)
    if bad is not None:
        raise SessionFileError(
            _at(
                where,
                message(
                    gettext_noop("must not contain control characters, got %(value)s"),
                    value=repr(text),
                ),
            )
        )
    return text


def clean_player_name(value: object, where: Place) -> str:
    """A name as stored (names.clean_player_name: NFC, no invisible characters)."""
    if not isinstance(value, str) or not value.strip():
        raise SessionFileError(
            _at(
                where,
                message(
                    gettext_noop("a player name must be non-empty text, got %(value)s"),
                    value=repr(value),
                ),
            )
        )
    if len(value) > 4 * MAX_PLAYER_NAME_LENGTH:  # bound the work before normalising
        value = value[: 4 * MAX_PLAYER_NAME_LENGTH]
    name = _printable(" ".join(value.split()), where)
    if len(name) > MAX_PLAYER_NAME_LENGTH:
        raise SessionFileError(
            _at(
                where,
                message(
                    gettext_noop("player name %(name)s… is longer than %(max)s characters"),
                    name=repr(name[:20]),
                    max=MAX_PLAYER_NAME_LENGTH,
                ),
            )
        )
    try:
        return clean_name(name)
    except PlayerNameError as error:
        raise SessionFileError(_at(where, error.msg)) from None


_KINDS: dict[type, Message] = {
    dict: Message(gettext_noop("an object")),
    list: Message(gettext_noop("a list")),
    str: Message(gettext_noop("text")),
    bool: Message(gettext_noop("true or false")),
}


def _expect(obj: object, kind: type, where: Place) -> Any:
    if not isinstance(obj, kind) or (isinstance(obj, bool) and kind is not bool):
        raise SessionFileError(
            _at(
                where,
                message(
                    gettext_noop("must be %(kind)s, got %(value)s"),
                    kind=_KINDS.get(kind, kind.__name__),
                    value=repr(obj),
                ),
            )
        )
    return obj


def _unknown_keys(obj: Mapping[str, Any], allowed: set[str], where: Place) -> None:
    for key in obj:
        if key not in allowed:
            raise SessionFileError(
                _at(where, message(gettext_noop("unknown field %(name)s"), name=repr(key)))
            )
    _no_duplicates(obj, where)


def _no_duplicates(obj: Mapping[str, Any], where: Place) -> None:
    duplicates = getattr(obj, "duplicate_keys", ())
    if duplicates:
        raise SessionFileError(_at((*where, duplicates[0]), gettext_noop("given twice")))


def _no_duplicates_within(value: object, where: Place) -> None:
    """No object anywhere inside `value` gives a key twice."""
    duplicate = first_duplicate(value)
    if duplicate is not None:
        path, key = duplicate
        raise SessionFileError(_at((*where, *path, key), gettext_noop("given twice")))


# "net", "dhoos_booked" and the top level's "totals", "money", "transfers" and
# "dhoos_pending" are what an export computed: read past, always computed again.
ROUND_KEYS = {
    "winner",
    "win_type",
    "better",
    "entries",
    "net",
    "tiplu",
    "dhoos_booked",
    "stake_per_point",
}
ENTRY_KEYS = {"player", "status", "maal", "tunnel", "dhoos", "dublees", "maal_tally"}
TOP_KEYS = {
    "format",
    "name",
    "played_on",
    "currency",
    "stake_per_point",
    "rules",
    "players",
    "rounds",
    "totals",
    "money",
    "transfers",
    "dhoos_pending",
}


def parse_round(raw: object, number: int, players: Collection[str], rules: Rules) -> RoundInput:
    """One round of a file; `number` counts from 1 for messages. A round without
    `better` has better None: not marked, so it takes its default, which depends
    on the rounds before it (`settle_session` works it out)."""
    where: Place = (_round(number),)
    fields: dict[str, Any] = _expect(raw, dict, where)
    _unknown_keys(fields, ROUND_KEYS, where)
    seated = players if isinstance(players, (set, frozenset, dict)) else set(players)
    entries_raw = _expect(fields.get("entries"), list, (*where, "entries"))
    if len(entries_raw) > MAX_ROUND_ENTRIES:
        raise SessionFileError(
            _at(
                (*where, "entries"),
                message(
                    gettext_noop("at most %(max)s players in a round, got %(count)s"),
                    max=MAX_ROUND_ENTRIES,
                    count=len(entries_raw),
                ),
            )
        )
    entries = []
    for index, item in enumerate(entries_raw, start=1):
        entry_where = (*where, _entry(index))
        entry_raw: dict[str, Any] = _expect(item, dict, entry_where)
        if "player" not in entry_raw:
            raise SessionFileError(_at((*entry_where, "player"), gettext_noop("missing")))
        name = clean_player_name(entry_raw["player"], (*entry_where, "player"))
        _unknown_keys(entry_raw, ENTRY_KEYS, (*where, _player(name)))
        if name not in seated:
            raise SessionFileError(
                _at((*where, _player(name)), gettext_noop("not one of the session's players"))
            )
        if "status" not in entry_raw:
            raise SessionFileError(
                _at((*where, _player(name), "status"), gettext_noop("missing (seen or unseen)"))
            )
        entries.append(
            Entry(
                player=name,
                status=entry_raw["status"],
                maal=entry_raw.get("maal", 0),
                tunnel=entry_raw.get("tunnel", 0),
                dhoos=entry_raw.get("dhoos", False),
                dublees=entry_raw.get("dublees", False),
            )
        )
    if "winner" not in fields:
        raise SessionFileError(
            _at((*where, "winner"), gettext_noop("missing (a player's name, or null)"))
        )
    winner = fields["winner"]
    if isinstance(winner, list):
        raise SessionFileError(
            _at(
                (*where, "winner"),
                message(
                    gettext_noop("one player's name (or null), got %(value)s"), value=repr(winner)
                ),
            )
        )
    if winner is not None:
        winner = clean_player_name(winner, (*where, "winner"))
    round_ = RoundInput(
        entries=tuple(entries),
        winner=winner,
        win_type=fields.get("win_type", "normal"),
        better=fields.get("better"),
    )
    try:
        # Whether the round is better changes no check, and an explicit `null` is refused.
        settle_round(round_ if "better" in fields else replace(round_, better=False), rules)
    except RoundError as error:
        raise SessionFileError(message(WITHIN, where=where, problem=error.msg)) from None
    return round_


def parse_round_maal(
    raw: Mapping[str, Any], number: int, round_: RoundInput, rules: Rules
) -> RoundMaal:
    """A round's optional `tiplu` and its entries' optional `maal_tally`, each tally
    checked against its entry's maal and tunnel points (parse_round checked the rest)."""
    where: Place = (_round(number),)
    tiplu = raw.get("tiplu", "")
    if not isinstance(tiplu, str):
        raise SessionFileError(
            _at(
                (*where, "tiplu"),
                message(
                    gettext_noop('must be a card such as "QH", got %(value)s'), value=repr(tiplu)
                ),
            )
        )
    code = ""
    if tiplu:
        try:
            code = parse_tiplu(tiplu).code
        except MaalError as error:
            raise SessionFileError(message(WITHIN, where=where, problem=error.msg)) from None
    tallies: dict[str, dict[str, int]] = {}
    for item in raw["entries"]:
        if item.get("maal_tally") is None:
            continue
        entry = round_.entry(clean_player_name(item["player"], where))
        at = (*where, _player(entry.player), "maal_tally")
        if not code:
            raise SessionFileError(
                _at(at, gettext_noop("pick the tiplu card to use the maal calculator"))
            )
        _no_duplicates_within(item["maal_tally"], at)
        try:
            result = check_entry_tally(item["maal_tally"], code, rules, entry.maal, entry.tunnel)[1]
        except MaalError as error:
            raise SessionFileError(_at(at, error.msg)) from None
        tallies[entry.player] = result.tally.to_dict()
    try:
        check_round_tallies({player: Tally(**tally) for player, tally in tallies.items()})
    except MaalError as error:
        raise SessionFileError(_at((*where, "maal_tally"), error.msg)) from None
    return RoundMaal(tiplu=code, tallies=tallies)


def parse_round_stake_field(raw: Mapping[str, Any], number: int) -> Decimal | None:
    """A round's optional `stake_per_point`: the stake from that round on."""
    if "stake_per_point" not in raw:
        return None
    value = raw["stake_per_point"]
    problem = round_stake_problem(value)
    if problem is not None:
        raise SessionFileError(_at((_round(number), "stake_per_point"), problem))
    return parse_round_stake(value)


# Reads a file's `played_on` text as a date, raising ValueError: the engine's own
# reads the Gregorian ISO date; the app passes the one its date fields use, which
# reads Bikram Sambat too (scoring/sessionfiles.py, localise/bikram_sambat.py).
DateReader = Callable[[str], date]
MAX_DATE_TEXT = 24  # "2083-06-16 वि.सं." and the like, with room


def parse_played_on(value: object, read_date: DateReader = date.fromisoformat) -> date | None:
    """The evening's date, "2026-10-02"; None when the file has none."""
    if value is None:
        return None
    try:
        if isinstance(value, str) and 0 < len(value) <= MAX_DATE_TEXT:
            return read_date(value)
    except ValueError:
        pass
    raise SessionFileError(
        message(
            gettext_noop('played_on: must be a date such as "2026-10-02", got %(value)s'),
            value=repr(value),
        )
    )


def parse_document(data: object, read_date: DateReader = date.fromisoformat) -> SessionDoc:
    """A session document (already decoded from JSON) as values; raises SessionFileError."""
    document: dict[str, Any] = _expect(data, dict, SESSION_FILE)
    if document.get("format") != FORMAT:
        raise SessionFileError(
            message(
                gettext_noop("format: must be %(format)s, got %(value)s"),
                format=repr(FORMAT),
                value=repr(document.get("format")),
            )
        )
    _unknown_keys(document, TOP_KEYS, SESSION_FILE)
    name = document.get("name")
    if not isinstance(name, str) or not name.strip():
        raise SessionFileError(
            message(gettext_noop("name: must be non-empty text, got %(value)s"), value=repr(name))
        )
    name = _printable(" ".join(name.split()), ("name",))
    if len(name) > MAX_NAME_LENGTH:
        raise SessionFileError(
            message(gettext_noop("name: longer than %(max)s characters"), max=MAX_NAME_LENGTH)
        )
    try:  # NFC, nothing invisible, and bounded again as stored
        name = clean_session_name(name)
    except PlayerNameError as error:
        raise SessionFileError(_at(("name",), error.msg)) from None
    currency = document.get("currency", "NPR")
    if not isinstance(currency, str) or not (1 <= len(currency.strip()) <= MAX_CURRENCY_LENGTH):
        raise SessionFileError(
            message(
                gettext_noop("currency: must be a short code such as NPR, got %(value)s"),
                value=repr(currency),
            )
        )
    _printable(currency, ("currency",))
    try:  # upper-cased before its bound: eight "ß" are sixteen letters
        currency = clean_currency(currency)
    except PlayerNameError as error:
        raise SessionFileError(_at(("currency",), error.msg)) from None
    stake = parse_stake(document.get("stake_per_point", "1"))
    rules_raw = _expect(document.get("rules", {}), dict, ("rules",))
    _no_duplicates(rules_raw, ("rules",))
    try:
        rules = rules_from_options(rules_raw)
    except RuleError as error:
        raise SessionFileError(error.msg) from None
    players_raw = _expect(document.get("players"), list, ("players",))
    if len(players_raw) > MAX_SESSION_PLAYERS:
        raise SessionFileError(
            message(
                gettext_noop("players: at most %(max)s players in a session, got %(count)s"),
                max=MAX_SESSION_PLAYERS,
                count=f"{len(players_raw):,}",
            )
        )
    players: list[str] = []
    keys: dict[str, str] = {}  # player_key -> the name that has it
    for index, raw_name in enumerate(players_raw, start=1):
        player = clean_player_name(raw_name, ("players", _entry(index)))
        key = player_key(player)
        if key in keys:
            if keys[key] == player:
                twice = message(gettext_noop("players: %(name)s is listed twice"), name=player)
            else:
                twice = message(
                    gettext_noop("players: %(name)s is listed twice (as %(other)s)"),
                    name=player,
                    other=keys[key],
                )
            raise SessionFileError(twice)
        keys[key] = player
        players.append(player)
    if len(players) < 2:
        raise SessionFileError(
            message(
                gettext_noop("players: a session needs at least 2 players, got %(count)s"),
                count=len(players),
            )
        )
    rounds_raw = _expect(document.get("rounds", []), list, ("rounds",))
    if len(rounds_raw) > MAX_ROUNDS:
        raise SessionFileError(
            message(
                gettext_noop("rounds: at most %(max)s rounds in a file, got %(count)s"),
                max=f"{MAX_ROUNDS:,}",
                count=f"{len(rounds_raw):,}",
            )
        )
    # The export's own figures are not read back, but a key given twice in them
    # is refused like anywhere else, not read as its last value.
    for key in ("totals", "money", "transfers", "dhoos_pending"):
        _no_duplicates_within(document.get(key), (key,))
    rounds: list[RoundInput] = []
    maal: list[RoundMaal] = []
    stakes: list[Decimal | None] = []
    seated = frozenset(players)
    for number, raw in enumerate(rounds_raw, start=1):
        rounds.append(parse_round(raw, number, seated, rules))
        maal.append(parse_round_maal(raw, number, rounds[-1], rules))
        stakes.append(parse_round_stake_field(raw, number))
    # A missing `better` stays None, not marked: the round takes its default
    # (after a dublee win, after a rotation) when settled, and once saved keeps
    # following it when an earlier round is added or deleted.
    return SessionDoc(
        name=name,
        currency=currency,
        stake_per_point=stake,
        rules=rules,
        players=tuple(players),
        rounds=tuple(rounds),
        played_on=parse_played_on(document.get("played_on"), read_date),
        maal=maal_per_round(maal),
        stakes=stakes_per_round(stakes),
    )


def loads(text: str, read_date: DateReader = date.fromisoformat) -> SessionDoc:
    """A session file's text as values; `read_date` reads its `played_on`."""
    # A caller that read bytes checked MAX_FILE_BYTES first; text is checked again here.
    if len(text) > MAX_FILE_BYTES:
        raise SessionFileError(
            message(
                gettext_noop("file: larger than the limit of %(max)s bytes"),
                max=f"{MAX_FILE_BYTES:,}",
            )
        )
    try:
        data = json.loads(text.removeprefix("\ufeff"), object_pairs_hook=object_pairs)
    except json.JSONDecodeError as error:
        raise SessionFileError(
            message(
                gettext_noop("not JSON: %(problem)s at line %(line)s, column %(column)s"),
                problem=JSON_PROBLEMS.get(error.msg, error.msg),
                line=error.lineno,
                column=error.colno,
            )
        ) from None
    except (ValueError, RecursionError) as error:
        # e.g. a number of more than 4,300 digits, or lists nested thousands deep
        raise SessionFileError(
            message(gettext_noop("not JSON: %(problem)s"), problem=_json_problem(error))
        ) from None
    if not check_depth(data, MAX_JSON_DEPTH):
        raise SessionFileError(
            _at(
                SESSION_FILE,
                message(gettext_noop("nested more than %(max)s deep"), max=MAX_JSON_DEPTH),
            )
        )
    return parse_document(data, read_date)


# The parser's own words, as messages: the same English, and a Nepali reader
# reads them in Nepali (a value that is a Message is translated, messages.py).
JSON_PROBLEMS = {
    text: message(text)
    for text in (
        gettext_noop("Expecting value"),
        gettext_noop("Expecting property name enclosed in double quotes"),
        gettext_noop("Expecting ':' delimiter"),
        gettext_noop("Expecting ',' delimiter"),
        gettext_noop("Unterminated string starting at"),
        gettext_noop("Invalid control character at"),
        gettext_noop("Invalid \\escape"),
        gettext_noop("Invalid \\uXXXX escape"),
        gettext_noop("Extra data"),
    )
}


def _json_problem(error: ValueError | RecursionError) -> str | Message:
    """What a ValueError of the parser says, in words we translate where we know it."""
    if isinstance(error, RecursionError):
        return message(gettext_noop("lists or objects nested too deep"))
    text = str(error).splitlines()[0]
    if text.startswith("Exceeds the limit"):
        return message(gettext_noop("a number with too many digits"))
    return text


def round_document(
    round_: RoundInput,
    result: RoundResult | None = None,
    maal: RoundMaal | None = None,
    stake: Decimal | None = None,
) -> dict[str, Any]:
    """A round as the file has it; `tiplu` and `maal_tally` only where the maal
    calculator was used, `better` only where the round is marked (better None
    takes its default again when the file is read back, so it keeps following
    the rules' default after an earlier round is deleted), `stake_per_point`
    only where the round changes the stake from itself on."""
    maal = maal or RoundMaal()
    doc: dict[str, Any] = {"winner": round_.winner, "win_type": round_.win_type}
    if round_.better is not None:
        doc["better"] = round_.better
    if stake is not None:
        doc["stake_per_point"] = str(stake)
    if maal.tiplu:
        doc["tiplu"] = maal.tiplu
    entries = []
    for e in round_.entries:
        entry: dict[str, Any] = {
            "player": e.player,
            "status": e.status,
            "maal": e.maal,
            "tunnel": e.tunnel,
            "dhoos": e.dhoos,
        }
        if e.dublees:
            entry["dublees"] = True
        if e.player in maal.tallies:
            entry["maal_tally"] = dict(maal.tallies[e.player])
        entries.append(entry)
    doc["entries"] = entries
    if result is not None:
        _settled_part(doc, result.nets, result.dhoos_booked)
    return doc


def _settled_part(doc: dict[str, Any], nets: dict[str, int], booked: Sequence[BookedDhoos]) -> None:
    doc["net"] = nets
    if booked:
        doc["dhoos_booked"] = [
            {"player": d.player, "amount": d.amount, "round": d.round, "to": d.payee}
            for d in booked
        ]


def _stored_nets(
    rounds: Sequence[RoundInput], rules: Rules, stored: Sequence[Mapping[str, int]] | None
) -> list[dict[str, int]] | None:
    """The nets the database keeps, in each round's entry order, where they are
    what settling again would give: under rules that never look at earlier
    rounds, every round settles alone (no default better, no dhoos carried) and
    its saved nets are the ones its save settled. None: settle again."""
    if stored is None or rules.looks_back() or len(stored) != len(rounds):
        return None
    nets = []
    for round_, kept in zip(rounds, stored, strict=True):
        if len(kept) != len(round_.entries) or any(e.player not in kept for e in round_.entries):
            return None
        nets.append({e.player: kept[e.player] for e in round_.entries})
    return nets


def export_document(
    doc: SessionDoc, stored_nets: Sequence[Mapping[str, int]] | None = None
) -> dict[str, Any]:
    """The export: the document with rules resolved, nets, totals, money and
    transfers. `stored_nets`: each round's nets as saved (player -> net), used
    instead of settling every round again where the rules allow it."""
    # Entries in the session's player order, as the database gives them back, so
    # `settle FILE` and an export after `import_session FILE` are the same text.
    order = {player: index for index, player in enumerate(doc.players)}
    rounds = [
        replace(r, entries=tuple(sorted(r.entries, key=lambda e: order.get(e.player, len(order)))))
        for r in doc.rounds
    ]
    kept = _stored_nets(rounds, doc.rules, stored_nets)
    if kept is not None:
        nets = kept
        booked: list[Sequence[BookedDhoos]] = [()] * len(rounds)
        still: Sequence[Dhoos] = ()
    else:
        settled = settle_session(rounds, doc.rules)
        nets = [r.nets for r in settled.rounds]
        booked = [r.dhoos_booked for r in settled.rounds]
        still = settled.pending
    points = totals(nets, doc.players)
    # Dhoos owed to a next winner who has not played yet: in nobody's totals.
    pending = (
        {
            "dhoos_pending": [
                {"player": d.player, "amount": d.amount, "round": d.round} for d in still
            ]
        }
        if doc.rules.looks_back("dhoos")
        else {}
    )
    in_force = doc.stakes_in_force()
    amounts = money_totals(nets, in_force, doc.players, stake=doc.stake_per_point)
    dated = {"played_on": doc.played_on.isoformat()} if doc.played_on else {}
    return {
        "format": FORMAT,
        "name": doc.name,
        **dated,
        "currency": doc.currency,
        "stake_per_point": str(doc.stake_per_point),
        "rules": doc.rules.to_options(),
        "players": list(doc.players),
        "rounds": [
            _exported_round(r, round_nets, round_booked, doc.maal_of(index), doc.stake_of(index))
            for index, (r, round_nets, round_booked) in enumerate(
                zip(rounds, nets, booked, strict=True)
            )
        ],
        "totals": points,
        "money": {player: str(amount) for player, amount in amounts.items()},
        "transfers": [
            {"from": t.payer, "to": t.payee, "amount": str(t.money)}
            for t in settle_evening(points, amounts, in_force)
        ],
        **pending,
    }


def _exported_round(
    round_: RoundInput,
    nets: dict[str, int],
    booked: Sequence[BookedDhoos],
    maal: RoundMaal,
    stake: Decimal | None,
) -> dict[str, Any]:
    doc = round_document(round_, None, maal, stake)
    _settled_part(doc, nets, booked)
    return doc


COMPUTED = ("totals", "money", "transfers", "dhoos_pending")
COMPUTED_PER_ROUND = ("net", "dhoos_booked")


def fingerprint(doc: SessionDoc) -> dict[str, Any]:
    """What a document holds, as the export writes it without what it computes
    from it: two documents of one evening are equal, however written (rules
    given by preset or one by one, entries in any order, a stake of "2.5" or
    "2.50", a round better by its default or by its mark)."""
    # Each round's better as it settles, so an evening saved before its rounds
    # kept their defaults (every round marked) matches one that follows them.
    settled = settle_session(doc.rounds, doc.rules).rounds
    rounds = tuple(
        replace(r, better=res.better) for r, res in zip(doc.rounds, settled, strict=True)
    )
    document = export_document(replace(doc, rounds=rounds))
    for key in COMPUTED:
        document.pop(key, None)
    for round_ in document["rounds"]:
        for key in COMPUTED_PER_ROUND:
            round_.pop(key, None)
    document["stake_per_point"] = str(doc.stake_per_point.normalize())
    return document


def dumps(document: Mapping[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
