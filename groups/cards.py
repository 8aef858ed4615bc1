"""A group's picture card (/groups/<id>/card.png): every member's balance and
who pays whom to clear them, in the reader's language, from the group's purse
(groups/selectors.py: the amounts are the purse's)."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from localise.numbers import NumberFormat, currency_label
from localise.templatetags.local_format import local_date
from scoring.web.cards import Cell, Picture, Section, render, table
from scoring.web.session_card import tone

from .models import Group
from .selectors import group_purse, transfer_lines


def group_picture(group: Group) -> Picture:
    purse = group_purse(group, payments_limit=1)
    fmt = NumberFormat.current()
    currency = currency_label(group.currency, get_language())
    # An evening of Call Break and pot hands besides Marriage is one evening.
    count = purse.day_count
    evenings = ngettext("%(count)d evening", "%(count)d evenings", count) % {"count": count}
    rows = [
        (
            Cell(member.name),
            Cell(("+" if balance > 0 else "") + fmt.money(balance), tone(balance)),  # type: ignore[arg-type]
        )
        for member, balance, _owed in purse.balance_rows
    ]
    balances = table([(_("Member"), 0.6, "left"), (currency, 0.4, "right")], rows, _("Balances"))
    pays = tuple(transfer_lines(purse.transfers, currency)) or (_("Nobody owes anything."),)
    return Picture(
        title=group.name,
        subtitle=f"{local_date(timezone.localdate())} · {evenings}",
        sections=(balances, Section(_("Who pays whom"), lines=pays)),
    )


def group_card(group: Group) -> bytes:
    return render(group_picture(group))
