"""Who may see what of Call Break: one helper per owned object. Each answers
404 for anything the reader does not own, so another user's game looks
exactly like one that does not exist."""

from __future__ import annotations

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from ..models import CallBreakChange, CallBreakDeal, CallBreakGame


def game_for_user(request: HttpRequest, game_id: int) -> CallBreakGame:
    return get_object_or_404(CallBreakGame, pk=game_id, owner_id=request.user.pk)


def deal_for_user(request: HttpRequest, game: CallBreakGame, deal_id: int) -> CallBreakDeal:
    """A deal of the reader's `game` that is in it now (not deleted)."""
    return get_object_or_404(CallBreakDeal, pk=deal_id, game=game, deleted_at__isnull=True)


def deal_was_deleted(request: HttpRequest, game: CallBreakGame, deal_id: int) -> bool:
    """Whether `deal_id` is a deal of the reader's `game` that has been deleted."""
    return CallBreakDeal.objects.filter(pk=deal_id, game=game, deleted_at__isnull=False).exists()


def change_for_user(request: HttpRequest, game: CallBreakGame, change_id: int) -> CallBreakChange:
    return get_object_or_404(CallBreakChange, pk=change_id, game=game)


def watched_game(token: str) -> CallBreakGame:
    """The game shown read-only to anyone holding its watch link."""
    if not token:
        raise Http404
    return get_object_or_404(CallBreakGame, watch_token=token)
