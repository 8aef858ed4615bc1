"""Draws the app's icons (static/icons/*.png) once; the PNGs are committed.

Standard library only (zlib): the favicon's red diamond on a card, on the top
bar's red. The maskable icon keeps the card inside the central 80% circle that
launchers may crop to. Run: .venv/bin/python scripts/make_icons.py
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "static" / "icons"
RED = (0xB3, 0x26, 0x1E)
WHITE = (0xFF, 0xFF, 0xFF)
SAMPLES = 4  # per axis, for smooth edges


def png(width: int, pixels: list[bytes]) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, width, 8, 2, 0, 0, 0)  # 8-bit RGB
    raw = b"".join(b"\x00" + row for row in pixels)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def colour_at(x: float, y: float, card: float) -> tuple[int, int, int]:
    """x, y in -1..1 from the centre; `card` is the card's half height."""
    half_w, radius = card * 0.76, card * 0.16
    dx, dy = max(abs(x) - (half_w - radius), 0), max(abs(y) - (card - radius), 0)
    if dx * dx + dy * dy > radius * radius:
        return RED
    if abs(x) / (card * 0.5) + abs(y) / (card * 0.68) <= 1:
        return RED
    return WHITE


def draw(size: int, card: float) -> bytes:
    rows = []
    for py in range(size):
        row = bytearray()
        for px in range(size):
            total = [0, 0, 0]
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    x = (px + (sx + 0.5) / SAMPLES) / size * 2 - 1
                    y = (py + (sy + 0.5) / SAMPLES) / size * 2 - 1
                    for i, value in enumerate(colour_at(x, y, card)):
                        total[i] += value
            row.extend(round(v / SAMPLES**2) for v in total)
        rows.append(bytes(row))
    return png(size, rows)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, size, card in (
        ("icon-192.png", 192, 0.8),
        ("icon-512.png", 512, 0.8),
        # The card's corner stays within the safe circle of radius 0.8.
        ("maskable-512.png", 512, 0.62),
    ):
        (OUT / name).write_bytes(draw(size, card))
        print(OUT / name)


if __name__ == "__main__":
    main()
