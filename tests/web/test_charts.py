"""scoring.web.charts: SVG that is well-formed, escaped, scaled by viewBox and readable in print."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET

import pytest

from scoring.web.charts import COLOURS, DASHES, MAX_POINTS, bar_chart, line_chart, nice_ticks

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # raises on anything not well-formed (e.g. unescaped names)


@pytest.mark.parametrize(
    ("low", "high", "expected"),
    [
        (0, 10, [0, 5, 10]),
        (-17, 39, [-20, 0, 20, 40]),
        (0, 0, [-1, 0, 1]),
        (0, 1, [0, 0.5, 1]),
        (-1000, 0, [-1000, -500, 0]),
    ],
)
def test_nice_ticks(low, high, expected):
    ticks = nice_ticks(low, high, 4)
    assert ticks == expected


def test_nice_ticks_cover_the_range():
    for low, high in [(-3, 58), (7, 7), (-250, 1234), (0.1, 0.9)]:
        ticks = nice_ticks(low, high)
        assert ticks[0] <= low and ticks[-1] >= high
        steps = {round(b - a, 9) for a, b in itertools.pairwise(ticks)}
        assert len(steps) == 1


RUNNING = [
    ("Aama", [3, 39]),
    ("Buwa", [-16, -29]),
    ("Didi", [30, 7]),
    ("Dai", [-17, -17]),
]


def test_line_chart_structure():
    svg = line_chart(RUNNING, title="Running totals", x_label="Round", y_label="Points")
    root = parse(svg)
    assert root.tag == f"{SVG}svg"
    assert re.fullmatch(r"0 0 380 \d+", root.get("viewBox", ""))
    assert root.get("width") == "100%"
    assert root.get("role") == "img" and root.get("aria-label") == "Running totals"
    lines = root.findall(f"{SVG}polyline")
    assert len(lines) == 4
    # Each line starts at round 0, at 0 points, and has one point per round after it.
    assert [len(line.get("points", "").split()) for line in lines] == [3, 3, 3, 3]
    assert [line.get("stroke") for line in lines] == list(COLOURS[:4])
    # Distinct dash patterns, so the lines tell apart on a black-and-white printout.
    dashes = [line.get("stroke-dasharray") for line in lines]
    assert dashes == [None, *DASHES[1:4]]
    texts = [t.text for t in root.iter(f"{SVG}text")]
    for word in ("Running totals", "Round", "Points", "Aama", "Buwa", "Didi", "Dai"):
        assert word in texts
    assert "40" in texts and "-20" in texts  # y axis ticks


def test_line_chart_points_are_placed_by_value():
    svg = line_chart([("A", [10, -10])], title="t", x_label="x", y_label="y")
    points = parse(svg).find(f"{SVG}polyline").get("points").split()
    (x0, y0), (x1, y1), (x2, y2) = (tuple(map(float, p.split(","))) for p in points)
    assert x0 < x1 < x2
    assert y1 < y0 < y2  # +10 above the zero line, −10 below
    assert y0 - y1 == pytest.approx(y2 - y0)


def test_names_are_escaped():
    name = '<i>"A&B"</i>'
    svg = line_chart([(name, [1])], title="<t>", x_label="x", y_label="y")
    assert "<i>" not in svg
    root = parse(svg)
    assert name in [t.text for t in root.iter(f"{SVG}text")]
    assert root.get("aria-label") == "<t>"
    svg = bar_chart([(name, 5)], title="t", value_label="NPR")
    assert "<i>" not in svg
    parse(svg)


def legend_lines(svg: str) -> list[tuple[float, str | None]]:
    return [
        (float(t.get("y")), t.text)  # type: ignore[arg-type]
        for t in parse(svg).iter(f"{SVG}text")
        if t.get("class") == "legend"
    ]


def test_the_legend_has_one_player_a_line_with_the_whole_name():
    series = [
        ("Aama (+39)", [39]),
        ("Bhanubhakta Acharya Khatiwada Sharma (−29)", [-29]),
        ("Didi (−10)", [-10]),
    ]
    lines = legend_lines(line_chart(series, title="t", x_label="x", y_label="y"))
    # The long name wraps between words onto a second line; nothing is cut.
    assert [text for _y, text in lines] == [
        "Aama (+39)",
        "Bhanubhakta Acharya Khatiwada",
        "Sharma (−29)",
        "Didi (−10)",
    ]
    ys = [y for y, _text in lines]
    assert ys == sorted(ys) and len(set(ys)) == 4  # one under the other


def test_a_name_with_no_space_is_broken_where_it_must():
    lines = legend_lines(line_chart([("A" * 40, [1])], title="t", x_label="x", y_label="y"))
    assert [text for _y, text in lines] == ["A" * 34, "A" * 6]


def test_many_players_cycle_colours_and_dashes_and_grow_the_legend():
    few = parse(line_chart(RUNNING[:2], title="t", x_label="x", y_label="y"))
    many_series = [(f"P{i}", [i]) for i in range(10)]
    many = parse(line_chart(many_series, title="t", x_label="x", y_label="y"))
    height = lambda root: int(root.get("viewBox").split()[3])  # noqa: E731
    assert height(many) > height(few)
    pairs = {(p.get("stroke"), p.get("stroke-dasharray")) for p in many.iter(f"{SVG}polyline")}
    assert len(pairs) == 8  # eight distinct styles, then they repeat


def test_formatter_is_used_for_ticks():
    svg = line_chart(
        [("A", [1500])], title="t", x_label="x", y_label="y", fmt=lambda v: f"<{v:,.0f}>"
    )
    texts = [t.text for t in parse(svg).iter(f"{SVG}text")]
    assert "<1,500>" in texts


def test_empty_line_chart_is_still_valid():
    parse(line_chart([], title="t", x_label="x", y_label="y"))


def test_bar_chart():
    svg = bar_chart([("Aama", 97.5), ("Buwa", -72.5)], title="Lifetime", value_label="NPR")
    root = parse(svg)
    bars = root.findall(f"{SVG}rect")
    assert len(bars) == 2
    (aama, buwa) = bars
    zero = float(aama.get("x"))
    # Aama's bar starts at zero and goes right; Buwa's ends at zero.
    assert float(buwa.get("x")) + float(buwa.get("width")) == pytest.approx(zero)
    assert aama.get("fill") != buwa.get("fill")
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "+97.5" in texts and "-72.5" in texts  # the sign, for print
    assert "Lifetime" in texts and "NPR" in texts


def polyline_points(svg: str) -> list[tuple[float, ...]]:
    points = parse(svg).find(f"{SVG}polyline").get("points").split()  # type: ignore[union-attr]
    return [tuple(map(float, p.split(","))) for p in points]


def test_a_long_line_keeps_every_peak_and_trough_within_the_point_limit():
    # A zig-zag of 1,000 rounds with one high spike and one deep dip.
    values = [(-1) ** i * (i % 7) for i in range(1, 1001)]
    values[420], values[777] = 500, -400
    points = polyline_points(line_chart([("Didi", values)], title="t", x_label="x", y_label="y"))
    assert len(points) <= MAX_POINTS + 2  # and round 0, and the last round
    # The same axis range: the spike, the dip and the final total at the same heights.
    spike, dip, last = polyline_points(
        line_chart([("Didi", [500, -400, values[-1]])], title="t", x_label="x", y_label="y")
    )[1:]
    ys = [y for _x, y in points]
    assert min(ys) == spike[1] and max(ys) == dip[1]
    assert points[-1] == (366.0, last[1])  # the final total, at the right edge


def test_a_line_of_up_to_max_points_rounds_keeps_every_round():
    values = list(range(MAX_POINTS))
    points = polyline_points(line_chart([("Didi", values)], title="t", x_label="x", y_label="y"))
    assert len(points) == MAX_POINTS + 1


def test_bar_names_too_long_for_the_column_stand_whole_above_their_bars():
    svg = bar_chart(
        [("Dai", 47.5), ("Bhanubhakta Acharya", 20), ("Buwa", -50)],
        title="t",
        value_label="NPR",
    )
    root = parse(svg)
    names = [(float(t.get("y")), t.text) for t in root.iter(f"{SVG}text") if t.get("class")]
    bars = [float(r.get("y")) for r in root.iter(f"{SVG}rect")]
    assert [text for _y, text in names] == ["Dai", "Bhanubhakta Acharya", "Buwa"]
    # Each name just above its own bar, the bars one under the other.
    assert all(bar - 20 < y < bar for (y, _text), bar in zip(names, bars, strict=True))
    # Short names keep the compact column left of the bars.
    short = parse(bar_chart([("Dai", 5), ("Buwa", -5)], title="t", value_label="NPR"))
    assert [t.get("class") for t in short.iter(f"{SVG}text") if t.text == "Dai"] == [None]
