"""Share links: the token is the only key to a session's public page, so it is
long and random, and turning it off (share_token = None) makes every old link a 404."""

from __future__ import annotations

from ..models import GameSession, new_share_token


def create_share_link(*, session: GameSession) -> str:
    """Give the session a fresh token; any older link stops working. (192 random
    bits: a clash with another session's token will not happen.)"""
    session.share_token = new_share_token()
    session.save(update_fields=["share_token"])
    return session.share_token


def revoke_share_link(*, session: GameSession) -> None:
    if session.share_token:
        session.share_token = None
        session.save(update_fields=["share_token"])
