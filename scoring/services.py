"""Between the engine and the database: every write of a round goes through here,
in one transaction, with the nets the engine computed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.db.models import Max, Prefetch, QuerySet

from .engine import RoundError, RoundInput, Rules, settle_round
from .engine.maal import MaalError, check_entry_tally, parse_tiplu
from .engine.sessionfile import SessionDoc, export_document
from .models import GameSession, Player, Round, RoundEntry


def rounds_with_entries(session: GameSession) -> QuerySet[Round]:
    """A session's rounds with everything needed to rebuild them, in two queries."""
    return (
        Round.objects.filter(session=session)
        .select_related("winner")
        .prefetch_related(Prefetch("entries", queryset=RoundEntry.objects.select_related("player")))
        .order_by("number")
    )


def session_doc(session: GameSession) -> SessionDoc:
    players = tuple(p.name for p in session.players.all())
    return SessionDoc(
        name=session.name,
        currency=session.currency,
        stake_per_point=session.stake_per_point,
        rules=session.get_rules(),
        players=players,
        rounds=tuple(r.to_input() for r in rounds_with_entries(session)),
    )


def export_session(session: GameSession) -> dict[str, Any]:
    return export_document(session_doc(session))


Tallies = Mapping[str, Any]  # player name -> Tally.to_dict() from the maal calculator


def check_tallies(
    round_input: RoundInput, tiplu: str, tallies: Tallies | None, rules: Rules
) -> tuple[str, dict[str, dict[str, int]]]:
    """The round's tiplu code and each player's checked tally; RoundError naming
    the player if a tally is impossible or disagrees with the points entered."""
    code = ""
    if tiplu:
        try:
            code = parse_tiplu(tiplu).code
        except MaalError as error:
            raise RoundError(str(error).removeprefix("tiplu: "), field="tiplu") from None
    checked: dict[str, dict[str, int]] = {}
    for name, data in (tallies or {}).items():
        try:
            entry = round_input.entry(name)
        except KeyError:
            raise RoundError("has a maal tally but is not in the round", player=name) from None
        if not code:
            raise RoundError("pick the tiplu card to use the maal calculator", field="tiplu")
        try:
            result = check_entry_tally(data, code, rules, entry.maal, entry.tunnel)[1]
        except MaalError as error:
            raise RoundError(str(error), field="maal", player=name) from None
        checked[name] = result.tally.to_dict()
    return code, checked


def _write_entries(
    round_: Round,
    round_input: RoundInput,
    rules: Rules,
    players: dict[str, Player],
    tallies: dict[str, dict[str, int]] | None = None,
) -> None:
    result = settle_round(round_input, rules)
    tallies = tallies or {}
    RoundEntry.objects.bulk_create(
        RoundEntry(
            round=round_,
            player=players[entry.player],
            status=entry.status,
            maal=entry.maal,
            tunnel=entry.tunnel,
            dhoos=entry.dhoos,
            net=result.of(entry.player).net,
            maal_tally=tallies.get(entry.player),
        )
        for entry in round_input.entries
    )


def _players_by_name(session: GameSession) -> dict[str, Player]:
    return {p.name: p for p in session.players.all()}


@transaction.atomic
def save_document(doc: SessionDoc, owner=None) -> GameSession:
    """A parsed session file saved whole, or (on any error) not at all."""
    session = GameSession.objects.create(
        owner=owner,
        name=doc.name,
        currency=doc.currency,
        stake_per_point=doc.stake_per_point,
        rules=doc.rules.to_options(),
    )
    Player.objects.bulk_create(
        Player(session=session, name=name, position=index) for index, name in enumerate(doc.players)
    )
    players = _players_by_name(session)
    for number, round_input in enumerate(doc.rounds, start=1):
        round_ = Round.objects.create(
            session=session,
            number=number,
            winner=players[round_input.winner] if round_input.winner else None,
            win_type=round_input.win_type,
            better=round_input.better,
        )
        _write_entries(round_, round_input, doc.rules, players)
    return session


def add_player(session: GameSession, name: str) -> Player:
    position = (session.players.aggregate(top=Max("position"))["top"] or 0) + 1
    return Player.objects.create(session=session, name=name, position=position)


@transaction.atomic
def add_round(
    session: GameSession,
    round_input: RoundInput,
    *,
    tiplu: str = "",
    tallies: Tallies | None = None,
) -> Round:
    """Append a round. The session row is locked so two phones saving at once get
    consecutive numbers instead of a clash. `tiplu` and `tallies` come from the
    maal calculator, when it was used."""
    locked = GameSession.objects.select_for_update().get(pk=session.pk)
    rules = locked.get_rules()
    settle_round(round_input, rules)  # refuse before writing anything
    tiplu, checked = check_tallies(round_input, tiplu, tallies, rules)
    players = _players_by_name(locked)
    number = (Round.objects.filter(session=locked).aggregate(top=Max("number"))["top"] or 0) + 1
    round_ = Round.objects.create(
        session=locked,
        number=number,
        winner=players[round_input.winner] if round_input.winner else None,
        win_type=round_input.win_type,
        better=round_input.better,
        tiplu=tiplu,
    )
    _write_entries(round_, round_input, rules, players, checked)
    GameSession.objects.filter(pk=locked.pk).update(updated_at=round_.updated_at)
    return round_


@transaction.atomic
def replace_round(
    round_: Round,
    round_input: RoundInput,
    *,
    tiplu: str = "",
    tallies: Tallies | None = None,
) -> Round:
    """Edit a past round: its entries and nets are rewritten; later totals follow
    because totals are sums of the stored nets."""
    session = GameSession.objects.select_for_update().get(pk=round_.session_id)
    rules = session.get_rules()
    settle_round(round_input, rules)
    tiplu, checked = check_tallies(round_input, tiplu, tallies, rules)
    players = _players_by_name(session)
    round_.winner = players[round_input.winner] if round_input.winner else None
    round_.win_type = round_input.win_type
    round_.better = round_input.better
    round_.tiplu = tiplu
    round_.save()
    round_.entries.all().delete()
    _write_entries(round_, round_input, rules, players, checked)
    GameSession.objects.filter(pk=session.pk).update(updated_at=round_.updated_at)
    return round_


@transaction.atomic
def delete_round(round_: Round) -> None:
    session_id = round_.session_id
    round_.delete()
    session = GameSession.objects.get(pk=session_id)
    session.save(update_fields=["updated_at"])


@transaction.atomic
def recompute_session(session: GameSession, rules: Rules) -> None:
    """Change a session's rules and settle every saved round again under them.
    Refused whole (RoundError) if any round is impossible under the new rules."""
    session = GameSession.objects.select_for_update().get(pk=session.pk)
    rounds = list(rounds_with_entries(session))
    results = [settle_round(r.to_input(), rules) for r in rounds]
    session.rules = rules.to_options()
    session.save(update_fields=["rules", "updated_at"])
    changed = []
    for round_, result in zip(rounds, results, strict=True):
        for entry in round_.entries.all():
            entry.net = result.of(entry.player.name).net
            changed.append(entry)
    RoundEntry.objects.bulk_update(changed, ["net"], batch_size=500)
