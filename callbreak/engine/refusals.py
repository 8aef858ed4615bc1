"""A refused document: each problem is a code (CALLBREAK.md §7 and §9), where
it is in the document, and what is wrong, so one line tells the family what to
fix: `E_TRICKS_SUM: deal 3: tricks total 12, not 13`.

The words are the Marriage engine's `Message` values (scoring/engine/messages.py):
English as `str()`, translatable by the web layer like every engine word.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from scoring.engine.messages import EngineError, Message, gettext_noop, message

# Where in the document: parts shown joined with ", " ("deal 3, bids, Asha").
# Keys of the document are shown as typed; the rest are words.
Where = tuple[Message | str, ...]


@dataclass(frozen=True, slots=True)
class Refusal:
    """One problem of a document: its code, where it is (empty: the document as
    a whole) and what is wrong."""

    code: str
    where: Where
    problem: Message

    def __str__(self) -> str:
        parts = [self.code]
        if self.where:
            parts.append(", ".join(str(part) for part in self.where))
        return ": ".join([*parts, str(self.problem)])


def refusal(code: str, where: Where, msgid: str, **params: object) -> Refusal:
    """`refusal("E_TRICKS_SUM", (deal(3),), gettext_noop("tricks total %(total)s, not 13"),
    total=12)`, briefly."""
    return Refusal(code, where, message(msgid, **params))


class Enough(Exception):
    """A document has given as many problems as are reported: it is read no further."""


@dataclass(slots=True)
class Found:
    """The refusals a check has found so far; at `limit` it stops the check
    (raises Enough), so a pasted list of a million bad entries costs nothing
    more than the first `limit`."""

    limit: int
    items: list[Refusal] = field(default_factory=list)

    def add(self, *found: Refusal) -> None:
        for item in found:
            self.items.append(item)
            if len(self.items) >= self.limit:
                raise Enough

    def __len__(self) -> int:
        return len(self.items)


class DocumentRefused(EngineError):
    """A document with at least one refusal: `refusals` are all of them, in the
    order the checks found them; the message is the first."""

    def __init__(self, refusals: Sequence[Refusal]) -> None:
        if not refusals:
            raise ValueError("a refused document has at least one refusal")
        self.refusals = tuple(refusals)
        # The web layer translates each refusal's problem; the error's own
        # message is the first line, in English, as the command line prints it.
        super().__init__(str(self.refusals[0]))

    def lines(self) -> list[str]:
        """Every refusal, one line each."""
        return [str(item) for item in self.refusals]


def deal_at(number: int) -> Message:
    return message(gettext_noop("deal %(number)s"), number=number)


def hand_at(number: int) -> Message:
    return message(gettext_noop("hand %(number)s"), number=number)


def player_at(number: int) -> Message:
    return message(gettext_noop("player %(number)s"), number=number)
