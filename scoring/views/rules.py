"""A session's rules: changed freely before the first round, and after it only
with every saved round settled again."""

from __future__ import annotations

import dataclasses

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from .. import services
from ..engine import PRESETS, RoundError, Rules, settle_round, settle_session
from ..engine.rules import OPTION_HELP, OPTION_LABELS, OPTION_NAMES, preset_of
from ..forms import refused_status
from ..forms.rules import RulesForm, preset_options
from ..models import GameSession
from ..selectors.rounds import saved_rounds
from ..services.rounds import needs_sequence
from ..words.i18n import translate
from .access import session_for_user


def _rules_table(rules: Rules) -> list[dict[str, object]]:
    options = rules.to_options()
    return [
        {"name": n, "label": _(OPTION_LABELS[n]), "help": _(OPTION_HELP[n]), "value": options[n]}
        for n in OPTION_NAMES
    ]


def _check_rounds(session: GameSession, rules: Rules) -> str | None:
    """The first round that cannot be settled under `rules`, as a message."""
    for position, round_ in enumerate(services.rounds_with_entries(session), start=1):
        try:
            settle_round(round_.to_input(), rules)
        except RoundError as error:
            return _("Round %(position)d, %(error)s") % {
                "position": position,
                "error": translate(error.msg),
            }
    return None


def _with_house_table(preset: Rules, rules: Rules) -> Rules:
    """A preset adopted by a session keeps the session's own maal point table."""
    return dataclasses.replace(preset, maal_points=rules.maal_points)


def _compare_presets(session: GameSession, rules: Rules) -> dict[str, object] | None:
    """The session's last round under its rules and under each preset, side by
    side: each player's net per column (None where that preset refuses it).
    "This session" is the ledger's stored nets. A preset under which a round can
    depend on the rounds before it (next-winner dhoos, a better default) settles
    the whole session in order, as adopting it would, so the last round books
    the dhoos owed from earlier rounds (None if it refuses any round); under any
    other the last round settles alone, with the same nets. A 1,000-round nepal
    session: about 60 ms for this table (30 of them reading the rounds)."""
    saved = saved_rounds(session)
    if not saved:
        return None
    last = saved[-1]
    alone = dataclasses.replace(last.input, better=bool(last.input.better))  # no default: False
    nets: list[dict[str, int] | None] = [{name: net for name, (_id, net) in last.entries.items()}]
    presets = [(name, _with_house_table(preset, rules)) for name, preset in PRESETS.items()]
    for _name, column_rules in presets:
        try:
            if needs_sequence(column_rules):
                # better as the table marked it: None takes this preset's default
                inputs = [r.input for r in saved]
                nets.append(settle_session(inputs, column_rules).rounds[-1].nets)
            else:
                nets.append(settle_round(alone, column_rules).nets)
        except RoundError:
            nets.append(None)
    return {
        "position": len(saved),
        "presets": [name for name, _rules in presets],
        "rows": [
            {"player": entry.player, "nets": [n[entry.player] if n else None for n in nets]}
            for entry in last.input.entries
        ],
        "refused": [n is None for n in nets],
    }


@login_required
def session_rules(request: HttpRequest, session_id: int) -> HttpResponse:
    session = session_for_user(request, session_id)
    rules = session.get_rules()
    has_rounds = session.rounds.exists()
    adopt = request.POST.get("adopt", "") if request.method == "POST" else ""
    if adopt in PRESETS:
        # One tap adopts a preset: saved at once before the first round; with
        # rounds, the form shows the preset for the usual re-settle confirmation.
        adopted = _with_house_table(PRESETS[adopt], rules)
        if not has_rounds:
            services.recompute_session(session=session, rules=adopted, user=request.user)
            messages.success(request, _("Rules saved."))
            return redirect("session_detail", session_id=session.pk)
        form = RulesForm(None, rules=adopted, has_rounds=has_rounds)
        form.fields["preset"].initial = adopt
        messages.info(
            request,
            _("Tick “Recompute every round” and save to play the %(preset)s preset.")
            % {"preset": _(adopt)},
        )
        return _rules_page(request, session, rules, form, has_rounds)
    form = RulesForm(request.POST or None, rules=rules, has_rounds=has_rounds)
    if request.method == "POST" and form.is_valid() and form.rules is not None:
        new_rules = form.rules
        if hasattr(rules, "maal_points"):  # the house point table has its own editor
            new_rules = dataclasses.replace(new_rules, maal_points=rules.maal_points)
        if new_rules == rules:
            messages.info(request, _("The rules are unchanged."))
            return redirect("session_detail", session_id=session.pk)
        problem = _check_rounds(session, new_rules) if has_rounds else None
        if problem is None:
            try:
                # With no rounds yet this only saves the rules; a round saved
                # meanwhile by another phone is settled again with the rest.
                services.recompute_session(session=session, rules=new_rules, user=request.user)
            except RoundError as error:  # a round changed meanwhile
                problem = translate(error.msg)
        if problem is None:
            if has_rounds:
                messages.success(request, _("Rules changed and every round settled again."))
            else:
                messages.success(request, _("Rules saved."))
            return redirect("session_detail", session_id=session.pk)
        form.add_error(
            None,
            _("Not changed: %(problem)s. Under these rules that round is impossible.")
            % {"problem": problem},
        )
    return _rules_page(request, session, rules, form, has_rounds)


def _rules_page(
    request: HttpRequest, session: GameSession, rules: Rules, form: RulesForm, has_rounds: bool
) -> HttpResponse:
    return render(
        request,
        "scoring/rules/rules.html",
        {
            "session": session,
            "form": form,
            "rules_table": _rules_table(rules),
            "preset": preset_of(rules),
            "has_rounds": has_rounds,
            "presets": preset_options(),
            "compare": _compare_presets(session, rules),
            "preset_names": list(PRESETS),
        },
        status=refused_status(form),
    )
