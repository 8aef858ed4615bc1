"""Settling rounds: pagat's streamlined method, `pay_i = (T + w_i − n·S_i) × m`.

RULES.md section 2 (the formula) and section 3 (which points count). The result
carries every figure behind each payment, so the table can check it.

Two rules look beyond one round: dhoos paid to the next winner is pending until
a later round books it, and the rotation of the deal decides which rounds are
better by default. So a session settles as a sequence (`settle_session`); one
round settles on its own given what is pending before it (`settle_round`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from .messages import WHERE, EngineError, Message, gettext_noop, message
from .rules import MIN_PLAYERS, Rules

Status = Literal["seen", "unseen"]
WinType = Literal["normal", "dublee"]
STATUSES: tuple[str, ...] = ("seen", "unseen")
WIN_TYPES: tuple[str, ...] = ("normal", "dublee")
MAX_POINTS = 10_000  # more maal or tunnel points than this in one hand is a typo
TRUE_OR_FALSE = gettext_noop("must be true or false, got %(value)s")


# The fields a RoundError may name, as words shown before its message.
FIELD_WORDS: tuple[str, ...] = (
    gettext_noop("player"),
    gettext_noop("players"),
    gettext_noop("status"),
    gettext_noop("maal"),
    gettext_noop("tunnel"),
    gettext_noop("dhoos"),
    gettext_noop("dublees"),
    gettext_noop("winner"),
    gettext_noop("win_type"),
    gettext_noop("better"),
    gettext_noop("tiplu"),
)


class RoundError(EngineError):
    """A round that cannot be settled. `field` and `player` say where the problem is;
    `problem` is the message without them (for showing beside that field), `msg`
    the whole: "player Buwa, maal: must not be negative, got -3". `settle_session`
    adds `number`, the round's number in the session."""

    def __init__(
        self, problem: Message | str, *, field: str = "", player: str | None = None
    ) -> None:
        self.problem = problem if isinstance(problem, Message) else Message(problem)
        self.field = field
        self.player = player
        self.number: int | None = None
        where: list[Message] = []
        if player is not None:
            where.append(message(gettext_noop("player %(name)s"), name=player))
        if field:
            where.append(Message(field))
        if where:
            super().__init__(message(WHERE, where=tuple(where), problem=self.problem))
        else:
            super().__init__(self.problem)


@dataclass(frozen=True, slots=True)
class Entry:
    """One player's end-of-round position, as told at the table."""

    player: str
    status: Status = "seen"
    maal: int = 0
    tunnel: int = 0
    dhoos: bool = False
    dublees: bool = False  # saw the tiplu by seven dublees rather than three pure sets


@dataclass(frozen=True, slots=True)
class RoundInput:
    entries: tuple[Entry, ...]
    winner: str | None = None
    win_type: WinType = "normal"
    # None: the default (`better_defaults`), which only `settle_session` can know.
    better: bool | None = False

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
    dhoos_net: int  # what dhoos payments (booked earlier dhoos included) add or take
    net: int  # the player's result for the round
    notes: tuple[Message, ...]  # which variant rules changed this player's figures
    dublees: bool = False
    # RULES.md v3: an unseen loser under unseen_pairs = skip pays against the seen
    # players only, (T_seen + w − k·S) × m, and n_s is then k·S.
    seen_only: bool = False
    dead_hand: bool = False  # given dhoos under dhoos_pays_total: no game payment


@dataclass(frozen=True, slots=True)
class Dhoos:
    """A dhoos owed to the next winner (`dhoos_payee = next_winner`): pending, in
    nobody's totals, until a later round books it."""

    player: str  # who was given it
    amount: int
    round: int  # the number of the round it was given in


@dataclass(frozen=True, slots=True)
class BookedDhoos:
    """A pending dhoos booked in a later round: `player` pays `amount` to `payee`."""

    player: str
    amount: int
    round: int  # the round it was given in
    payee: str  # the winner of the round that books it


@dataclass(frozen=True, slots=True)
class BetterDefault:
    """Whether a round starts marked better, and why (RULES.md section 3)."""

    better: bool
    rotation: bool  # due after a full rotation of the deal (better_after_rotation)
    dublee: bool  # the round before was won by eight dublees (dublee_triggers_better)
    rounds: int  # rounds dealt since the last due round (or the start)
    players: int  # players of the round before: the rounds a rotation takes
    since: int | None  # the number of the last due round, None: the start


@dataclass(frozen=True, slots=True)
class RoundResult:
    players: tuple[PlayerResult, ...]
    n: int
    total: int  # T
    multiplier: int  # m
    winner: str | None
    win_type: WinType
    better: bool
    number: int = 1  # the round's number in its session
    dhoos_amount: int = 0  # what each dhoos given in this round costs
    dhoos_deferred: tuple[Dhoos, ...] = ()  # given here, owed to the next winner
    dhoos_booked: tuple[BookedDhoos, ...] = ()  # given earlier, paid here
    dhoos_lapsed: tuple[Dhoos, ...] = ()  # given earlier; the player won this round
    dhoos_pending: tuple[Dhoos, ...] = ()  # owed to a next winner after this round
    better_default: BetterDefault | None = None  # set by settle_session
    dublee_bonus: int = 0  # of each loser's w: the winner ended with eight dublees
    # RULES.md v3: the seen players' points and count (T_seen, k), for the unseen
    # losers who pay against them only (unseen_pairs = skip).
    total_seen: int = 0
    seen_count: int = 0
    dublee_player_bonus: int = 0  # off the w of each seen loser who saw by dublees
    # Booked here from players who sit this round out (next_round_winner): in
    # `nets`, not among `players`.
    dhoos_outside: tuple[BookedDhoos, ...] = ()

    @property
    def nets(self) -> dict[str, int]:
        nets = {p.player: p.net for p in self.players}
        for owed in self.dhoos_outside:
            nets[owed.player] = nets.get(owed.player, 0) - owed.amount
        return nets

    def of(self, player: str) -> PlayerResult:
        for result in self.players:
            if result.player == player:
                return result
        raise KeyError(player)


def _check_points(value: object, field: str, player: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RoundError(
            message(gettext_noop("must be a whole number, got %(value)s"), value=repr(value)),
            field=field,
            player=player,
        )
    if value < 0:
        raise RoundError(
            message(gettext_noop("must not be negative, got %(value)s"), value=value),
            field=field,
            player=player,
        )
    if value > MAX_POINTS:
        raise RoundError(
            message(
                gettext_noop("%(value)s is more than %(max)s points; check the number"),
                value=value,
                max=f"{MAX_POINTS:,}",
            ),
            field=field,
            player=player,
        )
    return value


def validate_round(round_: RoundInput, rules: Rules) -> None:
    """Raise RoundError for anything a table could not have played (the first
    of `round_problems`)."""
    for problem in _problems(round_, rules):
        raise problem


def round_problems(round_: RoundInput, rules: Rules) -> list[RoundError]:
    """Every problem `validate_round` would raise one at a time, in its order:
    the round form shows them all at once, so the table fixes them in one go."""
    return list(_problems(round_, rules))


def _problems(round_: RoundInput, rules: Rules) -> Iterator[RoundError]:
    # A check that needs an earlier one to pass (a winner's status needs an
    # entry) is skipped when it failed; every independent check still runs.
    seen_players: set[str] = set()
    for entry in round_.entries:
        if not entry.player:
            yield RoundError(gettext_noop("every entry needs a player"), field="player")
            continue
        if entry.player in seen_players:
            yield RoundError(
                gettext_noop("appears twice in the round"), field="player", player=entry.player
            )
            continue
        seen_players.add(entry.player)
        status_known = entry.status in STATUSES
        if not status_known:
            yield RoundError(
                message(
                    gettext_noop("must be seen or unseen, got %(value)s"), value=repr(entry.status)
                ),
                field="status",
                player=entry.player,
            )
        for value, name in ((entry.maal, "maal"), (entry.tunnel, "tunnel")):
            try:
                _check_points(value, name, entry.player)
            except RoundError as refused:
                yield refused
        if not isinstance(entry.dhoos, bool):
            yield RoundError(
                message(TRUE_OR_FALSE, value=repr(entry.dhoos)), field="dhoos", player=entry.player
            )
        if not isinstance(entry.dublees, bool):
            yield RoundError(
                message(TRUE_OR_FALSE, value=repr(entry.dublees)),
                field="dublees",
                player=entry.player,
            )
        elif entry.dublees and status_known and entry.status != "seen":
            yield RoundError(
                message(gettext_noop("saw by dublees, so must be seen (dublees show the tiplu)")),
                field="dublees",
                player=entry.player,
            )
    count = len(round_.entries)
    if count < MIN_PLAYERS:
        yield RoundError(
            message(
                gettext_noop("a round needs at least %(min)s players, got %(count)s"),
                min=MIN_PLAYERS,
                count=count,
            ),
            field="players",
        )
    if count > rules.max_players:
        yield RoundError(
            message(
                gettext_noop(
                    "at most %(max)s players can play a round under these rules, got %(count)s"
                ),
                max=rules.max_players,
                count=count,
            ),
            field="players",
        )
    if round_.win_type not in WIN_TYPES:
        yield RoundError(
            message(
                gettext_noop("must be normal or dublee, got %(value)s"), value=repr(round_.win_type)
            ),
            field="win_type",
        )
    if not isinstance(round_.better, bool):
        yield RoundError(message(TRUE_OR_FALSE, value=repr(round_.better)), field="better")
    if round_.winner is None:
        if round_.win_type == "dublee":
            yield RoundError(gettext_noop("a dublee win needs a winner"), field="win_type")
        return
    if round_.winner not in seen_players:
        yield RoundError(
            message(gettext_noop("%(name)s has no entry in this round"), name=repr(round_.winner)),
            field="winner",
            player=round_.winner,
        )
    elif round_.entry(round_.winner).status != "seen":
        if round_.win_type == "dublee":
            problem = gettext_noop("a dublee winner must be seen (seven dublees show the tiplu)")
        else:
            problem = gettext_noop(
                "the winner must be seen: ending the round means having shown the pure sets"
            )
        yield RoundError(problem, field="status", player=round_.winner)
    if round_.win_type == "dublee" and count < rules.dublee_min_players:
        yield RoundError(
            message(
                gettext_noop(
                    "a dublee win needs at least %(min)s players under these rules, got %(count)s"
                ),
                min=rules.dublee_min_players,
                count=count,
            ),
            field="win_type",
        )


def plays_dead_hand(entry: Entry, round_: RoundInput, rules: Rules) -> bool:
    """A loser given dhoos under dhoos_pays_total, in a round with a winner
    (RULES.md section 3a)."""
    return bool(
        rules.dhoos_pays_total
        and entry.dhoos
        and round_.winner is not None
        and entry.player != round_.winner
    )


def counted_points(round_: RoundInput, rules: Rules) -> dict[str, tuple[int, int, list[Message]]]:
    """Each player's (counted tunnel, S_i, notes) after the variant rules of section 3:
    unseen_tunnel, then dhoos_voids_maal, then unseen_maal on what is left, then the
    moves to the winner (kidnap, and a dead hand's under dhoos_pays_total: a
    player who is both moves once)."""
    counted: dict[str, tuple[int, int, list[Message]]] = {}
    kidnapped = 0
    dead = 0
    for entry in round_.entries:
        notes: list[Message] = []
        tunnel = entry.tunnel
        unseen = entry.status == "unseen"
        if unseen and rules.unseen_tunnel == "void" and tunnel:
            notes.append(
                message(
                    gettext_noop("tunnel %(points)s void: unseen (tunnel pachaunu)"), points=tunnel
                )
            )
            tunnel = 0
        points = entry.maal + tunnel
        if entry.dhoos and rules.dhoos_voids_maal:
            # Before kidnap: nothing of a dhoos player's moves to the winner.
            if points:
                notes.append(
                    message(gettext_noop("maal and tunnel %(points)s void: dhoos"), points=points)
                )
            tunnel = points = 0
        if unseen and points and rules.unseen_maal == "void":
            notes.append(
                message(gettext_noop("maal %(points)s void: unseen (murder)"), points=points)
            )
            points = 0
        elif unseen and points and rules.unseen_maal == "kidnap" and round_.winner is not None:
            notes.append(
                message(
                    gettext_noop("maal %(points)s kidnapped by %(name)s"),
                    points=points,
                    name=round_.winner,
                )
            )
            kidnapped += points
            points = 0
        elif points and round_.winner is not None and plays_dead_hand(entry, round_, rules):
            notes.append(
                message(
                    gettext_noop("dead hand: %(points)s to %(name)s"),
                    points=points,
                    name=round_.winner,
                )
            )
            dead += points
            points = 0
        counted[entry.player] = (tunnel, points, notes)
    if kidnapped and round_.winner is not None:
        tunnel, points, notes = counted[round_.winner]
        notes.append(
            message(gettext_noop("kidnapped %(points)s from unseen players"), points=kidnapped)
        )
        counted[round_.winner] = (tunnel, points + kidnapped, notes)
    if dead and round_.winner is not None:
        tunnel, points, notes = counted[round_.winner]
        notes.append(message(gettext_noop("%(points)s from dead hands"), points=dead))
        counted[round_.winner] = (tunnel, points + dead, notes)
    return counted


def game_payment(entry: Entry, round_: RoundInput, rules: Rules) -> int:
    """w_i: what a loser owes the winner for the game, before better (RULES.md
    section 3a's order: a dead hand pays none; else the unseen payment, or the seen
    payment less the dublee player bonus; then the dublee win's bonus)."""
    if plays_dead_hand(entry, round_, rules):
        w = 0
    elif entry.status == "unseen":
        w = rules.unseen_payment
    else:
        w = 0 if entry.dublees and not rules.dublee_players_pay_seen else rules.seen_payment
        if entry.dublees:
            w -= rules.dublee_player_bonus
    if round_.win_type == "dublee":
        w += rules.dublee_bonus
    return w


def dhoos_amount(round_: RoundInput, rules: Rules, total: int) -> int:
    """What one dhoos given in this round costs (dhoos_amount); `total` is its T."""
    if rules.dhoos_amount == "fixed":
        return rules.dhoos_penalty
    if round_.winner is None:
        # No winner, so no T: the points as the table entered them.
        return sum(e.maal + e.tunnel for e in round_.entries)
    return total


def _dhoos_goes_to_all(entry: Entry, round_: RoundInput, rules: Rules) -> bool:
    """Whether this player's dhoos is paid to every other player of the round."""
    if rules.dhoos_payee == "all":
        return True
    if rules.dhoos_payee == "winner":
        return round_.winner is None or round_.winner == entry.player
    return False


def _book_pending(
    round_: RoundInput, pending: Sequence[Dhoos], rules: Rules
) -> tuple[list[BookedDhoos], list[Dhoos], list[Dhoos]]:
    """Split the dhoos pending before this round into booked here, lapsed here
    (the player won this round) and still pending. Under next_round_winner a
    player who sits the round out pays all the same."""
    booked: list[BookedDhoos] = []
    lapsed: list[Dhoos] = []
    still: list[Dhoos] = []
    players = {e.player for e in round_.entries}
    anyone = rules.dhoos_payee == "next_round_winner"
    for owed in pending:
        if round_.winner is None or (owed.player not in players and not anyone):
            still.append(owed)
        elif owed.player == round_.winner:
            lapsed.append(owed)
        else:
            booked.append(BookedDhoos(owed.player, owed.amount, owed.round, round_.winner))
    return booked, lapsed, still


def settle_round(
    round_: RoundInput,
    rules: Rules,
    *,
    number: int = 1,
    pending: Sequence[Dhoos] = (),
    better_default: BetterDefault | None = None,
) -> RoundResult:
    """Every player's net for one round, with the figures behind it. `pending` is
    the next-winner dhoos owed before this round (`settle_session` keeps it);
    `number` is the round's number in its session, for the dhoos it defers."""
    validate_round(round_, rules)
    counted = counted_points(round_, rules)
    n = len(round_.entries)
    total = sum(points for _, points, _ in counted.values())
    multiplier = rules.better_multiplier if round_.better else 1
    amount = dhoos_amount(round_, rules, total)

    seen = [e.player for e in round_.entries if e.status == "seen"]
    total_seen = sum(counted[player][1] for player in seen)
    seen_only = {
        e.player
        for e in round_.entries
        if rules.unseen_pairs == "skip" and e.status == "unseen" and round_.winner is not None
    }
    pays: dict[str, tuple[int, int, int]] = {}  # player -> (w, n·S, pay)
    if round_.winner is not None:
        for entry in round_.entries:
            if entry.player == round_.winner:
                continue
            w = game_payment(entry, round_, rules)
            # unseen_pairs = skip: an unseen loser settles with the seen players only.
            base, count = (total_seen, len(seen)) if entry.player in seen_only else (total, n)
            n_s = count * counted[entry.player][1]
            pays[entry.player] = (w, n_s, (base + w - n_s) * multiplier)
    winner_take = sum(pay for _, _, pay in pays.values())

    # Dhoos is not multiplied by better (RULES.md Decision).
    dhoos_net = {entry.player: 0 for entry in round_.entries}
    dhoos_notes: dict[str, list[Message]] = {entry.player: [] for entry in round_.entries}
    deferred: list[Dhoos] = []
    for entry in round_.entries:
        if not entry.dhoos:
            continue
        notes = dhoos_notes[entry.player]
        if _dhoos_goes_to_all(entry, round_, rules):
            for other in round_.entries:
                if other.player != entry.player:
                    dhoos_net[other.player] += amount
            dhoos_net[entry.player] -= amount * (n - 1)
            notes.append(
                message(
                    gettext_noop("dhoos: pays %(penalty)s to each of %(count)s players"),
                    penalty=amount,
                    count=n - 1,
                )
            )
        elif rules.dhoos_payee == "winner" and round_.winner is not None:
            dhoos_net[round_.winner] += amount
            dhoos_net[entry.player] -= amount
            notes.append(
                message(
                    gettext_noop("dhoos: pays %(amount)s to %(name)s, the winner"),
                    amount=amount,
                    name=round_.winner,
                )
            )
        else:
            deferred.append(Dhoos(entry.player, amount, number))
            notes.append(
                message(gettext_noop("dhoos: owes %(amount)s to the next winner"), amount=amount)
            )
    booked, lapsed, still = _book_pending(round_, pending, rules)
    outside = [owed for owed in booked if owed.player not in dhoos_net]
    for owed in booked:
        dhoos_net[owed.payee] += owed.amount
        dhoos_notes[owed.payee].append(
            message(
                gettext_noop("dhoos from round %(round)s: %(amount)s from %(name)s"),
                round=owed.round,
                amount=owed.amount,
                name=owed.player,
            )
        )
        if owed in outside:
            continue  # sits this round out: in the round's nets, not among its players
        dhoos_net[owed.player] -= owed.amount
        dhoos_notes[owed.player].append(
            message(
                gettext_noop("dhoos from round %(round)s: pays %(amount)s to %(name)s"),
                round=owed.round,
                amount=owed.amount,
                name=owed.payee,
            )
        )
    for lapse in lapsed:
        dhoos_notes[lapse.player].append(
            message(
                gettext_noop("dhoos of %(amount)s from round %(round)s lapses: won this round"),
                round=lapse.round,
                amount=lapse.amount,
            )
        )

    results = []
    for entry in round_.entries:
        tunnel, points, notes = counted[entry.player]
        notes = [*notes, *dhoos_notes[entry.player]]
        is_winner = entry.player == round_.winner
        w, n_s, pay = pays.get(entry.player, (0, n * points, 0))
        game_net = winner_take if is_winner else -pay
        if round_.better and round_.winner is not None and multiplier != 1:
            notes.append(
                message(gettext_noop("better: game payments × %(times)s"), times=multiplier)
            )
        # validate_round ensures a dublee round has a winner
        if round_.win_type == "dublee" and not is_winner and rules.dublee_bonus:
            notes.append(
                message(gettext_noop("dublee win: +%(bonus)s to w"), bonus=rules.dublee_bonus)
            )
        if (
            entry.dublees
            and not is_winner
            and round_.winner is not None
            and entry.status == "seen"
            and not rules.dublee_players_pay_seen
        ):
            notes.append(message(gettext_noop("saw by dublees: no seen payment")))
        dead_hand = not is_winner and plays_dead_hand(entry, round_, rules)
        if dead_hand:
            notes.append(message(gettext_noop("dead hand: no game payment")))
        elif (
            entry.dublees
            and not is_winner
            and round_.winner is not None
            and entry.status == "seen"
            and rules.dublee_player_bonus
        ):
            notes.append(
                message(
                    gettext_noop("saw by dublees: %(bonus)s off w"), bonus=rules.dublee_player_bonus
                )
            )
        if entry.player in seen_only:
            notes.append(
                message(
                    gettext_noop("unseen: settles with the %(count)s seen players only"),
                    count=len(seen),
                )
            )
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
                dhoos_net=dhoos_net[entry.player],
                net=game_net + dhoos_net[entry.player],
                notes=tuple(notes),
                dublees=entry.dublees,
                seen_only=entry.player in seen_only,
                dead_hand=dead_hand,
            )
        )
    return RoundResult(
        players=tuple(results),
        n=n,
        total=total,
        multiplier=multiplier,
        winner=round_.winner,
        win_type=round_.win_type,
        better=bool(round_.better),
        number=number,
        dhoos_amount=amount,
        dhoos_deferred=tuple(deferred),
        dhoos_booked=tuple(booked),
        dhoos_lapsed=tuple(lapsed),
        dhoos_pending=(*still, *deferred),
        better_default=better_default,
        dublee_bonus=rules.dublee_bonus if round_.win_type == "dublee" and pays else 0,
        total_seen=total_seen,
        seen_count=len(seen),
        dublee_player_bonus=rules.dublee_player_bonus,
        dhoos_outside=tuple(outside),
    )


def settle_long_way(
    round_: RoundInput, rules: Rules, pending: Sequence[Dhoos] = ()
) -> dict[str, int]:
    """The same nets the long way round: every pair settles the difference of their
    counted points, each loser pays the winner w_i, then dhoos. Used to check
    `settle_round`, and as the explanation pagat gives for the streamlined formula."""
    validate_round(round_, rules)
    counted = counted_points(round_, rules)
    multiplier = rules.better_multiplier if round_.better else 1
    nets = {entry.player: 0 for entry in round_.entries}
    players = [entry.player for entry in round_.entries]
    unseen = {e.player for e in round_.entries if e.status == "unseen"}
    if round_.winner is not None:
        for a in players:
            for b in players:
                if a != b and not (rules.unseen_pairs == "skip" and a in unseen and b in unseen):
                    # a receives from b the difference of their points
                    nets[a] += (counted[a][1] - counted[b][1]) * multiplier
        for entry in round_.entries:
            if entry.player != round_.winner:
                w = game_payment(entry, round_, rules)
                nets[entry.player] -= w * multiplier
                nets[round_.winner] += w * multiplier
    amount = dhoos_amount(round_, rules, sum(points for _, points, _ in counted.values()))
    for entry in round_.entries:
        if not entry.dhoos:
            continue
        if rules.dhoos_payee in ("next_winner", "next_round_winner"):
            continue  # owed to a later round's winner
        if rules.dhoos_payee == "winner" and round_.winner not in (None, entry.player):
            receivers = [round_.winner]
        else:
            receivers = [other for other in players if other != entry.player]
        for other in receivers:
            nets[entry.player] -= amount
            nets[other] += amount
    if round_.winner is not None:
        for owed in pending:
            if owed.player == round_.winner:
                continue
            if owed.player in nets or rules.dhoos_payee == "next_round_winner":
                nets[owed.player] = nets.get(owed.player, 0) - owed.amount
                nets[round_.winner] += owed.amount
    return nets


def better_by_default(previous: RoundInput | None, rules: Rules) -> bool:
    """Whether a new round starts marked better after `previous` by
    dublee_triggers_better alone (`better_defaults` also knows the rotation)."""
    return bool(
        rules.dublee_triggers_better
        and previous is not None
        and previous.winner is not None
        and previous.win_type == "dublee"
    )


def better_defaults(
    rounds: Sequence[RoundInput], rules: Rules, numbers: Sequence[int] | None = None
) -> list[BetterDefault]:
    """Whether each round, and the round after the last, is better by default.

    RULES.md Decision: walk the rounds with a counter c = 0; a round is due when
    c ≥ the number of players of the round before it. A due round resets c to 0,
    any other round adds 1; the first round is never due. Rounds without a winner
    count, and what the user marks or unmarks does not move the counter. So with
    four players every round, rounds 5, 10, 15 … are due."""
    numbers = list(numbers) if numbers is not None else list(range(1, len(rounds) + 1))
    defaults: list[BetterDefault] = []
    counter = 0
    since: int | None = None
    previous: RoundInput | None = None
    for index in range(len(rounds) + 1):
        players = len(previous.entries) if previous is not None else 0
        due = previous is not None and counter >= players
        rotation = due and rules.better_after_rotation
        dublee = better_by_default(previous, rules)
        defaults.append(
            BetterDefault(rotation or dublee, rotation, dublee, counter, players, since)
        )
        if index == len(rounds):
            break
        if due:
            counter = 0
            since = numbers[index]
        else:
            counter += 1
        previous = rounds[index]
    return defaults


@dataclass(frozen=True, slots=True)
class SessionResult:
    """A session settled round by round, in order."""

    rounds: tuple[RoundResult, ...]
    pending: tuple[Dhoos, ...]  # next-winner dhoos not yet booked: in nobody's totals
    next_better: BetterDefault  # the default for the round after the last

    @property
    def nets(self) -> list[dict[str, int]]:
        return [result.nets for result in self.rounds]


def settle_session(
    rounds: Sequence[RoundInput], rules: Rules, numbers: Sequence[int] | None = None
) -> SessionResult:
    """Every round of a session settled in order: a round whose `better` is None
    takes its default, and next-winner dhoos is booked where it falls due.
    `numbers` are the rounds' numbers as the table knows them (1, 2, 3 … if not
    given); a RoundError carries the failing round's number in `number`."""
    numbers = list(numbers) if numbers is not None else list(range(1, len(rounds) + 1))
    if len(numbers) != len(rounds):
        raise ValueError("one number per round")
    defaults = better_defaults(rounds, rules, numbers)
    pending: tuple[Dhoos, ...] = ()
    results: list[RoundResult] = []
    for index, round_ in enumerate(rounds):
        if round_.better is None:
            round_ = replace(round_, better=defaults[index].better)
        try:
            result = settle_round(
                round_,
                rules,
                number=numbers[index],
                pending=pending,
                better_default=defaults[index],
            )
        except RoundError as error:
            error.number = numbers[index]
            raise
        pending = result.dhoos_pending
        results.append(result)
    return SessionResult(tuple(results), pending, defaults[-1])


# --- a round's result as a saved round keeps it ----------------------------------------------


def sat_out_nets(result: RoundResult) -> dict[str, int]:
    """The nets of players who sat the round out: a next_round_winner dhoos
    booked to its winner (RULES.md 3a)."""
    inside = {p.player for p in result.players}
    return {name: net for name, net in result.nets.items() if name not in inside}


def outside_nets(result: RoundResult, ids: Mapping[str, int]) -> dict[str, int]:
    """sat_out_nets by player id (`ids`: name → id) as text, as a saved round
    stores them (`Round.outside_nets`)."""
    return {str(ids[name]): net for name, net in sat_out_nets(result).items()}


def pending_ids(result: RoundResult, ids: Mapping[str, int]) -> list[list[int]]:
    """The dhoos pending after the round as [player id, amount, round], as a
    saved round stores it (`Round.pending_after`)."""
    return [[ids[d.player], d.amount, d.round] for d in result.dhoos_pending]
