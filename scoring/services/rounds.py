"""Between the engine and the database: every write of a round goes through here,
in one transaction, with the nets the engine computed."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, transaction
from django.db.models import Count, Max, Prefetch
from django.utils.translation import gettext_noop

from ..engine import (
    Entry,
    PreparedRound,
    RoundError,
    RoundInput,
    RoundResult,
    Rules,
    settle_round,
    settle_session,
)
from ..engine.limits import MAX_ROUNDS
from ..engine.messages import message
from ..engine.prepare import Tallies, check_tallies
from ..engine.settlement import outside_nets, pending_ids, sat_out_nets
from ..models import GameSession, Player, Round, RoundChange, RoundEntry, SavedKey
from ..selectors.rounds import (
    players_by_name,
    position_of,
    round_snapshot,
    rounds_with_entries,
    saved_round,
    saved_rounds,
)
from ..selectors.saves import earlier_save, same_save
from ..selectors.versions import RoundsSoFar, claim_unchanged
from .savekeys import remember_save

if TYPE_CHECKING:
    from ..selectors.reports import NextRound

CONFLICT_MESSAGE = (
    "This round was changed by someone else since you opened it; reload to see their version."
)


# The file format's limit: a session the web lets grow past it could not be
# restored from its own backup (import_session would refuse the file).
TOO_MANY_ROUNDS = gettext_noop(
    "a session holds at most %(max)s rounds; start a new session to play on"
)


def check_room(*, round_count: int) -> None:
    """RoundError naming the limit if a session of `round_count` rounds is full.
    Called with the session row locked, so two saves at once cannot both pass."""
    if round_count >= MAX_ROUNDS:
        raise RoundError(message(TOO_MANY_ROUNDS, max=f"{MAX_ROUNDS:,}"))


SESSION_GONE = gettext_noop("this session was deleted meanwhile, so nothing was saved")


def _locked_session(session_id: int) -> GameSession:
    """The session's row, locked until the commit: the first lock of every write
    to a session's rows (then its players, then its rounds), so two writes
    racing wait for each other instead of deadlocking. RoundError if the
    session was deleted meanwhile."""
    session = GameSession.objects.select_for_update(no_key=True).filter(pk=session_id).first()
    if session is None:
        raise RoundError(message(SESSION_GONE))
    return session


class RoundConflict(RoundError):
    """The round changed (or went) after the edit form was opened."""

    def __init__(self, message: str = CONFLICT_MESSAGE) -> None:
        super().__init__(message)


def _fresh_snapshot(
    round_pk: int, sources: Mapping[str, Sequence[str]] | None = None
) -> dict[str, Any]:
    fresh = (
        Round.objects.select_related("winner")
        .prefetch_related(Prefetch("entries", queryset=RoundEntry.objects.select_related("player")))
        .get(pk=round_pk)
    )
    return round_snapshot(fresh, sources=sources)


def _record(
    session_id: int,
    round_pk: int,
    action: str,
    user=None,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> RoundChange:
    # Anonymous users (AnonymousUser) are not stored; only real accounts.
    user = user if getattr(user, "pk", None) else None
    return RoundChange.objects.create(
        session_id=session_id,
        round_pk=round_pk,
        action=action,
        user=user,
        before=before,
        after=after,
    )


def write_entries(
    *,
    round_: Round,
    round_input: RoundInput,
    rules: Rules,
    players: dict[str, Player],
    tallies: dict[str, dict[str, int]] | None = None,
    result: RoundResult | None = None,
) -> list[RoundEntry]:
    """The round's entries with their nets: `result`, else the round settled on
    its own (`resettle` then settles it in its place in the session)."""
    result = result or settle_round(_checked(round_input), rules)
    tallies = tallies or {}
    return RoundEntry.objects.bulk_create(
        RoundEntry(
            round=round_,
            player=players[entry.player],
            status=entry.status,
            maal=entry.maal,
            tunnel=entry.tunnel,
            dhoos=entry.dhoos,
            dublees=entry.dublees,
            net=result.of(entry.player).net,
            maal_tally=tallies.get(entry.player),
        )
        for entry in round_input.entries
    )


def _ids(players: Mapping[str, Player]) -> dict[str, int]:
    return {name: player.pk for name, player in players.items()}


PLAYER_GONE = gettext_noop(
    "%(name)s was removed from this session while the round was being saved; "
    "reload the round and save it again"
)


def _players_now(
    session: GameSession, round_input: RoundInput, *, read: Collection[Player] | None = None
) -> dict[str, Player]:
    """The round's players as they are now (read inside the save's transaction,
    the session locked), by the names the round gives them. Those names were
    read before: `read`, the players as the form knew them, leads from each name
    to its player by id, so a player renamed meanwhile is still that player.
    RoundError naming a player removed meanwhile (or a name that is no player)."""
    now = {p.pk: p for p in session.players.all()}
    by_name = {p.name: p for p in now.values()}
    ids = {p.name: p.pk for p in read} if read is not None else {}
    players: dict[str, Player] = {}
    named = [e.player for e in round_input.entries]
    if round_input.winner:
        named.append(round_input.winner)
    for name in named:
        player = now.get(ids[name]) if name in ids else by_name.get(name)
        if player is None:
            raise RoundError(message(PLAYER_GONE, name=name))
        players[name] = player
    return players


def _checked(round_input: RoundInput) -> RoundInput:
    """The round as one settles alone: a round taking its default better (None)
    is checked and provisionally settled as not better."""
    return round_input if round_input.better is not None else replace(round_input, better=False)


def _settled_in_place(round_input: RoundInput, rules: Rules, setting: NextRound) -> RoundResult:
    """The round appended after the saved ones, settled as `settle_session` would
    settle it last: its better default and the dhoos pending before it."""
    if round_input.better is None:
        round_input = replace(round_input, better=setting.better.better)
    return settle_round(
        round_input,
        rules,
        number=setting.number,
        pending=setting.pending,
        better_default=setting.better,
    )


def resettle(
    *,
    session: GameSession,
    rules: Rules,
    user=None,
    action: str = "resettle",
    quiet: Collection[int] = (),
    force: bool = False,
) -> None:
    """Settle every saved round again in order (next-winner dhoos and default
    better rounds depend on the rounds before) and write the nets and the better
    marks that changed, with one `action` row in the audit trail per changed
    round, except the rounds in `quiet`, which the caller records itself. Call
    inside the caller's transaction, with the session row locked."""
    if not force and not rules.looks_back():
        return  # every round settles on its own: the caller wrote it so
    saved = saved_rounds(session)
    numbers = list(range(1, len(saved) + 1))  # as the ledger numbers them
    settled = settle_session([r.input for r in saved], rules, numbers)
    changed = {
        r.pk: result
        for r, result in zip(saved, settled.rounds, strict=True)
        if r.better != result.better
        or any(net != result.of(name).net for name, (_id, net) in r.entries.items())
        or r.outside != sat_out_nets(result)
    }
    ids = {name: player.pk for name, player in players_by_name(session).items()}
    # The carried state alone moved (a dhoos still pending, renumbered): kept
    # quietly, nothing the table sees changed.
    carried = [
        Round(pk=r.pk, pending_after=pending_ids(result, ids))
        for r, result in zip(saved, settled.rounds, strict=True)
        if r.pk not in changed and r.pending_after != pending_ids(result, ids)
    ]
    Round.objects.bulk_update(carried, ["pending_after"], batch_size=500)
    if not changed:
        return
    who = user if getattr(user, "pk", None) else None
    moved_entries: list[RoundEntry] = []
    moved_rounds: list[Round] = []
    audit: list[RoundChange] = []
    # Only the rounds that changed are read whole, for the history.
    for round_ in rounds_with_entries(session).filter(pk__in=changed):
        result = changed[round_.pk]
        before = round_snapshot(round_)
        for entry in round_.entries.all():
            net = result.of(entry.player.name).net
            if entry.net != net:
                entry.net = net
                moved_entries.append(entry)
        outside = outside_nets(result, ids)
        pending = pending_ids(result, ids)
        if (
            round_.better != result.better
            or round_.outside_nets != outside
            or round_.pending_after != pending
        ):
            round_.better = result.better
            round_.outside_nets = outside
            round_.pending_after = pending
            moved_rounds.append(round_)
        if round_.pk not in quiet:
            audit.append(
                RoundChange(
                    session_id=session.pk,
                    round_pk=round_.pk,
                    action=action,
                    user=who,
                    before=before,
                    after=round_snapshot(round_),
                )
            )
    RoundEntry.objects.bulk_update(moved_entries, ["net"], batch_size=500)
    Round.objects.bulk_update(
        moved_rounds, ["better", "outside_nets", "pending_after"], batch_size=500
    )
    RoundChange.objects.bulk_create(audit, batch_size=500)


def add_round(
    *,
    session: GameSession,
    round_input: RoundInput | PreparedRound,
    players: list[Player] | None = None,
    setting: NextRound | None = None,
    tiplu: str = "",
    tallies: Tallies | None = None,
    stake_per_point: Decimal | None = None,
    user=None,
    save_key: str | None = None,
    sources: Mapping[str, Sequence[str]] | None = None,
) -> Round:
    """Append a round. Two phones saving at once get consecutive numbers instead
    of a clash: the session row is locked until the commit. `players` and
    `setting` (the new round's better default and pending dhoos): as read with
    `session`, if the caller has them. `tiplu` and `tallies` come from the maal
    calculator, when it was used. With `save_key` (the form's one-time key), a
    key saved before returns the round it saved, marked `replayed`, and saves
    nothing; the key is written in the save's transaction, so a save and its key
    are kept together or not at all. A PreparedRound (the round form's) is
    saved as it was settled and checked, unless the session changed since it
    was prepared; then it is checked and settled again. `sources`: the values
    each player's seat sent (round_snapshot), for the history.
    `stake_per_point`: the stake from this round on, None to keep the one in force."""
    who = user if getattr(user, "pk", None) else None
    try:
        return _add_round(
            session,
            round_input,
            players=players,
            setting=setting,
            tiplu=tiplu,
            tallies=tallies,
            stake=stake_per_point,
            who=who,
            save_key=save_key,
            sources=sources,
        )
    except IntegrityError:
        # The key's unique constraint, last guard of a repeated save (even one
        # sent at the same moment, which waited for the first one's commit).
        earlier = SavedKey.objects.filter(user=who, key=save_key).first() if save_key else None
        if earlier is None:
            raise
        # Only a round saved in this session answers: never a lookup by another save's id.
        return saved_round(same_save(earlier, kind="round", session_id=session.pk))


@transaction.atomic
def _add_round(
    session: GameSession,
    given: RoundInput | PreparedRound,
    *,
    players: list[Player] | None,
    setting: NextRound | None,
    tiplu: str,
    tallies: Tallies | None,
    stake: Decimal | None,
    who,
    save_key: str | None,
    sources: Mapping[str, Sequence[str]] | None = None,
) -> Round:
    prepared, round_input = _prepared(given, session.updated_at)
    if isinstance(given, PreparedRound):
        tiplu, tallies = given.tiplu, given.tallies
    claimed = claim_unchanged(session) if players is not None else None
    if claimed is not None and players is not None:
        # Neither the session (its rules) nor its players or rounds changed since
        # they were read (any change would have moved the version), and the row
        # is locked until the commit.
        locked, by_name = session, {p.name: p for p in players}
    else:
        locked = _locked_session(session.pk)
        by_name = _players_now(locked, round_input, read=players)
    rules = locked.get_rules()
    so_far = claimed or _rounds_so_far(locked)
    in_place = None
    if claimed and prepared is not None and prepared.number == so_far.count + 1:
        # Prepared against the session as it still is, in the place it takes:
        # settled and checked already.
        in_place, tiplu, checked = prepared.result, prepared.tiplu, dict(prepared.tallies)
    else:
        settle_round(_checked(round_input), rules)  # refuse before writing anything
        tiplu, checked = check_tallies(round_input, tiplu, tallies, rules)
    check_room(round_count=so_far.count)
    position = so_far.count + 1  # the last: every other number is lower
    if in_place is None and claimed and setting is not None and setting.number == position:
        # Appending changes no earlier round: settled in its place at once.
        in_place = _settled_in_place(round_input, rules, setting)
    round_ = Round.objects.create(
        session=locked,
        number=so_far.last_number + 1,
        winner=by_name[round_input.winner] if round_input.winner else None,
        win_type=round_input.win_type,
        better=in_place.better if in_place else bool(round_input.better),
        better_mark=round_input.better,
        tiplu=tiplu,
        stake_per_point=stake,
        outside_nets=outside_nets(in_place, _ids(by_name)) if in_place else {},
        pending_after=pending_ids(in_place, _ids(by_name)) if in_place else None,
    )
    entries = write_entries(
        round_=round_,
        round_input=round_input,
        rules=rules,
        players=by_name,
        tallies=checked,
        result=in_place,
    )
    if in_place is None:
        resettle(session=locked, rules=rules, user=who, quiet={round_.pk})
        after = _fresh_snapshot(round_.pk, sources)  # settled again, its nets may have moved
    else:
        after = round_snapshot(round_, entries, sources)
    _record(locked.pk, round_.pk, "create", who, after=after)
    if save_key and who is not None:
        SavedKey.objects.create(
            user=who, key=save_key, kind="round", session=locked, object_pk=round_.pk
        )
    round_.position = position
    round_.replayed = False
    return round_


def _prepared(
    round_: RoundInput | PreparedRound, version: object
) -> tuple[PreparedRound | None, RoundInput]:
    """The prepared round if it was prepared against `version` (the session's
    version as the caller read it), and the round to save."""
    if isinstance(round_, PreparedRound):
        return (round_ if round_.version == version else None), round_.round_input
    return None, round_


def _rounds_so_far(session: GameSession) -> RoundsSoFar:
    so_far = Round.objects.filter(session=session).aggregate(top=Max("number"), count=Count("pk"))
    return RoundsSoFar(last_number=so_far["top"] or 0, count=so_far["count"])


@transaction.atomic
def replace_round(
    *,
    round_: Round,
    given: RoundInput | PreparedRound,
    tiplu: str = "",
    tallies: Tallies | None = None,
    stake_per_point: Decimal | None = None,
    user=None,
    expected_version: int | None = None,
    save_key: str | None = None,
    read_players: Collection[Player] | None = None,
) -> Round:
    """Edit a past round: its entries and nets are rewritten; later totals follow
    because totals are sums of the stored nets. With `expected_version` (the
    version the edit form was opened at), RoundConflict if it changed since.
    With `save_key` (the edit form's one-time key), an edit that changes the
    round keeps its key in the same transaction; a repeat of it (a retry, a
    phone sending again a save whose answer was lost), which carries the version
    from before that edit, saves nothing and returns the round marked
    `replayed`, instead of the conflict. Only a key kept for an edit of this
    round counts: one used for anything else neither answers nor stops an edit.
    `read_players`: the session's players as the form read them, before this
    transaction (_players_now: one renamed meanwhile is still that player).
    A PreparedRound (the round form's) is taken as checked unless the session
    changed since it was prepared. `stake_per_point`: the stake from this round
    on, None when the round keeps the one in force before it."""
    if isinstance(given, PreparedRound):
        tiplu, tallies = given.tiplu, given.tallies
    session = _locked_session(round_.session_id)
    prepared, round_input = _prepared(given, session.updated_at)
    try:
        current = Round.objects.select_for_update().get(pk=round_.pk, session=session)
    except Round.DoesNotExist:
        raise RoundConflict("This round was deleted by someone else since you opened it.") from None
    if expected_version is not None and current.version != expected_version:
        # Looked up only here: the version a repeat carries is always an old one.
        if earlier_save(user, save_key, kind="edit", object_pk=round_.pk) is None:
            raise RoundConflict()
        round_.position = position_of(round_)
        round_.unchanged = False
        round_.replayed = True
        return round_
    rules = session.get_rules()
    if prepared is not None:  # checked against the session as it still is
        tiplu, checked = prepared.tiplu, dict(prepared.tallies)
    else:
        settle_round(_checked(round_input), rules)
        tiplu, checked = check_tallies(round_input, tiplu, tallies, rules)
    players = _players_now(session, round_input, read=read_players)
    stored = rounds_with_entries(session).get(pk=round_.pk)
    stored_tallies = {e.player.name: e.maal_tally for e in stored.entries.all() if e.maal_tally}
    if (stored.to_input(marked=True), stored.tiplu, stored_tallies, stored.stake_per_point) == (
        round_input,
        tiplu,
        checked,
        stake_per_point,
    ):
        # Saved as it was: nothing to write, nothing to record.
        round_.position = position_of(round_)
        round_.unchanged = True
        return round_
    before = _fresh_snapshot(round_.pk)
    round_.version = current.version + 1
    round_.winner = players[round_input.winner] if round_input.winner else None
    round_.win_type = round_input.win_type
    round_.better = bool(round_input.better)
    round_.better_mark = round_input.better
    round_.tiplu = tiplu
    round_.stake_per_point = stake_per_point
    round_.save()
    RoundEntry.objects.filter(round=round_).delete()
    # Prepared against the session as it still is: settled in its place already
    # (`resettle` below settles the session again when the rules look back).
    in_place = prepared.result if prepared is not None else None
    write_entries(
        round_=round_,
        round_input=round_input,
        rules=rules,
        players=players,
        tallies=checked,
        result=in_place,
    )
    resettle(session=session, rules=rules, user=user, quiet={round_.pk})
    round_.refresh_from_db(fields=["better"])
    _record(session.pk, round_.pk, "edit", user, before=before, after=_fresh_snapshot(round_.pk))
    remember_save(
        user=user, key=save_key, kind="edit", session=session, object_pk=round_.pk, unless_used=True
    )
    round_.position = position_of(round_)
    round_.unchanged = False
    round_.replayed = False
    # The caller's object may hold prefetched entries from before the edit.
    if hasattr(round_, "_prefetched_objects_cache"):
        round_._prefetched_objects_cache.pop("entries", None)
    return round_


@transaction.atomic
def delete_round(*, round_: Round, user=None, action: str = "delete") -> None:
    """Delete a round (action "undo" when it is the undo of the last round); the
    audit trail keeps it, so restore_round can bring it back."""
    session_id = round_.session_id
    # One writer at a time.
    session = GameSession.objects.select_for_update(no_key=True).filter(pk=session_id).first()
    if session is None:
        return  # deleted with its session by someone else: nothing left to do
    round_pk = round_.pk
    try:
        before = _fresh_snapshot(round_pk)
    except Round.DoesNotExist:
        return  # already deleted by someone else: nothing left to do
    Round.objects.filter(pk=round_pk).delete()
    _record(session_id, round_pk, action, user, before=before)
    resettle(session=session, rules=session.get_rules(), user=user)


class RestoreError(RoundError):
    pass


@transaction.atomic
def restore_round(*, change: RoundChange, user=None) -> Round:
    """Bring back a deleted round from its audit snapshot, with its old id. It
    returns to its old place (number) if that is still free, else it becomes the
    last round. Its nets are settled again under the session's current rules."""
    try:
        session = _locked_session(change.session_id)
    except RoundError as error:
        raise RestoreError(error.msg) from None
    change = RoundChange.objects.select_for_update().get(pk=change.pk)
    if change.action not in ("delete", "undo") or not change.before:
        raise RestoreError("Only a deleted round can be restored.")
    if change.restored or Round.objects.filter(pk=change.round_pk).exists():
        raise RestoreError("This round has already been restored.")
    try:
        check_room(round_count=Round.objects.filter(session=session).count())
    except RoundError as error:
        raise RestoreError(error.msg) from None
    snap = change.before
    by_id = {p.pk: p for p in session.players.all()}
    by_name = {p.name: p for p in by_id.values()}

    def player_of(player_id: int | None, name: str) -> Player:
        player = by_id.get(player_id) if player_id is not None else None
        player = player or by_name.get(name)
        if player is None:
            raise RestoreError(
                f"{name} is no longer in this session, so the round cannot be restored."
            )
        return player

    entries = [(player_of(e["player_id"], e["player"]), e) for e in snap["entries"]]
    winner = player_of(snap["winner_id"], snap["winner"]) if snap["winner"] else None
    round_input = RoundInput(
        entries=tuple(
            Entry(
                player=p.name,
                status=e["status"],
                maal=e["maal"],
                tunnel=e["tunnel"],
                dhoos=e["dhoos"],
                dublees=e.get("dublees", False),
            )
            for p, e in entries
        ),
        winner=winner.name if winner else None,
        win_type=snap["win_type"],
        # A snapshot from before marks were kept: its better was the table's mark.
        better=snap.get("better_mark", snap["better"]),
    )
    rules = session.get_rules()
    settle_round(_checked(round_input), rules)  # RoundError if impossible under today's rules
    number = snap["number"]
    if Round.objects.filter(session=session, number=number).exists():
        number = (
            Round.objects.filter(session=session).aggregate(top=Max("number"))["top"] or 0
        ) + 1
    round_ = Round.objects.create(
        pk=change.round_pk,
        session=session,
        number=number,
        winner=winner,
        win_type=snap["win_type"],
        better=bool(round_input.better),
        better_mark=round_input.better,
        tiplu=snap.get("tiplu", ""),
        stake_per_point=Decimal(snap["stake_per_point"]) if snap.get("stake_per_point") else None,
    )
    tallies = {p.name: e["maal_tally"] for p, e in entries if e.get("maal_tally")}
    write_entries(
        round_=round_,
        round_input=round_input,
        rules=rules,
        players={p.name: p for p, _e in entries},
        tallies=tallies,
    )
    change.restored = True
    change.save(update_fields=["restored"])
    resettle(session=session, rules=rules, user=user, quiet={round_.pk})
    _record(session.pk, round_.pk, "restore", user, after=_fresh_snapshot(round_.pk))
    round_.position = position_of(round_)
    return round_
