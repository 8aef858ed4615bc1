"""The maal calculator (RULES.md section 4) and the session's point-table editor.

The calculator is a small form: the tiplu plus a count per item. On the round
screen it opens from each player's maal field (static/js/maal.js) and posts
here with htmx; the result partial carries the points for the maal and tunnel
fields. On its own page it is a plain form that works without JavaScript.
"""

from __future__ import annotations

from dataclasses import replace

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from .. import services
from ..engine import RoundError, Rules
from ..engine.maal import ITEM_LABELS, TIER_ITEMS, point_table_for
from ..forms.maal import TableForm, read_calculator, read_table
from ..web.htmx import HtmxHttpRequest
from ..words.i18n import translate
from .access import session_for_scorer, session_for_user


@login_required
def maal_calculator(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    """GET: the calculator on its own page. POST: its result (htmx: the partial)."""
    session = session_for_scorer(request, session_id)
    rules = session.get_rules()
    data = request.POST if request.method == "POST" else request.GET
    calc = read_calculator(data, rules)
    context = {"session": session, "calc": calc, "table": _table_rows(rules)}
    if request.htmx:
        return render(request, "scoring/maal/calculator.html#result", context)
    return render(request, "scoring/maal/calculator.html", context)


def _table_rows(rules: Rules) -> list[tuple[str, str]]:
    """(item, "3, 7") for the table in force, skipping items the session has off."""
    table = point_table_for(rules)
    off = set()
    if not rules.alter:
        off |= {"alter", "alter_tunnel"}
    if not rules.printed_jokers:
        off.add("printed_joker")
    if not rules.master_card:
        off.add("master_card")
    rows = []
    for item in TIER_ITEMS:
        if item in off:
            continue
        tiers = ", ".join(str(t) for t in getattr(table, item))
        if item == "marriage" and table.marriage_on_top:
            tiers = _("%(tiers)s each, on top of its cards") % {"tiers": tiers}
        elif len(getattr(table, item)) == 1:
            tiers = _("%(tiers)s each") % {"tiers": tiers}
        rows.append((_(ITEM_LABELS[item]), tiers))
    return rows


@login_required
def maal_table(request: HttpRequest, session_id: int) -> HttpResponse:
    """The session owner's point table: tiers per item and which cards are maal.
    Like every rule, it changes freely before the first round, and after it only
    with every round settled again."""
    session = session_for_user(request, session_id)
    rules = session.get_rules()
    has_rounds = session.rounds.exists()
    form = TableForm.initial(rules)
    new_rules: Rules | None
    problem = ""
    if request.method == "POST":
        if request.POST.get("reset"):
            form, new_rules = TableForm.initial(rules), replace(rules, maal_points=None)
        else:
            form, new_rules = read_table(request.POST, rules)
        if new_rules is not None:
            if has_rounds and not request.POST.get("recompute"):
                form.recompute_needed = True
                problem = _(
                    "Rounds are saved: tick “recompute every round” to change the rules now."
                )
            else:
                try:
                    services.recompute_session(session=session, rules=new_rules, user=request.user)
                except RoundError as error:
                    problem = _("Not changed: %(problem)s.") % {"problem": translate(error.msg)}
                else:
                    messages.success(request, _("Maal point table saved."))
                    return redirect("maal_table", session_id=session.pk)
    return render(
        request,
        "scoring/maal/table.html",
        {
            "session": session,
            "form": form,
            "has_rounds": has_rounds,
            "problem": problem,
            "custom": rules.maal_points is not None,
            "base_table": rules.maal_table,
            "table": _table_rows(rules),
        },
        # A table sent and not saved (its problems shown) is refused as every form is.
        status=422 if request.method == "POST" else 200,
    )
