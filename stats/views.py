"""The record: round history, player pages, the lifetime leaderboard, a session's
ledger as CSV and its printable summary. Owner-only, like every screen:
another user's session is a 404 and their players are simply not found."""

from __future__ import annotations

import csv
import datetime
from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.contrib.humanize.templatetags.humanize import intcomma
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from localise.bikram_sambat import bs_label
from localise.numbers import currency_label
from localise.templatetags.local_format import local_date, sign_class, signed
from scoring.selectors.reports import Ledger, session_ledger
from scoring.selectors.versions import owner_version, remember
from scoring.views.access import session_for_user
from scoring.web import charts
from scoring.web.htmx import HtmxHttpRequest
from scoring.web.pagecache import render_page
from scoring.web.session_chart import fmt_money, fmt_number, running_chart

from .forms import HistoryForm
from .records import (
    Board,
    Piece,
    RoundRow,
    filter_rounds,
    leaderboard_of,
    load_pieces,
    name_key,
    names_of,
    player_stats_of,
)

HISTORY_PAGE_SIZE = 50
PLAYER_SESSIONS_SHOWN = 30


def _pieces(request: HttpRequest, version: str) -> list[Piece]:
    """Each of the reader's sessions as a piece (its rounds, kept per session
    version), read once per `version` of them (owner_version, read by the view
    before its page)."""
    user = request.user
    return remember("pieces", version, lambda: load_pieces(user))


def _rounds(request: HttpRequest, version: str) -> list[RoundRow]:
    """Every round of the reader's sessions, oldest first."""
    pieces = _pieces(request, version)
    return remember("rounds", version, lambda: [r for p in pieces for r in p.rounds])


def evenings(pieces: list[Piece]) -> list[tuple[int, str]]:
    """The history's evening filter: each session with rounds, newest first, as
    "Dashain 2026 · 16 असोज 2083" (its date in the reader's calendar)."""
    return [
        (p.info.id, f"{p.info.name} · {local_date(p.info.played_on)}")
        for p in reversed(pieces)
        if p.rounds
    ]


@login_required
def round_history(request: HtmxHttpRequest) -> HttpResponse:
    template = "stats/history.html#results" if request.htmx else "stats/history.html"
    version = owner_version(request.user.pk)
    return render_page(request, template, lambda: _history(request, version), version=version)


@dataclass(frozen=True, slots=True)
class HistoryItem:
    """A found round as the list shows it, its words worked out here: fifty
    rounds through the template's tags and filters cost most of the page."""

    url: str
    title: str
    played_on: str
    winner: str  # "" for a round with no winner
    tags: SafeString  # dublee, better, maal taken, dhoos: a span each
    nets: SafeString  # "Aama +16 · Buwa −16", a span each, coloured by sign
    swing: str


def _spans(parts: list[tuple[str, str]], separator: str) -> SafeString:
    # One string per item rather than a loop in the template, which costs more
    # than everything else on the page for fifty rounds of five players.
    return mark_safe(
        separator.join(
            f'<span class="{c}">{conditional_escape(words)}</span>' for c, words in parts
        )
    )


def history_item(r: RoundRow, focus: str) -> HistoryItem:
    tags = []
    if r.winner_id and r.win_type == "dublee":
        tags.append(("tag win", _("dublee")))
    if r.better:
        tags.append(("tag", _("better")))
    taken = _(
        "%(name)s's maal kidnapped" if r.victim_kind == "kidnap" else "%(name)s's maal murdered"
    )
    tags += [("tag dhoos", taken % {"name": v.name}) for v in r.victims]
    tags += [("tag dhoos", _("%(name)s: dhoos") % {"name": d.name}) for d in r.dhoos]
    return HistoryItem(
        url=reverse("round_detail", args=[r.session.id, r.id]),
        title=_("%(session)s, round %(position)s")
        % {"session": r.session.name, "position": r.position},
        played_on=local_date(r.session.played_on),
        winner=_("%(winner)s won") % {"winner": r.winner_name} if r.winner_id else "",
        tags=_spans(tags, " "),
        nets=_spans(
            [
                (
                    sign_class(e.net) + (" focus" if e.key == focus else ""),
                    f"{e.name} {signed(e.net)}",
                )
                for e in r.entries
            ],
            " · ",
        ),
        swing=_("swing %(swing)s") % {"swing": intcomma(r.swing)},
    )


def _history(request: HtmxHttpRequest, version: str) -> dict[str, object]:
    rounds = _rounds(request, version)
    pieces = _pieces(request, version)
    names = names_of(pieces)
    form = HistoryForm(request.GET or None, players=names, evenings=evenings(pieces))
    focus = ""
    if form.is_bound:
        found = []
        if form.is_valid():
            history_filter = form.to_filter()
            found = filter_rounds(rounds, history_filter)
            focus = history_filter.player
    else:
        found = list(reversed(rounds))
    page = Paginator(found, HISTORY_PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "form": form,
        "page": page,
        "items": [history_item(r, focus) for r in page],
        "total": len(found),
        "query": query.urlencode(),
        "has_rounds": bool(rounds),
        "focus": focus,  # the player searched for: their net stands out
    }
    return context


@login_required
def player_detail(request: HttpRequest, name: str) -> HttpResponse:
    version = owner_version(request.user.pk)
    return render_page(
        request, "stats/player.html", lambda: _player(request, name, version), version=version
    )


def _player(request: HttpRequest, name: str, version: str) -> dict[str, object]:
    stats = player_stats_of(_pieces(request, version), name_key(name))
    if stats is None:
        raise Http404("No such player in your sessions.")
    chart = ""
    if stats.sessions:
        chart = charts.bar_chart(
            [
                # The date is short and tells apart every year's "Dashain": in
                # Nepali the Bikram Sambat date ("16 असोज 2083"), as every date there.
                (chart_date(p.session.played_on), p.points)
                for p in reversed(stats.sessions[:12])
            ],
            title=_("%(name)s: points per session") % {"name": stats.name},
            value_label=_("Points"),
            fmt=fmt_number,
        )
    return {
        "stats": stats,
        "chart": chart,
        # The latest sessions (every one counts in the figures above).
        "sessions_shown": stats.sessions[:PLAYER_SESSIONS_SHOWN],
        "more_sessions": max(0, len(stats.sessions) - PLAYER_SESSIONS_SHOWN),
    }


def chart_date(day: datetime.date) -> str:
    """A session's date under its bar: "2026-10-02", or in Nepali "16 असोज 2083"."""
    if (get_language() or "").startswith("ne"):
        return bs_label(day) or day.isoformat()
    return day.isoformat()


def standings_chart(board: Board) -> str:
    """A board's lifetime standings as bars: money, or points when it was played
    for points only (stake 0), so the chart is never a row of zeros."""
    rows = board.rows[:16]
    if any(row.money for row in rows):
        return charts.bar_chart(
            [(row.name, float(row.money)) for row in rows],
            title=_("Lifetime standings in %(currency)s")
            % {"currency": currency_label(board.currency, get_language())},
            value_label=currency_label(board.currency, get_language()),
            fmt=fmt_number,
            value_fmt=fmt_money,
        )
    return charts.bar_chart(
        [(row.name, row.points) for row in rows],
        title=_("Lifetime standings in points"),
        value_label=_("Points"),
        fmt=fmt_number,
    )


@login_required
def leaderboard_view(request: HttpRequest) -> HttpResponse:
    version = owner_version(request.user.pk)

    def context() -> dict[str, object]:
        # Added up from each session's own rows (kept per session version).
        pieces = _pieces(request, version)
        boards = remember("board", version, lambda: leaderboard_of(pieces))
        return {"boards": [(board, standings_chart(board)) for board in boards]}

    return render_page(request, "stats/leaderboard.html", context, version=version)


def _cell(text: str) -> str:
    """A typed name as a spreadsheet cell: never read as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def ledger_rows(ledger: Ledger) -> list[list[str]]:
    """The CSV's rows: header, then one row per round with nets and running totals.
    An evening whose stake changed has each round's stake in force too, and a
    last row with each player's money (each round at its own stake)."""
    names = [_cell(p.name) for p in ledger.players]
    changed = ledger.stake_changed
    rows = [
        [
            "Round",
            "Winner",
            "Win type",
            "Better",
            *(("Stake",) if changed else ()),
            *names,
            *(f"{name} total" for name in names),
        ]
    ]
    in_force = [(str(at),) for at in ledger.stakes_in_force] if changed else []
    for index, row in enumerate(ledger.rows):
        rows.append(
            [
                str(row.position),
                _cell(row.winner.name) if row.winner else "",
                row.win_type if row.winner else "",
                "yes" if row.better else "no",
                *(in_force[index] if changed else ()),
                *("" if net is None else str(net) for net in row.nets),
                *(str(total) for total in row.running),
            ]
        )
    if changed:
        cash = {s.player.pk: s.money for s in ledger.standings}
        rows.append(
            [
                "Money",
                "",
                "",
                "",
                "",
                *("" for _name in names),
                *(str(cash[p.pk]) for p in ledger.players),
            ]
        )
    return rows


@login_required
def ledger_csv(request: HttpRequest, session_id: int) -> HttpResponse:
    session = session_for_user(request, session_id)
    ledger = session_ledger(session)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    filename = f"ledger-{session.played_on:%Y-%m-%d}-{session.pk}.csv"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    # A byte-order mark, so Excel reads names in Devanagari as UTF-8.
    response.write("\ufeff")
    writer = csv.writer(response, lineterminator="\r\n")
    writer.writerows(ledger_rows(ledger))
    return response


@login_required
def session_summary(request: HttpRequest, session_id: int) -> HttpResponse:
    session = session_for_user(request, session_id)
    ledger = session_ledger(session)
    return render(
        request,
        "stats/summary.html",
        {
            "session": session,
            "ledger": ledger,
            "chart": running_chart(ledger),
        },
    )
