"""A seat's entry: the round form's fields for one player, read and checked
with the round form's own messages (so they are translated already)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from scoring.engine import Rules
from scoring.engine.limits import MAX_TALLY_CHARS, InputTooLarge, KeyGivenTwice, loads_bounded
from scoring.engine.maal import MaalError, Tally, check_added_tally, check_entry_tally
from scoring.forms.points import read_points
from scoring.models import Player
from scoring.words.i18n import translate

from .services import SeatValues

FIELDS = ("status", "maal", "tunnel", "dhoos", "dublees", "maal_tally", "tiplu")


class SeatForm:
    """The posted entry of `player`: each field by the round form's name for
    that player (p-<id>-maal) or by its plain name (maal)."""

    def __init__(self, player: Player, rules: Rules, data: Any = None, initial: dict | None = None):
        self.player = player
        self.rules = rules
        self.errors: dict[str, list[str]] = {}
        self.values: SeatValues | None = None
        self.is_bound = data is not None
        source = initial or {}
        if data is not None:
            source = {name: self._posted(data, name) for name in FIELDS}
            source["dhoos"] = bool(source["dhoos"])
            source["dublees"] = bool(source["dublees"])
        self.status = str(source.get("status") or "seen")
        self.maal = str(source.get("maal") or "")
        self.tunnel = str(source.get("tunnel") or "")
        self.dhoos = bool(source.get("dhoos"))
        self.dublees = bool(source.get("dublees"))
        self.maal_tally = str(source.get("maal_tally") or "")
        self.tiplu = str(source.get("tiplu") or "")[:3]
        if self.dublees:  # seven dublees show the tiplu: seen
            self.status = "seen"

    def _posted(self, data: Any, name: str) -> str:
        value = data.get(f"p-{self.player.pk}-{name}")
        if value is None:
            value = data.get(name, "")
        return str(value).strip()

    def add_error(self, name: str, message: str) -> None:
        self.errors.setdefault(name, []).append(message)

    def _points(self, name: str) -> int:
        # The round form's own reading (scoring/forms/points.py): the one parser.
        value, problem = read_points(getattr(self, name))
        if problem is not None:
            self.add_error(name, problem)
        return value or 0

    def is_valid(self, others: dict[str, dict[str, int]] | None = None) -> bool:
        """Checked alone, then with the tallies the other seats sent for the
        same round (`others`: name -> tally): together they may not hold more
        of a maal card than exist."""
        if not self.is_bound:
            return False
        if self.status not in ("seen", "unseen"):
            self.add_error("status", _("must be seen or unseen"))
        maal = self._points("maal")
        tunnel = self._points("tunnel")
        tally: dict[str, int] | None = None
        if not self.errors and self.maal_tally:
            tally = self._tally(maal, tunnel, others or {})
        if self.errors:
            return False
        self.values = SeatValues(
            status=self.status,
            maal=maal,
            tunnel=tunnel,
            dhoos=self.dhoos,
            dublees=self.dublees,
            maal_tally=tally,
            tiplu=self.tiplu if tally is not None else "",
        )
        return True

    def _tally(self, maal: int, tunnel: int, others: dict[str, dict[str, int]]):
        try:
            data = loads_bounded(self.maal_tally, MAX_TALLY_CHARS)
        except InputTooLarge:
            self.add_error("maal", _("the calculator's count is too large or nested; count again"))
            return None
        except KeyGivenTwice:
            self.add_error("maal", _("the calculator's count gives one item twice; count again"))
            return None
        except ValueError:
            self.add_error("maal", _("the calculator's count is unreadable; count again"))
            return None
        try:
            result = check_entry_tally(data, self.tiplu, self.rules, maal, tunnel)[1]
            mine = result.tally.to_dict()
            # Checked for what it adds: another seat's impossible count blocks
            # only that seat (the scorer's form checks them all together).
            together = {name: Tally(**t) for name, t in others.items()}
            check_added_tally(together, self.player.name, Tally(**mine))
        except MaalError as error:
            self.add_error("maal", translate(error.msg))
            return None
        return mine

    @property
    def all_errors(self) -> list[str]:
        return [f"{_(name)}: {m}" for name, messages in self.errors.items() for m in messages]
