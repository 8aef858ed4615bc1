"""Every write: views translate, these write, the engine decides. The reads,
including what a one-time key saved before (`selectors/saves.py`), live in
`scoring/selectors/`."""

from .files import save_document
from .players import (
    PlayerGone,
    PlayerNotRemoved,
    SeatsNotDrawn,
    add_player,
    draw_seats,
    move_player,
    remove_player,
    rename_player,
    undo_seat_draw,
)
from .rounds import (
    RestoreError,
    RoundConflict,
    add_round,
    delete_round,
    replace_round,
    restore_round,
)
from .rules import recompute_session
from .sessions import create_session, delete_session, edit_session
from .sharing import create_share_link, revoke_share_link

__all__ = [
    "PlayerGone",
    "PlayerNotRemoved",
    "RestoreError",
    "RoundConflict",
    "SeatsNotDrawn",
    "add_player",
    "add_round",
    "create_session",
    "create_share_link",
    "delete_round",
    "delete_session",
    "draw_seats",
    "edit_session",
    "move_player",
    "recompute_session",
    "remove_player",
    "rename_player",
    "replace_round",
    "restore_round",
    "revoke_share_link",
    "save_document",
    "undo_seat_draw",
]
