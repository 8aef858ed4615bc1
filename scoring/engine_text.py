"""The engine's words in the page's language.

The engine is pure Python (no Django), so its option labels, help texts, maal
item names, round errors and breakdown notes are English. Listing them here with
gettext_noop puts them in locale/ne; forms, views and templates show them through
gettext, and `engine_message` translates a message built with values by matching
it against the engine's patterns. tests/test_i18n.py checks the lists still match
the engine."""

from __future__ import annotations

import re

from django.utils.translation import gettext, gettext_noop, ngettext

from .engine import RoundError
from .engine.messages import Message

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
    gettext_noop("Dhoos amount"),
    gettext_noop("Dhoos paid to"),
    gettext_noop("Dhoos voids maal"),
    gettext_noop("Dublee players pay seen"),
    gettext_noop("Dublee win: fewest players"),
    gettext_noop("Better after a rotation"),
    gettext_noop("Master card value"),
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
    gettext_noop("What a player given dhoos pays when the dhoos amount is fixed."),
    gettext_noop("Most players who can sit at one round (2 to 8)."),
    gettext_noop("The maal calculator's point table: pagat, flat or tiers."),
    gettext_noop("Alter cards (same rank, other suit of the tiplu's colour) are maal."),
    gettext_noop("Printed jokers (putali, man) are in the decks and are maal."),
    gettext_noop("Points for each printed joker when they are in play (2 to 5)."),
    gettext_noop("The master card is in play, worth the master card value."),
    gettext_noop(
        "What a player given dhoos pays: the dhoos penalty, or the round's total points (T)."
    ),
    gettext_noop(
        "Who is paid dhoos: every other player of the round, the round's winner, "
        "or the winner of the next round the player plays."
    ),
    gettext_noop(
        "A player given dhoos counts no maal or tunnel points of their own in that round."
    ),
    gettext_noop(
        "A loser who saw the tiplu by seven dublees pays the seen payment (off: pays none)."
    ),
    gettext_noop("Fewest players in a round for a dublee win to count (2 to 8)."),
    gettext_noop("After each full rotation of the deal, the next round starts marked as better."),
    gettext_noop("Points for the master card when it is in play."),
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


# The maal calculator's errors (every MaalError of scoring/engine/maal.py; those that
# start "<item>: " are matched without it, see `engine_message`). A group named `kind`
# is a tally word and `breakdown` a maal breakdown, both translated too; `marriages`
# gives `with_marriages`, the " (2 marriages included)" part.
_WITH = r"(?: \((?P<marriages>\d+) marriages? included\))?"
MAAL_MESSAGES: tuple[tuple[str, str], ...] = (
    (
        r"(?P<value>.+) is not a card rank \(A, 2 … 10, J, Q, K\)",
        gettext_noop("%(value)s is not a card rank (A, 2 … 10, J, Q, K)"),
    ),
    (
        r"(?P<value>.+) is not a suit \(S, H, D, C\)",
        gettext_noop("%(value)s is not a suit (S, H, D, C)"),
    ),
    (r"(?P<value>.+) is not a card", gettext_noop("%(value)s is not a card")),
    (
        r"(?P<value>.+) is not a card: write rank then suit, such as QH or 10S",
        gettext_noop("%(value)s is not a card: write rank then suit, such as QH or 10S"),
    ),
    (
        r"printed jokers are not in play in this session",
        gettext_noop("printed jokers are not in play in this session"),
    ),
    (
        r"the master card is not in play in this session",
        gettext_noop("the master card is not in play in this session"),
    ),
    (
        r"a tunnel of (?P<card>\S+) is impossible when (?P=card) is the tiplu: "
        r"the tiplu is drawn from the stock, so no hand holds all three",
        gettext_noop(
            "a tunnel of %(card)s is impossible when %(card)s is the tiplu: "
            "the tiplu is drawn from the stock, so no hand holds all three"
        ),
    ),
    (
        r"write whole numbers such as 2, 5, 10",
        gettext_noop("write whole numbers such as 2, 5, 10"),
    ),
    (
        r"must be a list of points such as 2, 5, 10, got (?P<value>.+)",
        gettext_noop("must be a list of points such as 2, 5, 10, got %(value)s"),
    ),
    (
        r"give at least one number \(0 if it is worth nothing\)",
        gettext_noop("give at least one number (0 if it is worth nothing)"),
    ),
    (
        r"at most (?P<max>\d+) tiers, got (?P<count>\d+)",
        gettext_noop("at most %(max)s tiers, got %(count)s"),
    ),
    (
        r"each tier must be a whole number from 0 to (?P<max>\d+), got (?P<value>.+)",
        gettext_noop("each tier must be a whole number from 0 to %(max)s, got %(value)s"),
    ),
    (
        r"holding more must not score less, got (?P<tiers>.+)",
        gettext_noop("holding more must not score less, got %(tiers)s"),
    ),
    (
        r"must be an object of tiers per item, got (?P<value>.+)",
        gettext_noop("must be an object of tiers per item, got %(value)s"),
    ),
    (r"unknown item (?P<value>.+)", gettext_noop("unknown item %(value)s")),
    (r"missing", gettext_noop("missing")),
    (
        r"a tally must be an object of counts, got (?P<value>.+)",
        gettext_noop("a tally must be an object of counts, got %(value)s"),
    ),
    (r"unknown maal item (?P<value>.+)", gettext_noop("unknown maal item %(value)s")),
    (
        r"must be a whole number ≥ 0, got (?P<value>.+)",
        gettext_noop("must be a whole number ≥ 0, got %(value)s"),
    ),
    (
        rf"(?P<count>\d+) tiplu{_WITH}: only (?P<max>\d+) are in play "
        r"\(the third lies under the stock\)",
        gettext_noop(
            "%(count)s tiplu%(with_marriages)s: only %(max)s are in play "
            "(the third lies under the stock)"
        ),
    ),
    (
        r"(?P<count>\d+) tunnels of (?P<kind>poplu|jhiplu|alter): "
        r"three decks hold only (?P<max>\d+) (?P=kind)",
        gettext_noop("%(count)s tunnels of %(kind)s: three decks hold only %(max)s %(kind)s"),
    ),
    (
        rf"(?P<count>\d+) (?P<kind>poplu|jhiplu|alter){_WITH}: three decks hold only (?P<max>\d+)",
        gettext_noop("%(count)s %(kind)s%(with_marriages)s: three decks hold only %(max)s"),
    ),
    (
        rf"(?P<count>\d+) (?P<kind>poplu|jhiplu|alter){_WITH} and a tunnel of (?P=kind): "
        r"the tunnel holds all (?P<max>\d+)",
        gettext_noop(
            "%(count)s %(kind)s%(with_marriages)s and a tunnel of %(kind)s: "
            "the tunnel holds all %(max)s"
        ),
    ),
    (
        r"alter is off in this session: the alter cards are ordinary jokers "
        r"\(a tunnel of them is a tunnel of ordinary jokers\)",
        gettext_noop(
            "alter is off in this session: the alter cards are ordinary jokers "
            "(a tunnel of them is a tunnel of ordinary jokers)"
        ),
    ),
    (
        r"(?P<count>\d+) tunnels of ordinary jokers: they come in only (?P<suits>\d+) suits, "
        r"so at most (?P=suits) tunnels",
        gettext_noop(
            "%(count)s tunnels of ordinary jokers: they come in only %(suits)s suits, "
            "so at most %(suits)s tunnels"
        ),
    ),
    (
        r"(?P<count>\d+) printed jokers: only (?P<max>\d+) are in play \(two per deck\)",
        gettext_noop("%(count)s printed jokers: only %(max)s are in play (two per deck)"),
    ),
    (
        r"(?P<count>\d+) master cards: there is only one",
        gettext_noop("%(count)s master cards: there is only one"),
    ),
    (
        r"(?P<count>\d+) cards of maal and tunnels: a hand holds only (?P<max>\d+)",
        gettext_noop("%(count)s cards of maal and tunnels: a hand holds only %(max)s"),
    ),
    (
        r"(?P<count>\d+) × (?P<card>\S+): three decks hold only (?P<max>\d+) of each card "
        r"\(a tunnel is all three\)",
        gettext_noop(
            "%(count)s × %(card)s: three decks hold only %(max)s of each card "
            "(a tunnel is all three)"
        ),
    ),
    (
        r"the tiplu must be a card such as QH, got (?P<value>.+)",
        gettext_noop("the tiplu must be a card such as QH, got %(value)s"),
    ),
    (
        r"(?P<count>\d+) cards \(every card listed, and 3 per tunnel\): "
        r"a hand holds only (?P<max>\d+)",
        gettext_noop(
            "%(count)s cards (every card listed, and 3 per tunnel): a hand holds only %(max)s"
        ),
    ),
    (
        r"(?P<count>\d+) (?P<kind>tiplu|poplu|jhiplu|alter|printed jokers|master cards) "
        r"held by (?P<players>.+): only (?P<max>\d+) in play",
        gettext_noop("%(count)s %(kind)s held by %(players)s: only %(max)s in play"),
    ),
    (
        r"the calculator counted maal (?P<maal>-?\d+) and tunnel (?P<tunnel>-?\d+) "
        r"\((?P<breakdown>.+)\), not (?P<entered_maal>-?\d+) and (?P<entered_tunnel>-?\d+); "
        r"count again or clear the calculator",
        gettext_noop(
            "the calculator counted maal %(maal)s and tunnel %(tunnel)s (%(breakdown)s), "
            "not %(entered_maal)s and %(entered_tunnel)s; count again or clear the calculator"
        ),
    ),
)

# The engine's messages and notes (scoring/engine/settlement.py, scoring/services/): the
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
        *MAAL_MESSAGES,
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


# What a maal message may start with ("tiplu: …", "poplu: must not be negative, got -1"):
# tally and table words are translated, the session file's option keys kept as typed.
PREFIXED = re.compile(r"(?P<where>[^:]+): (?P<rest>.+)")
PREFIX_WORDS = frozenset({*TALLY_WORDS, *ITEM_WORDS})
PREFIX_KEYS = frozenset(
    {
        "marriage",
        "printed_joker",
        "master_card",
        "tunnel",
        "joker_tunnel",
        "poplu_tunnel",
        "alter_tunnel",
        "marriage_on_top",
    }
)


def _values(match: re.Match[str]) -> dict[str, str]:
    values = {k: v for k, v in match.groupdict().items() if v is not None}
    if "kind" in values:
        values["kind"] = gettext(values["kind"])
    if "breakdown" in values:
        values["breakdown"] = engine_message(values["breakdown"])
    if "marriages" in match.re.groupindex:
        count = values.pop("marriages", None)
        values["with_marriages"] = (
            " "
            + ngettext(
                "(%(count)s marriage included)", "(%(count)s marriages included)", int(count)
            )
            % {"count": count}
            if count
            else ""
        )
    return values


def _translated(message: Message) -> str:
    """A Message by its id, its values filled in (a value that is a Message too)."""
    text = gettext(message.id)
    if not message.params:
        return text
    return text % {
        name: engine_message(value) if isinstance(value, Message) else value
        for name, value in message.params.items()
    }


def engine_message(message: str | Message) -> str:
    """An engine message, note or maal breakdown in the active language (unchanged
    if unknown)."""
    if isinstance(message, Message):
        return _translated(message)
    # The item first: "tiplu: 'ZZ' is not a card" is not the card "tiplu: 'ZZ'".
    prefixed = PREFIXED.fullmatch(message)
    if prefixed and prefixed["where"] in PREFIX_WORDS | PREFIX_KEYS:
        rest = engine_message(prefixed["rest"])
        if rest != prefixed["rest"]:
            where = prefixed["where"]
            return f"{gettext(where) if where in PREFIX_WORDS else where}: {rest}"
    for pattern, msgid in MESSAGES:
        match = pattern.fullmatch(message)
        if match:
            text = gettext(msgid)
            # Untranslated (English): the engine's own words, exactly.
            return message if text == msgid else text % _values(match)
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
