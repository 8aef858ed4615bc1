"""A seat's entry: the round form's fields for one player, read and checked
with the round form's own messages (so they are translated already)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from scoring.engine import Rules
from scoring.engine.limits import MAX_TALLY_CHARS, InputTooLarge, KeyGivenTwice, loads_bounded
from scoring.engine.maal import MaalError, Tally, check_added_tally, check_entry_tally
from scoring.forms.points import read_points
from scoring.forms.rounds import row_prefix
from scoring.models import Player
from scoring.words.i18n import translate

from .entry import NAMES, SEAT_FIELDS, SeatValues


class SeatForm:
    """The posted entry of `player`: each field of SeatValues (table/entry.py)
    by the round form's name for that player (p-<id>-maal) or by its plain
    name (maal). Each field is an attribute as typed (`form.maal`), for the
    page to show again."""

    def __init__(self, player: Player, rules: Rules, data: Any = None, initial: dict | None = None):
        self.player = player
        self.rules = rules
        self.errors: dict[str, list[str]] = {}
        self.values: SeatValues | None = None
        self.is_bound = data is not None
        source = initial or {}
        if data is not None:
            source = {name: self._posted(data, name) for name in NAMES}
        self.text: dict[str, Any] = {
            f.name: bool(source.get(f.name)) if f.kind == "flag" else str(source.get(f.name) or "")
            for f in SEAT_FIELDS
        }
        self.text["status"] = self.text["status"] or "seen"
        self.text["tiplu"] = self.text["tiplu"][:3]
        if self.text["dublees"]:  # seven dublees show the tiplu: seen
            self.text["status"] = "seen"

    def __getattr__(self, name: str) -> Any:
        if name in NAMES:
            return self.__dict__["text"][name]
        raise AttributeError(name)

    def _posted(self, data: Any, name: str) -> str:
        value = data.get(row_prefix(self.player.pk) + name)
        if value is None:
            value = data.get(name, "")
        return str(value).strip()

    def add_error(self, name: str, message: str) -> None:
        self.errors.setdefault(name, []).append(message)

    def _points(self, name: str) -> int:
        # The round form's own reading (scoring/forms/points.py): the one parser.
        value, problem = read_points(self.text[name])
        if problem is not None:
            self.add_error(name, problem)
        return value or 0

    def is_valid(self, others: dict[str, dict[str, int]] | None = None) -> bool:
        """Checked alone, then with the tallies the other seats sent for the
        same round (`others`: name -> tally): together they may not hold more
        of a maal card than exist."""
        if not self.is_bound:
            return False
        values = dict(self.text)
        if values["status"] not in ("seen", "unseen"):
            self.add_error("status", _("must be seen or unseen"))
        for f in SEAT_FIELDS:
            if f.kind == "points":
                values[f.name] = self._points(f.name)
        tally: dict[str, int] | None = None
        if not self.errors and values["maal_tally"]:
            tally = self._tally(values["maal"], values["tunnel"], others or {})
        if self.errors:
            return False
        values["maal_tally"] = tally
        # The tiplu goes with the calculator's count it was picked for.
        values["tiplu"] = values["tiplu"] if tally is not None else ""
        self.values = SeatValues(**values)
        return True

    def _tally(self, maal: int, tunnel: int, others: dict[str, dict[str, int]]):
        try:
            data = loads_bounded(self.text["maal_tally"], MAX_TALLY_CHARS)
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
            result = check_entry_tally(data, self.text["tiplu"], self.rules, maal, tunnel)[1]
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
