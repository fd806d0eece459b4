"""One card of Ark drawn from the deck's data: no artwork, only what the card says.

A card is a rounded box coloured by its climate (hot yellow, cold blue, both: split), with
its weight in a white disc, its name, its diet as a symbol (a leaf for plants, meat for
meat, both for omnivores), the scoring card it counts for, and for the eight special
animals a red "!" with a two-word hint of the ability. Readable at phone width: the
pictures are about 720 px wide and shown at 400.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine.noah import CARDS
from render.i18n import t
from render.noah.words import card_name
from render.style import INK, INK_SOFT, RGB, WHITE, clip, draw_text, fitting, font, text_length

HOT: RGB = (247, 201, 92)
COLD: RGB = (138, 190, 232)
HOT_DARK: RGB = (190, 132, 20)
COLD_DARK: RGB = (46, 110, 170)
SPECIAL_RED: RGB = (196, 36, 36)
HIGHLIGHT: RGB = (214, 40, 40)
DISC_ORANGE: RGB = (232, 120, 30)
TILT_YELLOW: RGB = (250, 214, 40)

#: The sizes a card's name and a special's hint may take, largest first.
NAME_SIZES = (26, 24, 22, 20, 18)
HINT_SIZES = (20, 18, 17)
#: The sizes of a card's second line (its diet and scoring card), largest first; 17 px is 9
#: px tall on a phone 400 px wide, the cards' pictures being 720 px wide.
LINE_SIZES = (20, 18, 17)

#: The diet symbols (drawn as colour emoji by render.style).
DIET_SYMBOL = {"herbivore": "🌿", "carnivore": "🥩", "omnivore": "🌿🥩", "none": ""}


def climate_fill(
    draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], climate: str, r: int
) -> None:
    """The card's background: yellow (hot), blue (cold), or half of each (both)."""
    x0, y0, x1, y1 = box
    if climate == "hot":
        draw.rounded_rectangle(box, r, fill=HOT)
    elif climate == "cold":
        draw.rounded_rectangle(box, r, fill=COLD)
    else:
        draw.rounded_rectangle(box, r, fill=HOT)
        mid = (x0 + x1) / 2
        draw.rounded_rectangle((mid - r, y0, x1, y1), r, fill=COLD)
        draw.rectangle((mid, y0, mid + r, y1), fill=COLD)
        # A slanted edge between the two halves, so "both" never looks like two cards.
        draw.polygon([(mid - 14, y1), (mid + 14, y0), (mid, y0), (mid - 28, y1)], fill=HOT)


def second_line(card: int, language: str) -> str:
    """The diet symbol and the card's scoring card (or "no scoring card")."""
    found = CARDS[card]
    symbol = DIET_SYMBOL[found.diet]
    if not found.kind:
        # A special animal without a scoring card: its diet, then its hint alone.
        return symbol
    kind = t(f"noah.picture.kind_{found.kind}", language)
    return f"{symbol} {kind}" if symbol else kind


def draw_card(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    card: int,
    language: str,
    *,
    highlight: bool = False,
    faded: bool = False,
) -> None:
    """``card`` in ``box`` (at least 200 x 64 px): 2 lines when wide, 3 when narrow."""
    x0, y0, x1, y1 = box
    found = CARDS[card]
    h = y1 - y0
    climate_fill(draw, box, found.climate, 10)
    if highlight:
        draw.rounded_rectangle(box, 10, outline=HIGHLIGHT, width=5)
    else:
        draw.rounded_rectangle(box, 10, outline=INK_SOFT, width=2)
    special = bool(found.special)
    # Narrow and tall (the face-up row): the name across the top, then two lines, the last
    # one (the special's hint) across the whole card under the weight disc.
    three = special and (x1 - x0) < 320 and h >= 84
    # The weight in a white disc on the left.
    r = min(20, h / 2 - 6)
    cx, cy = x0 + 10 + r, (y0 + 8 + r if three else y0 + h / 2)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=WHITE, outline=INK, width=2)
    draw_text(draw, (cx, cy), str(found.weight), font(round(r * 1.3), True), INK, "mm")
    left = cx + r + 10
    right = x1 - 10
    er = 13  # the "!" in a red disc: top right, or after the second line when narrow
    name_right = right - 2 * er - 6 if special and not three else right
    name = card_name(card, language)
    size = fitting(name, name_right - left, NAME_SIZES, bold=True)
    draw_text(draw, (left, y0 + 6), clip(name, size, name_right - left), size, INK)
    line = second_line(card, language)
    hint = t(f"noah.picture.hint_{found.special}", language) if special else ""
    small = font(20)
    if special:
        ex, ey = (right - er, y0 + 48) if three else (right - er, y0 + 8 + er)
        draw.ellipse((ex - er, ey - er, ex + er, ey + er), fill=SPECIAL_RED)
        draw_text(draw, (ex, ey), "!", font(20, True), WHITE, "mm")
    if three:
        room = right - 2 * er - 6 - left
        draw_text(draw, (left, y0 + 38), clip(line, small, room), small, INK)
        hint_face = fitting(hint, right - x0 - 10, HINT_SIZES, bold=True)
        draw_text(
            draw, (x0 + 10, y0 + 63), clip(hint, hint_face, right - x0 - 10), hint_face, SPECIAL_RED
        )
    elif special:
        joined = f"{line} · " if CARDS[card].kind else f"{line} "
        # The scoring card's words smaller first, so that the hint keeps its own.
        for line_size in LINE_SIZES:
            small = font(line_size)
            first = text_length(joined, small)
            hint_face = fitting(hint, right - left - first, HINT_SIZES, bold=True)
            if text_length(hint, hint_face) <= right - left - first:
                break
        draw_text(draw, (left, y0 + 38), clip(joined, small, right - left), small, INK)
        draw_text(
            draw,
            (left + first, y0 + 39),
            clip(hint, hint_face, right - left - first),
            hint_face,
            SPECIAL_RED,
        )
    else:
        draw_text(draw, (left, y0 + 38), clip(line, small, right - left), small, INK)
    if faded:
        image = getattr(draw, "_image", None)
        if image is not None:
            area = tuple(round(v) for v in box)
            region = image.crop(area)
            veil = Image.new("RGB", region.size, (236, 230, 216))
            image.paste(Image.blend(region, veil, 0.6), area[:2])
