"""Who may see what in groups: one helper per owned object, used by every view.
Another user's group, member, payment or change is a 404, exactly like one
that does not exist."""

from __future__ import annotations

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from .models import Evening, Group, Member, Payment, PaymentChange
from .versions import group_version, settle_up_version


def group_for_user(request: HttpRequest, group_id: int) -> Group:
    return get_object_or_404(Group, pk=group_id, owner_id=request.user.pk)


def group_version_for_user(request: HttpRequest, group_id: int) -> str:
    version = group_version(group_id, request.user.pk)
    if version is None:
        raise Http404
    return version


def _check_owner(request: HttpRequest, group: Group) -> None:
    if group.owner_id is None or group.owner_id != request.user.pk:
        raise Http404


def member_for_user(request: HttpRequest, group: Group, member_id: int) -> Member:
    _check_owner(request, group)
    return get_object_or_404(Member, pk=member_id, group=group)


def payment_for_user(request: HttpRequest, group: Group, payment_id: int) -> Payment:
    _check_owner(request, group)
    return get_object_or_404(
        Payment.objects.select_related("payer", "payee"), pk=payment_id, group=group
    )


def change_for_user(request: HttpRequest, group: Group, change_id: int) -> PaymentChange:
    _check_owner(request, group)
    return get_object_or_404(PaymentChange, pk=change_id, group=group)


def evening_for_user(request: HttpRequest, group: Group, session_id: int) -> Evening:
    _check_owner(request, group)
    return get_object_or_404(
        Evening.objects.select_related("session"), session_id=session_id, group=group
    )


def settle_up_version_for_user(request: HttpRequest, session_id: int) -> str:
    """The version of the reader's evening's settle-up page (its session, and
    its group's purse), in one query; another user's session is a 404."""
    version = settle_up_version(session_id, request.user.pk)
    if version is None:
        raise Http404
    return version
