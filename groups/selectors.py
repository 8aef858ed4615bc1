"""Reads of a group: its purse (balances, the fewest payments, each evening's
money, the payments) and its file. Each evening's money is computed once per
version of that evening and kept (`_pieces`), so after a saved round the group
page adds up the kept pieces and recomputes only the evening that changed.
"""

from __future__ import annotations

import threading
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.db import connection
from django.db.models import Count, QuerySet, Sum
from django.utils import timezone
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from localise.numbers import NumberFormat, currency_label, money_with_currency
from scoring.engine.groupfile import GroupDoc
from scoring.engine.ledger import EXACT_SETTLE_LIMIT, at_stake, money_by_round
from scoring.engine.names import player_key
from scoring.engine.purse import MoneyTransfer, PaymentInput, balances, running_balances, transfers
from scoring.engine.sessionfile import SessionDoc
from scoring.models import GameSession, Player, Round, RoundEntry, SavedKey
from scoring.selectors.files import session_doc
from scoring.selectors.saves import saved_object
from scoring.selectors.snapshot import read_snapshot
from scoring.web import charts
from scoring.web.session_chart import fmt_money, fmt_number

from . import purse as games_registry
from .groupfile import OtherGameDoc, export_purse_text
from .models import Evening, FiledGame, Group, Member, MemberLink, Payment
from .versions import evening_versions

# Each evening's money per player key, under the evening's version: a few
# hundred bytes each, so thousands of evenings fit.
PIECES_LIMIT = 20_000
_pieces: OrderedDict[str, dict[str, Decimal]] = OrderedDict()
_lock = threading.Lock()


def forget_pieces() -> None:
    with _lock:
        _pieces.clear()
        _filed_money.clear()


def _compute_pieces(session_ids: list[int]) -> dict[int, dict[str, Decimal]]:
    """Each session's money per player key: its stored nets summed, at the stake
    in force (the engine's one money function, `money_by_round`: the SQL only
    adds points). An evening at one stake is one sum per player at its stake;
    one whose stake changed mid-evening adds each player's points per round,
    each round at the stake in force (`stakes_in_force`).
    Two queries for all of them, whatever their number (three when a stake changed)."""
    result: dict[int, dict[str, Decimal]] = {sid: {} for sid in session_ids}
    if not session_ids:
        return result
    entries, rounds = RoundEntry._meta.db_table, Round._meta.db_table
    players, sessions = Player._meta.db_table, GameSession._meta.db_table
    for start in range(0, len(session_ids), 500):
        chunk = session_ids[start : start + 500]
        marks = ", ".join("%s" for _ in chunk)
        with connection.cursor() as cursor:
            # The rounds that change the stake: nearly always none.
            cursor.execute(
                f"SELECT session_id, number, stake_per_point FROM {rounds} "
                f"WHERE session_id IN ({marks}) AND stake_per_point IS NOT NULL "
                "ORDER BY session_id, number",
                chunk,
            )
            changes: dict[int, list[tuple[int, Decimal]]] = {}
            for session_id, number, stake in cursor.fetchall():
                changes.setdefault(session_id, []).append((number, cents(stake)))
            cursor.execute(
                f"SELECT p.session_id, p.name_key, s.stake_per_point, COALESCE(SUM(e.net), 0) "
                f"FROM {players} p JOIN {sessions} s ON s.id = p.session_id "
                f"LEFT JOIN {entries} e ON e.player_id = p.id "
                f"WHERE p.session_id IN ({marks}) GROUP BY p.session_id, p.name_key, "
                # In seat order, as every page lists a session's players (a
                # database returns groups in an order of its own otherwise).
                "s.stake_per_point ORDER BY p.session_id, MIN(p.position), MIN(p.id)",
                chunk,
            )
            for session_id, key, stake, points in cursor.fetchall():
                # The stake as the session stores it (a backend may hand a
                # float); the sum of the nets at it is the engine's money.
                result[session_id][key] = at_stake(int(points), cents(stake))
            changed = [sid for sid in chunk if sid in changes]
            if changed:
                _pieces_by_round(cursor, changed, changes, result)
    return result


def _pieces_by_round(
    cursor: Any,
    session_ids: list[int],
    changes: dict[int, list[tuple[int, Decimal]]],
    result: dict[int, dict[str, Decimal]],
) -> None:
    """The money of evenings whose stake changed: each player's points by round
    (the SQL only adds them), each round at the stake in force from its number."""
    entries, rounds = RoundEntry._meta.db_table, Round._meta.db_table
    players, sessions = Player._meta.db_table, GameSession._meta.db_table
    marks = ", ".join("%s" for _ in session_ids)
    cursor.execute(
        f"SELECT p.session_id, p.name_key, s.stake_per_point, r.number, SUM(e.net) "
        f"FROM {entries} e JOIN {players} p ON p.id = e.player_id "
        f"JOIN {rounds} r ON r.id = e.round_id JOIN {sessions} s ON s.id = p.session_id "
        f"WHERE p.session_id IN ({marks}) "
        "GROUP BY p.session_id, p.name_key, s.stake_per_point, r.number "
        "ORDER BY p.session_id, r.number",
        session_ids,
    )
    parts: dict[tuple[int, str], list[tuple[int, Decimal]]] = {}
    for session_id, key, stake, number, points in cursor.fetchall():
        # The last change at or before this round, else the session's stake.
        numbers = [n for n, _stake in changes[session_id]]
        at = bisect_right(numbers, number)
        in_force = changes[session_id][at - 1][1] if at else cents(stake)
        parts.setdefault((session_id, key), []).append((int(points), in_force))
    for (session_id, key), pairs in parts.items():
        result[session_id][key] = money_by_round(pairs)


def cents(stake: object) -> Decimal:
    """A stake as stored, read back from a raw query (a backend may hand a float)."""
    return Decimal(str(stake)).quantize(Decimal("0.01"))


def evening_pieces(versions: list[tuple[int, str]]) -> dict[int, dict[str, Decimal]]:
    """Each evening's money per player key, computed only for those whose
    version is not kept yet."""
    found: dict[int, dict[str, Decimal]] = {}
    missing: list[int] = []
    with _lock:
        for session_id, version in versions:
            piece = _pieces.get(version)
            if piece is None:
                missing.append(session_id)
            else:
                _pieces.move_to_end(version)
                found[session_id] = piece
    if missing:
        computed = _compute_pieces(missing)
        by_id = dict(versions)
        with _lock:
            for session_id, piece in computed.items():
                _pieces[by_id[session_id]] = piece
                found[session_id] = piece
            while len(_pieces) > PIECES_LIMIT:
                _pieces.popitem(last=False)
    return found


@dataclass(frozen=True, slots=True)
class EveningOf:
    """What the group page shows of an evening's session: read as plain values."""

    id: int
    pk: int
    name: str
    played_on: date


@dataclass(frozen=True, slots=True)
class EveningLine:
    session: EveningOf
    money: dict[str, Decimal]  # member name → money won (+) or lost (−)


@dataclass(frozen=True, slots=True)
class GameLine:
    """Another game of an evening (Call Break, pot hands): its money per member."""

    game: games_registry.PurseGame
    label: str
    money: dict[str, Decimal]


@dataclass(frozen=True, slots=True)
class Owed:
    transfer: MoneyTransfer
    payer: Member
    payee: Member

    @property
    def query(self) -> str:
        """The payment form's query that pre-fills this payment ("Mark paid")."""
        return f"from={self.payer.pk}&to={self.payee.pk}&amount={self.transfer.amount}"


@dataclass
class Purse:
    group: Group
    members: list[Member]
    balances: dict[str, Decimal]  # member name → balance (+: the others owe them)
    transfers: list[Owed]
    evenings: list[EveningLine]
    payments: list[Payment]  # the latest (all, or as many as asked for), newest first
    # Every payment, added up per day, payer and payee (names): the balances' part.
    paid: list[PaymentInput] = field(default_factory=list)
    payment_count: int = 0
    # Players of an evening who are not (or no longer) members, by name.
    strangers: list[str] = field(default_factory=list)
    # The other games (CALLBREAK.md §12), newest first: counted in the balances.
    games: list[GameLine] = field(default_factory=list)

    @property
    def day_count(self) -> int:
        """The evenings (days) with any game of the group."""
        days = {line.session.played_on for line in self.evenings}
        return len(days | {line.game.played_on for line in self.games})

    @property
    def payments_fewest(self) -> bool:
        return sum(1 for amount in self.balances.values() if amount) <= EXACT_SETTLE_LIMIT

    @property
    def balance_rows(self) -> list[tuple[Member, Decimal, list[Owed]]]:
        return [
            (
                m,
                self.balances.get(m.name, Decimal("0.00")),
                [o for o in self.transfers if m.pk in (o.payer.pk, o.payee.pk)],
            )
            for m in self.members
        ]

    def chart(self) -> str:
        return balance_chart(self)


# An evening stays in progress this long after its last change (a round saved,
# a player added) when it is not dated today: past midnight on a Tihar night,
# not into the next afternoon (docs/groups.md, "Member links").
EVENING_QUIET = timedelta(hours=8)


def evening_in_progress(group_id: int) -> GameSession | None:
    """The group's evening being played: its newest (by date, then as made),
    while it is dated today or was changed within EVENING_QUIET. None between
    evenings: a member's link then says so rather than show an old round."""
    newest = (
        GameSession.objects.filter(purse_evening__group_id=group_id)
        .order_by("-played_on", "-id")
        .first()
    )
    if newest is None:
        return None
    if newest.played_on >= timezone.localdate() or (
        newest.updated_at >= timezone.now() - EVENING_QUIET
    ):
        return newest
    return None


def group_live_id(group_id: int) -> int:
    """What a member's link follows between evenings (table's member_stream):
    the live channel's messages are sessions' ids, so a group's is negative."""
    return -group_id


def last_evening(group_id: int) -> GameSession | None:
    """The group's newest evening, in progress or not."""
    return (
        GameSession.objects.filter(purse_evening__group_id=group_id)
        .order_by("-played_on", "-id")
        .first()
    )


def member_links(group: Group) -> list[tuple[Member, MemberLink | None]]:
    """Each member with their link (None: not made yet), in the members' order."""
    links = {link.member_id: link for link in MemberLink.objects.filter(member__group=group)}
    return [(m, links.get(m.pk)) for m in Member.objects.filter(group=group)]


def evening_problem(group: Group, doc: SessionDoc) -> str | None:
    """Why a session file cannot become an evening of the group (one plain line
    for the command line), or None: its currency must be the group's and every
    player a member (names matched ignoring case, as members are)."""
    if doc.currency != group.currency:
        return f"the file is in {doc.currency}, not the group's currency {group.currency}"
    members = set(Member.objects.filter(group=group).values_list("name_key", flat=True))
    strangers = [name for name in doc.players if player_key(name) not in members]
    if strangers:
        names = ", ".join(strangers)
        return f"not a member of {group.name}: {names} (add them on the Members page first)"
    return None


def groups_for(owner_id: int | None) -> QuerySet[Group]:
    return Group.objects.filter(owner_id=owner_id)


def group_purse(group: Group, *, payments_limit: int | None = None) -> Purse:
    """The group's purse, read in one snapshot: the balances from every
    evening's kept money and every payment added up per day and pair; the
    latest `payments_limit` payments (all without it) as rows to show."""
    with read_snapshot():
        members = list(Member.objects.filter(group=group))
        versions = evening_versions(group.pk)
        pieces = evening_pieces(versions)
        sessions = [
            EveningOf(id_, id_, name, played_on)
            for id_, name, played_on in GameSession.objects.filter(purse_evening__group=group)
            .order_by("-played_on", "-id")
            .values_list("id", "name", "played_on")
        ]
        latest = Payment.objects.filter(group=group).select_related("payer", "payee")
        latest = latest.order_by("-paid_on", "-recorded_at", "-id")
        payments = list(latest[:payments_limit] if payments_limit else latest)
        sums = list(
            Payment.objects.filter(group=group)
            .values_list("paid_on", "payer_id", "payee_id")
            .annotate(total=Sum("amount"), count=Count("id"))
            .order_by("paid_on")
        )
        kept = [*filed_games(group.pk), *games_registry.kept_games(group.pk)]
    by_key = {m.name_key: m.name for m in members}
    strangers: dict[str, str] = {}
    games = []
    # Names repeat game after game: each is keyed (NFC, casefold) once.
    member_of: dict[str, str] = {}
    labels: dict[str, str] = {}
    for game in sorted(kept, key=lambda g: (g.played_on, g.key), reverse=True):
        named: dict[str, Decimal] = {}
        for player, amount in game.money.items():
            member = member_of.get(player)
            if member is None:
                key = player_key(player)
                member = member_of[player] = by_key.get(key) or strangers.setdefault(key, player)
            named[member] = named.get(member, Decimal("0.00")) + amount
        label = labels.get(game.kind)
        if label is None:
            kind = games_registry.kind_of(game.kind)
            label = labels[game.kind] = str(kind.label) if kind else game.kind
        games.append(GameLine(game, label, named))
    lines = []
    for session in sessions:
        money: dict[str, Decimal] = {}
        for key, amount in pieces.get(session.pk, {}).items():
            name = by_key.get(key)
            if name is None:  # a player added to the evening since, not a member
                name = strangers.setdefault(key, key)
            money[name] = money.get(name, Decimal("0.00")) + amount
        lines.append(EveningLine(session, money))
    names = [m.name for m in members] + list(strangers.values())
    member_name = {m.pk: m.name for m in members}
    paid = [
        PaymentInput(member_name[payer], member_name[payee], Decimal(str(total)), paid_on)
        for paid_on, payer, payee, total, _count in sums
    ]
    monies = [line.money for line in lines] + [line.money for line in games]
    balance = balances(names, monies, paid)
    by_name = {m.name: m for m in members}
    owed = [
        Owed(t, by_name[t.payer], by_name[t.payee])
        for t in transfers(balance)
        if t.payer in by_name and t.payee in by_name
    ]
    return Purse(
        group,
        members,
        balance,
        owed,
        lines,
        payments,
        paid=paid,
        payment_count=sum(count for *_rest, count in sums),
        strangers=list(strangers.values()),
        games=games,
    )


@dataclass(frozen=True, slots=True)
class EveningGame:
    """One game of an evening as its settle-up lists it."""

    label: str  # "Marriage", "Call Break", "Pot hands"
    name: str
    url: str | None
    money: dict[str, Decimal]


@dataclass(frozen=True, slots=True)
class EveningDay:
    """An evening of the group: every game played that day, and the total."""

    played_on: date
    games: list[EveningGame]
    total: dict[str, Decimal]


def evening_days(purse: Purse, *, limit: int | None = None) -> list[EveningDay]:
    """The group's evenings, newest first (the latest `limit` of them): each
    day's Marriage sessions and other games with their money, and the day's
    total per member."""
    from django.urls import reverse

    # One reverse for every evening's link: a hundred cost what one does.
    settle_url = reverse("settle_up", args=[0]).replace("/0/", "/{}/")
    marriage = _("Marriage")
    # Only the days shown are put together: ten of a thousand evenings.
    every = {line.session.played_on for line in purse.evenings}
    every |= {line.game.played_on for line in purse.games}
    wanted = set(sorted(every, reverse=True)[:limit])
    evenings = [line for line in purse.evenings if line.session.played_on in wanted]
    games = [line for line in purse.games if line.game.played_on in wanted]
    by_day: dict[date, list[EveningGame]] = {}
    for line in sorted(evenings, key=lambda e: (e.session.played_on, e.session.pk)):
        by_day.setdefault(line.session.played_on, []).append(
            EveningGame(marriage, line.session.name, settle_url.format(line.session.pk), line.money)
        )
    for game in sorted(games, key=lambda g: (g.game.played_on, g.game.key)):
        by_day.setdefault(game.game.played_on, []).append(
            EveningGame(game.label, game.game.name, game.game.url, game.money)
        )
    order = {name: i for i, name in enumerate([m.name for m in purse.members] + purse.strangers)}
    days = []
    for played_on in sorted(by_day, reverse=True):
        total: dict[str, Decimal] = {}
        for item in by_day[played_on]:
            for name, amount in item.money.items():
                total[name] = total.get(name, Decimal("0.00")) + amount
        ordered = dict(sorted(total.items(), key=lambda item: order.get(item[0], len(order))))
        days.append(EveningDay(played_on, by_day[played_on], ordered))
    return days


# A filed game's money, by its id and when it last changed (SQLite may give an
# id again after a delete; a member's rename changes it): read and parsed once
# per change.
_filed_money: OrderedDict[tuple[int, float], dict[str, Decimal]] = OrderedDict()


def filed_games(group_id: int) -> list[games_registry.PurseGame]:
    """The group's games brought in by its file and kept as documents."""
    rows = [
        (pk, made.timestamp(), kind, name, played_on)
        for pk, made, kind, name, played_on in FiledGame.objects.filter(
            group_id=group_id
        ).values_list("id", "updated_at", "kind", "name", "played_on")
    ]
    with _lock:
        money_of = {(pk, made): _filed_money.get((pk, made)) for pk, made, *_rest in rows}
    missing = [pk for (pk, _made), money in money_of.items() if money is None]
    if missing:
        for pk, made, money in FiledGame.objects.filter(pk__in=missing).values_list(
            "id", "updated_at", "money"
        ):
            money_of[(pk, made.timestamp())] = {p: Decimal(a) for p, a in money.items()}
        with _lock:
            _filed_money.update((key, money) for key, money in money_of.items() if money)
            while len(_filed_money) > PIECES_LIMIT:
                _filed_money.popitem(last=False)
    return [
        games_registry.PurseGame(
            kind=kind,
            key=f"filed-{pk}",
            name=name,
            played_on=played_on,
            money=money_of.get((pk, made)) or {},
            version=f"filed-{pk}",
        )
        for pk, made, kind, name, played_on in rows
    ]


def balance_chart(purse: Purse) -> str:
    """Each member's balance after each evening (payments counted on their date)."""
    from localise.templatetags.local_format import local_date

    if not purse.evenings and not purse.paid and not purse.games:
        return ""
    names = [m.name for m in purse.members]
    steps = [(line.session.name, line.session.played_on, line.money) for line in purse.evenings]
    if purse.games:
        # An evening of several games is one step, named by its date.
        by_day: dict[date, dict[str, Decimal]] = {}
        for _label, played_on, money in steps:
            day = by_day.setdefault(played_on, {})
            for name, amount in money.items():
                day[name] = day.get(name, Decimal("0.00")) + amount
        for line in purse.games:
            day = by_day.setdefault(line.game.played_on, {})
            for name, amount in line.money.items():
                day[name] = day.get(name, Decimal("0.00")) + amount
        steps = [(local_date(day), day, money) for day, money in sorted(by_day.items())]
    points = running_balances(names, steps, purse.paid)
    series = [
        (
            f"{name} ({fmt_money(float(purse.balances.get(name, 0)))})",
            [float(point.balances.get(name, 0)) for point in points],
        )
        for name in names
    ]
    return charts.line_chart(
        series,
        title=_("Running balances: %(group)s") % {"group": purse.group.name},
        x_label=_("Evening"),
        y_label=_("Balance"),
        fmt=fmt_number,
    )


def money_text(amount: Decimal, currency: str) -> str:
    """Money as every page writes it: "रु. 1,74,000.00" in Nepali, "NPR
    174,000.00" in English (localise.numbers.money_with_currency)."""
    return money_with_currency(amount, currency)


def transfer_lines(owed: Iterable[Owed], currency: str) -> list[str]:
    """Who pays whom, a sentence each, as the settle-up, the text to share and
    the picture card word it: "Bhai pays Aama NPR 174.00"."""
    fmt = NumberFormat.current()
    return [
        _("%(payer)s pays %(payee)s %(currency)s %(money)s")
        % {
            "payer": o.payer.name,
            "payee": o.payee.name,
            "currency": currency,
            "money": fmt.money(o.transfer.amount),
        }
        for o in owed
    ]


def share_lines(purse: Purse, member: Member | None = None) -> str:
    """The plain text to paste into WhatsApp or Viber, in the words of an
    evening's settle-up: "Bhai ले Aama लाई रु. 174.00 तिर्ने"."""
    owed = purse.transfers
    if member is not None:
        owed = [o for o in owed if member.pk in (o.payer.pk, o.payee.pk)]
    currency = currency_label(purse.group.currency, get_language())
    lines = [purse.group.name, *transfer_lines(owed, currency)]
    if len(lines) == 1:
        lines.append(_("Nobody owes anything."))
    return "\n".join(lines)


def evening_group_note(session: GameSession) -> dict[str, object] | None:
    """For an evening's settle-up page: what its group carried into it from
    earlier evenings, and the group's payments and balances now."""
    evening = Evening.objects.filter(session_id=session.pk).select_related("group").first()
    if evening is None:
        return None
    purse = group_purse(evening.group, payments_limit=1)
    earlier = [
        line
        for line in purse.evenings
        if (line.session.played_on, line.session.pk) < (session.played_on, session.pk)
    ]
    carried: dict[str, Decimal] = {}
    for line in earlier:
        for name, amount in line.money.items():
            carried[name] = carried.get(name, Decimal("0.00")) + amount
    before = [p for p in purse.paid if p.paid_on and p.paid_on <= session.played_on]
    for p in before:
        carried[p.payer] = carried.get(p.payer, Decimal("0.00")) + p.amount
        carried[p.payee] = carried.get(p.payee, Decimal("0.00")) - p.amount
    tonight = next((d for d in evening_days(purse) if d.played_on == session.played_on), None)
    return {
        "group": evening.group,
        "purse": purse,
        "carried": [(name, amount) for name, amount in carried.items() if amount],
        "earlier_count": len(earlier),
        # The evening's other games, each with its money, and the evening's total.
        "tonight": tonight if tonight is not None and len(tonight.games) > 1 else None,
    }


def group_doc(group: Group) -> GroupDoc:
    """A saved group as its file."""
    with read_snapshot():
        members = tuple(Member.objects.filter(group=group).values_list("name", flat=True))
        sessions = [
            e.session
            for e in Evening.objects.filter(group=group)
            .select_related("session")
            .order_by("session__played_on", "session_id")
        ]
        docs = tuple(session_doc(s) for s in sessions)
        payments = tuple(
            PaymentInput(p.payer.name, p.payee.name, p.amount, p.paid_on, p.method, p.note)
            for p in Payment.objects.filter(group=group)
            .select_related("payer", "payee")
            .order_by("paid_on", "recorded_at", "id")
        )
    return GroupDoc(group.name, group.currency, members, docs, payments)


# Evenings read this many at a time for the streamed file: a few sessions held,
# never a thousand.
FILE_EVENINGS_AT_ONCE = 50


def group_file(group: Group) -> Iterator[str]:
    """The group's file (dumps(export_group(group_doc(group)))), written as it
    is read: one evening held at a time, so a family of a thousand evenings
    costs a worker what one evening does, and its first bytes go out before
    the evenings are read. Every query in one snapshot (read_snapshot), from
    the first to the last, so a round saved meanwhile is in it whole or not
    at all."""
    with read_snapshot():
        members = tuple(Member.objects.filter(group=group).values_list("name", flat=True))
        ids = list(
            Evening.objects.filter(group=group)
            .order_by("session__played_on", "session_id")
            .values_list("session_id", flat=True)
        )

        def sessions() -> Iterator[SessionDoc]:
            for start in range(0, len(ids), FILE_EVENINGS_AT_ONCE):
                chunk = ids[start : start + FILE_EVENINGS_AT_ONCE]
                read = GameSession.objects.in_bulk(chunk)
                for session_id in chunk:
                    yield session_doc(read[session_id])

        payments = (
            PaymentInput(p.payer.name, p.payee.name, p.amount, p.paid_on, p.method, p.note)
            for p in Payment.objects.filter(group=group)
            .select_related("payer", "payee")
            .order_by("paid_on", "recorded_at", "id")
        )
        head = GroupDoc(group.name, group.currency, members)
        yield from export_purse_text(head, sessions(), payments, other_games(group.pk, members))


def other_games(group_id: int, members: tuple[str, ...]) -> list[OtherGameDoc]:
    """The group's other games for its file, in date order: those it keeps as
    documents and those their apps keep (groups/purse.py)."""
    found: list[tuple[date, int, OtherGameDoc]] = []
    by_key = {player_key(m): m for m in members}

    def named(money: dict[str, Decimal]) -> dict[str, Decimal]:
        return {by_key.get(player_key(p), p): amount for p, amount in money.items()}

    for filed in FiledGame.objects.filter(group_id=group_id):
        money = {p: Decimal(a) for p, a in filed.money.items()}
        doc = OtherGameDoc(filed.kind, filed.name, filed.played_on, filed.document, named(money))
        found.append((filed.played_on, len(found), doc))
    for kind in games_registry.kinds():
        if kind.documents is None:
            continue
        for name, played_on, document in kind.documents(group_id):
            doc = OtherGameDoc(kind.kind, name, played_on, document, named(kind.money_of(document)))
            found.append((played_on, len(found), doc))
    return [doc for *_order, doc in sorted(found, key=lambda item: (item[0], item[1]))]


def unplaced_sessions(group: Group) -> QuerySet[GameSession]:
    """The owner's sessions of no group, in the group's currency: ones to add."""
    return GameSession.objects.filter(
        owner_id=group.owner_id, purse_evening__isnull=True, currency=group.currency
    ).order_by("-played_on", "-id")


def today() -> date:
    return timezone.localdate()


# What a one-time key saved before, and why a member stays: reads the writes use.


def saved_group(saved: SavedKey, *, owner) -> Group:
    return saved_object(saved, Group.objects.filter(owner=owner), "group", "groupfile")


def saved_member(saved: SavedKey, *, group: Group) -> Member:
    return saved_object(saved, Member.objects.filter(group=group), "member")


def removal_problem(member: Member) -> str | None:
    """Why the member cannot leave the group, or None."""
    evenings = Player.objects.filter(
        session__purse_evening__group_id=member.group_id, name_key=member.name_key
    ).count()
    payments = (
        Payment.objects.filter(payer=member).count() + Payment.objects.filter(payee=member).count()
    )
    if evenings and payments:
        return _(
            "%(name)s played %(evenings)s and has %(payments)s in this group; their balance "
            "depends on them, so they stay a member"
        ) % {
            "name": member.name,
            "evenings": ngettext("%(count)d evening", "%(count)d evenings", evenings)
            % {"count": evenings},
            "payments": ngettext("%(count)d payment", "%(count)d payments", payments)
            % {"count": payments},
        }
    if evenings:
        return ngettext(
            "%(name)s played %(count)d evening of this group; their balance depends on it, "
            "so they stay a member",
            "%(name)s played %(count)d evenings of this group; their balance depends on them, "
            "so they stay a member",
            evenings,
        ) % {"name": member.name, "count": evenings}
    if payments:
        return ngettext(
            "%(name)s has %(count)d payment in this group; delete it first",
            "%(name)s has %(count)d payments in this group; delete those first",
            payments,
        ) % {"name": member.name, "count": payments}
    games = sum(
        1
        for game in [*filed_games(member.group_id), *games_registry.kept_games(member.group_id)]
        if any(player_key(player) == member.name_key for player in game.money)
    )
    # A game still being played counts too: its money will be theirs when it ends.
    games += sum(
        1
        for player in games_registry.still_playing(member.group_id)
        if player_key(player) == member.name_key
    )
    if games:
        return ngettext(
            "%(name)s played %(count)d other game of this group (Call Break, pot hands); "
            "their balance depends on it, so they stay a member",
            "%(name)s played %(count)d other games of this group (Call Break, pot hands); "
            "their balance depends on them, so they stay a member",
            games,
        ) % {"name": member.name, "count": games}
    return None


def saved_payment(saved: SavedKey, *, group: Group) -> Payment:
    payment = saved_object(saved, Payment.objects.filter(group=group), "payment")
    payment.replayed = True  # type: ignore[attr-defined]
    return payment


# --- Records: a group's seasons ------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeasonEvening:
    id: int
    name: str
    played_on: date
    festival: str  # "dashain", "tihar" or "" (localise/festivals.py)


@dataclass(slots=True)
class MemberSeason:
    name: str
    evenings: int = 0
    rounds: int = 0
    wins: int = 0
    won: Decimal = Decimal("0.00")  # money of the evenings they came out ahead
    lost: Decimal = Decimal("0.00")  # … and behind (negative)
    dublee_wins: int = 0
    games: int = 0  # other games (Call Break, pot hands) played, their money in won/lost

    @property
    def net(self) -> Decimal:
        return self.won + self.lost


@dataclass(frozen=True, slots=True)
class SeasonRecord:
    """One record of the season: who holds it, the figure, and the evening."""

    name: str
    value: int | Decimal
    evening: SeasonEvening | None = None
    round_at: int = 0  # a round's place on its evening's ledger


@dataclass(slots=True)
class Season:
    year: int  # Bikram Sambat
    evenings: list[SeasonEvening]
    members: list[MemberSeason]
    biggest_round: SeasonRecord | None = None
    best_evening: SeasonRecord | None = None
    longest_run: SeasonRecord | None = None
    most_maal: SeasonRecord | None = None
    most_dublee_wins: SeasonRecord | None = None

    @property
    def festival_count(self) -> int:
        return sum(1 for e in self.evenings if e.festival)


def _better(old: SeasonRecord | None, new: SeasonRecord) -> SeasonRecord:
    """The record that stands: a higher figure; on a tie the earlier holder."""
    return new if old is None or new.value > old.value else old


def group_records(group: Group) -> list[Season]:
    """The group's records per season (Bikram Sambat year), newest first: each
    member's evenings, rounds won, money won and lost, and the season's
    records. Added up from per-evening pieces kept under each evening's
    version (stats.records.pieces_of, evening_pieces): after a saved round only
    that evening is read again."""
    from localise.bikram_sambat import BikramSambatError, to_bs
    from localise.festivals import festival_of
    from stats.records import pieces_of

    with read_snapshot():
        members = list(Member.objects.filter(group=group))
        versions = evening_versions(group.pk)
        money = evening_pieces(versions)
        pieces = pieces_of(dict(versions))
        games = [*filed_games(group.pk), *games_registry.kept_games(group.pk)]
    by_key = {m.name_key: m.name for m in members}
    seasons: dict[int, Season] = {}
    rows: dict[int, dict[str, MemberSeason]] = {}
    for piece in pieces:  # oldest first: on a tie the earlier record stands
        info = piece.info
        try:
            year = to_bs(info.played_on)[0]
        except BikramSambatError:
            year = info.played_on.year + 57
        evening = SeasonEvening(info.id, info.name, info.played_on, festival_of(info.played_on))
        season = seasons.get(year)
        if season is None:
            season = seasons[year] = Season(year, [], [])
            rows[year] = {m.name_key: MemberSeason(m.name) for m in members}
        season.evenings.append(evening)
        table = rows[year]
        for key, figures in piece.evening.items():
            row = table.get(key)
            if row is None:  # a player not (or no longer) a member
                row = table[key] = MemberSeason(by_key.get(key, figures.name))
            name = row.name
            row.evenings += 1
            row.rounds += figures.rounds
            row.wins += figures.wins
            row.dublee_wins += figures.dublee_wins
            # A record is made only when it beats the one standing (a higher
            # figure; on a tie the earlier evening's holder keeps it).
            best = season.biggest_round
            if figures.biggest_round > (best.value if best else 0):
                season.biggest_round = SeasonRecord(
                    name, figures.biggest_round, evening, figures.biggest_round_at
                )
            best = season.longest_run
            if figures.longest_run > (best.value if best else 0):
                season.longest_run = SeasonRecord(name, figures.longest_run, evening)
            best = season.most_maal
            if figures.most_maal > (best.value if best else 0):
                season.most_maal = SeasonRecord(name, figures.most_maal, evening)
        for key, amount in money.get(info.id, {}).items():
            row = table.get(key)
            if row is None:
                continue
            if amount > 0:
                row.won += amount
                best = season.best_evening
                if amount > (best.value if best else 0):
                    season.best_evening = SeasonRecord(row.name, amount, evening)
            else:
                row.lost += amount
    for game in games:  # their money counts as an evening's does
        try:
            year = to_bs(game.played_on)[0]
        except BikramSambatError:
            year = game.played_on.year + 57
        if year not in seasons:
            seasons[year] = Season(year, [], [])
            rows[year] = {m.name_key: MemberSeason(m.name) for m in members}
        for player, amount in game.money.items():
            row = rows[year].get(player_key(player))
            if row is None:
                continue
            row.games += 1
            if amount > 0:
                row.won += amount
            else:
                row.lost += amount
    for year, season in seasons.items():
        season.members = [row for row in rows[year].values() if row.evenings or row.games]
        season.members.sort(key=lambda r: (-r.net, -r.wins, r.name.casefold()))
        for row in season.members:
            if row.dublee_wins:
                season.most_dublee_wins = _better(
                    season.most_dublee_wins, SeasonRecord(row.name, row.dublee_wins)
                )
        season.evenings.reverse()  # newest first, as the group page lists them
    return [seasons[year] for year in sorted(seasons, reverse=True)]


def payment_snapshot(payment: Payment) -> dict[str, Any]:
    """A payment as its history keeps it (PaymentChange before/after)."""
    return {
        "payer_id": payment.payer_id,
        "payer": payment.payer.name,
        "payee_id": payment.payee_id,
        "payee": payment.payee.name,
        "amount": str(payment.amount),
        "paid_on": payment.paid_on.isoformat(),
        "method": payment.method,
        "note": payment.note,
        "recorded_by_id": payment.recorded_by_id,
        "recorded_at": payment.recorded_at.isoformat(),
    }
