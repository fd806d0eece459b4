"""Colours, player styles, fonts, text layout and PNG encoding shared by every picture.

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
from render.i18n import DEFAULT_LANGUAGE, t

RGB = tuple[int, int, int]
Mark = Literal["circle", "square", "triangle", "diamond", "cross"]

FONT_DIR = DATA_DIR / "fonts"

# The parchment and ink every picture is drawn on and with.
PARCHMENT: RGB = (241, 228, 196)
PARCHMENT_DARK: RGB = (221, 203, 160)
GRID_LINE: RGB = (214, 194, 150)
INK: RGB = (58, 40, 24)
INK_SOFT: RGB = (120, 96, 66)
GOLD: RGB = (214, 164, 30)
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
        given[i]
        if i < len(given) and given[i]
        else t("common.picture.player", language, number=i + 1)
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


def encode_png(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """``image`` as PNG bytes; with ``palette`` (a "P" image) as a palette PNG, nearest colours
    and no dithering, so flat areas stay flat (several times faster to encode than RGB)."""
    if palette is not None and image.mode != "P":
        image = image.convert("RGB").quantize(palette=palette, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buffer.getvalue()
