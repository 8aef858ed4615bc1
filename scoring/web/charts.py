"""Charts drawn as SVG markup on the server: no JavaScript, nothing fetched.

Pure functions (no Django): the caller passes already translated words and a
number formatter, and gets one `<svg>` string. Every text is escaped, since
player names are typed by users. Charts scale with their `viewBox`, so they fit
a phone's width and print sharp; lines differ by colour and by dash pattern,
so they still tell apart on a black-and-white printout.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from html import escape

Formatter = Callable[[float], str]

# Okabe–Ito colours (distinct for colour-blind eyes), then darker extras.
COLOURS: tuple[str, ...] = (
    "#0072B2",
    "#D55E00",
    "#009E73",
    "#CC79A7",
    "#E69F00",
    "#56B4E9",
    "#000000",
    "#882255",
)
# Solid, dashed, dotted, dash-dot … one per colour, for print.
DASHES: tuple[str, ...] = ("", "9 4", "2 3", "10 3 2 3", "5 5", "1 5", "12 3 2 3 2 3", "6 2")

# Narrow on purpose: on a phone the chart is drawn about 350 px wide, so small
# text stays about 12 px high.
WIDTH = 380
FONT = 16
SMALL = 15


def _fmt_default(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round-numbered ticks (1, 2 or 5 × 10^k apart) covering low..high."""
    if high < low:
        low, high = high, low
    if high == low:
        low, high = low - 1, high + 1
    raw = (high - low) / max(count - 1, 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    start = math.floor(low / step) * step
    ticks = [round(start, 10)]
    while ticks[-1] < high:
        ticks.append(round(start + len(ticks) * step, 10))
    return ticks


def _text(
    x: float, y: float, text: str, *, size: int = FONT, anchor: str = "start", **attrs: str
) -> str:
    # class_ stands for class; font_weight for font-weight.
    extra = "".join(f' {k.rstrip("_").replace("_", "-")}="{escape(v)}"' for k, v in attrs.items())
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}"{extra}>'
        f"{escape(text)}</text>"
    )


def _open(height: float, label: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} {height:.0f}" '
        f'role="img" aria-label="{escape(label)}" '
        # Attributes, not a style="": the site's CSP forbids inline styles.
        'width="100%" font-family="system-ui, sans-serif" '
        'preserveAspectRatio="xMidYMid meet">'
        f"<title>{escape(label)}</title>"
    )


def _shorten(name: str, limit: int) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


# A legend line holds about this many characters at SMALL size beside its swatch.
LEGEND_CHARS = 34
# The name column left of a bar chart's bars holds this many.
BAR_LABEL_CHARS = 12


def _wrap(text: str, limit: int = LEGEND_CHARS) -> list[str]:
    """The text in lines of at most `limit` characters, broken between words (a
    longer word is broken where it must): a legend shows every name in full."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        while len(word) > limit:
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:limit])
            word = word[limit:]
        if line and len(line) + 1 + len(word) > limit:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line] if line or not lines else lines


# A line is about 310 units wide: more points than this cannot be told apart, and
# a 1,000-round night would put 60 kB of them in every page.
MAX_POINTS = 300


def _decimate(values: Sequence[float], limit: int = MAX_POINTS) -> list[tuple[int, float]]:
    """The (round, value) points of a line to draw: every one up to `limit`;
    beyond it, the lowest and the highest of each run of rounds (so every peak
    and trough still shows) and always the last round, the final total."""
    if len(values) <= limit:
        return list(enumerate(values, start=1))
    values = list(values)
    size = math.ceil(len(values) / (limit // 2))
    starts = range(0, len(values), size)
    runs = [values[start : start + size] for start in starts]
    kept: list[tuple[int, float]] = []
    # The runs' extremes found by map (a loop in C): most of a line's cost.
    for start, run, lowest, highest in zip(
        starts, runs, map(min, runs), map(max, runs), strict=True
    ):
        # The first lowest and the first highest of the run, in the order of their
        # rounds (one point when they are the same round).
        low, high = start + run.index(lowest) + 1, start + run.index(highest) + 1
        if low < high:
            kept += ((low, lowest), (high, highest))
        elif high < low:
            kept += ((high, highest), (low, lowest))
        else:
            kept.append((low, lowest))
    if kept[-1][0] != len(values):
        kept.append((len(values), values[-1]))
    return kept


def line_chart(
    series: Sequence[tuple[str, Sequence[float]]],
    *,
    title: str,
    x_label: str,
    y_label: str,
    fmt: Formatter = _fmt_default,
) -> str:
    """One line per series, from x = 0 (everyone at 0) to x = len(values).

    Meant for running totals: values[i] is the total after round i + 1.
    """
    rounds = max((len(values) for _, values in series), default=0)
    # Each line's extremes (float() keeps order), and 0, where every line starts.
    lows = [0.0, *(float(min(values)) for _, values in series if values)]
    highs = [0.0, *(float(max(values)) for _, values in series if values)]
    ticks = nice_ticks(min(lows), max(highs))
    y_low, y_high = ticks[0], ticks[-1]

    left, right, top = 56.0, 14.0, 34.0
    plot_h = 220.0
    bottom_axis = top + plot_h
    # The legend: one player a line, the whole name (and the total the caller put
    # in it), wrapped onto a second line when long.
    legend_top = bottom_axis + 60
    legend_lines = [_wrap(name) for name, _values in series]
    line_h, entry_gap = 19, 7
    legend_h = sum(len(lines) * line_h + entry_gap for lines in legend_lines)
    height = legend_top + legend_h
    plot_w = WIDTH - left - right

    def sx(i: float) -> float:
        return left + (plot_w * i / rounds if rounds else 0)

    def sy(v: float) -> float:
        return top + plot_h * (y_high - v) / (y_high - y_low)

    # sx(i) = x0 + dx * i and sy(v) = y0 - dy * v, for the lines' points.
    x0, dx = left, (plot_w / rounds if rounds else 0.0)
    dy = plot_h / (y_high - y_low)
    y0 = top + dy * y_high

    parts = [_open(height, title)]
    heading = _shorten(title, 40)
    parts.append(_text(WIDTH / 2, 20, heading, size=FONT, anchor="middle", font_weight="600"))
    # Grid and y axis labels.
    for tick in ticks:
        y = sy(tick)
        stroke = "#555" if tick == 0 else "#ddd"
        width = "1.5" if tick == 0 else "1"
        parts.append(
            f'<line x1="{left:.1f}" y1="{y:.1f}" x2="{WIDTH - right:.1f}" y2="{y:.1f}" '
            f'stroke="{stroke}" stroke-width="{width}"/>'
        )
        parts.append(_text(left - 6, y + 4, fmt(tick), size=SMALL, anchor="end"))
    parts.append(
        f'<text transform="translate(14 {top + plot_h / 2:.1f}) rotate(-90)" font-size="{SMALL}" '
        f'text-anchor="middle">{escape(y_label)}</text>'
    )
    # x axis: whole rounds, at most about eight labels.
    parts.append(
        f'<line x1="{left:.1f}" y1="{bottom_axis:.1f}" x2="{WIDTH - right:.1f}" '
        f'y2="{bottom_axis:.1f}" stroke="#555"/>'
    )
    if rounds:
        step = max(1, int(nice_ticks(0, rounds, 8)[1] - nice_ticks(0, rounds, 8)[0]))
        for i in range(0, rounds + 1, step):
            parts.append(_text(sx(i), bottom_axis + 16, fmt(i), size=SMALL, anchor="middle"))
    parts.append(_text(left + plot_w / 2, bottom_axis + 36, x_label, size=SMALL, anchor="middle"))
    # The lines, then the legend.
    for index, (name, values) in enumerate(series):
        colour = COLOURS[index % len(COLOURS)]
        dash = DASHES[index % len(DASHES)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        drawn = [(0, 0.0), *_decimate(values)]
        # Each point placed and formatted in one step: 1,500 a chart. (sx and sy
        # written out, and %-formatting: twice as quick as f-string specs here.)
        path = " ".join(["%.1f,%.1f" % (x0 + dx * i, y0 - dy * v) for i, v in drawn])  # noqa: UP031
        parts.append(
            f'<polyline class="series" fill="none" stroke="{colour}" stroke-width="2.5" '
            f'stroke-linejoin="round"{dash_attr} points="{path}"><title>{escape(name)}</title>'
            "</polyline>"
        )
        end_x, end_y = sx(drawn[-1][0]), sy(drawn[-1][1])
        parts.append(f'<circle cx="{end_x:.1f}" cy="{end_y:.1f}" r="3.5" fill="{colour}"/>')
        lx = 14.0
        ly = legend_top + sum(len(lines) * line_h + entry_gap for lines in legend_lines[:index])
        parts.append(
            f'<line x1="{lx:.1f}" y1="{ly - 5:.1f}" x2="{lx + 30:.1f}" y2="{ly - 5:.1f}" '
            f'stroke="{colour}" stroke-width="3"{dash_attr}/>'
        )
        for number, line in enumerate(legend_lines[index]):
            parts.append(_text(lx + 38, ly + number * line_h, line, size=SMALL, class_="legend"))
    parts.append("</svg>")
    return "".join(parts)


def bar_chart(
    bars: Sequence[tuple[str, float]],
    *,
    title: str,
    value_label: str,
    fmt: Formatter = _fmt_default,
    value_fmt: Formatter | None = None,
) -> str:
    """Horizontal bars, one per name, from a zero line (winners right, losers left).
    Short names stand in a column left of the bars; when one is longer than that
    column holds, every name goes whole on its own line above its bar."""
    stacked = any(len(name) > BAR_LABEL_CHARS for name, _value in bars)
    left, right, top = (14.0 if stacked else 116.0), 72.0, 34.0
    bar_h, gap, name_h = 20.0, 8.0, 18.0
    names = [_wrap(name, LEGEND_CHARS + 6) if stacked else [name] for name, _value in bars]
    above = [len(lines) * name_h if stacked else 0.0 for lines in names]
    rows_h = max(sum(bar_h + gap + h for h in above), bar_h + gap)
    axis_y = top + rows_h
    height = axis_y + 40
    values = [0.0, *(float(v) for _, v in bars)]
    low, high = min(values), max(values)
    if low == high:
        low, high = low - 1, high + 1
    # The bars use the whole width; only the round ticks inside it are drawn.
    ticks = [t for t in nice_ticks(low, high, 5) if low <= t <= high]
    plot_w = WIDTH - left - right

    def sx(v: float) -> float:
        return left + plot_w * (v - low) / (high - low)

    parts = [_open(height, title)]
    heading = _shorten(title, 40)
    parts.append(_text(WIDTH / 2, 20, heading, size=FONT, anchor="middle", font_weight="600"))
    for tick in ticks:
        x = sx(tick)
        parts.append(
            f'<line x1="{x:.1f}" y1="{top - 4:.1f}" x2="{x:.1f}" y2="{axis_y:.1f}" '
            f'stroke="{"#555" if tick == 0 else "#ddd"}"/>'
        )
        parts.append(_text(x, axis_y + 16, fmt(tick), size=SMALL, anchor="middle"))
    parts.append(_text(left + plot_w / 2, axis_y + 34, value_label, size=SMALL, anchor="middle"))
    value_fmt = value_fmt or fmt
    zero = sx(0)
    y = top - bar_h - gap
    for index, (name, value) in enumerate(bars):
        y += bar_h + gap + above[index]
        end = sx(float(value))
        x, w = min(zero, end), abs(end - zero)
        # Colour says win or loss; the signed number says it again in black and white.
        colour = "#1b7a3a" if value >= 0 else "#b3261e"
        parts.append(
            f'<rect class="bar" x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{bar_h:.0f}" '
            f'fill="{colour}"><title>{escape(name)}: {escape(value_fmt(value))}</title></rect>'
        )
        if stacked:
            for number, line in enumerate(names[index]):
                line_y = y - above[index] + (number + 1) * name_h - 4
                parts.append(_text(left, line_y, line, size=SMALL, class_="bar-name"))
        else:
            parts.append(_text(left - 8, y + bar_h - 5, name, size=SMALL, anchor="end"))
        sign = "+" if value > 0 else ""
        label_x = max(zero, end) + 4
        parts.append(_text(label_x, y + bar_h - 5, sign + value_fmt(value), size=SMALL))
    parts.append("</svg>")
    return "".join(parts)
