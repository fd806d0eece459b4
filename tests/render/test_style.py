"""What every picture shares: text drawn from a remembered mask is exactly Pillow's own, and
the PNG of a picture keeps its pixels."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from render.style import INK, PARCHMENT, draw_text, encode_png, font

TEXTS = ["Turn 12", "C4", "Ruth", "4 followers left · Prophet in hand", "AVAWAy To", "Zoë"]
ANCHORS = ["la", "mm", "ra", "ls", "lm", "ma", "rs"]
PLACES = [(10, 12), (40.5, 20.25), (81.75, 33.9), (120.3, 41.6)]


@pytest.mark.parametrize("blend", ["RGB", "RGBA"])
def test_remembered_text_is_the_same_pixels_as_pillows(blend: str) -> None:
    """Drawn twice (the second time from the remembered mask), at whole and fractional
    pixels, every anchor, two faces, opaque and half-transparent ink: the same as
    ``ImageDraw.text``."""
    for size, bold in ((14, False), (26, True)):
        face = font(size, bold)
        for fill in (INK, (255, 255, 255, 128)):
            for _ in range(2):
                ours = Image.new("RGB", (420, 80), PARCHMENT)
                pillows = ours.copy()
                mine, theirs = ImageDraw.Draw(ours, blend), ImageDraw.Draw(pillows, blend)
                for text in TEXTS:
                    for anchor in ANCHORS:
                        for xy in PLACES:
                            draw_text(mine, xy, text, face, fill, anchor)
                            theirs.text(xy, text, font=face, fill=fill, anchor=anchor)
                assert ours.tobytes() == pillows.tobytes(), (size, bold, fill)


def test_a_picture_reduced_to_a_palette_keeps_its_colours() -> None:
    image = Image.new("RGB", (64, 32), PARCHMENT)
    ImageDraw.Draw(image).rectangle([8, 8, 40, 24], fill=INK)
    palette = Image.new("P", (1, 1))
    palette.putpalette([*PARCHMENT, *INK] + [0] * (768 - 6))
    decoded = Image.open(io.BytesIO(encode_png(image, palette))).convert("RGB")
    assert decoded.tobytes() == image.tobytes()
