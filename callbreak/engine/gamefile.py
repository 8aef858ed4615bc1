"""The `callbreak-game/1` document (CALLBREAK.md §3): checked in stages (§7),
read into a `Game`, settled, and written as the result object (§6.6).

Checking runs in stages. A document that is not an object, or has a missing or
wrong `format`, stops at once. Otherwise the document's keys (E_DOC), players
(E_PLAYERS) and rules (E_RULES) are all checked; a problem there stops the
rest, since deals cannot be read without players and rules. Then the stake
(E_STAKE) and the deals (E_DEALS, E_DEAL and each value) are checked, every
problem reported in document order; the end of the game (§6.1) is checked only
when every deal could be read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import suppress
from decimal import Decimal
from typing import Any

from scoring.engine.messages import gettext_noop

from .game import Deal, Game, GameEnd, GameResult, game_end, settle_game_values
from .limits import MAX_DEALS, MAX_REFUSALS, PLAYERS, TRICKS
from .money import MoneyError, money_decimal, money_text, parse_money, shown
from .players import read_players, same_name_as
from .refusals import DocumentRefused, Enough, Found, Refusal, Where, deal_at, refusal
from .rules import Rules, read_rules

FORMAT = "callbreak-game/1"
TOP_KEYS = ("format", "players", "rules", "stake", "deals", "note")
DEAL_KEYS = ("bids", "tricks")


def refusals(data: object) -> list[Refusal]:
    """Every problem of a decoded document, in the order of §7 (at most
    MAX_REFUSALS); an empty list means the document is accepted."""
    return _check(data)[1]


def read_game(data: object) -> Game:
    """A decoded document as a Game; DocumentRefused with its refusals if it has any."""
    game, found = _check(data)
    if game is None:
        raise DocumentRefused(found)
    return game


def deal_refusals(
    raw: object, number: int, players: tuple[str, ...], rules: Rules
) -> list[Refusal]:
    """The problems of one deal of a game in progress (E_DEAL to E_BIDS_TOTAL),
    checked as the document's deal `number` would be; empty: the deal is good."""
    found = Found(MAX_REFUSALS)
    with suppress(Enough):
        _deal(raw, number, players, rules, found)
    return found.items


def settle_game(game: Game) -> GameResult:
    """A game's scores, ranks, money and transfers. A game is checked as its
    document would be, so one built in code that breaks the rules (a deal's
    tricks not 13, a deal after the game ended) is refused, never settled."""
    checked, found = _check(game_document(game))
    if checked is None:
        raise DocumentRefused(found)
    end = game_end(checked.deals, checked.rules)
    assert end is not None  # _check refuses an unfinished game
    return settle_game_values(checked, end)


def settle_document(data: object) -> dict[str, Any]:
    """The result object (§6.6) of a decoded document; DocumentRefused if it is refused."""
    return result_document(settle_game(read_game(data)))


def game_money(data: object) -> dict[str, Decimal]:
    """Each player's money in a decoded document, in seat order (what the
    family purse adds to a member's balance, §12); DocumentRefused if refused."""
    result = settle_game(read_game(data))
    return {
        player: money_decimal(amount)
        for player, amount in zip(result.players, result.money, strict=True)
    }


def result_document(result: GameResult) -> dict[str, Any]:
    """The result object of §6.6: the graded keys `scores` (tenths), `ranks`,
    `money` and `transfers`, then `deal_scores` and `deals_played`."""
    players = result.players

    def each(values: Sequence[Any]) -> dict[str, Any]:
        return dict(zip(players, values, strict=True))

    return {
        "scores": each(result.scores),
        "ranks": each(result.ranks),
        "money": each([money_text(amount) for amount in result.money]),
        "transfers": [transfer.document() for transfer in result.transfers],
        "deal_scores": [each(scores) for scores in result.deal_scores],
        "deals_played": result.deals_played,
    }


def game_document(game: Game) -> dict[str, Any]:
    """A game as its `callbreak-game/1` document: the rules that differ from
    their defaults, the stake if there is one, the note if there is one."""
    document: dict[str, Any] = {"format": FORMAT, "players": list(game.players)}
    options = game.rules.to_options()
    if options:
        document["rules"] = options
    if game.stake is not None:
        document["stake"] = str(game.stake)
    document["deals"] = [
        {"bids": _by_seat(game.players, deal.bids), "tricks": _by_seat(game.players, deal.tricks)}
        for deal in game.deals
    ]
    if game.note is not None:
        document["note"] = game.note
    return document


def _by_seat(players: Sequence[str], values: Sequence[int]) -> dict[str, int]:
    """Values in seat order keyed by player; a value beyond the players is keyed
    by its seat, so a deal built in code for the wrong table is refused."""
    return {
        players[seat] if seat < len(players) else f"seat {seat + 1}": value
        for seat, value in enumerate(values)
    }


# --- the checks, stage by stage --------------------------------------------------------------


def _check(data: object) -> tuple[Game | None, list[Refusal]]:
    found = Found(MAX_REFUSALS)
    try:
        game = _stages(data, found)
    except Enough:
        game = None
    return (game if not found.items else None), found.items


def _stages(data: object, found: Found) -> Game | None:
    # Stage 1: what the document is.
    if not isinstance(data, Mapping):
        found.add(
            refusal(
                "E_DOC",
                (),
                gettext_noop("a %(format)s document must be a JSON object, got %(value)s"),
                format=FORMAT,
                value=shown(data),
            )
        )
        return None
    if data.get("format") != FORMAT:
        found.add(
            refusal(
                "E_DOC",
                ("format",),
                gettext_noop("must be %(format)s, got %(value)s")
                if "format" in data
                else gettext_noop("missing (must be %(format)s)"),
                format=shown(FORMAT),
                value=shown(data.get("format")),
            )
        )
        return None
    for key in data:
        if key not in TOP_KEYS:
            found.add(refusal("E_DOC", (), gettext_noop("unknown key %(key)s"), key=shown(key)))
    if "note" in data and not isinstance(data["note"], str):
        found.add(
            refusal(
                "E_DOC",
                ("note",),
                gettext_noop("must be text, got %(value)s"),
                value=shown(data["note"]),
            )
        )
    # Stages 2 and 3: the players and the rules.
    players, problems = read_players(
        data.get("players"),
        low=PLAYERS,
        high=PLAYERS,
        code="E_PLAYERS",
        missing="players" not in data,
    )
    found.add(*problems)
    rules, problems = read_rules(data.get("rules", {}))
    found.add(*problems)
    if found.items or rules is None:
        return None
    # Stage 4: the stake.
    stake = _stake(data, rules, found)
    # Stage 5: the deals.
    deals = _deals(data, players, rules, found)
    if found.items or deals is None:
        return None
    note = data.get("note")
    return Game(players=players, deals=deals, rules=rules, stake=stake, note=note)


def _stake(data: Mapping[str, Any], rules: Rules, found: Found) -> Decimal | None:
    if "stake" not in data:
        if rules.settlement != "none":
            found.add(
                refusal(
                    "E_STAKE",
                    ("stake",),
                    gettext_noop('missing (a game has a stake unless its settlement is "none")'),
                )
            )
        return None
    try:
        return parse_money(data["stake"])
    except MoneyError as error:
        found.add(Refusal("E_STAKE", ("stake",), error.msg))
        return None


def _deals(
    data: Mapping[str, Any], players: tuple[str, ...], rules: Rules, found: Found
) -> tuple[Deal, ...] | None:
    where: Where = ("deals",)
    raw = data.get("deals")
    if "deals" not in data:
        found.add(refusal("E_DEALS", where, gettext_noop("missing")))
        return None
    if not isinstance(raw, list) or not raw:
        found.add(
            refusal(
                "E_DEALS",
                where,
                gettext_noop("must be a list of at least one deal, got %(value)s"),
                value=shown(raw),
            )
        )
        return None
    if len(raw) > MAX_DEALS:
        found.add(
            refusal(
                "E_DEALS",
                where,
                gettext_noop("at most %(max)s deals in a game, got %(count)s"),
                max=f"{MAX_DEALS:,}",
                count=f"{len(raw):,}",
            )
        )
        return None
    length = rules.deals_per_game
    counted = False
    if length is not None and len(raw) > length:
        found.add(
            refusal(
                "E_DEALS",
                where,
                gettext_noop("%(count)s deals recorded, but the game is %(length)s deals"),
                count=len(raw),
                length=length,
            )
        )
        counted = True
    elif length is not None and len(raw) < length and not rules.thirteen_wins_game:
        found.add(
            refusal(
                "E_DEALS",
                where,
                gettext_noop("the game is unfinished: %(count)s of its %(length)s deals recorded"),
                count=len(raw),
                length=length,
            )
        )
        counted = True
    before = len(found)
    deals = [_deal(item, number, players, rules, found) for number, item in enumerate(raw, start=1)]
    if len(found) > before or counted:
        return None
    read = tuple(deal for deal in deals if deal is not None)
    _end(read, players, rules, found)
    return read


def _end(deals: tuple[Deal, ...], players: tuple[str, ...], rules: Rules, found: Found) -> None:
    """§6.1: the document holds exactly the deals up to the one that ended the game."""
    end = game_end(deals, rules)
    if end is None:
        found.add(_unfinished(len(deals), rules))
    elif end.deals_played < len(deals):
        found.add(_after_the_end(end, len(deals), players, rules))


def _unfinished(count: int, rules: Rules) -> Refusal:
    target = rules.target_score_tenths
    if target is not None:
        return refusal(
            "E_DEALS",
            ("deals",),
            gettext_noop(
                "the game is unfinished: after %(count)s deals nobody's total has reached "
                "the target of %(target)s"
            ),
            count=count,
            target=tenths_text(target),
        )
    return refusal(
        "E_DEALS",
        ("deals",),
        gettext_noop(
            "the game is unfinished: %(count)s of its %(length)s deals recorded, and nobody "
            "called and took all 13"
        ),
        count=count,
        length=rules.deals_per_game,
    )


def _after_the_end(end: GameEnd, count: int, players: tuple[str, ...], rules: Rules) -> Refusal:
    where = (deal_at(end.deals_played + 1),)
    if end.thirteen_winner is not None:
        return refusal(
            "E_DEALS",
            where,
            gettext_noop(
                "recorded after the game ended: %(name)s called and took all 13 in deal "
                "%(number)s (%(extra)s deals too many)"
            ),
            name=players[end.thirteen_winner],
            number=end.deals_played,
            extra=count - end.deals_played,
        )
    return refusal(
        "E_DEALS",
        where,
        gettext_noop(
            "recorded after the game ended: a total reached the target of %(target)s in deal "
            "%(number)s (%(extra)s deals too many)"
        ),
        target=tenths_text(rules.target_score_tenths or 0),
        number=end.deals_played,
        extra=count - end.deals_played,
    )


def _deal(
    raw: object, number: int, players: tuple[str, ...], rules: Rules, found: Found
) -> Deal | None:
    """One deal; None (its refusals added) if it cannot be read."""
    where: Where = (deal_at(number),)
    if not isinstance(raw, Mapping):
        found.add(
            refusal(
                "E_DEAL",
                where,
                gettext_noop("must be an object with bids and tricks, got %(value)s"),
                value=shown(raw),
            )
        )
        return None
    before = len(found)
    for key in raw:
        if key not in DEAL_KEYS:
            found.add(
                refusal(
                    "E_DEAL",
                    where,
                    gettext_noop("unknown key %(key)s (a deal has only bids and tricks)"),
                    key=shown(key),
                )
            )
    for key in DEAL_KEYS:
        if key not in raw:
            found.add(refusal("E_DEAL", (*where, key), gettext_noop("missing")))
        elif not isinstance(raw[key], Mapping):
            found.add(
                refusal(
                    "E_DEAL",
                    (*where, key),
                    gettext_noop("must be an object of each player's number, got %(value)s"),
                    value=shown(raw[key]),
                )
            )
    if len(found) > before:
        return None
    read: dict[str, tuple[int, ...] | None] = {}
    for key in raw:  # bids and tricks, in the document's order
        read[key] = _numbers(raw[key], key, where, players, rules, found)
    bids, tricks = read["bids"], read["tricks"]
    if bids is None or tricks is None:
        return None
    return Deal(bids=bids, tricks=tricks)


def _numbers(
    raw: Mapping[str, Any],
    key: str,
    where: Where,
    players: tuple[str, ...],
    rules: Rules,
    found: Found,
) -> tuple[int, ...] | None:
    """A deal's `bids` or `tricks`: one whole number per player, in seat order,
    or None (its refusals added)."""
    bids = key == "bids"
    low, high = (rules.min_bid, rules.max_bid) if bids else (0, TRICKS)
    code = "E_BID" if bids else "E_TRICKS"
    valid: dict[str, int] = {}
    before = len(found)
    for name, value in raw.items():
        if name not in players:
            found.add(_unknown(name, (*where, key), players))
        elif isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
            valid[name] = value
        else:
            found.add(
                refusal(
                    code,
                    (*where, key, name),
                    gettext_noop("must be a whole number from %(low)s to %(high)s, got %(value)s"),
                    low=low,
                    high=high,
                    value=shown(value),
                )
            )
    for player in players:
        if player not in raw:
            found.add(
                refusal(
                    "E_MISSING_PLAYER",
                    (*where, key),
                    gettext_noop("no entry for %(name)s"),
                    name=player,
                )
            )
    if len(valid) == len(players):
        total = sum(valid.values())
        if not bids and total != TRICKS:
            found.add(
                refusal(
                    "E_TRICKS_SUM",
                    where,
                    gettext_noop("tricks total %(total)s, not 13"),
                    total=total,
                )
            )
        if bids and rules.bids_total_min is not None and total < rules.bids_total_min:
            found.add(
                refusal(
                    "E_BIDS_TOTAL",
                    where,
                    gettext_noop(
                        "bids total %(total)s, below the least of %(least)s (bids_total_min)"
                    ),
                    total=total,
                    least=rules.bids_total_min,
                )
            )
        if bids and rules.bids_total_max is not None and total > rules.bids_total_max:
            found.add(
                refusal(
                    "E_BIDS_TOTAL",
                    where,
                    gettext_noop(
                        "bids total %(total)s, above the most of %(most)s (bids_total_max)"
                    ),
                    total=total,
                    most=rules.bids_total_max,
                )
            )
    if len(found) > before:
        return None
    return tuple(valid[player] for player in players)


def _unknown(name: str, where: Where, players: Sequence[str]) -> Refusal:
    other = same_name_as(name, players)
    if other is not None:
        return refusal(
            "E_UNKNOWN_PLAYER",
            where,
            gettext_noop(
                "%(name)s is not one of the players (did you mean %(other)s? names are exact)"
            ),
            name=shown(name),
            other=shown(other),
        )
    return refusal(
        "E_UNKNOWN_PLAYER",
        where,
        gettext_noop("%(name)s is not one of the players"),
        name=shown(name),
    )


def tenths_text(tenths: int) -> str:
    """Tenths as points are said: 300 is "30.0", -5 is "-0.5"."""
    sign = "-" if tenths < 0 else ""
    whole, part = divmod(abs(tenths), 10)
    return f"{sign}{whole}.{part}"
