"""Small icons drawn with Pillow primitives: temple, crossing, scroll, oasis, sheep, wolf.

Each is drawn four times too large and shrunk, which smooths the edges; results are cached
per kind and size and must not be modified.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from render.covenant.colours import (
    PALM,
    ROAD_EDGE,
    SCROLL,
    SHEEP,
    TEMPLE,
    WALL,
    WATER,
    WOLF,
)
from render.style import (
    GOLD,
    INK,
)

SCALE = 4
Draw = ImageDraw.ImageDraw


def _temple(d: Draw, s: float) -> None:
    """A small white temple with a golden pediment, seen from the front."""
    w = max(2, round(s * 0.05))
    d.rectangle([s * 0.08, s * 0.80, s * 0.92, s * 0.94], fill=TEMPLE, outline=INK, width=w)
    d.rectangle([s * 0.14, s * 0.70, s * 0.86, s * 0.80], fill=TEMPLE, outline=INK, width=w)
    for i in range(4):
        x = s * (0.22 + i * 0.19)
        d.rectangle(
            [x - s * 0.05, s * 0.40, x + s * 0.05, s * 0.70], fill=TEMPLE, outline=INK, width=w
        )
    d.rectangle([s * 0.12, s * 0.32, s * 0.88, s * 0.40], fill=GOLD, outline=INK, width=w)
    d.polygon(
        [(s * 0.08, s * 0.32), (s * 0.5, s * 0.06), (s * 0.92, s * 0.32)],
        fill=GOLD,
        outline=INK,
        width=w,
    )


def _crossing(d: Draw, s: float) -> None:
    """A stone well where roads end."""
    w = max(2, round(s * 0.08))
    d.ellipse([s * 0.08, s * 0.08, s * 0.92, s * 0.92], fill=(170, 150, 120), outline=INK, width=w)
    d.ellipse([s * 0.30, s * 0.30, s * 0.70, s * 0.70], fill=WATER, outline=INK, width=w // 2)


def _scroll(d: Draw, s: float) -> None:
    """A parchment scroll: a sheet with a roll at each end and lines of writing."""
    w = max(2, round(s * 0.06))
    d.rectangle([s * 0.18, s * 0.22, s * 0.82, s * 0.78], fill=SCROLL, outline=WALL, width=w)
    for x in (0.12, 0.88):
        d.rounded_rectangle(
            [s * (x - 0.08), s * 0.12, s * (x + 0.08), s * 0.88],
            radius=s * 0.07,
            fill=(236, 214, 160),
            outline=WALL,
            width=w,
        )
    for y in (0.36, 0.50, 0.64):
        d.line([(s * 0.28, s * y), (s * 0.72, s * y)], fill=WALL, width=max(1, w // 2))


def _oasis(d: Draw, s: float) -> None:
    """A pool of water with a palm tree."""
    w = max(2, round(s * 0.05))
    d.ellipse([s * 0.04, s * 0.56, s * 0.96, s * 0.96], fill=WATER, outline=(20, 70, 120), width=w)
    d.line([(s * 0.52, s * 0.76), (s * 0.46, s * 0.26)], fill=(110, 74, 40), width=round(s * 0.09))
    for dx, dy in ((-0.34, 0.10), (0.34, 0.10), (-0.24, -0.12), (0.24, -0.12), (0.0, -0.18)):
        d.line(
            [(s * 0.46, s * 0.26), (s * (0.46 + dx), s * (0.26 + dy + 0.06))],
            fill=PALM,
            width=round(s * 0.11),
        )


def _sheep(d: Draw, s: float) -> None:
    """A white woolly sheep with a dark face, facing left."""
    w = max(2, round(s * 0.05))
    for x in (0.36, 0.70):
        d.line([(s * x, s * 0.62), (s * x, s * 0.90)], fill=INK, width=round(s * 0.08))
    d.ellipse([s * 0.20, s * 0.28, s * 0.92, s * 0.72], fill=SHEEP, outline=INK, width=w)
    d.ellipse([s * 0.04, s * 0.28, s * 0.34, s * 0.58], fill=INK)


def _wolf(d: Draw, s: float) -> None:
    """A grey wolf with pointed ears and a bushy tail, facing left."""
    for x in (0.34, 0.66):
        d.line([(s * x, s * 0.60), (s * x, s * 0.92)], fill=INK, width=round(s * 0.08))
    d.line([(s * 0.80, s * 0.50), (s * 0.98, s * 0.30)], fill=WOLF, width=round(s * 0.12))
    d.ellipse(
        [s * 0.22, s * 0.36, s * 0.86, s * 0.70],
        fill=WOLF,
        outline=INK,
        width=max(2, round(s * 0.04)),
    )
    d.polygon(
        [(s * 0.02, s * 0.46), (s * 0.30, s * 0.30), (s * 0.34, s * 0.56)], fill=WOLF, outline=INK
    )
    d.polygon([(s * 0.16, s * 0.36), (s * 0.20, s * 0.14), (s * 0.30, s * 0.33)], fill=INK)
    d.ellipse([s * 0.15, s * 0.37, s * 0.21, s * 0.43], fill=(255, 214, 0))


def _ring(d: Draw, s: float) -> None:
    """A plain ring (used for the numbered squares in the legend)."""
    d.ellipse([s * 0.1, s * 0.1, s * 0.9, s * 0.9], outline=ROAD_EDGE, width=round(s * 0.1))


PAINTERS: dict[str, Callable[[Draw, float], None]] = {
    "temple": _temple,
    "crossing": _crossing,
    "scroll": _scroll,
    "oasis": _oasis,
    "sheep": _sheep,
    "wolf": _wolf,
    "ring": _ring,
}


@lru_cache(maxsize=512)
def icon(kind: str, size: int) -> Image.Image:
    """Icon ``kind`` as a transparent ``size`` x ``size`` image (never modify it)."""
    size = max(4, size)
    big = size * SCALE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    PAINTERS[kind](ImageDraw.Draw(image), float(big))
    return image.resize((size, size), Image.Resampling.LANCZOS)
