"""Every tile design with its id and number of copies.

``python -m render.gallery out.png [language]`` writes it (in English by default).
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw

from engine.covenant.tiles import TILES
from render.covenant.palette import (
    to_png,
)
from render.covenant.tileart import sprite
from render.i18n import DEFAULT_LANGUAGE, t
from render.style import (
    INK,
    INK_SOFT,
    PARCHMENT,
    clip,
    draw_text,
    fitting,
    font,
)

TILE = 120
GAP = 14
LABEL = 26
COLUMNS = 8


def gallery_image(
    tile_size: int = TILE, columns: int = COLUMNS, *, language: str = DEFAULT_LANGUAGE
) -> Image.Image:
    """All designs in id order, ``columns`` to a row, each captioned ``T01 ×1``."""
    ids = list(TILES)
    rows = -(-len(ids) // columns)
    cell_w, cell_h = tile_size + GAP, tile_size + LABEL + GAP
    title_h = 56
    image = Image.new("RGB", (columns * cell_w + GAP, title_h + rows * cell_h + GAP), PARCHMENT)
    draw = ImageDraw.Draw(image)
    title = t(
        "covenant.picture.gallery_title",
        language,
        designs=len(ids),
        tiles=sum(d.count for d in TILES.values()),
    )
    face = font(24, bold=True)
    draw_text(draw, (GAP, 14), clip(title, face, image.width - 2 * GAP), font=face, fill=INK)
    for i, tile_id in enumerate(ids):
        col, row = divmod(i, columns)[::-1]
        x = GAP + col * cell_w
        y = title_h + row * cell_h
        image.paste(sprite(tile_id, 0, tile_size), (x, y))
        design = TILES[tile_id]
        key = (
            "covenant.picture.gallery_caption_start"
            if design.start
            else "covenant.picture.gallery_caption"
        )
        caption = t(key, language, tile=tile_id, count=design.count)
        face = fitting(caption, cell_w - 4, (18, 16, 14, 12), bold=True)
        draw_text(
            draw,
            (x + 2, y + tile_size + 3),
            clip(caption, face, cell_w - 4),
            font=face,
            fill=INK_SOFT,
        )
    return image


def gallery_png(*, language: str = DEFAULT_LANGUAGE) -> bytes:
    """The gallery as PNG bytes."""
    return to_png(gallery_image(language=language))


def main(argv: list[str] | None = None) -> int:
    """Write the gallery to the path given on the command line (then the language)."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) not in (1, 2):
        print("usage: python -m render.gallery out.png [language]", file=sys.stderr)
        return 2
    language = args[1] if len(args) == 2 else DEFAULT_LANGUAGE
    Path(args[0]).write_bytes(gallery_png(language=language))
    print(f"wrote {args[0]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
