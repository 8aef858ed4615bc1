"""The `marriage-group/1` file: a family's group, its evenings and its payments.

```
{"format": "marriage-group/1", "name": "Pokhara family", "currency": "NPR",
 "members": ["Aama", "Bhai", "Didi"],
 "sessions": [<marriage-session/1 documents>],
 "payments": [{"from": "Bhai", "to": "Aama", "amount": "174.00", "on": "2026-10-03",
               "method": "cash", "note": ""}]}
```

Each evening is read by the session file's own parser (sessionfile.py), so an
evening means exactly what it means on its own; its players must be members
and its currency the group's. Every error is one line naming the member,
payment or evening and the problem. Pure: no Django.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from .ledger import money_totals
from .limits import MAX_CURRENCY_LENGTH, MAX_FILE_BYTES, MAX_JSON_DEPTH, check_depth, object_pairs
from .messages import WHERE, WITHIN, Message, gettext_noop, message
from .names import PlayerNameError, clean_currency, player_key
from .purse import MAX_PAYMENT, PAYMENT_METHODS, MoneyTransfer, PaymentInput, balances, transfers
from .sessionfile import (
    DateReader,
    SessionDoc,
    SessionFileError,
    _expect,
    _no_duplicates_within,
    _printable,
    _unknown_keys,
    clean_player_name,
    export_document,
    parse_document,
)
from .settlement import settle_session

FORMAT = "marriage-group/1"
MAX_MEMBERS = 60  # a large family over the years; 30 sit at one evening
MAX_EVENINGS = 1_000
MAX_PAYMENTS = 10_000
MAX_NOTE_LENGTH = 200
TOP_KEYS = {"format", "name", "currency", "members", "sessions", "payments"}
# What an export computes: read past, always computed again.
COMPUTED = ("balances", "transfers")
PAYMENT_KEYS = {"from", "to", "amount", "on", "method", "note"}
GROUP_FILE = (Message(gettext_noop("group file")),)


class GroupFileError(SessionFileError):
    """A group file that cannot be read; one line naming where and what."""


@dataclass(frozen=True, slots=True)
class GroupDoc:
    name: str
    currency: str
    members: tuple[str, ...]
    sessions: tuple[SessionDoc, ...] = field(default=())
    payments: tuple[PaymentInput, ...] = field(default=())


def _member(name: str) -> Message:
    return message(gettext_noop("member %(name)s"), name=name)


def _evening(number: int, name: str) -> Message:
    return message(gettext_noop("evening %(number)s (%(name)s)"), number=number, name=name)


def _payment(number: int) -> Message:
    return message(gettext_noop("payment %(number)s"), number=number)


def _at(where: tuple[Any, ...], problem: Message | str) -> Message:
    return message(
        WHERE, where=where, problem=problem if isinstance(problem, Message) else Message(problem)
    )


def parse_amount(value: object, where: tuple[Any, ...] = ()) -> Decimal:
    """A payment's amount: a decimal such as "174.00" (or a number), more than
    0, at most two decimal places, at most MAX_PAYMENT."""
    amount = Decimal("NaN")
    if isinstance(value, (str, int, Decimal)) and not isinstance(value, bool):
        with contextlib.suppress(InvalidOperation):
            amount = Decimal(str(value).strip())
    if not amount.is_finite():
        raise GroupFileError(
            _at(
                where,
                message(
                    gettext_noop('must be an amount such as "174.00", got %(value)s'),
                    value=repr(value if not isinstance(value, Decimal) else str(value)),
                ),
            )
        )
    shown = repr(str(value)) if isinstance(value, Decimal) else repr(value)
    if amount <= 0:
        raise GroupFileError(
            _at(where, message(gettext_noop("must be more than 0, got %(value)s"), value=shown))
        )
    if amount < Decimal("0.01"):
        raise GroupFileError(
            _at(where, message(gettext_noop("must be at least 0.01, got %(value)s"), value=shown))
        )
    exponent = amount.normalize().as_tuple().exponent
    if isinstance(exponent, int) and exponent < -2:
        raise GroupFileError(
            _at(
                where,
                message(gettext_noop("at most 2 decimal places, got %(value)s"), value=shown),
            )
        )
    if amount > MAX_PAYMENT:
        raise GroupFileError(
            _at(
                where,
                message(
                    gettext_noop("must be at most %(max)s, got %(value)s"),
                    max="10,000,000",
                    value=shown,
                ),
            )
        )
    return amount.quantize(Decimal("0.01"))


def parse_paid_on(value: object, where: tuple[Any, ...]) -> date:
    if isinstance(value, str) and len(value) == 10 and value[4] == "-" and value[7] == "-":
        try:
            return date.fromisoformat(value)
        except ValueError:
            raise GroupFileError(
                _at(where, message(gettext_noop("no such date: %(value)s"), value=repr(value)))
            ) from None
    raise GroupFileError(
        _at(
            where,
            message(
                gettext_noop('must be a date such as "2026-10-03", got %(value)s'),
                value=repr(value),
            ),
        )
    )


def parse_method(value: object, where: tuple[Any, ...]) -> str:
    if isinstance(value, str) and value.strip().lower() in PAYMENT_METHODS:
        return value.strip().lower()
    raise GroupFileError(
        _at(
            where,
            message(
                gettext_noop("unknown method %(value)s (one of %(methods)s)"),
                value=repr(value),
                methods=", ".join(PAYMENT_METHODS),
            ),
        )
    )


def _members(raw: object) -> tuple[str, ...]:
    names = _expect(raw, list, ("members",))
    if len(names) > MAX_MEMBERS:
        raise GroupFileError(
            message(
                gettext_noop("members: at most %(max)s members in a group, got %(count)s"),
                max=MAX_MEMBERS,
                count=f"{len(names):,}",
            )
        )
    members: list[str] = []
    keys: dict[str, str] = {}
    for index, raw_name in enumerate(names, start=1):
        name = clean_player_name(
            raw_name, ("members", message(gettext_noop("entry %(number)s"), number=index))
        )
        key = player_key(name)
        if key in keys:
            raise GroupFileError(
                _at(
                    (_member(name),),
                    message(
                        gettext_noop("the same member as %(other)s (names equal ignoring case)"),
                        other=keys[key],
                    ),
                )
            )
        keys[key] = name
        members.append(name)
    if len(members) < 2:
        raise GroupFileError(
            message(
                gettext_noop("members: a group needs at least 2 members, got %(count)s"),
                count=len(members),
            )
        )
    return tuple(members)


def _payment_of(
    raw: object, number: int, by_key: Mapping[str, str]
) -> tuple[PaymentInput, tuple[Any, ...]]:
    where: tuple[Any, ...] = (_payment(number),)
    fields: dict[str, Any] = _expect(raw, dict, where)
    _unknown_keys(fields, PAYMENT_KEYS, where)
    names: list[str] = []
    for key in ("from", "to"):
        if key not in fields:
            raise GroupFileError(_at((*where, key), gettext_noop("missing (a member's name)")))
        name = clean_player_name(fields[key], (*where, key))
        member = by_key.get(player_key(name))
        if member is None:
            raise GroupFileError(
                _at(
                    (*where, key),
                    message(gettext_noop("%(name)s is not a member of the group"), name=name),
                )
            )
        names.append(member)
    payer, payee = names
    where = (
        message(
            gettext_noop("payment %(number)s (%(from)s → %(to)s)"),
            number=number,
            **{"from": payer, "to": payee},
        ),
    )
    if payer == payee:
        raise GroupFileError(
            _at(where, message(gettext_noop("%(name)s cannot pay themselves"), name=payer))
        )
    if "amount" not in fields:
        raise GroupFileError(_at((*where, "amount"), gettext_noop("missing")))
    amount = parse_amount(fields["amount"], (*where, "amount"))
    # The date is optional (a notebook's payment may have none): the balances
    # do not depend on it; an import records it as made on the day imported.
    paid_on = None if fields.get("on") is None else parse_paid_on(fields["on"], (*where, "on"))
    method = parse_method(fields.get("method", "cash"), (*where, "method"))
    note = fields.get("note", "")
    if not isinstance(note, str):
        raise GroupFileError(
            _at(
                (*where, "note"),
                message(gettext_noop("must be text, got %(value)s"), value=repr(note)),
            )
        )
    note = _printable(" ".join(note.split()), (*where, "note"))
    if len(note) > MAX_NOTE_LENGTH:
        raise GroupFileError(
            _at(
                (*where, "note"),
                message(gettext_noop("at most %(max)s characters"), max=MAX_NOTE_LENGTH),
            )
        )
    return PaymentInput(payer, payee, amount, paid_on, method, note), where


def parse_group(data: object, read_date: DateReader = date.fromisoformat) -> GroupDoc:
    """A group document (decoded JSON) as values; raises GroupFileError."""
    try:
        return _parse_group(data, read_date)
    except GroupFileError:
        raise
    except SessionFileError as error:  # the session parser's helpers, used here
        raise GroupFileError(error.msg) from None


def _parse_group(data: object, read_date: DateReader) -> GroupDoc:
    document: dict[str, Any] = _expect(data, dict, GROUP_FILE)
    if document.get("format") != FORMAT:
        raise GroupFileError(
            message(
                gettext_noop("format: must be %(format)s, got %(value)s"),
                format=repr(FORMAT),
                value=repr(document.get("format")),
            )
        )
    _unknown_keys(document, TOP_KEYS | set(COMPUTED), GROUP_FILE)
    for key in COMPUTED:
        _no_duplicates_within(document.get(key), (key,))
    name = document.get("name")
    if not isinstance(name, str) or not name.strip():
        raise GroupFileError(
            message(gettext_noop("name: must be non-empty text, got %(value)s"), value=repr(name))
        )
    name = _printable(" ".join(name.split()), ("name",))
    if len(name) > 100:
        raise GroupFileError(message(gettext_noop("name: longer than %(max)s characters"), max=100))
    currency = document.get("currency", "NPR")
    if not isinstance(currency, str) or not (1 <= len(currency.strip()) <= MAX_CURRENCY_LENGTH):
        raise GroupFileError(
            message(
                gettext_noop("currency: must be a short code such as NPR, got %(value)s"),
                value=repr(currency),
            )
        )
    _printable(currency, ("currency",))
    try:  # upper-cased before its bound, as a session file's: eight "ß" are sixteen letters
        currency = clean_currency(currency)
    except PlayerNameError as error:
        raise GroupFileError(_at(("currency",), error.msg)) from None
    members = _members(document.get("members"))
    by_key = {player_key(member): member for member in members}
    sessions_raw = _expect(document.get("sessions", []), list, ("sessions",))
    if len(sessions_raw) > MAX_EVENINGS:
        raise GroupFileError(
            message(
                gettext_noop("sessions: at most %(max)s evenings in a group, got %(count)s"),
                max=f"{MAX_EVENINGS:,}",
                count=f"{len(sessions_raw):,}",
            )
        )
    sessions: list[SessionDoc] = []
    for number, raw in enumerate(sessions_raw, start=1):
        label = raw.get("name") if isinstance(raw, dict) else None
        where = (_evening(number, label if isinstance(label, str) else "?"),)
        try:
            doc = parse_document(raw, read_date)
        except SessionFileError as error:
            raise GroupFileError(message(WITHIN, where=where, problem=error.msg)) from None
        where = (_evening(number, doc.name),)
        if doc.currency != currency:
            raise GroupFileError(
                _at(
                    (*where, "currency"),
                    message(
                        gettext_noop("%(value)s, not the group's currency %(currency)s"),
                        value=doc.currency,
                        currency=currency,
                    ),
                )
            )
        for player in doc.players:
            if player_key(player) not in by_key:
                raise GroupFileError(
                    _at(
                        (*where, message(gettext_noop("player %(name)s"), name=player)),
                        gettext_noop("not a member of the group"),
                    )
                )
        sessions.append(doc)
    payments_raw = _expect(document.get("payments", []), list, ("payments",))
    if len(payments_raw) > MAX_PAYMENTS:
        raise GroupFileError(
            message(
                gettext_noop("payments: at most %(max)s payments in a group, got %(count)s"),
                max=f"{MAX_PAYMENTS:,}",
                count=f"{len(payments_raw):,}",
            )
        )
    payments = [_payment_of(raw, number, by_key)[0] for number, raw in enumerate(payments_raw, 1)]
    return GroupDoc(name, currency, members, tuple(sessions), tuple(payments))


def loads(text: str, read_date: DateReader = date.fromisoformat) -> GroupDoc:
    """A group file's text as values; `read_date` reads each evening's `played_on`
    (as a session file's)."""
    if len(text) > MAX_FILE_BYTES:
        raise GroupFileError(
            message(
                gettext_noop("file: larger than the limit of %(max)s bytes"),
                max=f"{MAX_FILE_BYTES:,}",
            )
        )
    try:
        # Amounts written as JSON numbers are read exactly, never as floats.
        data = json.loads(
            text.removeprefix("\ufeff"), object_pairs_hook=object_pairs, parse_float=Decimal
        )
    except json.JSONDecodeError as error:
        raise GroupFileError(
            message(
                gettext_noop("not JSON: %(problem)s at line %(line)s, column %(column)s"),
                problem=error.msg,
                line=error.lineno,
                column=error.colno,
            )
        ) from None
    except (ValueError, RecursionError) as error:
        raise GroupFileError(
            message(gettext_noop("not JSON: %(problem)s"), problem=str(error).splitlines()[0])
        ) from None
    if not check_depth(data, MAX_JSON_DEPTH + 2):
        raise GroupFileError(
            _at(
                GROUP_FILE,
                message(gettext_noop("nested more than %(max)s deep"), max=MAX_JSON_DEPTH + 2),
            )
        )
    return parse_group(data, read_date)


def member_of(members: tuple[str, ...]) -> dict[str, str]:
    """player_key → the member's name as the group writes it."""
    return {player_key(member): member for member in members}


def evening_money(doc: SessionDoc, members: tuple[str, ...] = ()) -> dict[str, Decimal]:
    """An evening's money per player (under its own rules and stake), keyed by
    the member's name when `members` is given. Pending dhoos is not money."""
    settled = settle_session(doc.rounds, doc.rules)
    amounts = money_totals(
        (r.nets for r in settled.rounds),
        doc.stakes_in_force(),
        doc.players,
        stake=doc.stake_per_point,
    )
    if not members:
        return amounts
    names = member_of(members)
    return {names[player_key(player)]: amount for player, amount in amounts.items()}


def group_balances(doc: GroupDoc) -> dict[str, Decimal]:
    return balances(
        doc.members, (evening_money(s, doc.members) for s in doc.sessions), doc.payments
    )


def payment_document(payment: PaymentInput) -> dict[str, Any]:
    dated = {"on": payment.paid_on.isoformat()} if payment.paid_on else {}
    return {
        "from": payment.payer,
        "to": payment.payee,
        "amount": str(payment.amount),
        **dated,
        "method": payment.method,
        "note": payment.note,
    }


def transfers_document(found: list[MoneyTransfer]) -> list[dict[str, str]]:
    return [{"from": t.payer, "to": t.payee, "amount": str(t.amount)} for t in found]


def summary(doc: GroupDoc) -> dict[str, Any]:
    """What `balances FILE` prints: each member's balance and the fewest payments."""
    balance = group_balances(doc)
    return {
        "balances": {name: str(amount) for name, amount in balance.items()},
        "transfers": transfers_document(transfers(balance)),
    }


def export_group(doc: GroupDoc) -> dict[str, Any]:
    """The file, with each evening's export and the computed balances and transfers."""
    return {
        "format": FORMAT,
        "name": doc.name,
        "currency": doc.currency,
        "members": list(doc.members),
        "sessions": [export_document(s) for s in doc.sessions],
        "payments": [payment_document(p) for p in doc.payments],
        **summary(doc),
    }


def dumps(document: Mapping[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _member_value(key: str, value: object) -> str:
    """One member of the file's top object as dumps writes it: its key, and the
    value indented a level further."""
    text = json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n  ")
    return f"  {json.dumps(key)}: {text}"


def export_group_text(
    head: GroupDoc, sessions: Iterable[SessionDoc], payments: Iterable[PaymentInput]
) -> Iterator[str]:
    """dumps(export_group(doc)), written as it is read: `head`'s name,
    currency and members, then each evening of `sessions` as it comes (one
    evening held at a time, however many), then `payments` and the balances
    and transfers worked out from them. The same text, byte for byte."""
    members = head.members
    yield "{\n" + ",\n".join(
        _member_value(key, value)
        for key, value in (
            ("format", FORMAT),
            ("name", head.name),
            ("currency", head.currency),
            ("members", list(members)),
        )
    )
    yield ',\n  "sessions": '
    monies: list[dict[str, Decimal]] = []
    opening = "[\n"
    for session in sessions:
        text = json.dumps(export_document(session), indent=2, ensure_ascii=False)
        yield opening + "    " + text.replace("\n", "\n    ")
        opening = ",\n"
        monies.append(evening_money(session, members))
    yield "[]" if opening == "[\n" else "\n  ]"
    paid = list(payments)
    balance = balances(members, monies, paid)
    yield ",\n" + ",\n".join(
        _member_value(key, value)
        for key, value in (
            ("payments", [payment_document(p) for p in paid]),
            ("balances", {name: str(amount) for name, amount in balance.items()}),
            ("transfers", transfers_document(transfers(balance))),
        )
    )
    yield "\n}\n"
