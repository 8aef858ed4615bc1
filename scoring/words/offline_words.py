"""The words the phone's scripts may say, declared once: every message and note
static/js/settlement.js can give (the engine's own ids), and every phrase of
static/js/breakdown-words.js (scoring/words/breakdown_words.py's). The round
form's `data-catalogue` (scoring/templatetags/offline.py) carries them in the
page's language with the names of the fields; tests/offline/test_words.py
holds the scripts to this table: a quoted id in them that is not here fails.
"""

from __future__ import annotations

from ..engine.messages import gettext_noop
from .breakdown_words import MINUS_PLAYERS

# settlement.js: the problems of a round (RoundError's ids) and the notes of a
# settled one (the engine's breakdown notes).
ENGINE_IDS: tuple[str, ...] = (
    gettext_noop("%(name)s has no entry in this round"),
    gettext_noop("%(points)s from dead hands"),
    gettext_noop("%(value)s is more than %(max)s points; check the number"),
    gettext_noop("a dublee win needs a winner"),
    gettext_noop("a dublee win needs at least %(min)s players under these rules, got %(count)s"),
    gettext_noop("a dublee winner must be seen (seven dublees show the tiplu)"),
    gettext_noop("a round needs at least %(min)s players, got %(count)s"),
    gettext_noop("appears twice in the round"),
    gettext_noop("at most %(max)s players can play a round under these rules, got %(count)s"),
    gettext_noop("better: game payments × %(times)s"),
    gettext_noop("dead hand: %(points)s to %(name)s"),
    gettext_noop("dead hand: no game payment"),
    gettext_noop("dhoos from round %(round)s: %(amount)s from %(name)s"),
    gettext_noop("dhoos from round %(round)s: pays %(amount)s to %(name)s"),
    gettext_noop("dhoos of %(amount)s from round %(round)s lapses: won this round"),
    gettext_noop("dhoos: owes %(amount)s to the next winner"),
    gettext_noop("dhoos: pays %(amount)s to %(name)s, the winner"),
    gettext_noop("dhoos: pays %(penalty)s to each of %(count)s players"),
    gettext_noop("dublee win: +%(bonus)s to w"),
    gettext_noop("every entry needs a player"),
    gettext_noop("kidnapped %(points)s from unseen players"),
    gettext_noop("maal %(points)s kidnapped by %(name)s"),
    gettext_noop("maal %(points)s void: unseen (murder)"),
    gettext_noop("maal and tunnel %(points)s void: dhoos"),
    gettext_noop("must be a whole number, got %(value)s"),
    gettext_noop("must be normal or dublee, got %(value)s"),
    gettext_noop("must be seen or unseen, got %(value)s"),
    gettext_noop("must be true or false, got %(value)s"),
    gettext_noop("must not be negative, got %(value)s"),
    gettext_noop("saw by dublees, so must be seen (dublees show the tiplu)"),
    gettext_noop("saw by dublees: %(bonus)s off w"),
    gettext_noop("saw by dublees: no seen payment"),
    gettext_noop("the winner must be seen: ending the round means having shown the pure sets"),
    gettext_noop("tunnel %(points)s void: unseen (tunnel pachaunu)"),
    gettext_noop("unseen: settles with the %(count)s seen players only"),
)

# breakdown-words.js: the payments in words, phrase by phrase (the one phrase
# with a plural is PLURALS').
PHRASES: tuple[str, ...] = (
    gettext_noop("%(amount)s from %(name)s"),
    gettext_noop("%(loser)s and %(winner)s are even: %(working)s makes 0."),
    gettext_noop("%(loser)s pays %(winner)s %(amount)s: %(working)s."),
    gettext_noop("%(loser)s receives %(amount)s from %(winner)s: %(working)s makes −%(amount)s."),
    gettext_noop("%(name)s pays %(amount)s in dhoos."),
    gettext_noop("%(name)s receives %(amount)s in dhoos."),
    gettext_noop(
        "%(name)s sits this round out and pays %(winner)s %(amount)s: dhoos from round %(round)s."
    ),
    gettext_noop("%(winner)s takes %(amount)s as the winner: %(parts)s."),
    gettext_noop("%(winner)s won the round and comes out even."),
    gettext_noop("%(winner)s won the round and comes out even: %(parts)s."),
    gettext_noop("%(winner)s won the round but pays %(amount)s: %(parts)s."),
    gettext_noop("With dhoos %(dhoos)s, %(name)s ends the round at %(net)s."),
    gettext_noop("all points %(total)s"),
    gettext_noop("all × %(times)s for the better round"),
    gettext_noop("less %(amount)s to %(name)s"),
    gettext_noop("minus %(bonus)s for seeing by dublees"),
    gettext_noop("minus %(n)s (the seen players) × %(name)s's %(points)s"),
    gettext_noop("no game payment (dead hand)"),
    gettext_noop("no seen payment (saw by dublees)"),
    gettext_noop("nothing off (%(name)s counts 0)"),
    gettext_noop("plus %(bonus)s for the dublee win"),
    gettext_noop("plus %(w)s for seen"),
    gettext_noop("plus %(w)s for unseen"),
    gettext_noop("the seen players' points %(total)s"),
)

# The phrases with a plural: ngettext's (singular, plural) ids. The script
# names both ids; the catalogue gives each in its own form.
PLURALS: tuple[tuple[str, str], ...] = (MINUS_PLAYERS,)
