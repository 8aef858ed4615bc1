"""A Call Break game settled: deal scores in tenths (CALLBREAK.md §5), the end
of the game (§6.1), ranks (§6.2), money (§6.3, rounded by §6.4) and who pays
whom (§6.5).

Pure: a `Game` of typed values in, a `GameResult` out. Scores are whole tenths
(`int`), money is exact (`Fraction`) until it is rounded to whole paisa once.
A `Game` is checked before it is settled (`gamefile.refusals`), so a game that
breaks the rules is refused here as its document would be.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from .limits import TRICKS
from .money import Transfer, canonical_transfers, quotient, round_to_paisa
from .rules import DEFAULT_RULES, Rules

THIRTEEN = TRICKS  # a call of all 13 hands


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal: each player's bid (call) and tricks (hands taken), in seat order."""

    bids: tuple[int, ...]
    tricks: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Game:
    """A `callbreak-game/1` document as values. `stake` is None only when the
    settlement is "none" and the document gives none."""

    players: tuple[str, ...]
    deals: tuple[Deal, ...]
    rules: Rules = DEFAULT_RULES
    stake: Decimal | None = None
    note: str | None = None


@dataclass(frozen=True, slots=True)
class GameEnd:
    """Where the game ended: after `deals_played` deals; `thirteen_winner` is
    the seat of a player who called and took all 13 (with thirteen_wins_game),
    else None."""

    deals_played: int
    thirteen_winner: int | None = None


@dataclass(frozen=True, slots=True)
class GameResult:
    """A settled game (§6.6), each figure in seat order: scores in tenths, ranks
    (1 is first), money exact and in whole paisa, and who pays whom."""

    players: tuple[str, ...]
    deal_scores: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    thirteen_winner: str | None
    units: tuple[Fraction, ...]  # stakes won (+) or paid (−); difference: points × 10
    exact: tuple[Fraction, ...]  # money before rounding
    money: tuple[int, ...]  # paisa
    transfers: tuple[Transfer, ...]

    @property
    def deals_played(self) -> int:
        return len(self.deal_scores)


def deal_score(bid: int, tricks: int, rules: Rules = DEFAULT_RULES) -> int:
    """One player's score in one deal, in tenths (§5): the first rule that
    matches of failed, bonus bid made, too many tricks, made."""
    if tricks < bid:
        return -10 * bid if rules.fail_penalty == "bid" else -10 * (bid - tricks)
    threshold = rules.bonus_bid_threshold
    if threshold is not None and bid >= threshold:
        return 130 if rules.bonus_bid_score == "thirteen" else 20 * bid
    if (tricks > bid and rules.excess_fails == "any") or (
        rules.excess_fails == "at_double" and tricks >= 2 * bid
    ):
        return -10 * bid  # always the full bid, whatever fail_penalty says
    counted = tricks - bid
    if rules.overtrick_cap is not None:
        counted = min(counted, rules.overtrick_cap)
    return 10 * bid + rules.overtrick_tenths * counted


def deal_scores(deal: Deal, rules: Rules = DEFAULT_RULES) -> tuple[int, ...]:
    return tuple(
        deal_score(bid, tricks, rules) for bid, tricks in zip(deal.bids, deal.tricks, strict=True)
    )


def game_end(deals: Sequence[Deal], rules: Rules) -> GameEnd | None:
    """The first deal after which the game is over (§6.1), or None if no deal
    ends it (the game is unfinished)."""
    totals = [0] * len(deals[0].bids) if deals else []
    for number, deal in enumerate(deals, start=1):
        totals = [
            total + score for total, score in zip(totals, deal_scores(deal, rules), strict=True)
        ]
        if rules.thirteen_wins_game:
            for seat, (bid, tricks) in enumerate(zip(deal.bids, deal.tricks, strict=True)):
                if bid == THIRTEEN and tricks == THIRTEEN:
                    return GameEnd(number, seat)
        target = rules.target_score_tenths
        if target is not None and max(totals) >= target:
            return GameEnd(number)
        if rules.deals_per_game is not None and number == rules.deals_per_game:
            return GameEnd(number)
    return None


def ranks_of(scores: Sequence[int], thirteen_winner: int | None = None) -> tuple[int, ...]:
    """Competition ranks (§6.2): 1 + how many have a strictly higher total, so a
    tie shares a rank and the next is skipped (1, 1, 3, 4). A thirteen winner
    is 1st alone; the others rank from 2 among themselves."""
    if thirteen_winner is None:
        return tuple(1 + sum(other > score for other in scores) for score in scores)
    return tuple(
        1
        if seat == thirteen_winner
        else 2
        + sum(
            other > score
            for other_seat, other in enumerate(scores)
            if other_seat not in (seat, thirteen_winner)
        )
        for seat, score in enumerate(scores)
    )


def place_multipliers(ranks: Sequence[int], multipliers: Sequence[int]) -> tuple[Fraction, ...]:
    """Each player's multiplier (§6.3, step 1): the g players of rank r share
    places r … r+g−1, each taking the average of those places' multipliers."""
    shared = {rank: ranks.count(rank) for rank in ranks}
    return tuple(
        Fraction(sum(multipliers[rank - 1 : rank - 1 + shared[rank]]), shared[rank])
        for rank in ranks
    )


def rank_units(scores: Sequence[int], ranks: Sequence[int], rules: Rules) -> tuple[Fraction, ...]:
    """Stakes won (+) or paid (−) under `by_rank` or `winner_takes` (§6.3):
    payers pay their multiplier, doubled for a total below 0 and again for a
    big win; receivers share what is paid in proportion to their multipliers."""
    m = place_multipliers(ranks, rules.multipliers)
    winners = [score for score, rank in zip(scores, ranks, strict=True) if rank == 1]
    big_win = rules.big_win_tenths is not None and winners[0] >= rules.big_win_tenths
    paid: list[Fraction] = []
    for multiplier, score in zip(m, scores, strict=True):
        factor = 1
        if rules.negative_pays_double and score < 0:
            factor *= 2
        if big_win:
            factor *= 2
        paid.append(-multiplier * factor if multiplier < 0 else Fraction(0))
    total_paid = sum(paid, Fraction(0))
    shares = sum((multiplier for multiplier in m if multiplier > 0), Fraction(0))
    units = []
    for multiplier, owed in zip(m, paid, strict=True):
        if multiplier < 0:
            units.append(-owed)
        elif multiplier > 0:
            units.append(quotient(total_paid * multiplier, shares))
        else:
            units.append(Fraction(0))
    return tuple(units)


def difference_units(scores: Sequence[int]) -> tuple[Fraction, ...]:
    """Points won (+) or lost (−) under `difference` (§6.3): every pair settles
    its difference, so each nets N × score − the sum of scores, in tenths,
    over 10."""
    total = sum(scores)
    return tuple(Fraction(len(scores) * score - total, 10) for score in scores)


def settle_game_values(game: Game, end: GameEnd) -> GameResult:
    """Settle a game already checked (`gamefile.settle_game` checks it first)."""
    rules = game.rules
    played = game.deals[: end.deals_played]
    per_deal = tuple(deal_scores(deal, rules) for deal in played)
    scores = tuple(sum(column) for column in zip(*per_deal, strict=True))
    ranks = ranks_of(scores, end.thirteen_winner)
    count = len(game.players)
    units: tuple[Fraction, ...]
    if rules.settlement == "none":
        units = (Fraction(0),) * count
    elif rules.settlement == "difference":
        units = difference_units(scores)
    else:
        units = rank_units(scores, ranks, rules)
    stake = Fraction(game.stake) if game.stake is not None else Fraction(0)
    exact = tuple(stake * unit for unit in units)
    money = tuple(round_to_paisa(exact))
    return GameResult(
        players=game.players,
        deal_scores=per_deal,
        scores=scores,
        ranks=ranks,
        thirteen_winner=(
            game.players[end.thirteen_winner] if end.thirteen_winner is not None else None
        ),
        units=units,
        exact=exact,
        money=money,
        transfers=tuple(canonical_transfers(dict(zip(game.players, money, strict=True)))),
    )
