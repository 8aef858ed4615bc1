"""Picture cards: an evening's or a group's result as a PNG to share on
WhatsApp or Viber, drawn on the server with Pillow from the text the page
would show (already in the reader's language: digits, money and Bikram Sambat
dates through localise).

The fonts are bundled (fonts/, Noto Sans and Noto Sans Devanagari, SIL Open
Font License: fonts/OFL.txt), so a picture is the same on every machine, and
Devanagari is shaped by Pillow's raqm layout (the conjuncts of "तिर्ने"). A line
mixing scripts is drawn run by run, each in the font that has its letters.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Literal

from PIL import Image, ImageDraw, ImageFont

FONTS = Path(__file__).resolve().parent / "fonts"
WIDTH = 1080  # px: WhatsApp shows it whole, sharp on any phone
MARGIN = 56
ROW = 60  # px a line of a table takes
MAX_BYTES = 300_000

INK = (26, 26, 26)
MUTED = (84, 84, 84)
LINE = (222, 222, 222)
BAND = (246, 244, 238)
HEAD_BAND = (31, 77, 58)
HEAD_INK = (255, 255, 255)
WIN = (27, 122, 58)  # AA on white, as the pages' pos/neg
LOSS = (179, 38, 30)
ACCENT = (31, 77, 58)

Tone = Literal["pos", "neg", ""]
Align = Literal["left", "right"]


@dataclass(frozen=True, slots=True)
class Cell:
    text: str
    tone: Tone = ""
    bold: bool = False


@dataclass(frozen=True, slots=True)
class Section:
    heading: str
    columns: tuple[tuple[str, float, Align], ...] = ()  # (head, share of the width, align)
    rows: tuple[tuple[Cell, ...], ...] = ()
    lines: tuple[str, ...] = ()  # plain lines (who pays whom) when there are no columns


@dataclass(frozen=True, slots=True)
class Picture:
    title: str
    subtitle: str
    sections: tuple[Section, ...]
    footer: str = ""
    notes: tuple[str, ...] = field(default=())


# Devanagari letters, signs and the danda; a space or punctuation between two
# Devanagari runs stays with them, so a phrase is shaped whole.
_DEVANAGARI = re.compile(
    r"[\u0900-\u097F\u200c\u200d]+(?:[ .,:;()\-]+[\u0900-\u097F\u200c\u200d]+)*"
)


@lru_cache(maxsize=16)
def _font(devanagari: bool, bold: bool, size: int) -> ImageFont.FreeTypeFont:
    family = "NotoSansDevanagari" if devanagari else "NotoSans"
    weight = "Bold" if bold else "Regular"
    return ImageFont.truetype(
        str(FONTS / f"{family}-{weight}.ttf"), size, layout_engine=ImageFont.Layout.RAQM
    )


def _runs(text: str) -> list[tuple[str, bool]]:
    """The text cut into (run, is Devanagari), in order."""
    runs: list[tuple[str, bool]] = []
    at = 0
    for match in _DEVANAGARI.finditer(text):
        if match.start() > at:
            runs.append((text[at : match.start()], False))
        runs.append((match.group(), True))
        at = match.end()
    if at < len(text):
        runs.append((text[at:], False))
    return runs


def text_width(text: str, size: int, bold: bool = False) -> float:
    return sum(_font(dev, bold, size).getlength(run) for run, dev in _runs(text) if run)


def fit(text: str, size: int, room: float, bold: bool = False) -> str:
    """The text, cut with "…" to fit `room` pixels (a long name in a narrow column)."""
    if text_width(text, size, bold) <= room:
        return text
    while text and text_width(text + "…", size, bold) > room:
        text = text[:-1]
    return text.rstrip() + "…"


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    *,
    fill: tuple[int, int, int] = INK,
    bold: bool = False,
    anchor_right: bool = False,
) -> None:
    """One line at (x, baseline-ish top y), run by run; right-aligned at x if asked."""
    x, y = xy
    if anchor_right:
        x -= text_width(text, size, bold)
    for run, devanagari in _runs(text):
        font = _font(devanagari, bold, size)
        # Both fonts share one baseline: the Latin one's ascent places the line.
        top = y + _font(False, bold, size).getmetrics()[0] - font.getmetrics()[0]
        draw.text((x, top), run, font=font, fill=fill)
        x += font.getlength(run)


def _height(picture: Picture) -> int:
    height = MARGIN + 76 + 48 + 24
    for section in picture.sections:
        height += 70
        if section.columns:
            height += ROW * (len(section.rows) + 1)
        height += ROW * len(section.lines)
        height += 24
    height += 44 * len(picture.notes)
    return height + (60 if picture.footer else 0) + MARGIN


def render(picture: Picture) -> bytes:
    """The picture as PNG bytes: WIDTH wide, as tall as its rows."""
    image = Image.new("RGB", (WIDTH, _height(picture)), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    inner = WIDTH - 2 * MARGIN
    draw.rectangle((0, 0, WIDTH, 10), fill=ACCENT)
    y = MARGIN
    draw_text(draw, (MARGIN, y), fit(picture.title, 52, inner, True), 52, bold=True)
    y += 76
    draw_text(draw, (MARGIN, y), fit(picture.subtitle, 30, inner), 30, fill=MUTED)
    y += 48 + 24
    for section in picture.sections:
        draw_text(draw, (MARGIN, y + 10), section.heading, 36, bold=True, fill=ACCENT)
        y += 70
        if section.columns:
            y = _table(draw, section, y, inner)
        for line in section.lines:
            draw_text(draw, (MARGIN, y + 10), fit(line, 34, inner), 34)
            draw.line((MARGIN, y + ROW - 2, WIDTH - MARGIN, y + ROW - 2), fill=LINE, width=2)
            y += ROW
        y += 24
    for note in picture.notes:
        draw_text(draw, (MARGIN, y), fit(note, 28, inner), 28, fill=MUTED)
        y += 44
    if picture.footer:
        draw_text(draw, (MARGIN, y + 16), picture.footer, 26, fill=MUTED)
    return _png(image)


def _table(draw: ImageDraw.ImageDraw, section: Section, y: int, inner: int) -> int:
    lefts, rights = [], []
    x = float(MARGIN)
    for _head, share, _align in section.columns:
        lefts.append(x)
        x += share * inner
        rights.append(x)
    draw.rectangle((MARGIN, y, WIDTH - MARGIN, y + ROW), fill=HEAD_BAND)
    for (head, _share, align), left, right in zip(section.columns, lefts, rights, strict=True):
        _cell(draw, Cell(head, bold=True), align, left, right, y, HEAD_INK)
    y += ROW
    for index, row in enumerate(section.rows):
        if index % 2:
            draw.rectangle((MARGIN, y, WIDTH - MARGIN, y + ROW), fill=BAND)
        for cell, (_head, _share, align), left, right in zip(
            row, section.columns, lefts, rights, strict=True
        ):
            tone = WIN if cell.tone == "pos" else LOSS if cell.tone == "neg" else INK
            _cell(draw, cell, align, left, right, y, tone)
        y += ROW
    return y


def _cell(
    draw: ImageDraw.ImageDraw,
    cell: Cell,
    align: Align,
    left: float,
    right: float,
    y: int,
    fill: tuple[int, int, int],
) -> None:
    pad = 12
    text = fit(cell.text, 34, right - left - 2 * pad, cell.bold)
    if align == "right":
        draw_text(
            draw, (right - pad, y + 10), text, 34, fill=fill, bold=cell.bold, anchor_right=True
        )
    else:
        draw_text(draw, (left + pad, y + 10), text, 34, fill=fill, bold=cell.bold)


def _png(image: Image.Image) -> bytes:
    """PNG bytes, as small as the picture allows: its few colours as a palette
    (text on flat bands keeps its edges), within MAX_BYTES for a long list."""
    for colours in (64, 32, 16):
        out = io.BytesIO()
        image.quantize(colors=colours, dither=Image.Dither.NONE).save(out, "PNG", optimize=True)
        if out.tell() <= MAX_BYTES:
            break
    return out.getvalue()


def table(
    columns: Sequence[tuple[str, float, Align]], rows: Sequence[Sequence[Cell]], heading: str
) -> Section:
    return Section(heading, tuple(columns), tuple(tuple(r) for r in rows))
