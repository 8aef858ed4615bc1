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
from ..engine import PRESETS, RoundError, Rules
from ..engine.rules import OPTION_HELP, OPTION_LABELS, OPTION_NAMES, preset_of
from ..forms import refused_status
from ..forms.rules import RulesForm, preset_options
from ..models import GameSession
from ..selectors.presets import compare_presets, first_refused_round, with_house_table
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
    refused = first_refused_round(session, rules)
    if refused is None:
        return None
    position, error = refused
    return _("Round %(position)d, %(error)s") % {
        "position": position,
        "error": translate(error.msg),
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
        adopted = with_house_table(PRESETS[adopt], rules)
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
            "compare": compare_presets(session, rules),
            "preset_names": list(PRESETS),
        },
        status=refused_status(form),
    )
