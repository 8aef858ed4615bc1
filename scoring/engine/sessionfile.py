"""The `marriage-session/1` session file: read one into values, write an export.

Pure: JSON-like data in, dataclasses out. Every error names the round number,
player and field, so a one-line message tells the user what to fix.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from .ledger import money, settle_up, totals
from .rules import RuleError, Rules, rules_from_options
from .settlement import Entry, RoundError, RoundInput, RoundResult, settle_round

FORMAT = "marriage-session/1"
MAX_NAME_LENGTH = 100
MAX_PLAYER_NAME_LENGTH = 40
STAKE_MAX_DIGITS = 12
STAKE_DECIMAL_PLACES = 2


class SessionFileError(ValueError):
    """A session file that cannot be read; the message is one line for the user."""


@dataclass(frozen=True, slots=True)
class SessionDoc:
    name: str
    currency: str
    stake_per_point: Decimal
    rules: Rules
    players: tuple[str, ...]
    rounds: tuple[RoundInput, ...] = field(default=())


def parse_stake(value: object) -> Decimal:
    """A stake per point: a decimal string such as "2.50" (or a whole number), ≥ 0."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise SessionFileError(
            f'stake_per_point: must be a decimal string such as "2.50", got {value!r}'
        )
    try:
        stake = Decimal(str(value).strip())
    except InvalidOperation:
        raise SessionFileError(
            f'stake_per_point: must be a decimal string such as "2.50", got {value!r}'
        ) from None
    if not stake.is_finite() or stake < 0:
        raise SessionFileError(f"stake_per_point: must be zero or more, got {value!r}")
    exponent = stake.normalize().as_tuple().exponent
    if isinstance(exponent, int) and -exponent > STAKE_DECIMAL_PLACES:
        raise SessionFileError(
            f"stake_per_point: at most {STAKE_DECIMAL_PLACES} decimal places, got {value!r}"
        )
    if stake >= Decimal(10) ** (STAKE_MAX_DIGITS - STAKE_DECIMAL_PLACES):
        raise SessionFileError(f"stake_per_point: too large, got {value!r}")
    return stake.quantize(Decimal(1).scaleb(-STAKE_DECIMAL_PLACES))


def clean_player_name(value: object, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise SessionFileError(f"{where}: a player name must be non-empty text, got {value!r}")
    name = " ".join(value.split())
    if len(name) > MAX_PLAYER_NAME_LENGTH:
        raise SessionFileError(
            f"{where}: player name {name[:20]!r}… is longer than "
            f"{MAX_PLAYER_NAME_LENGTH} characters"
        )
    return name


def _expect(obj: object, kind: type, where: str) -> Any:
    if not isinstance(obj, kind) or (isinstance(obj, bool) and kind is not bool):
        names = {dict: "an object", list: "a list", str: "text", bool: "true or false"}
        raise SessionFileError(f"{where}: must be {names.get(kind, kind.__name__)}, got {obj!r}")
    return obj


def _unknown_keys(obj: Mapping[str, Any], allowed: set[str], where: str) -> None:
    for key in obj:
        if key not in allowed:
            raise SessionFileError(f"{where}: unknown field {key!r}")


ROUND_KEYS = {"winner", "win_type", "better", "entries", "net"}
ENTRY_KEYS = {"player", "status", "maal", "tunnel", "dhoos"}
TOP_KEYS = {
    "format",
    "name",
    "currency",
    "stake_per_point",
    "rules",
    "players",
    "rounds",
    "totals",
    "money",
    "transfers",
}


def parse_round(raw: object, number: int, players: Sequence[str], rules: Rules) -> RoundInput:
    """One round of a file; `number` counts from 1 for messages."""
    where = f"round {number}"
    raw = _expect(raw, dict, where)
    _unknown_keys(raw, ROUND_KEYS, where)
    entries_raw = _expect(raw.get("entries"), list, f"{where}, entries")
    entries = []
    for index, entry_raw in enumerate(entries_raw, start=1):
        entry_where = f"{where}, entry {index}"
        entry_raw = _expect(entry_raw, dict, entry_where)
        _unknown_keys(entry_raw, ENTRY_KEYS, entry_where)
        if "player" not in entry_raw:
            raise SessionFileError(f"{entry_where}, player: missing")
        name = clean_player_name(entry_raw["player"], f"{entry_where}, player")
        if name not in players:
            raise SessionFileError(f"{where}, player {name}: not one of the session's players")
        if "status" not in entry_raw:
            raise SessionFileError(f"{where}, player {name}, status: missing (seen or unseen)")
        entries.append(
            Entry(
                player=name,
                status=entry_raw["status"],
                maal=entry_raw.get("maal", 0),
                tunnel=entry_raw.get("tunnel", 0),
                dhoos=entry_raw.get("dhoos", False),
            )
        )
    if "winner" not in raw:
        raise SessionFileError(f"{where}, winner: missing (a player's name, or null)")
    winner = raw["winner"]
    if winner is not None:
        winner = clean_player_name(winner, f"{where}, winner")
    round_ = RoundInput(
        entries=tuple(entries),
        winner=winner,
        win_type=raw.get("win_type", "normal"),
        better=raw.get("better", False),
    )
    try:
        settle_round(round_, rules)
    except RoundError as error:
        raise SessionFileError(f"{where}, {error}") from None
    return round_


def parse_document(data: object) -> SessionDoc:
    """A session document (already decoded from JSON) as values; raises SessionFileError."""
    data = _expect(data, dict, "session file")
    if data.get("format") != FORMAT:
        raise SessionFileError(f"format: must be {FORMAT!r}, got {data.get('format')!r}")
    _unknown_keys(data, TOP_KEYS, "session file")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise SessionFileError(f"name: must be non-empty text, got {name!r}")
    name = " ".join(name.split())
    if len(name) > MAX_NAME_LENGTH:
        raise SessionFileError(f"name: longer than {MAX_NAME_LENGTH} characters")
    currency = data.get("currency", "NPR")
    if not isinstance(currency, str) or not (1 <= len(currency.strip()) <= 8):
        raise SessionFileError(f"currency: must be a short code such as NPR, got {currency!r}")
    stake = parse_stake(data.get("stake_per_point", "1"))
    rules_raw = _expect(data.get("rules", {}), dict, "rules")
    try:
        rules = rules_from_options(rules_raw)
    except RuleError as error:
        raise SessionFileError(str(error)) from None
    players_raw = _expect(data.get("players"), list, "players")
    players: list[str] = []
    for index, raw_name in enumerate(players_raw, start=1):
        player = clean_player_name(raw_name, f"players, entry {index}")
        if player in players:
            raise SessionFileError(f"players: {player} is listed twice")
        players.append(player)
    if len(players) < 2:
        raise SessionFileError(f"players: a session needs at least 2 players, got {len(players)}")
    rounds_raw = _expect(data.get("rounds", []), list, "rounds")
    rounds = tuple(
        parse_round(raw, number, players, rules) for number, raw in enumerate(rounds_raw, start=1)
    )
    return SessionDoc(
        name=name,
        currency=currency.strip().upper(),
        stake_per_point=stake,
        rules=rules,
        players=tuple(players),
        rounds=rounds,
    )


def loads(text: str) -> SessionDoc:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise SessionFileError(
            f"not JSON: {error.msg} at line {error.lineno}, column {error.colno}"
        ) from None
    return parse_document(data)


def round_document(round_: RoundInput, result: RoundResult | None = None) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "winner": round_.winner,
        "win_type": round_.win_type,
        "better": round_.better,
        "entries": [
            {
                "player": e.player,
                "status": e.status,
                "maal": e.maal,
                "tunnel": e.tunnel,
                "dhoos": e.dhoos,
            }
            for e in round_.entries
        ],
    }
    if result is not None:
        doc["net"] = result.nets
    return doc


def export_document(doc: SessionDoc) -> dict[str, Any]:
    """The export: the document with rules resolved, nets, totals, money and transfers."""
    results = [settle_round(round_, doc.rules) for round_ in doc.rounds]
    points = totals((r.nets for r in results), doc.players)
    amounts = money(points, doc.stake_per_point)
    return {
        "format": FORMAT,
        "name": doc.name,
        "currency": doc.currency,
        "stake_per_point": str(doc.stake_per_point),
        "rules": doc.rules.to_options(),
        "players": list(doc.players),
        "rounds": [round_document(r, res) for r, res in zip(doc.rounds, results, strict=True)],
        "totals": points,
        "money": {player: str(amount) for player, amount in amounts.items()},
        "transfers": [
            {"from": t.payer, "to": t.payee, "amount": str(t.money(doc.stake_per_point))}
            for t in settle_up(points)
        ],
    }


def dumps(document: Mapping[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
