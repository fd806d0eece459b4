"""Every tile design with its id and number of copies: ``python -m render.gallery out.png``."""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw

from engine.covenant.tiles import TILES
from render.style import INK, INK_SOFT, PARCHMENT, font, to_png
from render.tileart import sprite

TILE = 120
GAP = 14
LABEL = 26
COLUMNS = 8


def gallery_image(tile_size: int = TILE, columns: int = COLUMNS) -> Image.Image:
    """All designs in id order, ``columns`` to a row, each captioned ``T01 ×1``."""
    ids = list(TILES)
    rows = -(-len(ids) // columns)
    cell_w, cell_h = tile_size + GAP, tile_size + LABEL + GAP
    title_h = 56
    image = Image.new("RGB", (columns * cell_w + GAP, title_h + rows * cell_h + GAP), PARCHMENT)
    draw = ImageDraw.Draw(image)
    draw.text(
        (GAP, 14),
        f"The Ark of the Covenant: {len(ids)} tile designs, "
        f"{sum(d.count for d in TILES.values())} tiles",
        font=font(24, bold=True),
        fill=INK,
    )
    label_font = font(18, bold=True)
    for i, tile_id in enumerate(ids):
        col, row = divmod(i, columns)[::-1]
        x = GAP + col * cell_w
        y = title_h + row * cell_h
        image.paste(sprite(tile_id, 0, tile_size), (x, y))
        design = TILES[tile_id]
        caption = f"{tile_id} ×{design.count}" + ("  start" if design.start else "")
        draw.text((x + 2, y + tile_size + 3), caption, font=label_font, fill=INK_SOFT)
    return image


def gallery_png() -> bytes:
    """The gallery as PNG bytes."""
    return to_png(gallery_image())


def main(argv: list[str] | None = None) -> int:
    """Write the gallery to the path given on the command line."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m render.gallery out.png", file=sys.stderr)
        return 2
    Path(args[0]).write_bytes(gallery_png())
    print(f"wrote {args[0]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
