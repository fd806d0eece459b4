"""Pieces of pictures already in the shared palette's colours (:mod:`render.covenant.palette`):
a colour's index, a tile's sprite reduced to the palette once and kept, a blank picture.

A board is mostly parchment and tiles: put down as palette indices, they need not be drawn
in RGB and reduced to the palette again on every turn (:func:`render.covenant.board.
draw_board_indexed`)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from functools import cache

from PIL import Image

from render.covenant import tileart
from render.covenant.palette import shared_palette
from render.style import RGB

#: Bytes of reduced sprites kept (a byte a pixel). Only whole boards use them, at one tile
#: size a board (all 72 tiles in their four rotations at 60 px: 1 MB), so 8 MB holds the
#: sizes of many boards at once; every byte kept counts in a worker's peak memory.
SPRITE_BYTES = 8 * 1024 * 1024
_sprites: OrderedDict[tuple[str, int, int], Image.Image] = OrderedDict()
_sprite_bytes = 0
_lock = threading.Lock()


def reduced(image: Image.Image) -> Image.Image:
    """``image`` (RGB) in the palette's colours: each pixel its nearest, not dithered, as
    :func:`render.covenant.palette.to_png` reduces a picture."""
    return image.quantize(palette=shared_palette(), dither=Image.Dither.NONE)


@cache
def colour_index(colour: RGB) -> int:
    """The palette's index of the colour ``colour`` is reduced to."""
    index = reduced(Image.new("RGB", (1, 1), colour)).getpixel((0, 0))
    assert isinstance(index, int)
    return index


def blank(size: tuple[int, int], colour: RGB) -> Image.Image:
    """A palette picture of ``size`` in the shared palette, all ``colour``."""
    image = Image.new("P", size, colour_index(colour))
    image.palette = shared_palette().palette.copy()  # type: ignore[union-attr]
    return image


def sprite(tile_id: str, rotation: int, size: int) -> Image.Image:
    """:func:`render.covenant.tileart.sprite` reduced to the palette (never modify it); the
    most recently used are kept, up to :data:`SPRITE_BYTES`."""
    global _sprite_bytes
    key = (tile_id, rotation, size)
    with _lock:
        found = _sprites.get(key)
        if found is not None:
            _sprites.move_to_end(key)
            return found
    made = reduced(tileart.sprite(tile_id, rotation, size))
    with _lock:
        if key not in _sprites:  # (another thread may have made it meanwhile)
            _sprites[key] = made
            _sprite_bytes += size * size
            while _sprite_bytes > SPRITE_BYTES and len(_sprites) > 1:
                _, old = _sprites.popitem(last=False)
                _sprite_bytes -= old.width * old.height
        return _sprites[key]
