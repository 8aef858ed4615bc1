"""The ledger table (and chart) as a page shows them: plain text, each number
formatted once, kept per version of the session and language.

A 1,000-round night is 10,000 numbers. Formatted by template filters (each
looking up the language) inside a template loop per cell, the table was most of
a page's time. Here the language's number format is read once, each player's
name is escaped once, and the rows are joined as text; the template
(scoring/_ledger.html) lays out the rest of the table around them.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from localise.numbers import NumberFormat

from ..models import GameSession
from ..web.session_chart import running_chart
from .reports import Ledger, session_ledger
from .versions import remember, version_of

# Short player names for the column heads on a phone: a name that fits stays
# whole; a longer one becomes its first word or its first letters, and any clash
# between short names falls back to initials, then a number. The full name stays
# on the page (title, and a popover on tap).
FITS = 7  # characters a narrow number column shows without widening


def _cut(text: str, limit: int) -> str:
    """At most `limit` characters and an ellipsis, never splitting a letter from
    its combining marks (Devanagari vowel signs, virama)."""
    if len(text) <= limit:
        return text
    end = limit - 1
    while end > 1 and unicodedata.category(text[end]) in ("Mn", "Mc"):
        end -= 1
    return text[:end] + "…"


def _short(name: str) -> str:
    if len(name) <= FITS:
        return name
    first = name.split()[0]
    return first if len(first) <= FITS else _cut(first, FITS)


def _initials(name: str) -> str:
    words = name.split()
    return "".join(w[0] for w in words) if len(words) > 1 else _cut(name, 4)


def short_names(names: Iterable[tuple[int, str]]) -> dict[int, str]:
    """{id: short name} for (id, full name) pairs, the short names all distinct."""
    names = list(names)
    shorts = {pid: _short(name) for pid, name in names}
    clash = Counter(shorts.values())
    for pid, name in names:
        if clash[shorts[pid]] > 1 and shorts[pid] != name:
            shorts[pid] = _initials(name)
    seen: Counter[str] = Counter()
    clash = Counter(shorts.values())
    for pid, _name in names:
        if clash[shorts[pid]] > 1:
            seen[shorts[pid]] += 1
            if seen[shorts[pid]] > 1:
                shorts[pid] = f"{shorts[pid]}{seen[shorts[pid]]}"
    return shorts


@dataclass(frozen=True, slots=True)
class Head:
    """A player's column head: the short name, and the full one it stands for."""

    player_id: int
    name: str
    short: str


def _round_rows(href: str, number: object, winner: str, nets: str, total: str, running: str) -> str:
    """A round's two table rows: its nets, then everyone's totals after it. Filled
    in with text escaped once (names) or made here (numbers, our own markup); an
    f-string, ten times quicker than str.format over a thousand rounds."""
    return (
        f'<tr class="ledger-round"{href}><td class="num col-round" rowspan="2">{number}</td>'
        f'<td class="col-winner">{winner}</td>{nets}</tr>\n'
        f'<tr class="running muted"{href}><td class="small col-winner">{total}</td>{running}</tr>\n'
    )


def _css(value: int) -> str:
    return "pos" if value > 0 else "neg" if value < 0 else ""


def ledger_table(ledger: Ledger, *, can_edit: bool) -> tuple[list[Head], SafeString]:
    """The column heads, and the table body of the shown rows (ledger.shown_rows).

    A 1,000-round table is 2,000 rows of 7 cells: as a template loop per row
    (let alone per cell) that was most of a page's time, so the rows are
    joined here, once per version of the session (ledger_context)."""
    shorts = short_names((p.id, p.name) for p in ledger.players)
    heads = [Head(p.id, p.name, shorts[p.id]) for p in ledger.players]
    fmt = NumberFormat.current()
    # A winner as the cell shows them, escaped once: the short name, the full
    # one in a tooltip when they differ.
    winner_cell = {}
    for head in heads:
        short, full = escape(head.short), escape(head.name)
        winner_cell[head.player_id] = (
            short if head.short == head.name else f'<abbr title="{full}">{short}</abbr>'
        )
    no_winner = f'<span class="muted">{escape(_("no winner"))}</span>'
    dublee = f' <span class="tag">{escape(_("dublee"))}</span>'
    better = f' <span class="tag">{escape(_("better"))}</span>'
    total = escape(_("total"))
    label = escape(_("Round %(position)s"))
    # The rounds' addresses differ only in the round's id.
    rounds_url = reverse("session_detail", args=[ledger.session.pk]) + "rounds/"

    # A night repeats the same nets and totals over and over: each cell's text
    # is made once and looked up after that.
    net_cells: dict[tuple[int | None, bool], str] = {}
    total_cells: dict[int, str] = {}

    def net_cell(net: int | None, won: bool) -> str:
        css = "num win-cell" if won else "num"
        if net is None:
            cell = f'<td class="{css}"></td>'
        else:
            cell = f'<td class="{css}"><span class="{_css(net)}">{fmt.signed(net)}</span></td>'
        net_cells[net, won] = cell
        return cell

    def total_cell(value: int) -> str:
        cell = total_cells[value] = f'<td class="num small">{fmt.num(value)}</td>'
        return cell

    body = []
    for row in ledger.shown_rows:
        winner = winner_cell[row.winner.id] if row.winner else no_winner
        if row.win_type == "dublee":
            winner += dublee
        if row.better:
            winner += better
        won = row.winner_column
        nets = "".join(
            [
                net_cells.get((net, column == won)) or net_cell(net, column == won)
                for column, net in enumerate(row.nets)
            ]
        )
        running = "".join([total_cells.get(value) or total_cell(value) for value in row.running])
        number: int | str = row.position
        href = ""
        if can_edit:
            url = f"{rounds_url}{row.round_id}/"
            href = f' data-href="{url}"'
            aria = label % {"position": row.position}
            number = f'<a class="round-link" href="{url}" aria-label="{aria}">{row.position}</a>'
        body.append(_round_rows(href, number, winner, nets, total, running))
    return heads, mark_safe("".join(body))


def ledger_context(
    session: GameSession, *, latest: int | None, can_edit: bool, chart: bool = False
) -> dict[str, object]:
    """What a page showing the session's standings and ledger needs: `ledger`,
    the table's `heads` and `body` and, with `chart`, the running-totals `chart`
    (SVG). Each is computed once per version of the session and language."""
    version = version_of(session)
    ledger = session_ledger(session, latest=latest)
    table = f"ledger-table:{get_language()}:{latest}:{can_edit}"
    heads, body = remember(table, version, lambda: ledger_table(ledger, can_edit=can_edit))
    context: dict[str, object] = {"ledger": ledger, "heads": heads, "body": body}
    if chart:
        key = f"ledger-chart:{get_language()}"
        # Every text in the SVG is escaped by scoring.web.charts.
        context["chart"] = remember(key, version, lambda: mark_safe(running_chart(ledger)))
    return context
