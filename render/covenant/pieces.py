"""Player pieces and the Ark, drawn as small transparent sprites (cached, never modified).

A follower is the classic standing figure in its seat's colour with the seat's mark
(circle, square, triangle, diamond, cross) on its chest; on a field it lies on its side, as
the rules suggest. The Prophet is a taller robed figure with a golden halo. The Ark is a
golden chest carried on two poles.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render.marks import draw_mark
from render.style import (
    GOLD,
    INK,
    PLAYERS,
)

SCALE = 4
Point = tuple[float, float]

# A standing figure in a unit box: arms out, two legs.
_BODY: tuple[Point, ...] = (
    (0.37, 0.30),
    (0.10, 0.40),
    (0.04, 0.54),
    (0.30, 0.57),
    (0.15, 0.96),
    (0.42, 0.96),
    (0.50, 0.80),
    (0.58, 0.96),
    (0.85, 0.96),
    (0.70, 0.57),
    (0.96, 0.54),
    (0.90, 0.40),
    (0.63, 0.30),
)
_HEAD = (0.5, 0.19, 0.15)  # centre x, y and radius


def _figure(size: int, seat: int) -> Image.Image:
    """A standing follower, ``size`` pixels high, supersampled (not yet shrunk)."""
    style = PLAYERS[seat]
    s = size * SCALE
    image = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(image)
    body = [(x * s, y * s) for x, y in _BODY]
    hx, hy, hr = (v * s for v in _HEAD)
    w = max(SCALE, round(s * 0.07))
    # Outline first, thick, then the body over it: a clean border on any background.
    d.polygon(body, fill=style.outline, outline=style.outline, width=w)
    d.ellipse(
        [hx - hr - w / 2, hy - hr - w / 2, hx + hr + w / 2, hy + hr + w / 2], fill=style.outline
    )
    inset = [(x * s, y * s) for x, y in _shrink(_BODY, 0.035)]
    d.polygon(inset, fill=style.colour)
    d.ellipse(
        [hx - hr + w / 3, hy - hr + w / 3, hx + hr - w / 3, hy + hr - w / 3], fill=style.colour
    )
    return image


def _shrink(points: tuple[Point, ...], by: float) -> list[Point]:
    """Move each point towards the body's middle a little (for the coloured fill)."""
    cx, cy = 0.5, 0.6
    out = []
    for x, y in points:
        dx, dy = cx - x, cy - y
        length = max(1e-6, (dx * dx + dy * dy) ** 0.5)
        out.append((x + dx / length * by, y + dy / length * by))
    return out


@lru_cache(maxsize=256)
def follower(seat: int, size: int, lying: bool = False) -> Image.Image:
    """A follower of ``seat``, ``size`` pixels square; ``lying`` turns it on its side."""
    style = PLAYERS[seat]
    image = _figure(size, seat)
    s = size * SCALE
    if lying:
        image = image.transpose(Image.Transpose.ROTATE_90)
        cx, cy = s * 0.58, s * 0.5
    else:
        cx, cy = s * 0.5, s * 0.57
    draw_mark(ImageDraw.Draw(image), style.mark, cx, cy, s * 0.13, style.mark_colour)
    return image.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=64)
def prophet(seat: int, size: int) -> Image.Image:
    """The Prophet of ``seat``: a robed figure with a golden halo, ``size`` pixels square."""
    style = PLAYERS[seat]
    s = size * SCALE
    image = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(image)
    w = max(SCALE, round(s * 0.06))
    robe = [(s * 0.5, s * 0.24), (s * 0.80, s * 0.97), (s * 0.20, s * 0.97)]
    hx, hy, hr = s * 0.5, s * 0.22, s * 0.13
    # Halo behind the head.
    d.ellipse(
        [hx - hr * 1.7, hy - hr * 1.7, hx + hr * 1.7, hy + hr * 1.7],
        fill=GOLD,
        outline=INK,
        width=w // 2,
    )
    d.polygon(robe, fill=style.colour, outline=style.outline, width=w)
    d.ellipse(
        [hx - hr, hy - hr, hx + hr, hy + hr], fill=style.colour, outline=style.outline, width=w
    )
    draw_mark(d, style.mark, s * 0.5, s * 0.70, s * 0.12, style.mark_colour)
    return image.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=32)
def ark(size: int) -> Image.Image:
    """The Ark of the Covenant: a golden chest on poles, with the cherubim's wings."""
    s = size * SCALE
    image = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(image)
    w = max(SCALE, round(s * 0.05))
    dark = (110, 70, 10)
    # A pale disc behind the chest keeps the gold Ark visible on sandstone cities.
    d.ellipse(
        [s * 0.0, s * 0.02, s * 1.0, s * 1.0], fill=(255, 250, 230, 210), outline=dark, width=w // 2
    )
    d.rectangle(
        [s * 0.02, s * 0.60, s * 0.98, s * 0.70], fill=(120, 80, 40), outline=INK, width=w // 2
    )
    d.rectangle([s * 0.18, s * 0.42, s * 0.82, s * 0.88], fill=GOLD, outline=dark, width=w)
    d.rectangle(
        [s * 0.14, s * 0.36, s * 0.86, s * 0.46], fill=(240, 200, 70), outline=dark, width=w
    )
    for side in (-1, 1):
        cx = s * 0.5 + side * s * 0.02
        tip = s * 0.5 + side * s * 0.32
        d.polygon(
            [(cx, s * 0.36), (tip, s * 0.10), (tip, s * 0.36)],
            fill=(240, 200, 70),
            outline=dark,
            width=w // 2,
        )
    return image.resize((size, size), Image.Resampling.LANCZOS)


def legend_piece(seat: int, size: int) -> Image.Image:
    """The picture used for a seat in panels and tables: its standing follower."""
    return follower(seat, size)
