"""Every write to a group: keyword-only arguments, one transaction each."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from decimal import Decimal

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.engine.groupfile import GroupDoc
from scoring.engine.names import player_key
from scoring.engine.sessionfile import SessionDoc
from scoring.models import GameSession, Player
from scoring.services import save_document
from scoring.services.savekeys import once, remember_save
from scoring.web.push import announce

from . import purse
from .groupfile import OtherGameDoc
from .models import (
    Evening,
    FiledGame,
    Group,
    Member,
    MemberLink,
    Payment,
    PaymentChange,
    new_link_token,
)
from .selectors import (
    evening_problem,
    group_live_id,
    last_evening,
    payment_snapshot,
    removal_problem,
    saved_group,
    saved_member,
    saved_payment,
)


class GroupError(Exception):
    """A write refused; the message says why, for the user."""


class PaymentConflict(GroupError):
    pass


# One order for the locks of every write that touches a group: the sessions of
# its evenings (by id: a round's save holds its session while its entries point
# at the players), then the group, then its members and payments. Two writes
# racing on the same rows then wait for each other instead of deadlocking.


def _tell_member_links(group_id: int, *sessions: int) -> None:
    """Once this commits, every member's page of the group looks again at which
    evening, and which player of it, its link opens: the pages follow the
    group's newest evening, or the group itself before it has one (table's
    member_stream), so both are told, and `sessions` a page may still show."""
    newest = last_evening(group_id)
    for followed in {group_live_id(group_id), *sessions, *([newest.pk] if newest else [])}:
        announce(followed)


def _lock_group(group_id: int) -> Group:
    """The group's row, locked until the commit: GroupError if deleted meanwhile."""
    group = Group.objects.select_for_update(no_key=True).filter(pk=group_id).first()
    if group is None:
        raise GroupError(_("This group was deleted meanwhile."))
    return group


def _lock_evenings(group_id: int) -> list[int]:
    """The sessions of the group's evenings, locked in order (before the group)."""
    ids = list(
        Evening.objects.filter(group_id=group_id)
        .order_by("session_id")
        .values_list("session_id", flat=True)
    )
    list(
        GameSession.objects.select_for_update(no_key=True)
        .filter(pk__in=ids)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    return ids


def _member_now(member: Member, group_id: int) -> Member:
    """`member` as it is now (the group locked): GroupError naming them if they
    left the group meanwhile."""
    found = Member.objects.filter(pk=member.pk, group_id=group_id).first()
    if found is None:
        raise GroupError(_("%(name)s is no longer a member of this group.") % {"name": member.name})
    return found


# --- groups and members -------------------------------------------------------


def create_group(
    *, owner, name: str, currency: str, members: list[str], save_key: str | None = None
) -> Group:
    return once(
        save=lambda: _create_group(
            owner=owner, name=name, currency=currency, members=members, save_key=save_key
        ),
        user=owner,
        key=save_key,
        replay=lambda saved: saved_group(saved, owner=owner),
        kind="group",
    )


@transaction.atomic
def _create_group(
    *, owner, name: str, currency: str, members: list[str], save_key: str | None
) -> Group:
    group = Group.objects.create(owner=owner, name=name, currency=currency)
    for position, member in enumerate(members):
        Member.objects.create(group=group, name=member, position=position)
    remember_save(user=owner, key=save_key, kind="group", object_pk=group.pk)
    return group


def add_member(*, group: Group, name: str, user=None, save_key: str | None = None) -> Member:
    return once(
        save=lambda: _add_member(group=group, name=name, user=user, save_key=save_key),
        user=user,
        key=save_key,
        replay=lambda saved: saved_member(saved, group=group),
        kind="member",
    )


@transaction.atomic
def _add_member(*, group: Group, name: str, user, save_key: str | None) -> Member:
    _lock_group(group.pk)
    top = Member.objects.filter(group=group).aggregate(top=Max("position"))["top"]
    member = Member.objects.create(group=group, name=name, position=(top or 0) + 1)
    remember_save(user=user, key=save_key, kind="member", object_pk=member.pk)
    return member


@transaction.atomic
def rename_member(*, member: Member, name: str) -> None:
    """A new name for the member, in every evening of the group at once (each
    evening's player of the member's key takes it). GroupError if the member
    left the group meanwhile."""
    sessions = _lock_evenings(member.group_id)
    _lock_group(member.group_id)
    now = _member_now(member, member.group_id)
    old_key = now.name_key
    member.name = name
    member.save(update_fields=["name"])
    for player in Player.objects.filter(session_id__in=sessions, name_key=old_key):
        player.name = name
        player.save(update_fields=["name"])
    # The other games of the group (groups/purse.py) take the new name too.
    for game_kind in purse.kinds():
        if game_kind.rename is not None:
            game_kind.rename(group_id=member.group_id, old_key=old_key, name=name)
    for filed in FiledGame.objects.filter(group_id=member.group_id):
        old = next((p for p in filed.money if player_key(p) == old_key), None)
        if old is None or old == name:
            continue
        filed.money = {name if p == old else p: amount for p, amount in filed.money.items()}
        of_kind = purse.kind_of(filed.kind)
        if of_kind is not None and of_kind.rename_in is not None:
            filed.document = of_kind.rename_in(filed.document, old, name)
        filed.save(update_fields=["money", "document", "updated_at"])
    _tell_member_links(member.group_id)


@transaction.atomic
def remove_member(*, member: Member) -> None:
    _lock_group(member.group_id)
    problem = removal_problem(member)
    if problem:
        raise GroupError(problem)
    member.delete()
    _tell_member_links(member.group_id)


@transaction.atomic
def delete_group(*, group: Group) -> None:
    """The group and its payments; its evenings stay, as sessions of no group."""
    _lock_group(group.pk)
    _tell_member_links(group.pk)
    Payment.objects.filter(group=group).delete()
    group.delete()


# --- member links -------------------------------------------------------------


@transaction.atomic
def make_member_links(*, group: Group) -> list[MemberLink]:
    """A link for every member of the group who has none yet; all of them, in
    the members' order."""
    have = set(MemberLink.objects.filter(member__group=group).values_list("member_id", flat=True))
    MemberLink.objects.bulk_create(
        MemberLink(member=member)
        for member in Member.objects.filter(group=group)
        if member.pk not in have
    )
    return list(MemberLink.objects.filter(member__group=group).select_related("member"))


def renew_member_link(*, link: MemberLink) -> MemberLink:
    """A new link for the member: the old one is a 404 at once."""
    link.token = new_link_token()
    link.save(update_fields=["token"])
    _tell_member_links(link.member.group_id)
    return link


def revoke_member_link(*, link: MemberLink) -> None:
    link.delete()
    _tell_member_links(link.member.group_id)


# --- evenings -----------------------------------------------------------------


@transaction.atomic
def add_evening(*, group: Group, session: GameSession) -> Evening:
    """The session joins the group; its players who are not members yet become members."""
    GameSession.objects.select_for_update(no_key=True).filter(pk=session.pk).first()
    _lock_group(group.pk)
    if session.currency != group.currency:
        raise GroupError(
            _("%(session)s is in %(currency)s, not the group's %(group_currency)s")
            % {
                "session": session.name,
                "currency": session.currency,
                "group_currency": group.currency,
            }
        )
    if Evening.objects.filter(session=session).exists():
        raise GroupError(_("%(session)s belongs to a group already") % {"session": session.name})
    known = set(Member.objects.filter(group=group).values_list("name_key", flat=True))
    top = Member.objects.filter(group=group).aggregate(top=Max("position"))["top"] or 0
    for player in session.players.all():
        if player.name_key not in known:
            top += 1
            Member.objects.create(group=group, name=player.name, position=top)
            known.add(player.name_key)
    _tell_member_links(group.pk)  # before: the evening their pages follow until now
    return Evening.objects.create(group=group, session=session)


@transaction.atomic
def import_evening(*, group: Group, doc: SessionDoc) -> GameSession:
    """A session file saved as an evening of the group, owned by the group's
    owner, or (a player not a member, another currency) nothing saved."""
    Group.objects.select_for_update().get(pk=group.pk)
    problem = evening_problem(group, doc)
    if problem:
        raise GroupError(problem)
    session = save_document(doc=doc, owner=group.owner)
    _tell_member_links(group.pk)  # before: the evening their pages follow until now
    Evening.objects.create(group=group, session=session)
    return session


@transaction.atomic
def remove_evening(*, evening: Evening) -> None:
    """The session leaves the group (and stays, as a session of no group)."""
    evening.delete()
    _tell_member_links(evening.group_id, evening.session_id)


# --- payments -----------------------------------------------------------------


def _check_members(group: Group, payer: Member, payee: Member) -> None:
    """Called with the group locked: a member removed meanwhile is named."""
    if payer.group_id != group.pk or payee.group_id != group.pk:
        raise GroupError(_("both must be members of the group"))
    if payer.pk == payee.pk:
        raise GroupError(_("%(name)s cannot pay themselves") % {"name": payer.name})
    _member_now(payer, group.pk)
    _member_now(payee, group.pk)


def record_payment(
    *,
    group: Group,
    payer: Member,
    payee: Member,
    amount: Decimal,
    paid_on: datetime.date,
    method: str = "cash",
    note: str = "",
    user=None,
    save_key: str | None = None,
) -> Payment:
    """A payment made; with `save_key`, a repeat of the same form saves nothing
    and returns the payment the first one recorded."""
    return once(
        save=lambda: _record_payment(
            group=group,
            payer=payer,
            payee=payee,
            amount=amount,
            paid_on=paid_on,
            method=method,
            note=note,
            user=user,
            save_key=save_key,
        ),
        user=user,
        key=save_key,
        replay=lambda saved: saved_payment(saved, group=group),
        kind="payment",
    )


@transaction.atomic
def _record_payment(
    *, group, payer, payee, amount, paid_on, method, note, user, save_key
) -> Payment:
    _lock_group(group.pk)
    _check_members(group, payer, payee)
    payment = Payment.objects.create(
        group=group,
        payer=payer,
        payee=payee,
        amount=amount,
        paid_on=paid_on,
        method=method,
        note=note,
        recorded_by=user if getattr(user, "pk", None) else None,
    )
    PaymentChange.objects.create(
        group=group,
        payment_pk=payment.pk,
        user=payment.recorded_by,
        action="create",
        after=payment_snapshot(payment),
    )
    remember_save(user=user, key=save_key, kind="payment", object_pk=payment.pk)
    payment.replayed = False  # type: ignore[attr-defined]
    return payment


@transaction.atomic
def edit_payment(
    *,
    payment: Payment,
    version: int,
    payer: Member,
    payee: Member,
    amount: Decimal,
    paid_on: datetime.date,
    method: str,
    note: str,
    user=None,
) -> Payment:
    _lock_group(payment.group_id)
    locked = (
        Payment.objects.select_for_update()
        .select_related("payer", "payee")
        .filter(pk=payment.pk)
        .first()
    )
    if locked is None or locked.version != version:
        raise PaymentConflict(
            _("This payment was changed or deleted after you opened it; open it again.")
        )
    _check_members(locked.group, payer, payee)
    before = payment_snapshot(locked)
    locked.payer, locked.payee, locked.amount = payer, payee, amount
    locked.paid_on, locked.method, locked.note = paid_on, method, note
    locked.version += 1
    locked.save()
    PaymentChange.objects.create(
        group_id=locked.group_id,
        payment_pk=locked.pk,
        user=user if getattr(user, "pk", None) else None,
        action="edit",
        before=before,
        after=payment_snapshot(locked),
    )
    return locked


@transaction.atomic
def delete_payment(*, payment: Payment, user=None) -> None:
    _lock_group(payment.group_id)
    locked = (
        Payment.objects.select_for_update()
        .select_related("payer", "payee")
        .filter(pk=payment.pk)
        .first()
    )
    if locked is None:
        return
    before = payment_snapshot(locked)
    group_id = locked.group_id
    locked.delete()
    PaymentChange.objects.create(
        group_id=group_id,
        payment_pk=payment.pk,
        user=user if getattr(user, "pk", None) else None,
        action="delete",
        before=before,
    )


@transaction.atomic
def restore_payment(*, change: PaymentChange, user=None) -> Payment:
    """A deleted payment back from the audit trail, with its old id."""
    _lock_group(change.group_id)
    change = PaymentChange.objects.select_for_update().get(pk=change.pk)
    if change.action != "delete" or not change.before:
        raise GroupError(_("Only a deleted payment can be restored."))
    if change.restored or Payment.objects.filter(pk=change.payment_pk).exists():
        raise GroupError(_("This payment has already been restored."))
    before = change.before
    members = {m.pk: m for m in Member.objects.filter(group_id=change.group_id)}
    payer, payee = members.get(before["payer_id"]), members.get(before["payee_id"])
    if payer is None or payee is None:
        raise GroupError(_("A member of this payment has left the group."))
    payment = Payment.objects.create(
        pk=change.payment_pk,
        group_id=change.group_id,
        payer=payer,
        payee=payee,
        amount=Decimal(before["amount"]),
        paid_on=datetime.date.fromisoformat(before["paid_on"]),
        method=before["method"],
        note=before["note"],
        recorded_by_id=before.get("recorded_by_id"),
        recorded_at=datetime.datetime.fromisoformat(before["recorded_at"]),
    )
    change.restored = True
    change.save(update_fields=["restored"])
    PaymentChange.objects.create(
        group_id=change.group_id,
        payment_pk=payment.pk,
        user=user if getattr(user, "pk", None) else None,
        action="restore",
        after=payment_snapshot(payment),
    )
    return payment


# --- files --------------------------------------------------------------------


def import_group(
    *,
    doc: GroupDoc,
    other_games: Sequence[OtherGameDoc] = (),
    owner=None,
    save_key: str | None = None,
) -> Group:
    """A parsed group file saved whole (the group, its members, every evening
    as a session, every payment, every other game), or on any error not at all."""
    return once(
        save=lambda: _import_group(
            doc=doc, other_games=other_games, owner=owner, save_key=save_key
        ),
        user=owner,
        key=save_key,
        replay=lambda saved: saved_group(saved, owner=owner),
        kind="groupfile",
    )


@transaction.atomic
def _import_group(
    *, doc: GroupDoc, other_games: Sequence[OtherGameDoc], owner, save_key: str | None
) -> Group:
    group = Group.objects.create(owner=owner, name=doc.name, currency=doc.currency)
    members = {}
    for position, name in enumerate(doc.members):
        members[name] = Member.objects.create(group=group, name=name, position=position)
    for session_doc in doc.sessions:
        session = save_document(doc=session_doc, owner=owner)
        Evening.objects.create(group=group, session=session)
    for p in doc.payments:
        payment = Payment.objects.create(
            group=group,
            payer=members[p.payer],
            payee=members[p.payee],
            amount=p.amount,
            paid_on=p.paid_on or timezone.localdate(),
            method=p.method,
            note=p.note,
            recorded_by=owner if getattr(owner, "pk", None) else None,
        )
        PaymentChange.objects.create(
            group=group,
            payment_pk=payment.pk,
            user=payment.recorded_by,
            action="create",
            after=payment_snapshot(payment),
        )
    for position, game in enumerate(other_games):
        kind = purse.kind_of(game.kind)
        if kind is not None and kind.save is not None and owner is not None:
            kind.save(
                group=group,
                name=game.name,
                played_on=game.played_on,
                document=game.document,
                owner=owner,
            )
        else:  # kept as its document: its app keeps no record of its own
            FiledGame.objects.create(
                group=group,
                kind=game.kind,
                name=game.name,
                played_on=game.played_on,
                document=dict(game.document),
                money={name: str(amount) for name, amount in game.money.items()},
                position=position,
            )
    remember_save(user=owner, key=save_key, kind="groupfile", object_pk=group.pk)
    return group
