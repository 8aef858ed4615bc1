"""The engine's settle path as it was before RULES.md v2 (house rules across
rounds), kept verbatim so tests can check that with every newer option at its
default the engine settles every round exactly as before. Do not edit: it is
the record of the old behaviour, not code in use."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from scoring.engine.rules import MIN_PLAYERS, Rules

Status = Literal["seen", "unseen"]
WinType = Literal["normal", "dublee"]
STATUSES: tuple[str, ...] = ("seen", "unseen")
WIN_TYPES: tuple[str, ...] = ("normal", "dublee")
MAX_POINTS = 10_000  # more maal or tunnel points than this in one hand is a typo


class RoundError(ValueError):
    """A round that cannot be settled. `field` and `player` say where the problem is."""

    def __init__(self, message: str, *, field: str = "", player: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.player = player

    def __str__(self) -> str:
        where = []
        if self.player is not None:
            where.append(f"player {self.player}")
        if self.field:
            where.append(self.field)
        return f"{', '.join(where)}: {self.message}" if where else self.message


@dataclass(frozen=True, slots=True)
class Entry:
    """One player's end-of-round position, as told at the table."""

    player: str
    status: Status = "seen"
    maal: int = 0
    tunnel: int = 0
    dhoos: bool = False


@dataclass(frozen=True, slots=True)
class RoundInput:
    entries: tuple[Entry, ...]
    winner: str | None = None
    win_type: WinType = "normal"
    better: bool = False

    def entry(self, player: str) -> Entry:
        for entry in self.entries:
            if entry.player == player:
                return entry
        raise KeyError(player)


@dataclass(frozen=True, slots=True)
class PlayerResult:
    player: str
    status: Status
    maal: int
    tunnel: int
    counted_tunnel: int  # tunnel points left after unseen_tunnel
    points: int  # S_i: counted points after unseen_tunnel and unseen_maal
    is_winner: bool
    w: int  # game payment owed to the winner (0 for the winner, and with no winner)
    n_s: int  # n·S_i
    pay: int  # what this loser pays the winner, better included (negative: winner pays)
    dhoos: bool
    dhoos_net: int  # what dhoos payments add to or take from this player
    net: int  # the player's result for the round
    notes: tuple[str, ...]  # which variant rules changed this player's figures


@dataclass(frozen=True, slots=True)
class RoundResult:
    players: tuple[PlayerResult, ...]
    n: int
    total: int  # T
    multiplier: int  # m
    winner: str | None
    win_type: WinType
    better: bool

    @property
    def nets(self) -> dict[str, int]:
        return {p.player: p.net for p in self.players}

    def of(self, player: str) -> PlayerResult:
        for result in self.players:
            if result.player == player:
                return result
        raise KeyError(player)


def _check_points(value: object, field: str, player: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RoundError(f"must be a whole number, got {value!r}", field=field, player=player)
    if value < 0:
        raise RoundError(f"must not be negative, got {value}", field=field, player=player)
    if value > MAX_POINTS:
        raise RoundError(
            f"{value} is more than {MAX_POINTS:,} points; check the number",
            field=field,
            player=player,
        )
    return value


def validate_round(round_: RoundInput, rules: Rules) -> None:
    """Raise RoundError for anything a table could not have played."""
    seen_players: set[str] = set()
    for entry in round_.entries:
        if not entry.player:
            raise RoundError("every entry needs a player", field="player")
        if entry.player in seen_players:
            raise RoundError("appears twice in the round", field="player", player=entry.player)
        seen_players.add(entry.player)
        if entry.status not in STATUSES:
            raise RoundError(
                f"must be seen or unseen, got {entry.status!r}", field="status", player=entry.player
            )
        _check_points(entry.maal, "maal", entry.player)
        _check_points(entry.tunnel, "tunnel", entry.player)
        if not isinstance(entry.dhoos, bool):
            raise RoundError(
                f"must be true or false, got {entry.dhoos!r}", field="dhoos", player=entry.player
            )
    count = len(round_.entries)
    if count < MIN_PLAYERS:
        raise RoundError(
            f"a round needs at least {MIN_PLAYERS} players, got {count}", field="players"
        )
    if count > rules.max_players:
        raise RoundError(
            f"at most {rules.max_players} players can play a round under these rules, got {count}",
            field="players",
        )
    if round_.win_type not in WIN_TYPES:
        raise RoundError(f"must be normal or dublee, got {round_.win_type!r}", field="win_type")
    if not isinstance(round_.better, bool):
        raise RoundError(f"must be true or false, got {round_.better!r}", field="better")
    if round_.winner is None:
        if round_.win_type == "dublee":
            raise RoundError("a dublee win needs a winner", field="win_type")
        return
    if round_.winner not in seen_players:
        raise RoundError(
            f"{round_.winner!r} has no entry in this round", field="winner", player=round_.winner
        )
    if round_.entry(round_.winner).status != "seen":
        if round_.win_type == "dublee":
            message = "a dublee winner must be seen (seven dublees show the tiplu)"
        else:
            message = "the winner must be seen: ending the round means having shown the pure sets"
        raise RoundError(message, field="status", player=round_.winner)


def counted_points(round_: RoundInput, rules: Rules) -> dict[str, tuple[int, int, list[str]]]:
    """Each player's (counted tunnel, S_i, notes) after the variant rules of section 3."""
    counted: dict[str, tuple[int, int, list[str]]] = {}
    kidnapped = 0
    for entry in round_.entries:
        notes: list[str] = []
        tunnel = entry.tunnel
        unseen = entry.status == "unseen"
        if unseen and rules.unseen_tunnel == "void" and tunnel:
            notes.append(f"tunnel {tunnel} void: unseen (tunnel pachaunu)")
            tunnel = 0
        points = entry.maal + tunnel
        if unseen and points and rules.unseen_maal == "void":
            notes.append(f"maal {points} void: unseen (murder)")
            points = 0
        elif unseen and points and rules.unseen_maal == "kidnap" and round_.winner is not None:
            notes.append(f"maal {points} kidnapped by {round_.winner}")
            kidnapped += points
            points = 0
        counted[entry.player] = (tunnel, points, notes)
    if kidnapped and round_.winner is not None:
        tunnel, points, notes = counted[round_.winner]
        notes.append(f"kidnapped {kidnapped} from unseen players")
        counted[round_.winner] = (tunnel, points + kidnapped, notes)
    return counted


def settle_round(round_: RoundInput, rules: Rules) -> RoundResult:
    """Every player's net for one round, with the figures behind it."""
    validate_round(round_, rules)
    counted = counted_points(round_, rules)
    n = len(round_.entries)
    total = sum(points for _, points, _ in counted.values())
    multiplier = rules.better_multiplier if round_.better else 1
    dhoos_players = [e.player for e in round_.entries if e.dhoos]

    pays: dict[str, tuple[int, int, int]] = {}  # player -> (w, n·S, pay)
    if round_.winner is not None:
        for entry in round_.entries:
            if entry.player == round_.winner:
                continue
            w = rules.seen_payment if entry.status == "seen" else rules.unseen_payment
            if round_.win_type == "dublee":
                w += rules.dublee_bonus
            n_s = n * counted[entry.player][1]
            pays[entry.player] = (w, n_s, (total + w - n_s) * multiplier)
    winner_take = sum(pay for _, _, pay in pays.values())

    results = []
    for entry in round_.entries:
        tunnel, points, notes = counted[entry.player]
        # Dhoos is not multiplied by better (RULES.md Decision).
        # Each dhoos player pays the penalty to every other player of the round.
        others_dhoos = len(dhoos_players) - (1 if entry.dhoos else 0)
        dhoos_net = rules.dhoos_penalty * others_dhoos
        if entry.dhoos:
            dhoos_net -= rules.dhoos_penalty * (n - 1)
            notes = [*notes, f"dhoos: pays {rules.dhoos_penalty} to each of {n - 1} players"]
        is_winner = entry.player == round_.winner
        w, n_s, pay = pays.get(entry.player, (0, n * points, 0))
        game_net = winner_take if is_winner else -pay
        if round_.better and round_.winner is not None and multiplier != 1:
            notes = [*notes, f"better: game payments × {multiplier}"]
        # validate_round ensures a dublee round has a winner
        if round_.win_type == "dublee" and not is_winner and rules.dublee_bonus:
            notes = [*notes, f"dublee win: +{rules.dublee_bonus} to w"]
        results.append(
            PlayerResult(
                player=entry.player,
                status=entry.status,
                maal=entry.maal,
                tunnel=entry.tunnel,
                counted_tunnel=tunnel,
                points=points,
                is_winner=is_winner,
                w=w,
                n_s=n_s,
                pay=pay,
                dhoos=entry.dhoos,
                dhoos_net=dhoos_net,
                net=game_net + dhoos_net,
                notes=tuple(notes),
            )
        )
    return RoundResult(
        players=tuple(results),
        n=n,
        total=total,
        multiplier=multiplier,
        winner=round_.winner,
        win_type=round_.win_type,
        better=round_.better,
    )


def settle_long_way(round_: RoundInput, rules: Rules) -> dict[str, int]:
    """The same nets the long way round: every pair settles the difference of their
    counted points, each loser pays the winner w_i, then dhoos. Used to check
    `settle_round`, and as the explanation pagat gives for the streamlined formula."""
    validate_round(round_, rules)
    counted = counted_points(round_, rules)
    multiplier = rules.better_multiplier if round_.better else 1
    nets = {entry.player: 0 for entry in round_.entries}
    players = [entry.player for entry in round_.entries]
    if round_.winner is not None:
        for a in players:
            for b in players:
                if a != b:
                    # a receives from b the difference of their points
                    nets[a] += (counted[a][1] - counted[b][1]) * multiplier
        for entry in round_.entries:
            if entry.player != round_.winner:
                w = rules.seen_payment if entry.status == "seen" else rules.unseen_payment
                if round_.win_type == "dublee":
                    w += rules.dublee_bonus
                nets[entry.player] -= w * multiplier
                nets[round_.winner] += w * multiplier
    for entry in round_.entries:
        if entry.dhoos:
            for other in players:
                if other != entry.player:
                    nets[entry.player] -= rules.dhoos_penalty
                    nets[other] += rules.dhoos_penalty
    return nets


def better_by_default(previous: RoundInput | None, rules: Rules) -> bool:
    """Whether a new round starts marked better (dublee_triggers_better)."""
    return bool(
        rules.dublee_triggers_better
        and previous is not None
        and previous.winner is not None
        and previous.win_type == "dublee"
    )


def players_of(rounds: Sequence[RoundInput]) -> list[str]:
    """Players in the order they first appear."""
    order: dict[str, None] = {}
    for round_ in rounds:
        for entry in round_.entries:
            order.setdefault(entry.player, None)
    return list(order)
