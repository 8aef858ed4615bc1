"""Read-side views of a session: the ledger, standings and settle-up.

Built from stored nets in a fixed number of queries, whatever the number of
rounds, so the ledger of a 1,000-round night is as cheap to ask for as a new one.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from .engine import settle_up
from .engine.ledger import EXACT_SETTLE_LIMIT
from .models import GameSession, Player, Round, RoundEntry
from .snapshot import read_snapshot


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


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    player: Player
    points: int
    money: Decimal
    rounds_played: int
    wins: int


@dataclass(frozen=True, slots=True)
class Payment:
    payer: str
    payee: str
    points: int
    money: Decimal


@dataclass(frozen=True, slots=True)
class Ledger:
    session: GameSession
    players: list[Player]
    rows: list[LedgerRow]
    standings: list[Standing]  # best first
    payments: list[Payment]  # settle_up: the fewest when payments_fewest, else greedy
    shown_from: int = 0  # index of the first row a page shows (see build_ledger's latest)

    @property
    def round_count(self) -> int:
        return len(self.rows)

    @property
    def shown_rows(self) -> list[LedgerRow]:
        return self.rows[self.shown_from :]

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
        return sum(1 for s in self.standings if s.points) <= EXACT_SETTLE_LIMIT

    @property
    def totals(self) -> dict[str, int]:
        return {s.player.name: s.points for s in self.standings}


# A page shows the latest rounds of a long night; the rest are one tap away.
# Rendering a thousand-row table is what makes a page slow, not the totals.
LATEST_ROUNDS = 50


@read_snapshot()
def build_ledger(session: GameSession, latest: int | None = None) -> Ledger:
    """Three queries, in one snapshot: players, rounds, and (round, player, net) triples.

    Totals and standings always cover every round; `latest` only limits which
    rows `shown_rows` gives a page."""
    players = list(Player.objects.filter(session=session).order_by("position", "id"))
    by_id = {p.id: p for p in players}
    column = {p.id: index for index, p in enumerate(players)}
    # Each round's nets as a row of columns (None: sat out), filled from the triples.
    blank = [None] * len(players)
    nets_of: dict[int, list[int | None]] = {}
    for round_id, player_id, net in RoundEntry.objects.filter(round__session=session).values_list(
        "round_id", "player_id", "net"
    ):
        if player_id in column:
            if round_id not in nets_of:
                nets_of[round_id] = blank.copy()
            nets_of[round_id][column[player_id]] = net
    running = [0] * len(players)
    played = [0] * len(players)
    wins = [0] * len(players)
    rows = []
    rounds = Round.objects.filter(session=session).order_by("number")
    fields = ("id", "winner_id", "win_type", "better")
    for position, (round_id, winner_id, win_type, better) in enumerate(
        rounds.values_list(*fields), start=1
    ):
        row_nets = nets_of.get(round_id) or blank.copy()
        for index, net in enumerate(row_nets):
            if net is not None:
                running[index] += net
                played[index] += 1
        winner_column = column.get(winner_id)
        if winner_column is not None:
            wins[winner_column] += 1
        rows.append(
            LedgerRow(
                round_id=round_id,
                winner=by_id.get(winner_id),
                win_type=win_type,
                better=better,
                position=position,
                nets=row_nets,
                running=running.copy(),
                winner_column=winner_column,
            )
        )

    stake = session.stake_per_point
    total = {p.id: running[column[p.id]] for p in players}
    ordered = sorted(players, key=lambda p: (-total[p.id], p.position, p.id))
    standings = []
    for player in ordered:
        # Equal points share a rank.
        ahead = sum(1 for other in players if total[other.id] > total[player.id])
        standings.append(
            Standing(
                rank=ahead + 1,
                player=player,
                points=total[player.id],
                money=total[player.id] * stake,
                rounds_played=played[column[player.id]],
                wins=wins[column[player.id]],
            )
        )
    payments = [
        Payment(t.payer, t.payee, t.points, t.points * stake)
        for t in settle_up({p.name: total[p.id] for p in players})
    ]
    shown_from = max(0, len(rows) - latest) if latest is not None else 0
    return Ledger(session, players, rows, standings, payments, shown_from)
