"""Read-side views of a session: the ledger, standings and settle-up.

Built from stored nets in a fixed number of queries, whatever the number of
rounds, so the ledger of a 1,000-round night is as cheap to ask for as a new one.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from itertools import accumulate
from typing import cast, overload

from django.db import connection
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..engine import (
    BetterDefault,
    Dhoos,
    Entry,
    Payment,
    RoundError,
    RoundInput,
    money,
    money_totals,
    settle_evening,
    settle_session,
    stakes_in_force,
)
from ..engine.ledger import EXACT_SETTLE_LIMIT
from ..engine.settlement import WinType, better_defaults
from ..models import GameSession, Player, Round, RoundEntry
from .rounds import saved_rounds
from .snapshot import read_snapshot
from .versions import remember, version_of


@dataclass(frozen=True, slots=True)
class LedgerRow:
    # What a ledger row shows of its round, read as plain values: building a
    # thousand Round instances cost more than everything else on the page.
    round_id: int
    winner: Player | None
    win_type: str
    better: bool
    position: int  # 1, 2, 3 … as shown; stays contiguous when a round is deleted
    nets: list[int | None]  # one per ledger player; None when the player sat the round out
    running: list[int]  # each player's total after this round
    winner_column: int | None = None  # index into nets of the round's winner
    stake: Decimal | None = None  # the stake from this round on, when the round changed it


class LedgerRows(Sequence[LedgerRow]):
    """Every round's LedgerRow, each made when asked for. A page shows the latest
    50 rounds of a long night: making a row for each of a thousand rounds cost more
    than adding them all up. Read-only once built, like the Ledger holding it."""

    __slots__ = ("_by_id", "_column", "nets_by_player", "rounds", "stakes", "totals_by_player")

    def __init__(
        self,
        players: list[Player],
        rounds: Sequence[tuple[int, int | None, str, bool]],
        nets_by_player: list[list[int | None]],
        totals_by_player: list[list[int]],
        stakes: Sequence[Decimal | None] = (),
    ) -> None:
        # The stake each round sets from itself on (None: it keeps the one before).
        self.stakes = stakes
        self.rounds = rounds  # (id, winner_id, win_type, better) of each round, in order
        # Per player (in seat order), round by round: their net (None: sat out),
        # and their total after the round (the chart's lines).
        self.nets_by_player = nets_by_player
        self.totals_by_player = totals_by_player
        # Keyed by a round's winner_id, which is None when nobody won.
        self._by_id: dict[int | None, Player] = {p.id: p for p in players}
        self._column: dict[int | None, int] = {p.id: index for index, p in enumerate(players)}

    def __len__(self) -> int:
        return len(self.rounds)

    @overload
    def __getitem__(self, index: int) -> LedgerRow: ...
    @overload
    def __getitem__(self, index: slice) -> list[LedgerRow]: ...
    def __getitem__(self, index: int | slice) -> LedgerRow | list[LedgerRow]:
        if isinstance(index, slice):
            return [self._row(i) for i in range(*index.indices(len(self.rounds)))]
        if index < 0:
            index += len(self.rounds)
        if not 0 <= index < len(self.rounds):
            raise IndexError(index)
        return self._row(index)

    def __iter__(self) -> Iterator[LedgerRow]:
        return (self._row(i) for i in range(len(self.rounds)))

    def _row(self, index: int) -> LedgerRow:
        round_id, winner_id, win_type, better = self.rounds[index]
        return LedgerRow(
            round_id=round_id,
            winner=self._by_id.get(winner_id),
            win_type=win_type,
            better=bool(better),  # SQLite gives 0 or 1
            position=index + 1,
            nets=[nets[index] for nets in self.nets_by_player],
            running=[totals[index] for totals in self.totals_by_player],
            winner_column=self._column.get(winner_id),
            stake=self.stakes[index] if index < len(self.stakes) else None,
        )


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    player: Player
    points: int
    money: Decimal
    rounds_played: int
    wins: int

    @property
    def record_words(self) -> str:
        """ "12 rounds, 3 wins" in the page's language (the wins left out when
        none): words a template's blocktranslate pair took longer to make."""
        played = ngettext("%(rounds)s round", "%(rounds)s rounds", self.rounds_played) % {
            "rounds": self.rounds_played
        }
        if not self.wins:
            return played
        won = ngettext("%(wins)s win", "%(wins)s wins", self.wins) % {"wins": self.wins}
        return f"{played}, {won}"


def cents(stake: object) -> Decimal:
    """A stake as stored, read back from a raw query (SQLite may hand a float)."""
    return Decimal(str(stake)).quantize(Decimal("0.01"))


@dataclass(frozen=True, slots=True)
class PendingDhoos:
    """Dhoos owed to the next winner (dhoos_payee next_winner): in nobody's totals yet."""

    player: str
    amount: int
    round: int  # the position of the round it was given in


@dataclass(frozen=True, slots=True)
class NextRound:
    """What the table should know before a deal: its number, who deals, whether
    it starts better, and the next-winner dhoos pending before it."""

    number: int
    dealer: Player | None  # one seat on per round, in seat order
    better: BetterDefault
    pending: tuple[Dhoos, ...] = ()

    @property
    def better_reason(self) -> str:
        return better_reason(self.better)


def better_reason(default: BetterDefault) -> str:
    """Why a round starts marked better, for the table ("" when it does not)."""
    reasons = []
    if default.rotation:
        if default.since is None:
            reasons.append(
                _(
                    "a full rotation of the deal: %(rounds)d rounds since the start, "
                    "%(players)d players"
                )
                % {"rounds": default.rounds, "players": default.players}
            )
        else:
            reasons.append(
                _(
                    "a full rotation of the deal: %(rounds)d rounds since better round "
                    "%(since)d, %(players)d players"
                )
                % {"rounds": default.rounds, "since": default.since, "players": default.players}
            )
    if default.dublee:
        reasons.append(_("the round before was won by eight dublees"))
    return "; ".join(reasons)


@dataclass(frozen=True, slots=True)
class Ledger:
    session: GameSession
    players: list[Player]
    rows: LedgerRows
    standings: list[Standing]  # best first
    payments: list[Payment]  # settle_up: the fewest when payments_fewest, else greedy
    shown_from: int = 0  # index of the first row a page shows (see build_ledger's latest)
    pending: tuple[PendingDhoos, ...] = ()
    next_round: NextRound | None = None
    # Each round's better default and the next round's, under rules that make a
    # round better by default (empty otherwise).
    better_defaults: tuple[BetterDefault, ...] = ()
    # The stake in force after the last round (a new round's), and whether the
    # stake changed mid-evening (then payments are settled over money).
    stake_now: Decimal = Decimal("1.00")
    stake_changed: bool = False

    @property
    def stakes_in_force(self) -> list[Decimal]:
        """Each round's stake in force, in order."""
        changes = self.rows.stakes or [None for _row in self.rows.rounds]
        return stakes_in_force(self.session.stake_per_point, changes)

    @property
    def stake_steps(self) -> list[tuple[int, Decimal]]:
        """(position, stake) of each round that changed the stake, in order."""
        return [
            (index + 1, stake) for index, stake in enumerate(self.rows.stakes) if stake is not None
        ]

    @property
    def stake_path(self) -> list[Decimal]:
        """The session's stake, then each stake a round set from itself on."""
        return [self.session.stake_per_point] + [stake for _at, stake in self.stake_steps]

    def stake_before(self, position: int) -> Decimal:
        """The stake in force before the round at `position` (1, 2, 3 …; one
        past the last for a new round): the last earlier round's own, else the
        session's."""
        earlier = self.rows.stakes[: max(0, position - 1)]
        return next(
            (stake for stake in reversed(earlier) if stake is not None),
            self.session.stake_per_point,
        )

    @property
    def round_count(self) -> int:
        return len(self.rows)

    @property
    def shown_rows(self) -> list[LedgerRow]:
        return self.rows[self.shown_from :]

    @property
    def shown_count(self) -> int:
        return len(self.rows) - self.shown_from

    @property
    def hidden_rounds(self) -> int:
        return self.shown_from

    @property
    def settle_limit(self) -> int:
        return EXACT_SETTLE_LIMIT

    @property
    def payments_fewest(self) -> bool:
        """Whether `payments` are proven the fewest: settle_up is exact up to
        EXACT_SETTLE_LIMIT players owing or owed, and greedy beyond."""
        owing = (s.money if self.stake_changed else s.points for s in self.standings)
        return sum(1 for amount in owing if amount) <= EXACT_SETTLE_LIMIT


# A page shows the latest rounds of a long night; the rest are one tap away.
# Rendering a thousand-row table is what makes a page slow, not the totals.
LATEST_ROUNDS = 50


def session_players(session: GameSession) -> list[Player]:
    """The session's players in seat order, read once per version of the session."""
    return remember("players", version_of(session), lambda: list(session.players.all()))


def new_round_setting(session: GameSession) -> NextRound:
    """round_setting for a new round (one past the last), from the session's
    ledger: no query when the ledger of this version is at hand."""
    ledger = session_ledger(session)
    assert ledger.next_round is not None  # build_ledger always sets it
    pending = tuple(Dhoos(d.player, d.amount, d.round) for d in ledger.pending)
    return replace(ledger.next_round, pending=pending)


def session_ledger(session: GameSession, latest: int | None = None) -> Ledger:
    """build_ledger's answer, computed once per version of the session (a
    thousand rounds take longer to add up than to read back from the cache)."""
    ledger = remember("ledger", version_of(session), lambda: build_ledger(session))
    shown_from = max(0, ledger.round_count - latest) if latest is not None else 0
    return replace(ledger, shown_from=shown_from)


@read_snapshot()
def build_ledger(session: GameSession, latest: int | None = None) -> Ledger:
    """Two queries, in one snapshot: the players, and the rounds with each player's net.

    Totals and standings always cover every round; `latest` only limits which
    rows `shown_rows` gives a page."""
    players = list(Player.objects.filter(session=session).order_by("position", "id"))
    # One row per round, in order: its id, winner, win type and better mark,
    # then each player's net in seat order (NULL: sat out). Read as columns,
    # a night's 5,000 nets need no placing one by one. Written out: composing
    # a filtered sum per player through the ORM cost more than running them.
    entry_table, round_table = RoundEntry._meta.db_table, Round._meta.db_table
    nets_sql = "".join(", SUM(e.net) FILTER (WHERE e.player_id = %s)" for _player in players)
    # Nearly every round's outside_nets is empty, and only the last round's
    # pending_after is read: NULL for the rest, so a long night brings two
    # thousand strings fewer to make and throw away.
    last = f"(SELECT MAX(l.number) FROM {round_table} l WHERE l.session_id = %s)"
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT r.id, r.winner_id, r.win_type, r.better, "
            f"CASE WHEN r.outside_nets = %s THEN NULL ELSE r.outside_nets END, "
            f"CASE WHEN r.number = {last} THEN r.pending_after END, r.stake_per_point"
            f"{nets_sql} "
            f"FROM {round_table} r "
            f"LEFT JOIN {entry_table} e ON e.round_id = r.id WHERE r.session_id = %s "
            "GROUP BY r.id ORDER BY r.number",
            ["{}", session.pk, *(p.id for p in players), session.pk],
        )
        table = cursor.fetchall()
    columns = list(zip(*table, strict=True)) or [()] * (7 + len(players))
    rounds = list(zip(*columns[:4], strict=True))  # (id, winner_id, win_type, better)
    nets: list[list[int | None]] = [list(player_nets) for player_nets in columns[7:]]
    # The stake each round sets from itself on, as stored (a backend may hand
    # a float or a string for a decimal column).
    changes = [None if stake is None else cents(stake) for stake in columns[6]]
    # The dhoos pending after the last round, as its save stored it.
    carried = _json(columns[5][-1]) if columns[5] else []
    # Who played each round (NULL: sat out), before the nets of players who sat a
    # round out are added to its cells (a next_round_winner dhoos, RULES.md 3a).
    played_nets = _with_outside(nets, columns[4], players)
    # Only sums here, a player at a time (accumulate, count): a LedgerRow is made
    # when a page shows its round (LedgerRows).
    totals = [list(accumulate([net or 0 for net in player_nets])) for player_nets in nets]
    running = [player_totals[-1] if player_totals else 0 for player_totals in totals]
    played = [len(rounds) - player_nets.count(None) for player_nets in played_nets]
    won = Counter(columns[1])
    wins = [won[p.id] for p in players]
    rows = LedgerRows(players, rounds, nets, totals, changes if any(changes) else ())
    column = {p.id: index for index, p in enumerate(players)}

    in_force = stakes_in_force(session.stake_per_point, changes)
    total = {p.id: running[column[p.id]] for p in players}
    if any(changes):
        # Each player's money, each round at its stake in force: the rounds
        # between two changes are at one stake, so each player's points over
        # them (a difference of running totals) is one pair for the engine.
        starts = [0, *(i for i, change in enumerate(changes) if change is not None and i)]
        ends = [*starts[1:], len(rounds)]
        stretches = [
            {
                p.id: player_totals[end - 1] - (player_totals[start - 1] if start else 0)
                for p, player_totals in zip(players, totals, strict=True)
            }
            for start, end in zip(starts, ends, strict=True)
        ]
        cash = money_totals(
            stretches,
            [in_force[start] for start in starts],
            [p.id for p in players],
            stake=session.stake_per_point,
        )
    else:  # one stake all evening: the same figures, without a pass over every round
        cash = money(total, session.stake_per_point)
    # Best first by money, then points: at one stake, the order (and the
    # shared ranks) of points, as always; once the stake changed, money first.
    standing_of = {p.id: (cash[p.id], total[p.id]) for p in players}
    ordered = sorted(players, key=lambda p: (-cash[p.id], -total[p.id], p.position, p.id))
    standings = []
    for player in ordered:
        # Equal money and points share a rank.
        ahead = sum(1 for other in players if standing_of[other.id] > standing_of[player.id])
        standings.append(
            Standing(
                rank=ahead + 1,
                player=player,
                points=total[player.id],
                money=cash[player.id],
                rounds_played=played[column[player.id]],
                wins=wins[column[player.id]],
            )
        )
    payments = settle_evening(
        {p.name: total[p.id] for p in players},
        {p.name: cash[p.id] for p in players},
        in_force,
    )
    shown_from = max(0, len(rows) - latest) if latest is not None else 0
    next_round, defaults = _next_round(session, players, rows, played_nets)
    return Ledger(
        session,
        players,
        rows,
        standings,
        payments,
        shown_from,
        pending=pending_dhoos(session, players, carried),
        next_round=next_round,
        better_defaults=defaults,
        stake_now=in_force[-1] if in_force else session.stake_per_point,
        stake_changed=len(set(in_force)) > 1,
    )


def _with_outside(
    nets: list[list[int | None]], outside: Sequence[object], players: list[Player]
) -> list[list[int | None]]:
    """Add each round's `outside_nets` to `nets` in place (a player who sat the
    round out shows what they paid in it); return the nets as they were, for who
    played (the same lists when no round has any)."""
    # Nearly every round has none: "{}" as SQLite gives it, {} as PostgreSQL
    # does. Told apart without decoding a thousand empty objects.
    rows = [row for row, stored in enumerate(outside) if stored and stored != "{}"]
    if not rows:
        return nets
    played = [list(player_nets) for player_nets in nets]
    column = {str(p.id): index for index, p in enumerate(players)}
    for row in rows:
        found = cast("dict[str, int]", _json(outside[row]) or {})
        for player_id, net in found.items():
            if player_id in column:
                cell = nets[column[player_id]][row]
                nets[column[player_id]][row] = (cell or 0) + net
    return played


# The better default of a round under rules that make no round better by
# default: nothing before it to read.
PLAIN = BetterDefault(False, False, False, 0, 0, None)


def _next_round(
    session: GameSession,
    players: list[Player],
    rows: LedgerRows,
    played_nets: list[list[int | None]],
) -> tuple[NextRound, tuple[BetterDefault, ...]]:
    """The next round's dealer and better default, and every round's, from what
    the ledger already read (`played_nets`: each player's net per round, None
    where they sat out)."""
    number = len(rows) + 1
    rules = session.get_rules()
    if not rules.looks_back("better"):
        return NextRound(number, dealer_of(players, number), PLAIN), ()
    # better_defaults reads who played, the winner and the win type: one Entry
    # per player, shared by every round, rather than five thousand.
    entries = [Entry(p.name) for p in players]
    name: dict[int | None, str] = {p.id: p.name for p in players}
    shapes = [
        RoundInput(
            tuple(entries[i] for i, net in enumerate(nets) if net is not None),
            winner=name.get(winner_id),
            win_type=cast(WinType, win_type),  # the column's choices
        )
        for (_id, winner_id, win_type, _better), nets in zip(
            rows.rounds, zip(*played_nets, strict=True), strict=True
        )
    ]
    defaults = tuple(better_defaults(shapes, rules))
    return NextRound(number, dealer_of(players, number), defaults[-1]), defaults


@dataclass(frozen=True, slots=True)
class ChainRounds:
    """The latest saved rounds as the phone settles them again when an edit of
    one waits on it (static/js/next-round.js): the round before the first of
    them as the rounds before leave it, and the rounds with their better marks."""

    start: NextRound
    rounds: tuple[tuple[int, RoundInput], ...]  # (round id, the round, better as marked)


def chain_rounds(session: GameSession, latest: int = LATEST_ROUNDS) -> ChainRounds | None:
    """The last `latest` saved rounds and the state before them, once per version
    of the session; None when no round depends on the rounds before it (an edit
    then changes nothing of the next round)."""
    if not session.get_rules().looks_back():
        return None
    return remember("chain", f"{version_of(session)}:{latest}", lambda: _chain(session, latest))


@read_snapshot()
def _chain(session: GameSession, latest: int) -> ChainRounds:
    """The last `latest` rounds read alone (the state before them from the
    session's ledger and what the round before them stored): a thousand rounds
    are not read again for fifty."""
    rules = session.get_rules()
    ledger = session_ledger(session)
    players = ledger.players
    first = max(0, ledger.round_count - latest)
    # From the round before the window: what it stored as pending after it.
    saved = saved_rounds(session, after=first - 1) if first else saved_rounds(session)
    # The rounds before it as the ledger read them (PLAIN: no round is better by default).
    better = ledger.better_defaults[first] if ledger.better_defaults else PLAIN
    pending: tuple[Dhoos, ...] = ()
    if first:
        carried = _carried(saved[0].pending_after, players) if rules.looks_back("dhoos") else ()
        if carried is None:  # not worked out when it was saved: every round before
            try:
                carried = tuple(
                    PendingDhoos(d.player, d.amount, d.round)
                    for d in settle_session(
                        [r.input for r in saved_rounds(session)[:first]], rules
                    ).pending
                )
            except RoundError:
                carried = ()
        pending = tuple(Dhoos(d.player, d.amount, d.round) for d in carried)
        saved = saved[1:]
    start = NextRound(first + 1, dealer_of(players, first + 1), better, pending)
    return ChainRounds(start, tuple((r.pk, r.input) for r in saved))


def dealer_of(players: list[Player], number: int) -> Player | None:
    """Round `number`'s dealer: the deal moves one seat per round, in seat order."""
    return players[(number - 1) % len(players)] if players else None


def round_setting(session: GameSession, number: int) -> NextRound:
    """Round `number` (1 for the first, one past the last for a new round) as the
    rounds before it leave it: its dealer, its better default and the dhoos
    pending before it, for the round form and its preview."""
    rules = session.get_rules()
    players = list(session.players.all())
    if not rules.looks_back():
        # Every round stands on its own: nothing before it to read.
        number = max(1, min(number, Round.objects.filter(session=session).count() + 1))
        return NextRound(number, dealer_of(players, number), PLAIN)
    saved = saved_rounds(session)
    number = max(1, min(number, len(saved) + 1))
    before = [r.input for r in saved[: number - 1]]
    better = better_defaults(before, rules)[-1]
    pending: tuple[Dhoos, ...] = ()
    if rules.looks_back("dhoos") and number > 1:
        # What the round before stored, else the rounds before settled in order.
        carried = _carried(saved[number - 2].pending_after, players)
        if carried is not None:
            pending = tuple(Dhoos(d.player, d.amount, d.round) for d in carried)
        else:
            try:
                pending = settle_session(before, rules).pending
            except RoundError:
                pending = ()
    return NextRound(number, dealer_of(players, number), better, pending)


def _json(stored: object) -> object:
    """A JSON column as a raw query gives it: text on SQLite, decoded on PostgreSQL."""
    return json.loads(stored) if isinstance(stored, str) else stored


def _carried(stored: object, players: Sequence[Player]) -> tuple[PendingDhoos, ...] | None:
    """`Round.pending_after` as PendingDhoos; None if it was not worked out."""
    if not isinstance(stored, list):
        return None
    name = {p.id: p.name for p in players}
    if any(player_id not in name for player_id, _amount, _round in stored):
        return None
    return tuple(PendingDhoos(name[p], amount, number) for p, amount, number in stored)


MISSING = object()


def pending_dhoos(
    session: GameSession, players: Sequence[Player] | None = None, stored: object = MISSING
) -> tuple[PendingDhoos, ...]:
    """Next-winner dhoos not booked yet (only when the session's rules pay dhoos
    to a next winner): what the last round's save stored (`stored`, if the
    caller read it, with the session's `players`), else the rounds settled in
    order."""
    rules = session.get_rules()
    if not rules.looks_back("dhoos"):
        return ()
    if stored is MISSING:
        last = list(
            Round.objects.filter(session=session)
            .order_by("-number")
            .values_list("pending_after", flat=True)[:1]
        )
        if not last:
            return ()
        stored = last[0]
    carried = _carried(stored, players if players is not None else list(session.players.all()))
    if carried is not None:
        return carried
    inputs = [r.input for r in saved_rounds(session)]
    try:
        settled = settle_session(inputs, rules, range(1, len(inputs) + 1))
    except RoundError:
        return ()  # a round impossible under today's rules: its page says so
    return tuple(PendingDhoos(d.player, d.amount, d.round) for d in settled.pending)
