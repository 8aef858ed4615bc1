"""A round's breakdown in words: each player's payment said as a table says it,
"B pays C 16: all points 14, plus 10 for unseen, minus 4 players × B's 2."

Built only from the engine's figures (RoundResult), so the words can never say
something the numbers do not. Each phrase is a catalogue entry with named
placeholders, so a language can put the names and numbers where it needs them.
The phone's preview says the same (static/js/breakdown-words.js), from the same
phrases.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from localise.numbers import NumberFormat

from ..engine import BookedDhoos, PlayerResult, RoundResult

MINUS = "−"  # U+2212: a minus sign, not a hyphen, in running text
# "minus 4 players × B's 2": the one phrase with a plural (ngettext's two ids).
MINUS_PLAYERS = (
    "minus %(n)s player × %(name)s's %(points)s",
    "minus %(n)s players × %(name)s's %(points)s",
)


def _signed(fmt: NumberFormat, value: int) -> str:
    if value > 0:
        return f"+{fmt.num(value)}"
    if value < 0:
        return f"{MINUS}{fmt.num(-value)}"
    return "0"


def _working(result: RoundResult, p: PlayerResult, fmt: NumberFormat) -> str:
    """T + w − n·S (× m) as words: the sum behind one loser's payment; under
    unseen_pairs = skip an unseen loser's is T_seen + w − k·S (RULES.md 3a)."""
    if p.seen_only:
        terms = [_("the seen players' points %(total)s") % {"total": fmt.num(result.total_seen)}]
    else:
        terms = [_("all points %(total)s") % {"total": fmt.num(result.total)}]
    base = p.w - result.dublee_bonus
    by_dublees = p.dublees and p.status == "seen" and not p.dead_hand
    bonus = result.dublee_player_bonus if by_dublees else 0
    if p.dead_hand:
        terms.append(_("no game payment (dead hand)"))
    elif p.status == "unseen":
        terms.append(_("plus %(w)s for unseen") % {"w": fmt.num(base)})
    elif base + bonus == 0 and p.dublees:
        # dublee_players_pay_seen off: say why there is no seen payment.
        terms.append(_("no seen payment (saw by dublees)"))
    else:
        terms.append(_("plus %(w)s for seen") % {"w": fmt.num(base + bonus)})
    if bonus:
        terms.append(_("minus %(bonus)s for seeing by dublees") % {"bonus": fmt.num(bonus)})
    if result.dublee_bonus:
        terms.append(
            _("plus %(bonus)s for the dublee win") % {"bonus": fmt.num(result.dublee_bonus)}
        )
    if p.points and p.seen_only:
        terms.append(
            _("minus %(n)s (the seen players) × %(name)s's %(points)s")
            % {"n": result.seen_count, "name": p.player, "points": fmt.num(p.points)}
        )
    elif p.points:
        terms.append(
            ngettext(*MINUS_PLAYERS, result.n)
            % {"n": result.n, "name": p.player, "points": fmt.num(p.points)}
        )
    else:
        terms.append(_("nothing off (%(name)s counts 0)") % {"name": p.player})
    if result.multiplier != 1:
        terms.append(_("all × %(times)s for the better round") % {"times": result.multiplier})
    return ", ".join(terms)


def _loser(result: RoundResult, p: PlayerResult, fmt: NumberFormat) -> str:
    values = {
        "loser": p.player,
        "winner": result.winner,
        "amount": fmt.num(abs(p.pay)),
        "working": _working(result, p, fmt),
    }
    if p.pay > 0:
        return _("%(loser)s pays %(winner)s %(amount)s: %(working)s.") % values
    if p.pay < 0:
        return _(
            "%(loser)s receives %(amount)s from %(winner)s: %(working)s makes −%(amount)s."
        ) % (values)
    return _("%(loser)s and %(winner)s are even: %(working)s makes 0.") % values


def _winner(result: RoundResult, p: PlayerResult, fmt: NumberFormat) -> str:
    # What comes in first, then what goes out: "16 from B, 17 from D, less 3 to A".
    losers = [other for other in result.players if not other.is_winner]
    parts = [
        _("%(amount)s from %(name)s") % {"name": other.player, "amount": fmt.num(other.pay)}
        for other in losers
        if other.pay > 0
    ]
    parts += [
        _("less %(amount)s to %(name)s") % {"name": other.player, "amount": fmt.num(-other.pay)}
        for other in losers
        if other.pay < 0
    ]
    take = sum(other.pay for other in result.players if not other.is_winner)
    values = {"winner": p.player, "amount": fmt.num(abs(take)), "parts": ", ".join(parts)}
    if take > 0:
        return _("%(winner)s takes %(amount)s as the winner: %(parts)s.") % values
    if take < 0:
        return _("%(winner)s won the round but pays %(amount)s: %(parts)s.") % values
    if parts:
        return _("%(winner)s won the round and comes out even: %(parts)s.") % values
    return _("%(winner)s won the round and comes out even.") % values


def _dhoos(result: RoundResult, p: PlayerResult, fmt: NumberFormat) -> str:
    if not p.dhoos_net:
        return ""
    if result.winner is None:
        values = {"name": p.player, "amount": fmt.num(abs(p.dhoos_net))}
        if p.dhoos_net < 0:
            return _("%(name)s pays %(amount)s in dhoos.") % values
        return _("%(name)s receives %(amount)s in dhoos.") % values
    return _("With dhoos %(dhoos)s, %(name)s ends the round at %(net)s.") % {
        "dhoos": _signed(fmt, p.dhoos_net),
        "name": p.player,
        "net": _signed(fmt, p.net),
    }


def player_sentence(
    result: RoundResult, player: PlayerResult, fmt: NumberFormat | None = None
) -> str:
    """One player's part of the round in words, in the active language."""
    fmt = fmt or NumberFormat.current()
    sentences = []
    if result.winner is not None:
        if player.is_winner:
            sentences.append(_winner(result, player, fmt))
        else:
            sentences.append(_loser(result, player, fmt))
    sentences.append(_dhoos(result, player, fmt))
    return " ".join(s for s in sentences if s)


def outside_sentence(owed: BookedDhoos, fmt: NumberFormat | None = None) -> str:
    """A next_round_winner dhoos paid by a player who sits the round out (RULES.md
    3a): in the round's nets, not among its players."""
    fmt = fmt or NumberFormat.current()
    return _(
        "%(name)s sits this round out and pays %(winner)s %(amount)s: dhoos from round %(round)s."
    ) % {
        "name": owed.player,
        "winner": owed.payee,
        "amount": fmt.num(owed.amount),
        "round": owed.round,
    }


def round_sentences(result: RoundResult) -> dict[str, str]:
    """Every player's sentence, by name."""
    fmt = NumberFormat.current()
    return {p.player: player_sentence(result, p, fmt) for p in result.players}
