"""Every write of pot sessions: keyword-only, one transaction each, the whole
session checked by the engine (pots/engine/) before anything is saved, so a
hand that would break the pot's chain or balance is refused and nothing is
half-saved. A repeat of the same form (a double tap, a phone retrying, the
offline queue sending again) saves once (scoring's one-time keys)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from callbreak.engine.refusals import DocumentRefused
from groups.versions import group_changed
from scoring.engine.names import player_key
from scoring.services.savekeys import once, remember_save
from scoring.web.push import announce

from .engine import read_session
from .live import stream_id
from .models import PotHand, PotHandChange, PotPlayer, PotSession
from .selectors import check, engine_hands

MAX_PLAYERS = 10


class PotError(ValueError):
    """A change refused: its message is for the user, already translated."""


def _touch(session_id: int, group_id: int | None) -> None:
    # update() leaves auto_now alone: the stamp moves here with the version.
    PotSession.objects.filter(pk=session_id).update(
        version=F("version") + 1, updated_at=timezone.now()
    )
    group_changed(group_id)
    # Other phones following the session hear of it once this commits.
    announce(stream_id(session_id))


def snapshot(hand: PotHand) -> dict[str, Any]:
    return {
        "game": hand.game,
        "put_in": list(hand.put_in),
        "winners": list(hand.winners or []),
        "took": None if hand.took is None else list(hand.took),
        "carry_out": hand.carry_out,
        "note": hand.note,
        "created_at": hand.created_at.isoformat(),
    }


def _check(session: PotSession, hands: Sequence[PotHand]) -> None:
    if not hands:  # a session with no hand left (all deleted) is simply empty
        return
    players = [p.name for p in session.players.all()]
    try:
        check(players, engine_hands(hands, len(players)))
    except DocumentRefused as refused:
        from scoring.words.i18n import translate

        first = refused.refusals[0]
        where = ", ".join(translate(part) for part in first.where)
        text = translate(first.problem)
        raise PotError(f"{where}: {text}" if where else text) from None


@transaction.atomic
def create_session(
    *,
    owner,
    name: str,
    players: Sequence[str],
    played_on: datetime.date,
    currency: str = "NPR",
    group=None,
) -> PotSession:
    keys = [player_key(p) for p in players]
    if len(set(keys)) != len(keys):
        raise PotError(_("Two players have the same name."))
    if not 2 <= len(players) <= MAX_PLAYERS:
        raise PotError(_("A pot session has 2 to 10 players."))
    session = PotSession.objects.create(
        owner=owner,
        name=name,
        played_on=played_on,
        currency=group.currency if group is not None else currency,
        group=group,
    )
    PotPlayer.objects.bulk_create(
        [
            PotPlayer(session=session, name=n, name_key=k, position=i)
            for i, (n, k) in enumerate(zip(players, keys, strict=True))
        ]
    )
    if group is not None:
        _join_group(group, players)
        group_changed(group.pk)
    return session


def _join_group(group, players: Sequence[str]) -> None:
    """The session's players are members of its group (as an evening's are)."""
    from groups.models import Member

    have = set(Member.objects.filter(group=group).values_list("name_key", flat=True))
    top = max(Member.objects.filter(group=group).values_list("position", flat=True), default=0)
    for name in players:
        if player_key(name) not in have:
            top += 1
            Member.objects.create(group=group, name=name, position=top)
            have.add(player_key(name))


def _lock(session_id: int) -> PotSession:
    return PotSession.objects.select_for_update().get(pk=session_id)


def record_hand(
    *,
    session: PotSession,
    put_in: Sequence[int],
    winners: Sequence[int] = (),
    took: Sequence[int] | None = None,
    carry_out: int = 0,
    game: str = "",
    user=None,
    save_key: str | None = None,
) -> PotHand:
    """A hand played; its repeat under the same key returns the first one's hand."""
    return once(
        save=lambda: _record_hand(
            session=session,
            put_in=put_in,
            winners=winners,
            took=took,
            carry_out=carry_out,
            game=game,
            user=user,
            save_key=save_key,
        ),
        user=user,
        key=save_key,
        replay=lambda saved: PotHand.objects.get(pk=saved.object_pk or 0, session=session),
        kind="pothand",
    )


@transaction.atomic
def _record_hand(*, session, put_in, winners, took, carry_out, game, user, save_key) -> PotHand:
    session = _lock(session.pk)
    hand = PotHand(
        session=session,
        put_in=list(put_in),
        winners=sorted(winners),
        took=None if took is None else list(took),
        carry_out=carry_out,
        game=game,
    )
    _check(session, [*session.hands.all(), hand])
    hand.save()
    PotHandChange.objects.create(
        session=session,
        hand_pk=hand.pk,
        user=user if getattr(user, "pk", None) else None,
        action="create",
        after=snapshot(hand),
    )
    remember_save(user=user, key=save_key, kind="pothand", object_pk=hand.pk)
    _touch(session.pk, session.group_id)
    return hand


@transaction.atomic
def edit_hand(
    *,
    hand: PotHand,
    put_in: Sequence[int],
    winners: Sequence[int] = (),
    took: Sequence[int] | None = None,
    carry_out: int = 0,
    game: str = "",
    version: int,
    user=None,
) -> PotHand:
    session = _lock(hand.session_id)
    locked = PotHand.objects.select_for_update().filter(pk=hand.pk, session=session).first()
    if locked is None:
        raise PotError(_("This hand has been deleted."))
    if locked.version != version:
        raise PotError(_("This hand was changed meanwhile: open it again."))
    before = snapshot(locked)
    locked.put_in, locked.winners = list(put_in), sorted(winners)
    locked.took = None if took is None else list(took)
    locked.carry_out, locked.game = carry_out, game
    locked.version += 1
    hands = [locked if h.pk == locked.pk else h for h in session.hands.all()]
    _check(session, hands)
    locked.save()
    PotHandChange.objects.create(
        session=session,
        hand_pk=locked.pk,
        user=user if getattr(user, "pk", None) else None,
        action="edit",
        before=before,
        after=snapshot(locked),
    )
    _touch(session.pk, session.group_id)
    return locked


@transaction.atomic
def delete_hand(*, hand: PotHand, user=None) -> None:
    session = _lock(hand.session_id)
    locked = PotHand.objects.filter(pk=hand.pk, session=session).first()
    if locked is None:
        return
    _check(session, [h for h in session.hands.all() if h.pk != locked.pk])
    before = snapshot(locked)
    locked.delete()
    PotHandChange.objects.create(
        session=session,
        hand_pk=hand.pk,
        user=user if getattr(user, "pk", None) else None,
        action="delete",
        before=before,
    )
    _touch(session.pk, session.group_id)


@transaction.atomic
def restore_hand(*, change: PotHandChange, user=None) -> PotHand:
    """A deleted hand back, with its old id and in its old place."""
    session = _lock(change.session_id)
    change = PotHandChange.objects.select_for_update().get(pk=change.pk)
    if change.action != "delete" or not change.before:
        raise PotError(_("Only a deleted hand can be restored."))
    if change.restored or PotHand.objects.filter(pk=change.hand_pk).exists():
        raise PotError(_("This hand has already been restored."))
    before = change.before
    hand = PotHand(
        pk=change.hand_pk,
        session=session,
        game=before["game"],
        put_in=before["put_in"],
        winners=before["winners"],
        took=before["took"],
        carry_out=before["carry_out"],
        note=before.get("note", ""),
        created_at=datetime.datetime.fromisoformat(before["created_at"]),
    )
    hands = sorted([*session.hands.all(), hand], key=lambda h: h.pk)
    _check(session, hands)
    hand.save(force_insert=True)
    change.restored = True
    change.save(update_fields=["restored"])
    PotHandChange.objects.create(
        session=session,
        hand_pk=hand.pk,
        user=user if getattr(user, "pk", None) else None,
        action="restore",
        after=snapshot(hand),
    )
    _touch(session.pk, session.group_id)
    return hand


def import_session(
    *,
    owner,
    document: object,
    name: str,
    played_on: datetime.date,
    group=None,
    save_key: str | None = None,
) -> PotSession:
    """A `pot-session/1` document saved whole as a session, or nothing
    (DocumentRefused before any write)."""
    values = read_session(document)
    return once(
        save=lambda: _import(
            owner=owner,
            values=values,
            name=name,
            played_on=played_on,
            group=group,
            save_key=save_key,
        ),
        user=owner,
        key=save_key,
        replay=lambda saved: PotSession.objects.get(pk=saved.object_pk or 0, owner=owner),
        kind="potimport",
    )


@transaction.atomic
def _import(*, owner, values, name, played_on, group, save_key) -> PotSession:
    session = create_session(
        owner=owner, name=name, players=list(values.players), played_on=played_on, group=group
    )
    for item in values.hands:
        hand = PotHand.objects.create(
            session=session,
            game=item.game or "",
            put_in=list(item.put_in),
            winners=list(item.winners) if item.took is None else [],
            took=None if item.took is None else list(item.took),
            carry_out=item.carry_out,
            note=item.note or "",
        )
        PotHandChange.objects.create(
            session=session,
            hand_pk=hand.pk,
            user=owner if getattr(owner, "pk", None) else None,
            action="create",
            after=snapshot(hand),
        )
    remember_save(user=owner, key=save_key, kind="potimport", object_pk=session.pk)
    return session


def rename_player(*, group_id: int, old_key: str, name: str) -> None:
    """A member of the group renamed: its pot sessions' player of that key
    takes the name (inside the rename's transaction)."""
    players = PotPlayer.objects.filter(session__group_id=group_id, name_key=old_key)
    for session_id in set(players.values_list("session_id", flat=True)):
        PotPlayer.objects.filter(session_id=session_id, name_key=old_key).update(
            name=name, name_key=player_key(name)
        )
        _touch(session_id, group_id)


def save_filed(*, group, name: str, played_on: datetime.date, document: object, owner) -> None:
    """An imported group file's pot session, kept as the app's own (the purse's `save`)."""
    _import(
        owner=owner,
        values=read_session(document),
        name=name,
        played_on=played_on,
        group=group,
        save_key=None,
    )


__all__ = [
    "PotError",
    "create_session",
    "delete_hand",
    "edit_hand",
    "import_session",
    "record_hand",
    "rename_player",
    "restore_hand",
    "save_filed",
]
