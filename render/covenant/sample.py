"""A sample of everything the pictures draw, from which the shared PNG palette is learnt."""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine.covenant.notation import column_name
from engine.covenant.tiles import TILES
from render.covenant import pieces
from render.covenant.tileart import sprite
from render.i18n import DEFAULT_LANGUAGE, t
from render.style import (
    INK,
    INK_SOFT,
    PARCHMENT,
    PLAYERS,
    draw_text,
    font,
)

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
    letters = "".join(column_name(c) for c in range(7))
    # Some text for the anti-aliased ink colours (the words do not matter, only the ink).
    turn = t("covenant.picture.turn", DEFAULT_LANGUAGE, turn=12)
    player = t("common.picture.player", DEFAULT_LANGUAGE, number=1)
    draw_text(
        draw,
        (4, y + CELL + 4),
        f"{turn} {player} 36 {letters} 0123456789",
        font=font(22, True),
        fill=INK,
    )
    followers = t(
        "covenant.picture.followers",
        DEFAULT_LANGUAGE,
        left=4,
        total=7,
        prophet=t("covenant.picture.prophet_hand", DEFAULT_LANGUAGE),
    )
    draw_text(draw, (4, y + CELL + 28), followers, font=font(14), fill=INK_SOFT)
    return image
