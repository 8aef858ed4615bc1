"""Templates stay readable: no line of 120 characters or more (djade formats the
tags but leaves long lines alone)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 120


def templates() -> list[Path]:
    found = {*ROOT.glob("templates/**/*.html"), *ROOT.glob("*/templates/**/*.html")}
    return sorted(found)


def test_the_templates_are_found():
    names = {path.relative_to(ROOT).as_posix() for path in templates()}
    assert "templates/base.html" in names
    assert "stats/templates/stats/summary.html" in names


def test_no_template_line_is_120_characters_or_more():
    long = [
        f"{path.relative_to(ROOT)}:{number}: {len(line)} characters"
        for path in templates()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if len(line) >= LIMIT
    ]
    assert long == []
