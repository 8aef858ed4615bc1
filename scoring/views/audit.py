"""The audit trail: who changed which round, when, from what to what; and
restoring a deleted round from it (services.restore_round)."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from localise.numbers import NumberFormat

from .. import services
from ..engine import RoundError
from ..models import Round, RoundChange
from ..templatetags.maal import card_label
from ..web.live import follow_context
from ..words.i18n import translate
from .access import change_for_user, session_for_scorer

SHOWN = 200  # a session's page lists this many latest changes


def _entry_parts(entry: dict[str, Any] | None) -> list[tuple[str, str]]:
    """A player's line of a round as the history says it, value by value:
    (what, words), e.g. ("maal", "maal 5")."""
    if entry is None:
        return []
    parts = [("status", _(entry["status"])), ("maal", _("maal %(maal)d") % {"maal": entry["maal"]})]
    if entry["tunnel"]:
        parts.append(("tunnel", _("tunnel %(tunnel)d") % {"tunnel": entry["tunnel"]}))
    if entry["dhoos"]:
        parts.append(("dhoos", _("dhoos")))
    if entry.get("dublees"):
        parts.append(("dublees", _("by dublees")))
    # Grouped the reader's way: "net +1,234", "खुद +1,234".
    parts.append(("net", _("net %(net)s") % {"net": NumberFormat.current().signed(entry["net"])}))
    return parts


def _round_parts(snap: dict[str, Any] | None) -> list[tuple[str, str]]:
    if snap is None:
        return []
    winner = _("%(winner)s won") % {"winner": snap["winner"]} if snap["winner"] else _("No winner")
    parts = [("winner", winner)]
    if snap["win_type"] == "dublee":
        parts.append(("win_type", _("dublee")))
    if snap["better"]:
        parts.append(("better", _("better")))
    if snap.get("stake_per_point"):
        # The stake this round set from itself on, written as money.
        amount = NumberFormat.current().money(Decimal(snap["stake_per_point"]))
        parts.append(("stake", _("stake %(stake)s a point from here") % {"stake": amount}))
    return parts


def _side(
    parts: list[tuple[str, str]], other: list[tuple[str, str]], compared: bool
) -> list[dict[str, Any]]:
    """One side of a line, each value marked when the other side has it
    otherwise (or not at all): only what changed stands out."""
    theirs = dict(other)
    return [
        {"text": text, "changed": compared and theirs.get(what) != text} for what, text in parts
    ]


def _line(name: str, old: list[tuple[str, str]], new: list[tuple[str, str]]) -> dict[str, Any]:
    """A line of the change's table: each side value by value, and "what: old →
    new" for each value that changed (a value one side lacks is "—" there)."""
    compared = bool(old) and bool(new)
    before, after = dict(old), dict(new)
    moved = []
    if compared:
        for what in dict.fromkeys([*before, *after]):
            if before.get(what) != after.get(what):
                moved.append((what, _moved(before.get(what, "—"), after.get(what, "—"))))
    return {
        "player": name,
        "before": _side(old, new, compared) or [{"text": "—", "changed": False}],
        "after": _side(new, old, compared) or [{"text": "—", "changed": False}],
        "changed": old != new,
        "moves": moved,
    }


def _moved(old: str, new: str) -> str:
    """ "maal 0 → 4": the value's name said once when both sides have it."""
    same = 0
    while same < min(len(old), len(new)) and old[same] == new[same]:
        same += 1
    cut = old.rfind(" ", 0, same) + 1
    return f"{old} → {new[cut:]}" if cut else f"{old} → {new}"


def _from_seat(entry: dict[str, Any] | None) -> str:
    """The values of a player's line their own seat's phone sent, in words."""
    sent = (entry or {}).get("from_seat") or []
    if entry is None or not sent:
        return ""
    said = dict(_entry_parts(entry))
    # As the line says them (no tunnel, no dhoos: not said there either).
    values = " · ".join(said[what] for what in sent if what in said)
    return _("from %(name)s’s phone: %(values)s") % {"name": entry["player"], "values": values}


def _seating(snap: dict[str, Any] | None) -> dict[str, str]:
    """A seating kept by a draw of seats: each player's seat (and card), in order."""
    seats = (snap or {}).get("seating", [])
    found = {}
    for place, seat in enumerate(seats, start=1):
        name = seat[1]
        text = _("seat %(seat)d") % {"seat": place}
        if len(seat) > 2:
            text += f" · {card_label(seat[2])}"
            if place == 1:
                text += " · " + _("deals first")
        found[name] = text
    return found


def _describe_draw(change: RoundChange) -> dict[str, Any]:
    """A draw of seats (or its undoing): where each player sat, before and after."""
    before, after = _seating(change.before), _seating(change.after)
    names = list(after) + [name for name in before if name not in after]
    rows = []
    for name in names:
        old = [("seat", before[name])] if name in before else []
        new = [("seat", after[name])] if name in after else []
        row = _line(name, old, new)
        row["from_seat"] = ""
        rows.append(row)
    return {
        "change": change,
        "round_rows": rows,  # no round: the seats alone
        "rows": rows,
        "moves": [],
        "number": None,
        "can_restore": False,
    }


def describe(change: RoundChange) -> dict[str, Any]:
    """What the page shows of one change: the round line and one line per
    player, before and after, with the values that differ marked and said
    "old → new", and which values each player's seat sent (a draw of seats:
    where each sat)."""
    if change.action in ("seats", "seats_undo"):
        return _describe_draw(change)
    before = {e["player"]: e for e in (change.before or {}).get("entries", [])}
    after = {e["player"]: e for e in (change.after or {}).get("entries", [])}
    names = list(before) + [name for name in after if name not in before]
    rows = []
    for name in names:
        row = _line(name, _entry_parts(before.get(name)), _entry_parts(after.get(name)))
        row["from_seat"] = _from_seat(after.get(name))
        rows.append(row)
    line = _line(_("Round"), _round_parts(change.before), _round_parts(change.after))
    # What was entered, not the nets that follow from it, "Bhai: maal 0 → 4".
    moves = [f"{line['player']}: {move}" for _what, move in line["moves"]]
    for row in rows:
        moves.extend(f"{row['player']}: {move}" for what, move in row["moves"] if what != "net")
    return {
        "change": change,
        "round_rows": [line, *rows],
        "rows": rows,
        "moves": moves,
        "number": None,  # its place on the ledger: see _places
        "can_restore": change.action in ("delete", "undo") and not change.restored,
    }


def _places(numbers: dict[int, int], changes: list[RoundChange]) -> dict[int, int]:
    """Each changed round's number as the ledger, its page and the messages call
    it now: its place, not the stored number (which keeps gaps after a delete).
    A deleted round is named by the place a restore would give it back.
    `numbers`: the session's rounds, id to stored number."""
    ordered = sorted(numbers.values())
    places = {pk: bisect_right(ordered, number) for pk, number in numbers.items()}
    taken = set(ordered)
    for change in changes:
        number = (change.before or change.after or {}).get("number")
        if change.round_pk in places or number is None:
            continue
        # Back in its old number if that is free, else after the last round.
        places[change.round_pk] = (
            len(ordered) + 1 if number in taken else bisect_left(ordered, number) + 1
        )
    return places


def _page(request, session, changes, round_pk=None) -> HttpResponse:
    numbers = dict(Round.objects.filter(session=session).values_list("pk", "number"))
    places = _places(numbers, changes)
    live = set(numbers) & {c.round_pk for c in changes}
    items = [describe(c) for c in changes]
    for item in items:
        item["number"] = places.get(item["change"].round_pk)
    return render(
        request,
        "scoring/audit/changes.html",
        {
            "session": session,
            "changes": items,
            "live_rounds": live,
            "round_pk": round_pk,
            "limit": SHOWN,
            **follow_context(session),
        },
    )


@login_required
def session_changes(request: HttpRequest, session_id: int) -> HttpResponse:
    session = session_for_scorer(request, session_id)
    changes = list(RoundChange.objects.filter(session=session).select_related("user")[:SHOWN])
    return _page(request, session, changes)


@login_required
def round_changes(request: HttpRequest, session_id: int, round_id: int) -> HttpResponse:
    """One round's history; still there after the round was deleted."""
    session = session_for_scorer(request, session_id)
    changes = list(
        RoundChange.objects.filter(session=session, round_pk=round_id).select_related("user")
    )
    if not changes and not Round.objects.filter(session=session, pk=round_id).exists():
        raise Http404
    return _page(request, session, changes, round_pk=round_id)


@login_required
@require_POST
def round_restore(request: HttpRequest, session_id: int, change_id: int) -> HttpResponse:
    session = session_for_scorer(request, session_id)
    change = change_for_user(request, session, change_id)
    try:
        round_ = services.restore_round(change=change, user=request.user)
    except RoundError as error:
        messages.error(request, translate(error.msg))
        return redirect("session_changes", session_id=session.pk)
    # The position came back with the round, counted inside the save's transaction.
    messages.success(
        request, _("Round restored as round %(position)d.") % {"position": round_.position}
    )
    return redirect("session_detail", session_id=session.pk)
