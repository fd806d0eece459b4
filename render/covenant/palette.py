"""The one PNG palette The Ark of the Covenant's pictures share, learnt from a sample of them."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from render.covenant.colours import (
    CHOICE,
    CITY,
    CITY_ROOF,
    FIELD,
    FIELD_DARK,
    LAST_TILE,
    PALM,
    ROAD,
    ROAD_EDGE,
    SCROLL,
    SHEEP,
    TEMPLE,
    WALL,
    WALL_TOP,
    WATER,
    WOLF,
)
from render.covenant.sample import palette_sample
from render.style import (
    GOLD,
    GRID_LINE,
    INK,
    INK_SOFT,
    PARCHMENT,
    PARCHMENT_DARK,
    PLAYERS,
    RGB,
    WHITE,
    encode_png,
    learnt_palette,
)

#: Colours that must come out exactly (player colours, highlights, ink, backgrounds).
KEY_COLOURS: tuple[RGB, ...] = (
    *(p.colour for p in PLAYERS),
    *(p.outline for p in PLAYERS),
    PARCHMENT,
    PARCHMENT_DARK,
    GRID_LINE,
    INK,
    INK_SOFT,
    FIELD,
    FIELD_DARK,
    ROAD,
    ROAD_EDGE,
    CITY,
    CITY_ROOF,
    WALL,
    WALL_TOP,
    TEMPLE,
    GOLD,
    WATER,
    PALM,
    SCROLL,
    SHEEP,
    WOLF,
    LAST_TILE,
    CHOICE,
    WHITE,
    (0, 0, 0),
)


@lru_cache(maxsize=1)
def shared_palette() -> Image.Image:
    """One 256-colour palette for every picture, learnt once from a sample of our drawings.

    Encoding a palette PNG is several times faster than an RGB one (no per-row filter
    search over three channels) and the file is smaller; since every picture is drawn from
    the same few colours and their anti-aliased blends, one fixed palette serves them all.
    """
    return learnt_palette(palette_sample(), KEY_COLOURS)


def to_png(image: Image.Image) -> bytes:
    """``image`` as a palette PNG in the colours of :func:`shared_palette`."""
    return encode_png(image, shared_palette())
