"""The family purse's pages: the groups list, a group's page (balances, who
pays whom, payments, evenings, chart), its members, payments and their audit
trail, sharing, printing and files. Every object through groups/access.py."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from decimal import Decimal

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.text import slugify
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import condition, require_POST

from localise.numbers import NumberFormat, currency_label
from localise.templatetags.local_format import local_date
from scoring.forms import refused_status
from scoring.forms.rules import preset_options
from scoring.forms.sessions import SessionForm
from scoring.models import SavedKey
from scoring.selectors.saves import AlreadySaved, posted_save_key, repeated_save
from scoring.selectors.versions import remember
from scoring.services import create_session
from scoring.views.share import png_response
from scoring.web.pagecache import render_page
from scoring.web.uploads import too_large
from table.views import qr_svg

from . import selectors, services
from .access import (
    change_for_user,
    evening_for_user,
    group_for_user,
    group_version_for_user,
    member_for_user,
    payment_for_user,
)
from .cards import group_card as group_card_png
from .forms import AddEveningForm, GroupForm, GroupImportForm, MemberForm, PaymentForm
from .models import Group, Member, MemberLink, Payment, PaymentChange
from .versions import group_version

# The group page shows the latest of each (the printable page shows every one):
# a family of a thousand evenings still opens at once on a phone.
PAYMENTS_SHOWN = 10
EVENINGS_SHOWN = 10


def _earlier(request: HttpRequest, kind: str) -> SavedKey | None:
    """What the reader saved before under the POST's one-time key: a repeat of
    that save answers with it. A key kept with another kind of save is refused
    (400, scoring/selectors/saves.py) before anything is read or saved."""
    return repeated_save(request, kind=kind)


def _saved_once(request: HttpRequest, save: Callable[[], HttpResponse], gone: str) -> HttpResponse:
    try:
        return save()
    except AlreadySaved:
        messages.info(request, _("This was saved already, and has been deleted since."))
        return redirect(gone)


# --- groups -------------------------------------------------------------------


@login_required
def group_list(request: HttpRequest) -> HttpResponse:
    earlier = _earlier(request, "group")
    form = GroupForm(request.POST or None)
    if earlier is not None:
        return _saved_once(
            request,
            lambda: _group_created(request, selectors.saved_group(earlier, owner=request.user)),
            "group_list",
        )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        group = services.create_group(
            owner=request.user,
            name=data["name"],
            currency=data["currency"],
            members=data["members"],
            save_key=posted_save_key(request),
        )
        return _group_created(request, group)
    groups = []
    for group in selectors.groups_for(request.user.pk):
        purse = selectors.group_purse(group, payments_limit=1)
        groups.append((group, purse))
    status = refused_status(form)
    return render(request, "groups/list.html", {"groups": groups, "form": form}, status=status)


def _group_created(request: HttpRequest, group: Group) -> HttpResponse:
    messages.success(request, _("Group “%(name)s” created.") % {"name": group.name})
    return redirect("group_detail", group_id=group.pk)


def day_lines(days: list[selectors.EveningDay]) -> list[tuple[selectors.EveningDay, str]]:
    """Each evening's games and total as HTML, drawn here rather than by a
    template loop per amount: an evening of three games names each member
    four times, and ten such evenings cost a template two hundred filter
    calls (100 evenings of three games: the group page twice as fast).
    Every name is escaped; amounts are written as the money filter writes
    them (localise.numbers), in the page's language."""
    fmt = NumberFormat.current()
    plain = fmt.decimal_sep == "." and fmt.thousand_sep == ","
    shown: dict[str, str] = {}

    def money_text(amount: Decimal) -> str:
        # Below a lakh both languages group alike: Python's own grouping will do.
        exponent = amount.as_tuple().exponent
        if plain and abs(amount) < 100_000 and isinstance(exponent, int) and exponent >= -2:
            return f"{amount:,.2f}"
        return fmt.money(amount)

    def amounts(money: dict[str, Decimal]) -> str:
        parts = []
        for name, amount in money.items():
            escaped = shown.get(name)
            if escaped is None:
                escaped = shown[name] = escape(name)
            tone = "pos" if amount > 0 else "neg" if amount < 0 else ""
            parts.append(f'<span class="{tone}">{escaped} {money_text(amount)}</span>')
        return " · ".join(parts)

    total = escape(_("Evening's total"))
    lines: list[tuple[selectors.EveningDay, str]] = []
    for day in days:
        parts = []
        for game in day.games:
            name = escape(game.name)
            link = f'<a href="{escape(game.url)}">{name}</a>' if game.url else name
            parts.append(
                f'<br>{link} <span class="muted small">({escape(game.label)})</span>: '
                + amounts(game.money)
            )
        if len(day.games) > 1:
            parts.append(f"<br><strong>{total}:</strong> {amounts(day.total)}")
        lines.append((day, mark_safe("".join(parts))))  # every name escaped above
    return lines


@login_required
def group_detail(request: HttpRequest, group_id: int) -> HttpResponse:
    version = group_version_for_user(request, group_id)

    def context() -> dict[str, object]:
        group = group_for_user(request, group_id)
        purse = selectors.group_purse(group, payments_limit=PAYMENTS_SHOWN)
        days = selectors.evening_days(purse, limit=EVENINGS_SHOWN)
        return {
            "group": group,
            "purse": purse,
            "payments": purse.payments,
            "more_payments": max(0, purse.payment_count - PAYMENTS_SHOWN),
            "evenings": day_lines(days[:EVENINGS_SHOWN]),
            "more_evenings": max(0, purse.day_count - EVENINGS_SHOWN),
            "chart": purse.chart(),
            "share_text": selectors.share_lines(purse),
            "rows": [
                (member, balance, owed, selectors.share_lines(purse, member))
                for member, balance, owed in purse.balance_rows
            ],
        }

    return render_page(request, "groups/detail.html", context, version=version)


@login_required
def group_records(request: HttpRequest, group_id: int) -> HttpResponse:
    """The group's records, season by season (Bikram Sambat years), Dashain and
    Tihar evenings marked; rendered once per version of the group."""
    version = group_version_for_user(request, group_id)

    def context() -> dict[str, object]:
        group = group_for_user(request, group_id)
        seasons = selectors.group_records(group)
        # A season lists every evening: worded here, a row a tuple, rather than
        # a {% url %} and two filters per evening in the template.
        festival = {"dashain": _("Dashain"), "tihar": _("Tihar"), "": ""}
        link = reverse("session_detail", args=[0])[: -len("0/")]
        evenings = {
            season.year: [
                (f"{link}{e.id}/", e.name, local_date(e.played_on), festival[e.festival])
                for e in season.evenings
            ]
            for season in seasons
        }
        return {
            "group": group,
            "seasons": [(season, evenings[season.year]) for season in seasons],
        }

    return render_page(request, "groups/records.html", context, version=version)


def _card_etag(request: HttpRequest, group_id: int) -> str | None:
    if not request.user.is_authenticated:
        return None
    version = group_version(group_id, request.user.pk)
    return None if version is None else f"card-{version}-{get_language()}"


@login_required
@condition(etag_func=_card_etag)
def group_card(request: HttpRequest, group_id: int) -> HttpResponse:
    """The group's balances and who pays whom as a picture to share, in the
    reader's language (owner only: anyone else a 404); drawn once per version
    of the group and language."""
    version = group_version_for_user(request, group_id)
    group = group_for_user(request, group_id)
    png = remember(f"group-card-{get_language()}", version, lambda: group_card_png(group))
    return png_response(png, f"{slugify(group.name) or 'group'}-{group.pk}.png")


@login_required
def group_print(request: HttpRequest, group_id: int) -> HttpResponse:
    group = group_for_user(request, group_id)
    purse = selectors.group_purse(group)
    return render(
        request,
        "groups/print.html",
        {"group": group, "purse": purse, "printed_on": timezone.localdate()},
    )


@login_required
def group_delete(request: HttpRequest, group_id: int) -> HttpResponse:
    group = group_for_user(request, group_id)
    if request.method == "POST":
        name = group.name
        services.delete_group(group=group)
        messages.success(
            request,
            _("Group “%(name)s” deleted; its evenings stay as sessions.") % {"name": name},
        )
        return redirect("group_list")
    return render(request, "groups/confirm_delete.html", {"group": group})


# --- members ------------------------------------------------------------------


@login_required
def member_list(request: HttpRequest, group_id: int) -> HttpResponse:
    group = group_for_user(request, group_id)
    earlier = _earlier(request, "member")
    if earlier is not None:
        return _saved_once(
            request,
            lambda: _member_added(request, group, selectors.saved_member(earlier, group=group)),
            "group_list",
        )
    form = MemberForm(request.POST or None, group=group)
    if request.method == "POST" and form.is_valid():
        member = services.add_member(
            group=group,
            name=form.cleaned_data["name"],
            user=request.user,
            save_key=posted_save_key(request),
        )
        return _member_added(request, group, member)
    status = refused_status(form)
    members = list(Member.objects.filter(group=group))
    return render(
        request,
        "groups/members.html",
        {"group": group, "members": members, "form": form},
        status=status,
    )


def _member_added(request: HttpRequest, group: Group, member: Member) -> HttpResponse:
    messages.success(request, _("%(name)s is a member now.") % {"name": member.name})
    return redirect("group_members", group_id=group.pk)


@login_required
def member_edit(request: HttpRequest, group_id: int, member_id: int) -> HttpResponse:
    group = group_for_user(request, group_id)
    member = member_for_user(request, group, member_id)
    form = MemberForm(
        request.POST or None, group=group, member=member, initial={"name": member.name}
    )
    if request.method == "POST" and form.is_valid():
        old = member.name
        try:
            services.rename_member(member=member, name=form.cleaned_data["name"])
        except services.GroupError as error:  # removed by another phone a moment ago
            member.name = old
            form.add_error(None, str(error))
        except IntegrityError:  # the same name saved by another phone a moment ago
            member.name = old
            form.add_error(
                "name",
                _("%(name)s is a member already") % {"name": form.cleaned_data["name"]},
            )
        else:
            messages.success(
                request,
                _("%(old)s is now %(new)s, in every evening of the group.")
                % {"old": old, "new": member.name},
            )
            return redirect("group_members", group_id=group.pk)
    return render(
        request,
        "groups/member_edit.html",
        {
            "group": group,
            "member": member,
            "form": form,
            "problem": selectors.removal_problem(member),
        },
        status=refused_status(form),
    )


@login_required
@require_POST
def member_delete(request: HttpRequest, group_id: int, member_id: int) -> HttpResponse:
    group = group_for_user(request, group_id)
    member = member_for_user(request, group, member_id)
    try:
        services.remove_member(member=member)
    except services.GroupError as error:
        messages.error(request, str(error))
        return redirect("group_member_edit", group_id=group.pk, member_id=member.pk)
    messages.success(request, _("%(name)s left the group.") % {"name": member.name})
    return redirect("group_members", group_id=group.pk)


# --- member links -------------------------------------------------------------


def link_url(request: HttpRequest, link: MemberLink) -> str:
    """A member link as the phones reach this app (never 127.0.0.1 on the wifi)."""
    return request.build_absolute_uri(reverse("member_seat", args=[link.token]))


@login_required
def member_links(request: HttpRequest, group_id: int) -> HttpResponse:
    """One link and QR code per member, for the whole festival: printed on one sheet."""
    group = group_for_user(request, group_id)
    rows = []
    for member, link in selectors.member_links(group):
        row: dict[str, object] = {"member": member, "link": link}
        if link is not None:
            url = link_url(request, link)
            title = _("QR code of %(name)s's link") % {"name": member.name}
            row.update(url=url, qr=qr_svg(url, title))
        rows.append(row)
    return render(
        request,
        "groups/links.html",
        {"group": group, "rows": rows, "missing": any(r["link"] is None for r in rows)},
    )


@login_required
@require_POST
def member_links_make(request: HttpRequest, group_id: int) -> HttpResponse:
    group = group_for_user(request, group_id)
    services.make_member_links(group=group)
    messages.success(
        request, _("Member links made. Each one opens its member's seat every evening.")
    )
    return redirect("group_links", group_id=group.pk)


def _owned_link(request: HttpRequest, group_id: int, member_id: int) -> tuple[Group, MemberLink]:
    group = group_for_user(request, group_id)
    member = member_for_user(request, group, member_id)
    return group, get_object_or_404(MemberLink.objects.select_related("member"), member=member)


@login_required
@require_POST
def member_link_renew(request: HttpRequest, group_id: int, member_id: int) -> HttpResponse:
    group, link = _owned_link(request, group_id, member_id)
    services.renew_member_link(link=link)
    messages.success(
        request,
        _("New link for %(name)s. The old link no longer works.") % {"name": link.member.name},
    )
    return redirect("group_links", group_id=group.pk)


@login_required
@require_POST
def member_link_revoke(request: HttpRequest, group_id: int, member_id: int) -> HttpResponse:
    group, link = _owned_link(request, group_id, member_id)
    services.revoke_member_link(link=link)
    messages.success(
        request,
        _("Link of %(name)s turned off. Nobody can open it any more.") % {"name": link.member.name},
    )
    return redirect("group_links", group_id=group.pk)


# --- evenings -----------------------------------------------------------------


@login_required
def evening_new(request: HttpRequest, group_id: int) -> HttpResponse:
    """A new session of the group: the new-session form, its players the members."""
    group = group_for_user(request, group_id)
    earlier = _earlier(request, "session")
    if earlier is not None:
        return _saved_once(
            request,
            lambda: redirect("session_detail", session_id=earlier.object_pk or 0),
            "group_list",
        )
    # The group's last evening as the table left it: its rules, stake and seating.
    last = selectors.last_evening(group.pk)
    form = SessionForm(request.POST or None, rules=last.get_rules() if last else None)
    members = list(Member.objects.filter(group=group))
    if request.method == "POST" and form.is_valid() and form.rules is not None:
        data = form.cleaned_data
        if data["currency"] != group.currency:
            form.add_error(
                "currency",
                _("the group plays in %(currency)s")
                % {"currency": currency_label(group.currency, get_language())},
            )
        else:
            with transaction.atomic():
                session = create_session(
                    owner=request.user,
                    name=data["name"],
                    played_on=data["played_on"],
                    currency=data["currency"],
                    stake_per_point=data["stake_per_point"],
                    rules=form.rules,
                    players=data["players"],
                    save_key=posted_save_key(request),
                )
                services.add_evening(group=group, session=session)
            messages.success(
                request,
                _("Session created in %(group)s. Enter the first round.") % {"group": group.name},
            )
            return redirect("round_new", session_id=session.pk)
    if not form.is_bound:
        seating = [p.name for p in last.players.all()] if last else [m.name for m in members]
        form.initial.update(
            played_on=timezone.localdate(),
            currency=group.currency,
            players="\n".join(seating),
        )
        if last is not None:
            form.initial["stake_per_point"] = last.stake_per_point
    return render(
        request,
        "scoring/sessions/new.html",
        {
            "form": form,
            "past_players": [m.name for m in members],
            "group": group,
            "last_evening": last,
            "presets": _presets(),
        },
        status=refused_status(form),
    )


def _presets():
    return preset_options()


@login_required
def evening_add(request: HttpRequest, group_id: int) -> HttpResponse:
    """An existing session joins the group; its players become members."""
    group = group_for_user(request, group_id)
    sessions = selectors.unplaced_sessions(group)
    form = AddEveningForm(request.POST or None, sessions=sessions)
    if request.method == "POST" and form.is_valid():
        session = form.cleaned_data["session"]
        try:
            services.add_evening(group=group, session=session)
        except services.GroupError as error:
            form.add_error("session", str(error))
        else:
            messages.success(
                request,
                _("%(session)s is an evening of %(group)s now.")
                % {"session": session.name, "group": group.name},
            )
            return redirect("group_detail", group_id=group.pk)
    return render(
        request,
        "groups/evening_add.html",
        {"group": group, "form": form, "has_sessions": sessions.exists()},
        status=refused_status(form),
    )


@login_required
@require_POST
def evening_remove(request: HttpRequest, group_id: int, session_id: int) -> HttpResponse:
    group = group_for_user(request, group_id)
    evening = evening_for_user(request, group, session_id)
    name = evening.session.name
    services.remove_evening(evening=evening)
    messages.success(
        request,
        _("%(session)s is no longer an evening of %(group)s; the session stays.")
        % {"session": name, "group": group.name},
    )
    return redirect("group_detail", group_id=group.pk)


# --- payments -----------------------------------------------------------------


@login_required
def payment_new(request: HttpRequest, group_id: int) -> HttpResponse:
    """A blank payment form, or one pre-filled from a suggested payment
    (?from=<member>&to=<member>&amount=174.00): "Record payment" saves it."""
    group = group_for_user(request, group_id)
    earlier = _earlier(request, "payment")
    if earlier is not None:
        return _saved_once(
            request,
            lambda: _payment_saved(request, group, selectors.saved_payment(earlier, group=group)),
            "group_list",
        )
    form = PaymentForm(request.POST or None, group=group)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            payment = services.record_payment(
                group=group,
                payer=data["payer"],
                payee=data["payee"],
                amount=data["amount"],
                paid_on=data["paid_on"],
                method=data["method"],
                note=data["note"],
                user=request.user,
                save_key=posted_save_key(request),
            )
        except services.GroupError as error:
            form.add_error(None, str(error))
        else:
            return _payment_saved(request, group, payment)
    if not form.is_bound:
        form.initial["paid_on"] = timezone.localdate()
        members = {str(m.pk): m for m in Member.objects.filter(group=group)}
        payer, payee = (
            members.get(request.GET.get("from", "")),
            members.get(request.GET.get("to", "")),
        )
        if payer is not None:
            form.initial["payer"] = payer.pk
        if payee is not None:
            form.initial["payee"] = payee.pk
        amount = request.GET.get("amount", "")
        if amount and len(amount) <= 15 and amount.replace(".", "", 1).isdigit():
            form.initial["amount"] = amount
    return render(
        request,
        "groups/payment_form.html",
        {"group": group, "form": form, "payment": None},
        status=refused_status(form),
    )


def _payment_saved(request: HttpRequest, group: Group, payment: Payment) -> HttpResponse:
    messages.success(
        request,
        _("Payment recorded: %(payer)s paid %(payee)s %(amount)s.")
        % {
            "payer": payment.payer.name,
            "payee": payment.payee.name,
            "amount": selectors.money_text(payment.amount, group.currency),
        },
    )
    return redirect("group_detail", group_id=group.pk)


@login_required
def payment_edit(request: HttpRequest, group_id: int, payment_id: int) -> HttpResponse:
    group = group_for_user(request, group_id)
    payment = payment_for_user(request, group, payment_id)
    initial = {
        "payer": payment.payer_id,
        "payee": payment.payee_id,
        "amount": payment.amount,
        "paid_on": payment.paid_on,
        "method": payment.method,
        "note": payment.note,
    }
    form = PaymentForm(request.POST or None, group=group, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            version = int(request.POST.get("version", ""))
        except ValueError:
            version = -1
        data = form.cleaned_data
        try:
            services.edit_payment(
                payment=payment,
                version=version,
                payer=data["payer"],
                payee=data["payee"],
                amount=data["amount"],
                paid_on=data["paid_on"],
                method=data["method"],
                note=data["note"],
                user=request.user,
            )
        except services.GroupError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("Payment changed."))
            return redirect("group_detail", group_id=group.pk)
    return render(
        request,
        "groups/payment_form.html",
        {"group": group, "form": form, "payment": payment},
        status=refused_status(form),
    )


@login_required
@require_POST
def payment_delete(request: HttpRequest, group_id: int, payment_id: int) -> HttpResponse:
    group = group_for_user(request, group_id)
    payment = payment_for_user(request, group, payment_id)
    services.delete_payment(payment=payment, user=request.user)
    messages.success(
        request,
        _("Payment deleted. The history of payments can restore it."),
    )
    return redirect("group_detail", group_id=group.pk)


@login_required
def payment_changes(request: HttpRequest, group_id: int) -> HttpResponse:
    group = group_for_user(request, group_id)
    changes = list(PaymentChange.objects.filter(group=group).select_related("user")[:200])
    for change in changes:
        # The day it was paid, as every page writes a date (Bikram Sambat in Nepali).
        shown = change.after or change.before or {}
        try:
            change.paid_on = datetime.date.fromisoformat(shown.get("paid_on", ""))  # type: ignore[attr-defined]
        except (TypeError, ValueError):
            change.paid_on = None  # type: ignore[attr-defined]
    restorable = {
        c.pk
        for c in changes
        if c.action == "delete"
        and not c.restored
        and not Payment.objects.filter(pk=c.payment_pk).exists()
    }
    return render(
        request,
        "groups/changes.html",
        {"group": group, "changes": changes, "restorable": restorable},
    )


@login_required
@require_POST
def payment_restore(request: HttpRequest, group_id: int, change_id: int) -> HttpResponse:
    group = group_for_user(request, group_id)
    change = change_for_user(request, group, change_id)
    try:
        services.restore_payment(change=change, user=request.user)
    except services.GroupError as error:
        messages.error(request, str(error))
        return redirect("group_changes", group_id=group.pk)
    messages.success(request, _("Payment restored."))
    return redirect("group_detail", group_id=group.pk)


# --- files --------------------------------------------------------------------


@login_required
def group_export(request: HttpRequest, group_id: int) -> StreamingHttpResponse:
    """The group's file, sent as it is read (selectors.group_file): a worker
    holds one evening at a time, and the download starts at once."""
    group = group_for_user(request, group_id)
    response = StreamingHttpResponse(
        selectors.group_file(group), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="group-{group.pk}.json"'
    return response


@login_required
def group_import(request: HttpRequest) -> HttpResponse:
    earlier = _earlier(request, "groupfile")
    if earlier is not None:
        return _saved_once(
            request,
            lambda: _imported(request, selectors.saved_group(earlier, owner=request.user)),
            "group_list",
        )
    form = (
        GroupImportForm(request.POST, request.FILES, too_large=too_large(request))
        if request.method == "POST"
        else GroupImportForm()
    )
    if form.is_bound and form.is_valid() and form.doc is not None:
        group = services.import_group(
            doc=form.doc,
            other_games=form.other_games,
            owner=request.user,
            save_key=posted_save_key(request),
        )
        return _imported(request, group)
    return render(request, "groups/import.html", {"form": form}, status=refused_status(form))


def _imported(request: HttpRequest, group: Group) -> HttpResponse:
    messages.success(request, _("Imported “%(name)s”.") % {"name": group.name})
    return redirect("group_detail", group_id=group.pk)
