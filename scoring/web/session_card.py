"""An evening's picture card (/sessions/<id>/card.png): its standings, money
and who pays whom, in the reader's language, from the session's ledger (the
amounts are the ledger's: scoring/selectors/reports.py)."""

from __future__ import annotations

from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from localise.numbers import NumberFormat, currency_label
from localise.templatetags.local_format import local_date

from ..models import GameSession
from ..selectors.reports import session_ledger
from .cards import Cell, Picture, Section, render, table


def tone(value: object) -> str:
    try:
        return "pos" if value > 0 else "neg" if value < 0 else ""  # type: ignore[operator]
    except TypeError:
        return ""


def session_picture(session: GameSession) -> Picture:
    ledger = session_ledger(session)
    fmt = NumberFormat.current()
    currency = currency_label(session.currency, get_language())
    rounds = ngettext("%(rounds)s round", "%(rounds)s rounds", ledger.round_count) % {
        "rounds": fmt.num(ledger.round_count)
    }
    # The stake, and each one a round set from itself on: "NPR 1.00 → 5.00 per point".
    path = " → ".join(fmt.money(stake) for stake in ledger.stake_path)
    stake = f"{currency} {path} {_('per point')}"
    rows = [
        (
            Cell(str(s.rank)),
            Cell(s.player.name, bold=s.rank == 1 and s.points > 0),
            Cell(fmt.signed(s.points), tone(s.points)),  # type: ignore[arg-type]
            Cell(fmt.money(s.money), tone(s.money)),  # type: ignore[arg-type]
        )
        for s in ledger.standings
    ]
    standings = table(
        [
            ("#", 0.1, "right"),
            (_("Player"), 0.4, "left"),
            (_("Points"), 0.2, "right"),
            (currency, 0.3, "right"),
        ],
        rows,
        _("Standings"),
    )
    pays = tuple(
        _("%(payer)s pays %(payee)s %(currency)s %(money)s")
        % {"payer": p.payer, "payee": p.payee, "currency": currency, "money": fmt.money(p.money)}
        for p in ledger.payments
    ) or (_("Nobody owes anything."),)
    return Picture(
        title=session.name,
        subtitle=f"{local_date(session.played_on)} · {stake} · {rounds}",
        sections=(standings, Section(_("Who pays whom"), lines=pays)),
    )


def session_card(session: GameSession) -> bytes:
    return render(session_picture(session))
