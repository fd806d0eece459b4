"""Colours, player styles, fonts, text layout and PNG encoding shared by every picture.

Everything here is immutable or a thread-safe cache, so pictures can be drawn in worker
threads at the same time.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from PIL import Image, ImageDraw, ImageFont

from engine.common.data import DATA_DIR
from render import fonts, png
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


# --------------------------------------------------------------------- read on a phone
# A phone shows a picture about 400 px wide. Every picture a player is sent keeps its
# smallest text at least 9 px tall (a font's size, in px) and the squares where the action
# is at least 24 px, once scaled to that width: a picture ``width`` px wide draws its text
# at least :func:`phone_text` px.

PHONE_WIDTH = 400
PHONE_TEXT = 9
PHONE_SQUARE = 24


def on_phone(size: float, width: int) -> float:
    """How big ``size`` px of a picture ``width`` px wide is on a phone."""
    return size * PHONE_WIDTH / width


def phone_text(width: int) -> int:
    """The smallest font size a picture ``width`` px wide may draw."""
    return -(-PHONE_TEXT * width // PHONE_WIDTH)


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans from ``data/fonts`` (shipped, so text looks the same everywhere)."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), max(6, size))


# --------------------------------------------------------------------- text of any script
# Names may hold emoji, Chinese, Korean, Thai...: :mod:`render.fonts` cuts text into runs of
# one font each. Text the main font draws alone (nearly all) takes Pillow's own path.

EMOJI_SCALE = 1.15  # an emoji's square, in font sizes
EMOJI_RISE = 0.9  # how much of it stands above the baseline


def _bold(face: ImageFont.FreeTypeFont) -> bool:
    return "Bold" in str(getattr(face, "path", ""))


@lru_cache(maxsize=16384)
def _length(text: str, face: ImageFont.FreeTypeFont) -> float:
    """``face.getlength(text)``, remembered: pictures measure the same words again and
    again (to fit, clip and wrap them), and the next picture the same ones once more.
    (Faces come from caches, so the same face is the same object.)"""
    return face.getlength(text)


def _pieces(text: str, face: ImageFont.FreeTypeFont) -> list[tuple[fonts.Run, float]]:
    """The runs of ``text`` with their widths in ``face``'s size."""
    size = round(face.size)
    found = []
    for run in fonts.runs(text):
        if run.font == "emoji":
            width = float(round(size * EMOJI_SCALE)) + max(1, size // 12)
        elif run.font == fonts.MAIN[False]:
            width = _length(run.text, face)
        else:
            width = _length(run.text, fonts.face(run.font, size))
        found.append((run, width))
    return found


def text_length(text: str, face: ImageFont.FreeTypeFont) -> float:
    """How wide ``text`` is drawn in ``face``, whatever its script."""
    if fonts.simple(text):
        return _length(text, face)
    return sum(width for _, width in _pieces(text, face))


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    font: ImageFont.FreeTypeFont,
    fill: RGB | tuple[int, ...],
    anchor: str = "la",
) -> None:
    """``draw.text`` for text of any script: emoji in colour, CJK, Thai... never a box.
    (``font`` is a face of :func:`font`.)

    ``anchor`` is Pillow's: ``l``/``m``/``r`` then ``a``/``t``/``m``/``s``/``d``.
    """
    face = font
    if fonts.simple(text) and "\n" not in text:
        _stamp(draw, xy, text, face, fill, anchor)
        return
    pieces = _pieces(text, face)
    total = sum(width for _, width in pieces)
    size = round(face.size)
    ascent, descent = face.getmetrics()
    x, y = xy
    x -= {"l": 0.0, "m": total / 2, "r": total}.get(anchor[0], 0.0)
    baseline = y + {
        "a": ascent,
        "t": ascent,
        "m": (ascent - descent) / 2,
        "s": 0,
        "d": -descent,
    }.get(anchor[1] if len(anchor) > 1 else "a", ascent)
    image = getattr(draw, "_image", None)
    bold = _bold(face)
    for run, width in pieces:
        if run.font == "emoji":
            side = round(size * EMOJI_SCALE)
            if image is not None:
                glyph = fonts.emoji_image(run.emoji, side)
                image.paste(glyph, (round(x), round(baseline - side * EMOJI_RISE)), glyph)
        elif run.font == fonts.MAIN[False]:
            draw.text((x, baseline), run.text, font=face, fill=fill, anchor="ls")
        else:
            # One weight is shipped for the other scripts: bold is drawn a little thicker.
            stroke = max(1, size // 26) if bold else 0
            draw.text(
                (x, baseline),
                run.text,
                font=fonts.face(run.font, size),
                fill=fill,
                anchor="ls",
                stroke_width=stroke,
                stroke_fill=fill,
            )
        x += width


@lru_cache(maxsize=1024)
def _mask(
    text: str, face: ImageFont.FreeTypeFont, anchor: str, start: tuple[float, float], mode: str
) -> tuple[Any, tuple[int, int]]:
    """Pillow's coverage mask of one line of ``text`` and its offset from the whole pixel it
    is drawn at (``start``: the fractions of that pixel), remembered: pictures draw the same
    words over and over (square names, headings, names, cards), and shaping and rasterising
    them was half of drawing a board."""
    return face.getmask2(text, mode, anchor=anchor, start=start)


def _stamp(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    face: ImageFont.FreeTypeFont,
    fill: RGB | tuple[int, ...],
    anchor: str,
) -> None:
    """``draw.text(xy, text, fill, face, anchor)`` for one line of plain text, the same
    pixels (as Pillow does it: the mask at the whole pixel plus its offset, in the ink)."""
    x, y = xy
    mask, (dx, dy) = _mask(text, face, anchor, (math.modf(x)[0], math.modf(y)[0]), draw.fontmode)
    ink, _ = draw._getink(fill)
    draw.draw.draw_bitmap((int(x) + dx, int(y) + dy), mask, ink)


def clip(text: str, face: ImageFont.FreeTypeFont, width: float) -> str:
    """``text`` shortened with an ellipsis so that it fits ``width`` pixels in ``face``."""
    if text_length(text, face) <= width:
        return text
    while text and text_length(text + "…", face) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def fitting(
    text: str, width: float, sizes: tuple[int, ...], bold: bool = False
) -> ImageFont.FreeTypeFont:
    """The first of ``sizes`` at which ``text`` fits ``width`` pixels, else the last one."""
    for size in sizes:
        if text_length(text, font(size, bold)) <= width:
            break
    return font(size, bold)


def wrap(text: str, face: ImageFont.FreeTypeFont, width: float, lines: int) -> list[str] | None:
    """``text`` broken at spaces into at most ``lines`` lines of ``width`` pixels, or None."""
    result: list[str] = []
    for word in text.split(" "):
        joined = f"{result[-1]} {word}" if result else word
        if result and text_length(joined, face) <= width:
            result[-1] = joined
        elif text_length(word, face) <= width and len(result) < lines:
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


#: zlib level 1 for the pictures Pillow writes (not palette ones: :mod:`render.png`).
PNG_COMPRESS_LEVEL = 1


def learnt_palette(sample: Image.Image, keys: Sequence[RGB]) -> Image.Image:
    """A 256-colour palette (a "P" image) for a game's pictures: ``keys``, the colours that
    must come out exactly (flat areas, seat colours, ink), then the rest learnt from
    ``sample``, a picture of everything the game draws (its anti-aliased blends, icons).

    Reducing a picture to a fixed palette is several times cheaper than finding its own
    256 colours each time, and since every picture of a game is drawn from the same few
    colours and their blends, one palette serves them all with no difference to see."""
    rest = 256 - len(keys)
    learnt = sample.quantize(rest, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    colours = [c for rgb in keys for c in rgb]
    colours += (learnt.getpalette() or [])[: rest * 3]
    colours += [0] * (768 - len(colours))
    palette = Image.new("P", (1, 1))
    palette.putpalette(colours)
    return palette


def encode_png(
    image: Image.Image, palette: Image.Image | None = None, *, flat: bool = False
) -> bytes:
    """``image`` as PNG bytes; with ``palette`` (a "P" image) as a palette PNG, nearest colours
    and no dithering, so flat areas stay flat (several times faster to encode than RGB).

    With ``flat`` (a picture of flat colours, text and a few emoji: the card game's table,
    hands, the leaderboard) as a palette PNG of the picture's own 256 colours: about half the
    bytes to upload and faster to encode than RGB, and no difference to see (compared at
    full size on the card game's table)."""
    if image.mode not in ("RGB", "P") and (palette is not None or flat):
        # (An RGB picture, nearly all, is reduced as it is: converting it would copy it.)
        image = image.convert("RGB")
    if palette is not None and image.mode != "P":
        image = image.quantize(palette=palette, dither=Image.Dither.NONE)
    elif flat and image.mode != "P":
        image = image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    if png.writes(image):
        return png.palette_png(image)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buffer.getvalue()
