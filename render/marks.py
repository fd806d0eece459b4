"""The seats' shape marks (circle, square, triangle, diamond, cross), drawn the same way in
every game's pictures, so nobody needs to tell the seat colours apart."""

from __future__ import annotations

from PIL import ImageDraw

from render.style import RGB, Mark


def draw_mark(
    draw: ImageDraw.ImageDraw, mark: Mark, cx: float, cy: float, r: float, fill: RGB
) -> None:
    """The seat's shape mark centred on (cx, cy) with radius ``r``."""
    if mark == "circle":
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=fill)
    elif mark == "square":
        k = r * 0.85
        draw.rectangle([cx - k, cy - k, cx + k, cy + k], fill=fill)
    elif mark == "triangle":
        draw.polygon([(cx, cy - r), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)], fill=fill)
    elif mark == "diamond":
        draw.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=fill)
    else:  # a plus-shaped cross
        k = r * 0.38
        draw.rectangle([cx - r, cy - k, cx + r, cy + k], fill=fill)
        draw.rectangle([cx - k, cy - r, cx + k, cy + r], fill=fill)
