"""What the offline scripts read from a page (README "Offline at the table"):
whose page it is, and on the round form the session's rules, the dhoos pending
before the round and the engine's words for the preview worked out on the phone."""

from __future__ import annotations

import json
from typing import Any

from django import template
from django.utils.translation import gettext, ngettext

from localise.numbers import NumberFormat

from ..engine import RoundInput
from ..engine.rules import Rules, option_schema
from ..engine.settlement import FIELD_WORDS, BetterDefault, Dhoos
from ..selectors.reports import ChainRounds, session_ledger, session_players
from ..selectors.versions import owner_counter
from ..web.offline import navigation_timeout_ms, save_timeout_ms, user_bucket
from ..words.offline_words import ENGINE_IDS, PHRASES, PLURALS

register = template.Library()


@register.simple_tag(takes_context=True)
def offline_user(context: template.Context) -> str:
    # The context's user: the 500 page puts a stand-in there that needs no database.
    return user_bucket(context.get("user"))


@register.simple_tag
def offline_poll_wait() -> int:
    # How long the share page's live part waits for a poll before saying offline.
    return navigation_timeout_ms()


@register.simple_tag
def offline_save_wait() -> int:
    # How long a send of a waiting round waits for a network that hangs.
    return save_timeout_ms()


@register.simple_tag
def offline_rules(rules: Rules) -> str:
    """The session's rules as settlement.js takes them: the options' schema as the
    engine declares them (kind, default, values) and the session's values."""
    return json.dumps(rules_data(rules))


def rules_data(rules: Rules) -> dict[str, Any]:
    schema = option_schema()
    values = {name: value for name, value in rules.to_options().items() if name in schema}
    return {"schema": schema, "values": values}


@register.simple_tag
def offline_pending(pending: Any) -> str:
    """The next-winner dhoos pending before this round, as settlement.js books them."""
    return json.dumps(
        [{"player": d.player, "amount": d.amount, "from": d.round} for d in pending or ()]
    )


def chain_state(number: int, better: BetterDefault, pending: Any) -> dict[str, Any]:
    """Round `number` as the rounds before it leave it, as static/js/session-chain.js
    takes it: where the rotation of the deal stands, whether the round before was
    a dublee win, and the next-winner dhoos pending before it."""
    owed: tuple[Dhoos, ...] = tuple(pending or ())
    return {
        "number": number,
        "pending": [{"player": d.player, "amount": d.amount, "from": d.round} for d in owed],
        "counter": better.rounds,
        "players": better.players,
        "since": better.since,
        "dublee": better.dublee,
    }


def round_data(round_: RoundInput) -> dict[str, Any]:
    """A saved round as settlement.js takes it (better None: its default)."""
    return {
        "entries": [
            {
                "player": e.player,
                "status": e.status,
                "maal": e.maal,
                "tunnel": e.tunnel,
                "dhoos": e.dhoos,
                "dublees": e.dublees,
            }
            for e in round_.entries
        ],
        "winner": round_.winner,
        "win_type": round_.win_type,
        "better": round_.better,
    }


@register.simple_tag
def offline_chain(
    setting: Any, session: Any, saved: ChainRounds | None = None, players: Any = None
) -> str:
    """chain_data as the page carries it (a JSON attribute)."""
    if setting is None:
        return "{}"
    return json.dumps(chain_data(setting, session, saved, players), ensure_ascii=False)


def chain_data(
    setting: Any, session: Any, saved: ChainRounds | None = None, players: Any = None
) -> dict[str, Any]:
    """What a page needs to follow the rounds kept on the phone (the new-round
    form, static/js/offline-preview.js, and the session's page; both through
    static/js/next-round.js), and what the answer to a round's save gives it
    again (scoring/views/rounds.py): the state of the next round, the players
    (their ids as the forms name them) in dealing order, the latest saved
    rounds and the state before them (`saved`, reports.chain_rounds: settled
    again with the edits of them waiting on the phone), each player's points
    and the stake (the standings the phone adds a saved round to), the
    session's version (its owner's counter: the phone keeps the newest it has
    seen), and the words of the line that says the round's number, its dealer
    and why it starts better."""
    # The page's own (the ledger's, the form's), else read once per version of the session.
    players = list(players) if players is not None else session_players(session)
    ledger = session_ledger(session)
    points = {s.player.name: s.points for s in ledger.standings}
    cash = {s.player.name: s.money for s in ledger.standings}
    return {
        "version": owner_counter(session),
        "start": chain_state(setting.number, setting.better, setting.pending),
        "seats": [player.name for player in players],
        "players": [{"id": str(player.pk), "name": player.name} for player in players],
        "standings": {
            # The stake in force for the next round, whether the stake changed
            # this evening, and then each player's money (each round at its own
            # stake): the phone adds rounds to it, not points at one stake.
            "stake": str(ledger.stake_now),
            "points": {player.name: points.get(player.name, 0) for player in players},
            "changed": ledger.stake_changed,
            # Only then: at one stake the money is the points at it.
            **(
                {"money": {player.name: str(cash.get(player.name, 0)) for player in players}}
                if ledger.stake_changed
                else {}
            ),
        },
        "saved": None
        if saved is None
        else {
            "start": chain_state(saved.start.number, saved.start.better, saved.start.pending),
            "rounds": [{"id": str(pk), "round": round_data(r)} for pk, r in saved.rounds],
        },
        "words": {
            "round": gettext("Round %(number)s"),
            "deals": gettext("%(dealer)s deals"),
            "rotationStart": gettext(
                "a full rotation of the deal: %(rounds)d rounds since the start, "
                "%(players)d players"
            ),
            "rotationSince": gettext(
                "a full rotation of the deal: %(rounds)d rounds since better round "
                "%(since)d, %(players)d players"
            ),
            "dublee": gettext("the round before was won by eight dublees"),
            "afterKept": gettext(
                "Worked out on this phone, after the rounds saved on it and not sent yet."
            ),
        },
    }


@register.simple_tag
def offline_catalogue() -> str:
    """The words the phone's scripts may say (scoring/words/offline_words.py: the
    engine's messages and notes settlement.js gives, and the phrases of the
    payments in words of breakdown-words.js) and the names of the fields its
    problems name, in the page's language (those with a translation)."""
    words = {}
    for text in (*ENGINE_IDS, *FIELD_WORDS, *PHRASES):
        translated = gettext(text)
        if translated != text:
            words[text] = translated
    # A phrase with a plural: each of its ids in its own form.
    for ids in PLURALS:
        for count, text in enumerate(ids, start=1):
            translated = ngettext(*ids, count)
            if translated != text:
                words[text] = translated
    return json.dumps(words, ensure_ascii=False)


@register.simple_tag
def offline_number_format() -> str:
    """How the page groups numbers (its separator and group sizes, from the
    right) and its decimal separator, for the preview and the standings worked
    out on the phone."""
    fmt = NumberFormat.current()
    return json.dumps(
        {"sep": fmt.thousand_sep, "sizes": list(fmt.sizes), "decimal": fmt.decimal_sep},
        ensure_ascii=False,
    )
