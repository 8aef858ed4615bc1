"""The round form. Each bad value gets a message beside its field, all of them
at once (the round's own rules too); nothing is saved until the whole form is valid.

It is plain Python rather than a Django Form: its fields are one row per
session player, and its last word is the engine's (RoundError), which is
mapped back to the row and field it names.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, cast

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from localise.forms import PlainDecimalField

from ..engine import (
    Dhoos,
    Entry,
    PreparedRound,
    RoundError,
    RoundInput,
    RoundResult,
    Rules,
    prepare_round,
    settle_round,
)
from ..engine.limits import MAX_TALLY_CHARS, InputTooLarge, KeyGivenTwice, loads_bounded
from ..engine.settlement import Status, WinType, round_problems
from ..models import Player
from ..words.i18n import translate
from .points import read_points


def row_prefix(player_id: int) -> str:
    """The start of a player's fields' names on the round form ("p-12-maal"),
    which a seat's entry and the seat feed's JSON use too."""
    return f"p-{player_id}-"


ROW_FIELDS = ("plays", "status", "maal", "tunnel", "dhoos", "dublees")
POSTED_PLAYS = re.compile(r"p-([0-9]+)-plays")
WIN_TYPE_CHOICES = [("normal", _("Normal")), ("dublee", _("Dublee (eight dublees)"))]
STAKE_LABEL = _("Stake from this round on")
STAKE_NAME = "stake_per_point"  # the field's name, as posted
# Read as the session's stake is (SessionDetailsForm), with its messages, but
# more than 0: a stake raised (or lowered) late at night, never "points only".
STAKE_FIELD = PlainDecimalField(
    min_value=Decimal("0.01"), max_digits=12, decimal_places=2, required=False
)


@dataclass
class PlayerRow:
    """One player's inputs as typed, and the messages beside them."""

    player: Player
    plays: bool = True
    status: str = "seen"
    maal: str = "0"
    tunnel: str = "0"
    dhoos: bool = False
    dublees: bool = False  # saw by seven dublees: always seen
    maal_tally: str = ""  # the maal calculator's count, as JSON
    # Filled in from what this player's seat sent (static/js/seat-feed.js marks
    # the line; the history credits the seat with the values still as sent).
    from_seat: bool = False
    errors: dict[str, list[str]] = field(default_factory=dict)

    def add_error(self, name: str, message: str) -> None:
        # The field's name in the reader's language (the engine's FIELD_WORDS).
        self.errors.setdefault(name, []).append(f"{gettext(name)}: {message}")


class RoundForm:
    """One round as a screen: a row per session player, then winner, win type, better.

    Input names are stable (`p-<player id>-maal`, `winner` …): the maal calculator
    and the browser tests rely on them.
    """

    def __init__(
        self,
        players: list[Player],
        rules: Rules,
        data: Any = None,
        initial: RoundInput | None = None,
        better_default: bool = False,
        tiplu: str = "",
        tallies: dict[str, Any] | None = None,
        *,
        number: int = 1,
        pending: Sequence[Dhoos] = (),
        version: object = None,
        stake_before: Decimal = Decimal("1.00"),
        stake: Decimal | None = None,
    ) -> None:
        self.players = players
        # The stake in force before this round, and the one it sets from itself
        # on (None: it keeps that one), as typed and as read.
        self.stake_before = stake_before
        self.stake = "" if stake is None else str(stake)
        self.stake_per_point: Decimal | None = stake
        self.rules = rules
        # The round's place in the session: its number, whether the rules make
        # it better by default, and the next-winner dhoos pending before it.
        self.number = number
        self.better_default = better_default
        self.pending = tuple(pending)
        # The session's version the form was read at: the prepared round carries
        # it, so the save can tell whether the session changed since.
        self.version = version
        self.is_bound = data is not None
        self.errors: dict[str, list[str]] = {}
        self.round_input: RoundInput | None = None
        self.prepared: PreparedRound | None = None
        self.result: RoundResult | None = None
        self._validated = False
        # The maal calculator: the round's tiplu and each player's checked tally.
        self.tiplu = tiplu
        self.tallies: dict[str, dict[str, int]] = {}
        self._initial_tallies = tallies or {}
        if data is not None:
            self._load(data)
        else:
            self._initial(initial, better_default)

    # -- building the rows --

    def _initial(self, initial: RoundInput | None, better_default: bool) -> None:
        self.rows = []
        if initial is None:
            # Everyone plays unless the table is over full; then the first seats.
            for index, player in enumerate(self.players):
                self.rows.append(PlayerRow(player, plays=index < self.rules.max_players))
            self.winner = ""
            self.win_type = "normal"
            self.better: bool | None = better_default
            return
        by_name = {e.player: e for e in initial.entries}
        for player in self.players:
            entry = by_name.get(player.name)
            if entry is None:
                self.rows.append(PlayerRow(player, plays=False))
            else:
                self.rows.append(
                    PlayerRow(
                        player,
                        plays=True,
                        status=entry.status,
                        maal=str(entry.maal),
                        tunnel=str(entry.tunnel),
                        dhoos=entry.dhoos,
                        dublees=entry.dublees,
                        maal_tally=json.dumps(self._initial_tallies[player.name])
                        if player.name in self._initial_tallies
                        else "",
                    )
                )
        winner = next((p for p in self.players if p.name == initial.winner), None)
        self.winner = str(winner.pk) if winner else "none"
        self.win_type = initial.win_type
        self.better = initial.better
        try:  # the saved round's breakdown, shown before anything is changed
            self.result = settle_round(
                initial, self.rules, number=self.number, pending=self.pending
            )
        except RoundError:
            self.result = None

    def _load(self, data: Any) -> None:
        self.rows = []
        # A player who plays in what was posted but is no longer in the session
        # (removed since the form was opened, e.g. while the round waited on the
        # phone offline): the round is refused, never saved without them.
        known = {str(player.pk) for player in self.players}
        self.gone_players = sorted(
            {
                found[1]
                for key in data
                if (found := POSTED_PLAYS.fullmatch(key)) and found[1] not in known
            }
        )
        for player in self.players:
            prefix = row_prefix(player.pk)
            dublees = bool(data.get(prefix + "dublees"))
            self.rows.append(
                PlayerRow(
                    player,
                    plays=bool(data.get(prefix + "plays")),
                    # Seven dublees show the tiplu: the toggle marks the player seen.
                    status="seen" if dublees else data.get(prefix + "status", "seen"),
                    maal=data.get(prefix + "maal", "").strip(),
                    tunnel=data.get(prefix + "tunnel", "").strip(),
                    dhoos=bool(data.get(prefix + "dhoos")),
                    dublees=dublees,
                    maal_tally=data.get(prefix + "maal_tally", "").strip(),
                    from_seat=bool(data.get(prefix + "seat")),
                )
            )
        self.winner = data.get("winner", "")
        self.win_type = data.get("win_type", "normal")
        self.better = bool(data.get("better"))
        self.tiplu = data.get("tiplu", "").strip()
        self.stake = str(data.get(STAKE_NAME, ""))[:40].strip()

    # -- validation --

    def add_error(self, name: str, message: str) -> None:
        """A message beside field `name`; with no name, about the round as a whole
        (kept under "round": a template cannot read an empty key)."""
        self.errors.setdefault(name or "round", []).append(
            f"{gettext(name)}: {message}" if name else message
        )

    def _points(self, row: PlayerRow, name: str) -> int | None:
        value, problem = read_points(getattr(row, name))
        if problem is not None:
            row.add_error(name, problem)
        return value

    def is_valid(self) -> bool:
        if not self.is_bound:
            return False
        if not self._validated:
            self._validated = True
            self._validate()
        return not self.has_errors

    @property
    def has_errors(self) -> bool:
        return bool(self.errors) or any(row.errors for row in self.rows)

    def all_errors(self) -> list[str]:
        """Every message, each naming its player, for the preview's summary."""
        messages = [m for messages in self.errors.values() for m in messages]
        for row in self.rows:
            for row_messages in row.errors.values():
                messages.extend(f"{row.player.name}, {m}" for m in row_messages)
        return messages

    def summary_lines(self) -> list[str]:
        """Every message in the order the refused save's summary lists them
        (templates/scoring/rounds/form.html), each naming its player: the
        answer to the phone's own save says them so."""
        lines = [
            *self.errors.get("round", []),
            *self.errors.get("better", []),
            *self.errors.get("winner", []),
            *self.errors.get("players", []),
            *self.errors.get("tiplu", []),
            *self.errors.get(STAKE_NAME, []),
        ]
        for row in self.rows:
            for name in ROW_FIELDS:
                lines.extend(f"{row.player.name}, {m}" for m in row.errors.get(name, []))
        lines.extend(self.errors.get("win_type", []))
        return lines

    @property
    def stake_in_force(self) -> Decimal:
        """The stake this round is played at: its own, or the one before it."""
        return self.stake_per_point if self.stake_per_point is not None else self.stake_before

    def _read_stake(self) -> None:
        self.stake_per_point = None
        try:
            stake = STAKE_FIELD.clean(self.stake)
        except forms.ValidationError as error:
            for problem in error.messages:
                self.errors.setdefault(STAKE_NAME, []).append(f"{STAKE_LABEL}: {problem}")
            return
        # The stake already in force is no change: the round keeps it.
        if stake is not None and stake != self.stake_before:
            self.stake_per_point = stake

    def _validate(self) -> None:
        self._read_stake()
        # Every problem at once: a value that does not parse gets its message and
        # stands in as 0 (or seen, or normal) so that the round's own rules
        # (the winner is seen, enough players …) are judged on the rest.
        entries = []
        for row in self.rows:
            status_known = row.status in ("seen", "unseen")
            if not status_known:
                row.add_error("status", str(_("must be seen or unseen")))
            maal = self._points(row, "maal")
            tunnel = self._points(row, "tunnel")
            if row.plays:
                entries.append(
                    Entry(
                        player=row.player.name,
                        status=cast(Status, row.status) if status_known else "seen",
                        maal=maal or 0,
                        tunnel=tunnel or 0,
                        dhoos=row.dhoos,
                        dublees=row.dublees,
                    )
                )
        if self.gone_players:
            self.add_error(
                "",
                str(
                    _(
                        "A player in this round is no longer in the session (removed since "
                        "the round was entered). Check the players and enter the round again."
                    )
                ),
            )
        winner_name: str | None = None
        if self.winner in ("", None):
            self.add_error("winner", str(_('choose the winner, or "no winner"')))
        elif self.winner != "none":
            chosen = next((r for r in self.rows if str(r.player.pk) == self.winner), None)
            if chosen is None:
                self.add_error("winner", str(_("not a player of this session")))
            elif not chosen.plays:
                self.add_error(
                    "winner",
                    str(_("%(name)s sits this round out") % {"name": chosen.player.name}),
                )
            else:
                winner_name = chosen.player.name
        win_type_known = self.win_type in ("normal", "dublee")
        if not win_type_known:
            self.add_error("win_type", str(_("must be normal or dublee")))
        elif self.win_type == "normal" and winner_name is not None:
            # A winner who saw by seven dublees goes out with the eighth: their
            # "dublees" tapped with the win type left at Normal would settle a
            # dublee win as a normal one, bonus lost. Asked, never guessed
            # (static/js/round.js sets the win type at the tap).
            chosen_row = next(r for r in self.rows if r.player.name == winner_name)
            if chosen_row.dublees:
                self.add_error(
                    "win_type",
                    str(
                        _(
                            "%(name)s won and saw by dublees, so it is a Dublee win: "
                            "choose Dublee (eight dublees), or untick %(name)s's dublees"
                        )
                        % {"name": winner_name}
                    ),
                )
        round_input = RoundInput(
            entries=tuple(entries),
            winner=winner_name,
            win_type=cast(WinType, self.win_type) if win_type_known else "normal",
            better=self.better,
        )
        winner_refused = "winner" in self.errors
        for problem in round_problems(round_input, self.rules):
            # With the winner refused above, "a dublee win needs a winner" says it again.
            if not (winner_refused and problem.field == "win_type" and winner_name is None):
                self.place(problem)
        if self.has_errors:
            return
        counts, unreadable = self._counts()
        if unreadable:
            # The round's own problems first; the calculator's unreadable counts
            # only when the round settles.
            try:
                self.result = settle_round(
                    round_input, self.rules, number=self.number, pending=self.pending
                )
            except RoundError as error:
                self.place(error)
                return
            for row, unread in unreadable:
                row.add_error("maal", unread)
            return
        try:
            # Settled once in its place and its tallies checked once: the save
            # takes it as it is unless the session changed meanwhile.
            prepared = prepare_round(
                round_input,
                self.rules,
                number=self.number,
                pending=self.pending,
                better_default=self.better_default,
                tiplu=self.tiplu,
                tallies=counts,
                version=self.version,
            )
        except RoundError as error:
            self.place(error)
            return
        self.prepared = prepared
        self.result = prepared.result
        self.tiplu = prepared.tiplu
        self.tallies = dict(prepared.tallies)
        # Left as the rules set it, the round keeps following its default (None),
        # which moves if an earlier round is added or deleted; changed, it is the
        # table's own mark.
        self.round_input = prepared.round_input

    def _counts(self) -> tuple[dict[str, Any], list[tuple[PlayerRow, str]]]:
        """The maal calculator's counts as posted, by player, and the rows whose
        count cannot be read, with the problem."""
        counts: dict[str, Any] = {}
        unreadable: list[tuple[PlayerRow, str]] = []
        for row in self.rows:
            if row.plays and row.maal_tally:
                try:
                    counts[row.player.name] = loads_bounded(row.maal_tally, MAX_TALLY_CHARS)
                except InputTooLarge:
                    unreadable.append(
                        (row, str(_("the calculator's count is too large or nested; count again")))
                    )
                except KeyGivenTwice:
                    unreadable.append(
                        (row, str(_("the calculator's count gives one item twice; count again")))
                    )
                except ValueError:  # not JSON
                    unreadable.append(
                        (row, str(_("the calculator's count is unreadable; count again")))
                    )
        return counts, unreadable

    def place(self, error: RoundError) -> None:
        """Put the engine's message beside the field it names."""
        row = next((r for r in self.rows if r.player.name == error.player), None)
        if row is not None and error.field in ROW_FIELDS:
            row.add_error(error.field, translate(error.problem))
        elif error.field == "players":
            self.add_error("players", translate(error.problem))
        elif error.field in ("winner", "win_type", "better", "tiplu"):
            self.add_error(error.field, translate(error.problem))
        else:
            self.add_error("", translate(error.msg))

    @property
    def from_seats(self) -> list[str]:
        """The players whose lines were filled in from their seats' phones."""
        return [row.player.name for row in self.rows if row.plays and row.from_seat]

    win_type_choices = WIN_TYPE_CHOICES
