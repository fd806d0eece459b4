"""Colours, player styles, fonts and PNG encoding shared by every picture.

Everything here is immutable or a thread-safe cache, so pictures can be drawn in worker
threads at the same time.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from PIL import Image, ImageFont

from engine.common.data import DATA_DIR
from engine.common.i18n import DEFAULT_LANGUAGE, t

RGB = tuple[int, int, int]
Mark = Literal["circle", "square", "triangle", "diamond", "cross"]

FONT_DIR = DATA_DIR / "fonts"

# Warm Holy-Land palette: parchment, olive fields, sandstone cities, dusty roads.
PARCHMENT: RGB = (241, 228, 196)
PARCHMENT_DARK: RGB = (221, 203, 160)
GRID_LINE: RGB = (214, 194, 150)
INK: RGB = (58, 40, 24)
INK_SOFT: RGB = (120, 96, 66)
FIELD: RGB = (190, 183, 108)
FIELD_DARK: RGB = (160, 152, 86)
ROAD: RGB = (247, 238, 214)
ROAD_EDGE: RGB = (128, 104, 72)
CITY: RGB = (226, 160, 98)
CITY_ROOF: RGB = (196, 112, 68)
WALL: RGB = (112, 66, 36)
WALL_TOP: RGB = (150, 98, 58)
TEMPLE: RGB = (252, 247, 234)
GOLD: RGB = (214, 164, 30)
WATER: RGB = (52, 140, 205)
PALM: RGB = (38, 122, 52)
SCROLL: RGB = (255, 244, 210)
SHEEP: RGB = (252, 252, 248)
WOLF: RGB = (92, 92, 100)
LAST_TILE: RGB = (214, 40, 40)
SPOT: RGB = (40, 110, 200)
WHITE: RGB = (255, 255, 255)


@dataclass(frozen=True, slots=True)
class PlayerStyle:
    """How one seat is shown: a colour from the Okabe-Ito palette and a mark shape."""

    colour: RGB
    outline: RGB
    mark: Mark
    mark_colour: RGB
    name: str


# Okabe-Ito colours stay apart under the common colour-vision deficiencies; each seat has a
# shape mark as well, so no one needs to tell colours apart at all.
PLAYERS: tuple[PlayerStyle, ...] = (
    PlayerStyle((0, 114, 178), (16, 28, 48), "circle", WHITE, "blue"),
    PlayerStyle((213, 94, 0), (48, 20, 0), "square", WHITE, "orange"),
    PlayerStyle((240, 228, 66), (60, 52, 0), "triangle", (40, 36, 0), "yellow"),
    PlayerStyle((204, 121, 167), (54, 20, 40), "diamond", WHITE, "pink"),
    PlayerStyle((34, 34, 34), (240, 240, 240), "cross", WHITE, "black"),
)


def player_names(
    players: int, names: list[str] | None, language: str = DEFAULT_LANGUAGE
) -> list[str]:
    """Display names per seat: the given ones, else ``Player 1``, ``Player 2``, ..."""
    given = list(names or [])
    return [
        given[i] if i < len(given) and given[i] else t("picture.player", language, number=i + 1)
        for i in range(players)
    ]


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans from ``data/fonts`` (shipped, so text looks the same everywhere)."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), max(6, size))


def clip(text: str, face: ImageFont.FreeTypeFont, width: float) -> str:
    """``text`` shortened with an ellipsis so that it fits ``width`` pixels in ``face``."""
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def fitting(
    text: str, width: float, sizes: tuple[int, ...], bold: bool = False
) -> ImageFont.FreeTypeFont:
    """The first of ``sizes`` at which ``text`` fits ``width`` pixels, else the last one."""
    for size in sizes:
        if font(size, bold).getlength(text) <= width:
            break
    return font(size, bold)


def wrap(text: str, face: ImageFont.FreeTypeFont, width: float, lines: int) -> list[str] | None:
    """``text`` broken at spaces into at most ``lines`` lines of ``width`` pixels, or None."""
    result: list[str] = []
    for word in text.split(" "):
        joined = f"{result[-1]} {word}" if result else word
        if result and face.getlength(joined) <= width:
            result[-1] = joined
        elif face.getlength(word) <= width and len(result) < lines:
            result.append(word)
        else:
            return None
    return result


def sentence(
    make: Callable[[list[str]], str],
    names: list[str],
    fits: Callable[[str], bool],
) -> str:
    """``make(names)``, with the longest name shortened (``Eleaz…``) until ``fits`` says yes.

    Only the names are cut, never the words of the sentence (unless even one-letter names do
    not fit, which a sensible width rules out).
    """
    names = list(names)
    text = make(names)
    while not fits(text):
        longest = max(range(len(names)), key=lambda i: len(names[i].rstrip("…")), default=None)
        if longest is None or len(names[longest].rstrip("…")) <= 1:
            break
        names[longest] = names[longest].rstrip("…")[:-1].rstrip() + "…"
        text = make(names)
    return text


#: zlib level 1: with a palette image the data are small and higher levels only cost time.
PNG_COMPRESS_LEVEL = 1

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
    SPOT,
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
    from render.sample import palette_sample  # late import: sample draws tiles and pieces

    rest = 256 - len(KEY_COLOURS)
    learnt = palette_sample().quantize(
        rest, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    colours = [c for rgb in KEY_COLOURS for c in rgb]
    colours += (learnt.getpalette() or [])[: rest * 3]
    colours += [0] * (768 - len(colours))
    palette = Image.new("P", (1, 1))
    palette.putpalette(colours)
    return palette


def to_png(image: Image.Image) -> bytes:
    """Encode ``image`` as a palette PNG (nearest colours, no dithering: flat areas stay flat)."""
    if image.mode != "P":
        image = image.convert("RGB").quantize(palette=shared_palette(), dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buffer.getvalue()
