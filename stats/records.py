"""The record across every session of one user: round history, player pages and
the lifetime leaderboard.

Everything is computed in one pass over three `values_list` queries (sessions,
rounds, entries), so a page costs the same number of queries for 10 rounds or
10,000, all in one snapshot (scoring.selectors.snapshot). Each session's rounds
are kept under its own version, so after a save only that session is read
again. Players are separate rows per session; across sessions they are the
same person when their names have the same key
(scoring.engine.names.player_key: NFC, case folded), the rule that keeps names
unique within a session.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

from django.db import connection

from scoring.engine.ledger import at_stake, money_by_round
from scoring.engine.names import player_key
from scoring.engine.rules import RuleError, closest_preset, preset_of, rules_from_options
from scoring.models import GameSession, Player, Round, RoundEntry
from scoring.selectors.snapshot import read_snapshot
from scoring.selectors.versions import version_from


def name_key(name: str) -> str:
    """The same person across sessions: the key that is unique within a session."""
    return player_key(name)


@dataclass(frozen=True, slots=True)
class SessionInfo:
    id: int
    name: str
    played_on: date
    currency: str
    stake: Decimal
    preset: str  # the preset the rules equal, or the closest one
    exact_preset: bool  # False: house rules based on `preset`
    unseen_maal: str  # count, void (murder) or kidnap
    unseen_tunnel: str


@dataclass(frozen=True, slots=True)
class EntryRow:
    player_id: int
    name: str
    key: str
    status: str
    maal: int
    tunnel: int
    dhoos: bool
    net: int


@dataclass(slots=True)
class RoundRow:
    id: int
    session: SessionInfo
    number: int
    position: int  # 1, 2, 3 … within its session, as the ledger shows it
    winner_id: int | None
    winner_name: str
    win_type: str
    better: bool
    entries: list[EntryRow] = field(default_factory=list)
    # Players who sat the round out but paid a dhoos in it (next_round_winner,
    # RULES.md 3a): in the points and money, not in the rounds played.
    outside: list[EntryRow] = field(default_factory=list)
    # Worked out once as the round is read (_read_rounds), never per search: a
    # search after a save looks at every round of every evening (20,000 of a
    # family's thousand evenings), and a name's key is a Unicode normalisation.
    winner_key: str = ""
    swing: int = 0  # the largest amount anyone won or lost in the round
    # The stake in force for this round: the session's, or the last one a round
    # up to this one set (Round.stake_per_point). Its money is its nets at it.
    stake: Decimal = Decimal("0")

    def outside_of(self, key: str) -> int:
        return sum(e.net for e in self.outside if e.key == key)

    @property
    def dhoos(self) -> list[EntryRow]:
        """The players given dhoos in the round."""
        return [e for e in self.entries if e.dhoos]

    @property
    def victims(self) -> list[EntryRow]:
        """Unseen losers whose maal was kidnapped by the winner or murdered (void)."""
        if self.winner_id is None or self.session.unseen_maal not in ("kidnap", "void"):
            return []
        counted_tunnel = self.session.unseen_tunnel == "count"
        return [
            e
            for e in self.entries
            if e.status == "unseen"
            and e.player_id != self.winner_id
            and (e.maal > 0 or (counted_tunnel and e.tunnel > 0))
        ]

    @property
    def victim_kind(self) -> str:
        return "kidnap" if self.session.unseen_maal == "kidnap" else "murder"

    def entry_of(self, key: str) -> EntryRow | None:
        for entry in self.entries:
            if entry.key == key:
                return entry
        return None


def _session_info(row: tuple) -> SessionInfo:
    id_, name, played_on, currency, stake, options = row
    try:
        rules = rules_from_options(options or {})
    except RuleError:
        # A session saved under an older option set still shows in the record.
        rules = rules_from_options({})
    exact = preset_of(rules)
    return SessionInfo(
        id=id_,
        name=name,
        played_on=played_on,
        currency=currency,
        stake=stake,
        preset=exact or closest_preset(rules),
        exact_preset=exact is not None,
        unseen_maal=rules.unseen_maal,
        unseen_tunnel=rules.unseen_tunnel,
    )


# Each session's rounds as RoundRows (and what the leaderboard needs of them),
# kept under the session's own version: a save reads that one session again
# and the record pages combine the rest as they were (issue 20, "cheap across
# many evenings"). Read-only once made.
PIECES_LIMIT = 20_000


class Piece:
    """One session's part of the record: its rounds, and its leaderboard rows
    (made when first asked for, then kept with the piece)."""

    __slots__ = ("_board", "_evening", "_lock", "_players", "info", "rounds")

    def __init__(self, info: SessionInfo, rounds: list[RoundRow]) -> None:
        self.info = info
        self.rounds = rounds
        self._board: dict[str, tuple[str, int, int, Decimal, int]] | None = None
        self._players: dict[str, PlayerStats | None] = {}
        self._evening: dict[str, EveningFigures] | None = None
        self._lock = threading.Lock()

    @property
    def evening(self) -> dict[str, EveningFigures]:
        """key -> this session's figures for a group's records, made once."""
        with self._lock:
            if self._evening is None:
                self._evening = evening_figures(self.rounds)
            return self._evening

    def player(self, key: str) -> PlayerStats | None:
        """player_stats of this session alone, made once per player."""
        with self._lock:
            if key not in self._players:
                played = self.board.get(key, ("", 0))[1]
                self._players[key] = player_stats(self.rounds, key) if played else None
            return self._players[key]

    @property
    def board(self) -> dict[str, tuple[str, int, int, Decimal, int]]:
        """key -> (latest name, rounds, points, money, wins) in this session."""
        if self._board is None:
            rows: dict[str, list] = {}
            # Each player's points per stake in force (one, unless the stake
            # changed mid-evening): money_by_round of them is their money.
            parts: dict[str, dict[Decimal, int]] = {}
            for r in self.rounds:
                for e in r.entries:
                    row = rows.setdefault(e.key, [e.name, 0, 0, 0])
                    row[0] = e.name
                    row[1] += 1
                    row[2] += e.net
                    if r.winner_id == e.player_id:
                        row[3] += 1
                    mine = parts.setdefault(e.key, {})
                    mine[r.stake] = mine.get(r.stake, 0) + e.net
                for e in r.outside:  # a dhoos paid sitting out: points, not rounds
                    row = rows.setdefault(e.key, [e.name, 0, 0, 0])
                    row[2] += e.net
                    mine = parts.setdefault(e.key, {})
                    mine[r.stake] = mine.get(r.stake, 0) + e.net
            self._board = {
                key: (
                    name,
                    count,
                    points,
                    money_by_round((p, at) for at, p in parts[key].items()),
                    wins,
                )
                for key, (name, count, points, wins) in rows.items()
            }
        return self._board


@dataclass(slots=True)
class EveningFigures:
    """One player's evening, as a group's records add it up (groups/selectors.py
    group_records): rounds played and won, the biggest round won (points, its
    place), the longest run of rounds won in a row, the most maal in a round
    and the dublee wins."""

    name: str
    rounds: int = 0
    wins: int = 0
    dublee_wins: int = 0
    biggest_round: int = 0
    biggest_round_at: int = 0  # its place on the evening's ledger
    longest_run: int = 0
    most_maal: int = 0


def evening_figures(rounds: Iterable[RoundRow]) -> dict[str, EveningFigures]:
    """Each player's EveningFigures of one session's rounds, in one pass. A run
    of rounds won ends with a round someone else won (or none did)."""
    figures: dict[str, EveningFigures] = {}
    run: dict[str, int] = {}
    for r in rounds:
        winner = r.winner_key
        for e in r.entries:
            f = figures.get(e.key)
            if f is None:
                f = figures[e.key] = EveningFigures(e.name)
            f.rounds += 1
            f.most_maal = max(f.most_maal, e.maal)
            if e.net > f.biggest_round:
                f.biggest_round, f.biggest_round_at = e.net, r.position
        for key in list(run):
            if key != winner:
                run[key] = 0
        if winner and winner in figures:
            f = figures[winner]
            f.wins += 1
            if r.win_type == "dublee":
                f.dublee_wins += 1
            run[winner] = run.get(winner, 0) + 1
            f.longest_run = max(f.longest_run, run[winner])
    return figures


_pieces: OrderedDict[str, Piece] = OrderedDict()
_pieces_lock = threading.Lock()


def forget_pieces() -> None:
    with _pieces_lock:
        _pieces.clear()


@read_snapshot()
def load_pieces(owner) -> list[Piece]:
    """Each of the owner's sessions as a Piece, oldest first: one query for the
    sessions, and two for the rounds of those whose version has no piece kept
    yet (after a save, the one session saved)."""
    # The versions written out (as scoring.selectors.versions does): asked after
    # every save, for every session; the rest of a session is read only when
    # its piece is not kept.
    table = connection.ops.quote_name(GameSession._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT id, updated_at FROM {table} WHERE owner_id = %s", [owner.pk])
        # The session's own version (its updated_at), without the owner's counter,
        # which every save moves: a piece is read again only for its own session.
        versions = {id_: version_from(id_, at, None) for id_, at in cursor.fetchall()}
    return pieces_of(versions)


def pieces_of(versions: dict[int, str]) -> list[Piece]:
    """The Pieces of these sessions (id -> its own version, as
    groups.versions.evening_versions gives them too), oldest first, reading
    only those not kept yet. Called inside the caller's snapshot."""
    found: dict[int, Piece] = {}
    with _pieces_lock:
        for session_id, version in versions.items():
            piece = _pieces.get(version)
            if piece is not None:
                _pieces.move_to_end(version)
                found[session_id] = piece
    missing = [session_id for session_id in versions if session_id not in found]
    for start in range(0, len(missing), 500):
        chunk = missing[start : start + 500]
        infos = {
            row[0]: _session_info(row)
            for row in GameSession.objects.filter(pk__in=chunk).values_list(
                "id", "name", "played_on", "currency", "stake_per_point", "rules"
            )
        }
        chunk = [session_id for session_id in chunk if session_id in infos]
        read = _read_rounds(chunk, infos)
        with _pieces_lock:
            for session_id in chunk:
                piece = Piece(infos[session_id], read.get(session_id, []))
                found[session_id] = _pieces[versions[session_id]] = piece
            while len(_pieces) > PIECES_LIMIT:
                _pieces.popitem(last=False)
    return sorted(found.values(), key=lambda p: (p.info.played_on, p.info.id))


def load_rounds(owner) -> list[RoundRow]:
    """Every round of the owner's sessions with its entries, oldest first."""
    return [round_ for piece in load_pieces(owner) for round_ in piece.rounds]


def names_of(pieces: Iterable[Piece]) -> dict[str, str]:
    """display_names() of the rounds of `pieces`: key -> the latest spelling."""
    names: dict[str, str] = {}
    for piece in pieces:  # oldest first
        for key, row in piece.board.items():
            if row[1]:  # played a round: as display_names, which reads entries
                names[key] = row[0]
    return names


def player_stats_of(pieces: list[Piece], key: str) -> PlayerStats | None:
    """player_stats() of the rounds of `pieces`, added up from each session's
    own stats (kept with its piece): the same figures after a save, without a
    pass over every round."""
    names = names_of(pieces)
    if key not in names:
        return None
    stats = PlayerStats(key=key, name=names[key], sessions=[])
    money: dict[str, Decimal] = defaultdict(Decimal)
    rivals: dict[str, HeadToHead] = {}
    for piece in pieces:  # oldest first: on equal wins and losses the earlier stays
        part = piece.player(key)
        if part is None:
            continue
        stats.sessions.extend(part.sessions)
        stats.rounds += part.rounds
        stats.wins += part.wins
        stats.dublee_wins += part.dublee_wins
        stats.seen += part.seen
        stats.unseen += part.unseen
        stats.maal_total += part.maal_total
        stats.points += part.points
        for amount in part.money:
            money[amount.currency] += amount.amount
        if part.biggest_win and (
            stats.biggest_win is None or part.biggest_win[1] > stats.biggest_win[1]
        ):
            stats.biggest_win = part.biggest_win
        if part.biggest_loss and (
            stats.biggest_loss is None or part.biggest_loss[1] < stats.biggest_loss[1]
        ):
            stats.biggest_loss = part.biggest_loss
        for h in part.head_to_head:
            total = rivals.setdefault(h.key, HeadToHead(h.key, names[h.key]))
            total.rounds += h.rounds
            total.wins += h.wins
            total.their_wins += h.their_wins
            total.points += h.points
            total.their_points += h.their_points
    stats.sessions.sort(key=lambda p: (p.session.played_on, p.session.id), reverse=True)
    stats.money = [Amount(c, money[c]) for c in sorted(money)]
    stats.head_to_head = sorted(rivals.values(), key=lambda h: (-h.rounds, h.name.casefold()))
    return stats


def leaderboard_of(pieces: Iterable[Piece]) -> list[Board]:
    """leaderboard() of the rounds of `pieces`, added up from each session's
    own rows: the same boards, without a pass over every round."""
    rows: dict[str, dict[str, BoardRow]] = defaultdict(dict)
    names: dict[str, str] = {}
    for piece in pieces:  # oldest first, so the latest spelling of a name wins
        currency = piece.info.currency
        for key, (name, count, points, money, wins) in piece.board.items():
            if count:
                names[key] = name
            row = rows[currency].get(key)
            if row is None:
                row = rows[currency][key] = BoardRow(key, name)
            if count:
                row.sessions += 1
            row.rounds += count
            row.points += points
            row.money += money
            row.wins += wins
    for board in rows.values():
        for row in board.values():
            row.name = names.get(row.key, row.name)
    return _boards(rows)


def _read_rounds(
    session_ids: list[int], sessions: dict[int, SessionInfo]
) -> dict[int, list[RoundRow]]:
    """The rounds of these sessions with their entries, per session in order."""
    if not session_ids:
        return {}
    rounds: dict[int, RoundRow] = {}
    positions: dict[int, int] = defaultdict(int)
    outside: dict[int, dict[str, int]] = {}
    # Written out: asked after every save (the one evening saved), where the
    # ORM takes longer to build these two queries than the database to run them.
    q = connection.ops.quote_name
    round_t, entry_t = q(Round._meta.db_table), q(RoundEntry._meta.db_table)
    player_t = q(Player._meta.db_table)
    among = ", ".join(["%s"] * len(session_ids))
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT r.id, r.session_id, r.number, r.winner_id, w.name, r.win_type, r.better, "
            f"CASE WHEN r.outside_nets = %s THEN NULL ELSE r.outside_nets END, r.stake_per_point "
            f"FROM {round_t} r LEFT JOIN {player_t} w ON w.id = r.winner_id "
            f"WHERE r.session_id IN ({among}) ORDER BY r.session_id, r.number",
            ["{}", *session_ids],
        )
        round_rows = cursor.fetchall()
        cursor.execute(
            f"SELECT e.round_id, e.player_id, p.name, e.status, e.maal, e.tunnel, e.dhoos, e.net "
            f"FROM {entry_t} e JOIN {round_t} r ON r.id = e.round_id "
            f"JOIN {player_t} p ON p.id = e.player_id "
            f"WHERE r.session_id IN ({among}) ORDER BY e.round_id, p.position, e.player_id",
            session_ids,
        )
        entry_rows = cursor.fetchall()
    in_force: dict[int, Decimal] = {}
    for (
        id_,
        session_id,
        number,
        winner_id,
        winner_name,
        win_type,
        better,
        paid,
        stake,
    ) in round_rows:
        if paid:  # text on SQLite, decoded on PostgreSQL
            outside[id_] = json.loads(paid) if isinstance(paid, str) else paid
        positions[session_id] += 1
        if stake is not None:  # from this round on (a backend may hand a float)
            in_force[session_id] = Decimal(str(stake)).quantize(Decimal("0.01"))
        rounds[id_] = RoundRow(
            id=id_,
            session=sessions[session_id],
            number=number,
            position=positions[session_id],
            winner_id=winner_id,
            winner_name=winner_name or "",
            win_type=win_type,
            better=bool(better),  # SQLite gives 0 or 1
            winner_key=name_key(winner_name) if winner_id and winner_name else "",
            stake=in_force.get(session_id, sessions[session_id].stake),
        )
    keys: dict[str, str] = {}  # each name's key made once
    for round_id, player_id, name, status, maal, tunnel, dhoos, net in entry_rows:
        key = keys.get(name)
        if key is None:
            key = keys[name] = name_key(name)
        round_ = rounds[round_id]
        round_.entries.append(
            EntryRow(player_id, name, key, status, maal, tunnel, bool(dhoos), net)
        )
        if abs(net) > round_.swing:
            round_.swing = abs(net)
    if outside:
        names = dict(Player.objects.filter(session_id__in=session_ids).values_list("id", "name"))
        for round_id, paid in outside.items():
            rounds[round_id].outside = [
                EntryRow(int(i), names[int(i)], name_key(names[int(i)]), "", 0, 0, True, net)
                for i, net in paid.items()
            ]
    by_session: dict[int, list[RoundRow]] = defaultdict(list)
    for round_ in rounds.values():  # in session and number order, as read
        by_session[round_.session.id].append(round_)
    return by_session


def display_names(rounds: Iterable[RoundRow]) -> dict[str, str]:
    """key -> the spelling used in the player's latest session."""
    names: dict[str, str] = {}
    for round_ in rounds:  # oldest first, so the latest spelling wins
        for entry in round_.entries:
            names[entry.key] = entry.name
    return names


# --- round history ---------------------------------------------------------------------------

VARIANT_OPTIONS = {"maal-kidnap": "kidnap", "maal-murder": "void"}


@dataclass(frozen=True, slots=True)
class HistoryFilter:
    player: str = ""  # a name key; the player played the round
    winner: str = ""  # a name key
    date_from: date | None = None
    date_to: date | None = None
    variant: str = ""  # a preset name, or maal-kidnap / maal-murder
    dublee: bool = False  # only dublee wins
    victims: bool = False  # only rounds where an unseen player's maal was kidnapped or murdered
    sort: str = "recent"  # recent, or swing (biggest first)
    session: int | None = None  # one evening (a session's id)
    dhoos: bool = False  # only rounds where someone was given dhoos


def _variant_matches(session: SessionInfo, variant: str) -> bool:
    if variant in VARIANT_OPTIONS:
        return session.unseen_maal == VARIANT_OPTIONS[variant]
    return session.preset == variant


def filter_rounds(rounds: Iterable[RoundRow], f: HistoryFilter) -> list[RoundRow]:
    found = []
    for r in rounds:
        # Each test a round must pass, the cheapest first: a look through the
        # round's entries (the player's) only for the rounds that are left.
        if f.winner and r.winner_key != f.winner:
            continue
        if f.session is not None and r.session.id != f.session:
            continue
        if f.date_from and r.session.played_on < f.date_from:
            continue
        if f.date_to and r.session.played_on > f.date_to:
            continue
        if f.variant and not _variant_matches(r.session, f.variant):
            continue
        if f.dublee and not (r.winner_id and r.win_type == "dublee"):
            continue
        if f.victims and not r.victims:
            continue
        if f.dhoos and not r.dhoos:
            continue
        if f.player and r.entry_of(f.player) is None:
            continue
        found.append(r)
    found.reverse()  # newest first
    if f.sort == "swing":
        found.sort(key=lambda r: -r.swing)  # stable: equal swings stay newest first
    return found


# --- a player's page -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Amount:
    currency: str
    amount: Decimal


@dataclass(slots=True)
class PlayerSession:
    session: SessionInfo
    rounds: int = 0
    wins: int = 0
    points: int = 0
    # Points per stake in force: one stake, unless it changed mid-evening.
    by_stake: dict[Decimal, int] = field(default_factory=dict)

    def add(self, points: int, stake: Decimal) -> None:
        self.points += points
        self.by_stake[stake] = self.by_stake.get(stake, 0) + points

    @property
    def money(self) -> Decimal:
        if not self.by_stake:
            return at_stake(self.points, self.session.stake)
        return money_by_round((points, stake) for stake, points in self.by_stake.items())


@dataclass(slots=True)
class HeadToHead:
    """Only the rounds both played: who won them and what each scored in them."""

    key: str
    name: str
    rounds: int = 0
    wins: int = 0  # won by the page's player
    their_wins: int = 0
    points: int = 0  # the page's player's points in these rounds
    their_points: int = 0

    @property
    def difference(self) -> int:
        return self.points - self.their_points


@dataclass(slots=True)
class PlayerStats:
    key: str
    name: str
    sessions: list[PlayerSession]
    rounds: int = 0
    wins: int = 0
    dublee_wins: int = 0
    seen: int = 0
    unseen: int = 0
    maal_total: int = 0
    points: int = 0
    money: list[Amount] = field(default_factory=list)
    biggest_win: tuple[RoundRow, int] | None = None
    biggest_loss: tuple[RoundRow, int] | None = None
    head_to_head: list[HeadToHead] = field(default_factory=list)

    @property
    def win_rate(self) -> float | None:
        """Wins per round played, 0 to 1; None before the first round."""
        return self.wins / self.rounds if self.rounds else None

    @property
    def win_percent(self) -> float | None:
        return None if self.win_rate is None else round(100 * self.win_rate, 1)

    @property
    def average_maal(self) -> Decimal | None:
        if not self.rounds:
            return None
        return (Decimal(self.maal_total) / self.rounds).quantize(Decimal("0.1"), ROUND_HALF_UP)


def player_stats(rounds: Iterable[RoundRow], key: str) -> PlayerStats | None:
    """None when no round of the owner's has this player."""
    rounds = list(rounds)
    names = display_names(rounds)
    if key not in names:
        return None
    by_session: dict[int, PlayerSession] = {}
    money: dict[str, Decimal] = defaultdict(Decimal)
    rivals: dict[str, HeadToHead] = {}
    stats = PlayerStats(key=key, name=names[key], sessions=[])
    for r in rounds:
        mine = r.entry_of(key)
        paid = r.outside_of(key)
        if paid:
            part = by_session.setdefault(r.session.id, PlayerSession(r.session))
            part.add(paid, r.stake)
            stats.points += paid
            money[r.session.currency] += at_stake(paid, r.stake)
        if mine is None:
            continue
        won = r.winner_id == mine.player_id
        part = by_session.setdefault(r.session.id, PlayerSession(r.session))
        part.rounds += 1
        part.add(mine.net, r.stake)
        stats.rounds += 1
        stats.points += mine.net
        stats.maal_total += mine.maal
        money[r.session.currency] += at_stake(mine.net, r.stake)
        if mine.status == "seen":
            stats.seen += 1
        else:
            stats.unseen += 1
        if won:
            part.wins += 1
            stats.wins += 1
            if r.win_type == "dublee":
                stats.dublee_wins += 1
        # Ties keep the earlier round.
        if mine.net > 0 and (stats.biggest_win is None or mine.net > stats.biggest_win[1]):
            stats.biggest_win = (r, mine.net)
        if mine.net < 0 and (stats.biggest_loss is None or mine.net < stats.biggest_loss[1]):
            stats.biggest_loss = (r, mine.net)
        for other in r.entries:
            if other.key == key:
                continue
            h2h = rivals.setdefault(other.key, HeadToHead(other.key, names[other.key]))
            h2h.rounds += 1
            h2h.points += mine.net
            h2h.their_points += other.net
            if won:
                h2h.wins += 1
            elif r.winner_id == other.player_id:
                h2h.their_wins += 1
    stats.sessions = sorted(
        by_session.values(), key=lambda p: (p.session.played_on, p.session.id), reverse=True
    )
    stats.money = [Amount(c, money[c]) for c in sorted(money)]
    stats.head_to_head = sorted(rivals.values(), key=lambda h: (-h.rounds, h.name.casefold()))
    return stats


# --- the lifetime leaderboard ----------------------------------------------------------------


@dataclass(slots=True)
class BoardRow:
    key: str
    name: str
    rank: int = 0
    sessions: int = 0
    rounds: int = 0
    wins: int = 0
    points: int = 0
    money: Decimal = Decimal("0")


@dataclass(frozen=True, slots=True)
class Board:
    """One currency's standings: money in different currencies is never added up."""

    currency: str
    rows: list[BoardRow]


def leaderboard(rounds: Iterable[RoundRow]) -> list[Board]:
    rounds = list(rounds)
    names = display_names(rounds)
    rows: dict[str, dict[str, BoardRow]] = defaultdict(dict)
    seen_sessions: dict[str, dict[str, set[int]]] = defaultdict(lambda: defaultdict(set))
    for r in rounds:
        currency = r.session.currency
        for e in r.entries:
            row = rows[currency].setdefault(e.key, BoardRow(e.key, names[e.key]))
            row.rounds += 1
            row.points += e.net
            row.money += at_stake(e.net, r.stake)
            if r.winner_id == e.player_id:
                row.wins += 1
            seen_sessions[currency][e.key].add(r.session.id)
        for e in r.outside:
            row = rows[currency].setdefault(e.key, BoardRow(e.key, names.get(e.key, e.name)))
            row.points += e.net
            row.money += at_stake(e.net, r.stake)
    for currency, board in rows.items():
        for row in board.values():
            row.sessions = len(seen_sessions[currency][row.key])
    return _boards(rows)


def _boards(rows: dict[str, dict[str, BoardRow]]) -> list[Board]:
    boards = []
    for currency in sorted(rows):
        ordered = sorted(
            rows[currency].values(), key=lambda b: (-b.money, -b.points, b.name.casefold())
        )
        for row in ordered:
            # Equal money and points share a rank; points break ties of money, so
            # sessions played for points only (stake 0) still rank.
            row.rank = 1 + sum(
                1 for other in ordered if (other.money, other.points) > (row.money, row.points)
            )
        boards.append(Board(currency, ordered))
    return boards
