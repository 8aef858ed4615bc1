"""The engine's words in the page's language.

The engine is pure Python (no Django), so its option labels, help texts, maal
item names, round errors and breakdown notes are English. Listing them here with
gettext_noop puts them in locale/ne; forms, views and templates show them through
gettext, and `engine_message` translates a message built with values by matching
it against the engine's patterns. tests/test_i18n.py checks the lists still match
the engine."""

from __future__ import annotations

import re

from django.utils.translation import gettext, gettext_noop

from .engine import RoundError

OPTION_WORDS = (
    gettext_noop("Seen payment"),
    gettext_noop("Unseen payment"),
    gettext_noop("Dublee bonus"),
    gettext_noop("Unseen maal"),
    gettext_noop("Unseen tunnel"),
    gettext_noop("Better multiplier"),
    gettext_noop("Dublee triggers better"),
    gettext_noop("Dhoos penalty"),
    gettext_noop("Max players"),
    gettext_noop("Maal point table"),
    gettext_noop("Alter is maal"),
    gettext_noop("Printed jokers"),
    gettext_noop("Printed joker value"),
    gettext_noop("Master card"),
    gettext_noop("Own maal point table"),
    gettext_noop("What each loser who has seen the tiplu pays the winner for the game."),
    gettext_noop("What each loser who never saw the tiplu pays the winner for the game."),
    gettext_noop("Extra paid by every loser when the winner ends with eight dublees."),
    gettext_noop(
        "Maal of a player who never saw the tiplu: counts as usual, is void (murder), "
        "or is kidnapped by the winner."
    ),
    gettext_noop(
        "Tunnel points of a player who never saw the tiplu: void (tunnel pachaunu) or counted."
    ),
    gettext_noop("A better (double) round multiplies every game payment by this."),
    gettext_noop("The round after a dublee win starts marked as better."),
    gettext_noop("A player given dhoos pays this to every other player of the round."),
    gettext_noop("Most players who can sit at one round (2 to 8)."),
    gettext_noop("The maal calculator's point table: pagat, flat or tiers."),
    gettext_noop("Alter cards (same rank, other suit of the tiplu's colour) are maal."),
    gettext_noop("Printed jokers (putali, man) are in the decks and are maal."),
    gettext_noop("Points for each printed joker when they are in play (2 to 5)."),
    gettext_noop("The master card is in play and worth 5 points."),
    gettext_noop("The session's own maal point table (tiers per item), if it has one."),
)

ITEM_WORDS = (
    gettext_noop("Tiplu"),
    gettext_noop("Poplu, jhiplu (each kind)"),
    gettext_noop("Alter"),
    gettext_noop("Marriage"),
    gettext_noop("Printed joker / man"),
    gettext_noop("Master card"),
    gettext_noop("Tunnel of ordinary cards"),
    gettext_noop("Tunnel of ordinary jokers"),
    gettext_noop("Tunnel of poplu or jhiplu"),
    gettext_noop("Tunnel of alter"),
)

# What the maal calculator counts (TALLY_LABELS).
TALLY_WORDS = (
    gettext_noop("tiplu"),
    gettext_noop("poplu"),
    gettext_noop("jhiplu"),
    gettext_noop("marriages"),
    gettext_noop("alter"),
    gettext_noop("printed jokers"),
    gettext_noop("master card"),
    gettext_noop("tunnels of ordinary cards"),
    gettext_noop("tunnels of ordinary jokers"),
    gettext_noop("tunnels of poplu"),
    gettext_noop("tunnels of jhiplu"),
    gettext_noop("tunnels of alter"),
)

# Values of the unseen_maal and unseen_tunnel choices (kidnap is translated elsewhere).
CHOICE_WORDS = (gettext_noop("count"), gettext_noop("void"))


# The engine's messages and notes (scoring/engine/settlement.py, services.py): the
# English pattern, and the catalogue's text with the same named values.
MESSAGES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), msgid)
    for pattern, msgid in (
        (
            r"must be a whole number, got (?P<value>.+)",
            gettext_noop("must be a whole number, got %(value)s"),
        ),
        (
            r"must not be negative, got (?P<value>.+)",
            gettext_noop("must not be negative, got %(value)s"),
        ),
        (
            r"(?P<value>\S+) is more than (?P<max>\S+) points; check the number",
            gettext_noop("%(value)s is more than %(max)s points; check the number"),
        ),
        (r"every entry needs a player", gettext_noop("every entry needs a player")),
        (r"appears twice in the round", gettext_noop("appears twice in the round")),
        (
            r"must be seen or unseen, got (?P<value>.+)",
            gettext_noop("must be seen or unseen, got %(value)s"),
        ),
        (
            r"must be true or false, got (?P<value>.+)",
            gettext_noop("must be true or false, got %(value)s"),
        ),
        (
            r"a round needs at least (?P<min>\d+) players, got (?P<count>\d+)",
            gettext_noop("a round needs at least %(min)s players, got %(count)s"),
        ),
        (
            r"at most (?P<max>\d+) players can play a round under these rules, got (?P<count>\d+)",
            gettext_noop(
                "at most %(max)s players can play a round under these rules, got %(count)s"
            ),
        ),
        (
            r"must be normal or dublee, got (?P<value>.+)",
            gettext_noop("must be normal or dublee, got %(value)s"),
        ),
        (r"a dublee win needs a winner", gettext_noop("a dublee win needs a winner")),
        (
            r"(?P<name>.+) has no entry in this round",
            gettext_noop("%(name)s has no entry in this round"),
        ),
        (
            r"a dublee winner must be seen \(seven dublees show the tiplu\)",
            gettext_noop("a dublee winner must be seen (seven dublees show the tiplu)"),
        ),
        (
            r"the winner must be seen: ending the round means having shown the pure sets",
            gettext_noop(
                "the winner must be seen: ending the round means having shown the pure sets"
            ),
        ),
        (
            r"has a maal tally but is not in the round",
            gettext_noop("has a maal tally but is not in the round"),
        ),
        (
            r"pick the tiplu card to use the maal calculator",
            gettext_noop("pick the tiplu card to use the maal calculator"),
        ),
        # Breakdown notes.
        (
            r"tunnel (?P<points>\d+) void: unseen \(tunnel pachaunu\)",
            gettext_noop("tunnel %(points)s void: unseen (tunnel pachaunu)"),
        ),
        (
            r"maal (?P<points>\d+) void: unseen \(murder\)",
            gettext_noop("maal %(points)s void: unseen (murder)"),
        ),
        (
            r"maal (?P<points>\d+) kidnapped by (?P<name>.+)",
            gettext_noop("maal %(points)s kidnapped by %(name)s"),
        ),
        (
            r"kidnapped (?P<points>\d+) from unseen players",
            gettext_noop("kidnapped %(points)s from unseen players"),
        ),
        (
            r"dhoos: pays (?P<penalty>\d+) to each of (?P<count>\d+) players",
            gettext_noop("dhoos: pays %(penalty)s to each of %(count)s players"),
        ),
        (
            r"better: game payments × (?P<times>\d+)",
            gettext_noop("better: game payments × %(times)s"),
        ),
        (r"dublee win: \+(?P<bonus>\d+) to w", gettext_noop("dublee win: +%(bonus)s to w")),
    )
)


# The maal calculator's breakdown: "2 poplu = 5, 1 tunnel of ordinary jokers = 10".
MAAL_LINE = re.compile(r"(?P<count>\d+) (?P<what>.+?) = (?P<points>-?\d+)")
MAAL_WORDS = {
    word: word
    for word in (
        gettext_noop("tiplu"),
        gettext_noop("poplu"),
        gettext_noop("jhiplu"),
        gettext_noop("marriage"),
        gettext_noop("marriages"),
        gettext_noop("alter"),
        gettext_noop("printed joker"),
        gettext_noop("printed jokers"),
        gettext_noop("master card"),
        gettext_noop("master cards"),
        gettext_noop("tunnel"),
        gettext_noop("tunnels"),
        gettext_noop("tunnel of ordinary jokers"),
        gettext_noop("tunnels of ordinary jokers"),
        gettext_noop("tunnel of poplu"),
        gettext_noop("tunnels of poplu"),
        gettext_noop("tunnel of jhiplu"),
        gettext_noop("tunnels of jhiplu"),
        gettext_noop("tunnels of poplu and jhiplu"),
        gettext_noop("tunnel of alter"),
        gettext_noop("tunnels of alter"),
        gettext_noop("no maal"),
    )
}


def _maal_breakdown(text: str) -> str | None:
    if text in MAAL_WORDS:
        return gettext(text)
    parts = []
    for line in text.split(", "):
        match = MAAL_LINE.fullmatch(line)
        if match is None or match["what"] not in MAAL_WORDS:
            return None
        parts.append(f"{match['count']} {gettext(match['what'])} = {match['points']}")
    return ", ".join(parts)


def engine_message(message: str) -> str:
    """An engine message, note or maal breakdown in the active language (unchanged
    if unknown)."""
    for pattern, msgid in MESSAGES:
        match = pattern.fullmatch(message)
        if match:
            return gettext(msgid) % match.groupdict()
    breakdown = _maal_breakdown(message)
    return message if breakdown is None else breakdown


def engine_error(error: RoundError) -> str:
    """str(error) in the active language: where (player, field), then the message."""
    where = []
    if error.player is not None:
        where.append(gettext("player %(name)s") % {"name": error.player})
    if error.field:
        where.append(gettext(error.field))
    text = engine_message(error.message)
    return f"{', '.join(where)}: {text}" if where else text


# Fields a RoundError may name (engine_error shows them before the message).
FIELD_WORDS = (
    gettext_noop("player"),
    gettext_noop("players"),
    gettext_noop("status"),
    gettext_noop("win_type"),
    gettext_noop("tiplu"),
)
