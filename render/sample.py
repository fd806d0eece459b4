"""A sample of everything the pictures draw, from which the shared PNG palette is learnt."""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine.covenant.tiles import TILES
from render import pieces
from render.style import INK, INK_SOFT, PARCHMENT, PLAYERS, font
from render.tileart import sprite

CELL = 48


def palette_sample() -> Image.Image:
    """Every design, every seat's pieces, the Ark and some text, side by side."""
    ids = list(TILES)
    columns = 16
    rows = -(-len(ids) // columns) + 2
    image = Image.new("RGB", (columns * CELL, rows * CELL), PARCHMENT)
    for i, tile_id in enumerate(ids):
        row, col = divmod(i, columns)
        image.paste(sprite(tile_id, 0, CELL), (col * CELL, row * CELL))
    y = (rows - 2) * CELL
    x = 0
    for seat in range(len(PLAYERS)):
        for picture in (
            pieces.follower(seat, CELL),
            pieces.follower(seat, CELL, lying=True),
            pieces.prophet(seat, CELL),
        ):
            image.paste(picture, (x, y), picture)
            x += CELL
    ark = pieces.ark(CELL)
    image.paste(ark, (x, y), ark)
    draw = ImageDraw.Draw(image)
    draw.text(
        (4, y + CELL + 4), "Turn 12 Ruth 36 ABCDEFG 0123456789", font=font(22, True), fill=INK
    )
    draw.text((4, y + CELL + 28), "Followers 4/7 Prophet ready", font=font(14), fill=INK_SOFT)
    return image
