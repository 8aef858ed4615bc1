"""Every write: views translate, these write, the engine decides."""

from .files import export_session, same_evening, save_document, session_doc
from .players import (
    PlayerNotRemoved,
    add_player,
    move_player,
    removal_problem,
    remove_player,
    rename_player,
    saved_player,
)
from .rounds import (
    AlreadySaved,
    RestoreError,
    RoundConflict,
    add_round,
    check_tallies,
    delete_round,
    replace_round,
    restore_round,
    round_snapshot,
    rounds_with_entries,
    saved_round,
)
from .rules import recompute_session
from .sessions import create_session, delete_session, edit_session, saved_session
from .sharing import create_share_link, revoke_share_link

__all__ = [
    "AlreadySaved",
    "PlayerNotRemoved",
    "RestoreError",
    "RoundConflict",
    "add_player",
    "add_round",
    "check_tallies",
    "create_session",
    "create_share_link",
    "delete_round",
    "delete_session",
    "edit_session",
    "export_session",
    "move_player",
    "recompute_session",
    "removal_problem",
    "remove_player",
    "rename_player",
    "replace_round",
    "restore_round",
    "revoke_share_link",
    "round_snapshot",
    "rounds_with_entries",
    "same_evening",
    "save_document",
    "saved_player",
    "saved_round",
    "saved_session",
    "session_doc",
]
