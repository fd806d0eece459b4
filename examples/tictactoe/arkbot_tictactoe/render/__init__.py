"""Pictures of tic-tac-toe: the board with its title and who plays, in the reader's language.

Each function is module-level and takes JSON-ready arguments and ``language=``, as the
bot's painter calls it (:func:`bot.pictures.draw`), so it runs the same in a picture
worker. Every word comes from the game's catalogues (``tictactoe.picture.*``), which the
worker finds through :mod:`engine.registry` like the bot does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from render import fonts
from render.i18n import DEFAULT_LANGUAGE, t
from render.style import (
    GOLD,
    GRID_LINE,
    INK,
    INK_SOFT,
    PARCHMENT,
    PARCHMENT_DARK,
    PLAYERS,
    clip,
    draw_text,
    encode_png,
    text_length,
)

WIDTH = 400
MARGIN = 20
TITLE_HEIGHT = 56
CELL = (WIDTH - 2 * MARGIN) // 3
GRID_TOP = TITLE_HEIGHT + 8
FOOTER_TOP = GRID_TOP + 3 * CELL + 12
HEIGHT = FOOTER_TOP + 72
#: The title's font sizes, the largest that fits.
TITLE_SIZES = (30, 26, 22)
#: The marks' colours: seat 0's (X) and seat 1's (O), Okabe-Ito as every picture's seats.
COLOURS = (PLAYERS[0].colour, PLAYERS[1].colour)


def _face(size: int, bold: bool = False) -> Any:
    return fonts.face(fonts.MAIN[bold], size)


def _cell(square: int) -> tuple[int, int, int, int]:
    x = MARGIN + (square % 3) * CELL
    y = GRID_TOP + (square // 3) * CELL
    return x, y, x + CELL, y + CELL


def _centre(square: int) -> tuple[float, float]:
    x0, y0, x1, y1 = _cell(square)
    return (x0 + x1) / 2, (y0 + y1) / 2


def _mark(draw: ImageDraw.ImageDraw, square: int, seat: int) -> None:
    x, y = _centre(square)
    half = CELL * 0.3
    width = max(6, CELL // 12)
    if seat == 0:
        for dx in (-half, half):
            draw.line((x - dx, y - half, x + dx, y + half), fill=COLOURS[0], width=width)
    else:
        draw.ellipse((x - half, y - half, x + half, y + half), outline=COLOURS[1], width=width)


def _footer(view: Mapping[str, Any], names: Sequence[str], language: str) -> tuple[str, str]:
    """The two lines under the board: who plays which mark, and how the game stands."""
    marks = t("tictactoe.picture.marks", language, x=names[0], o=names[1])
    winners = list(view.get("winners") or ())
    if view.get("phase") == "over":
        if len(winners) == 1:
            state = t("tictactoe.picture.won", language, player=names[winners[0]])
        else:
            state = t("tictactoe.picture.draw", language)
    else:
        state = t("tictactoe.picture.to_play", language, player=names[view["current_player"]])
    return marks, state


def board(
    view: Mapping[str, Any], names: Sequence[str], *, language: str = DEFAULT_LANGUAGE
) -> bytes:
    """The board of ``view`` (:meth:`Game.view`) as PNG bytes: the title, the marks, the
    winning line, the free squares' numbers (what ``/tictactoe mark`` takes), and who is to
    play or has won, with ``names`` per seat."""
    image = Image.new("RGB", (WIDTH, HEIGHT), PARCHMENT)
    draw = ImageDraw.Draw(image)
    title = t("tictactoe.picture.title", language)
    width = WIDTH - 2 * MARGIN
    size = next((s for s in TITLE_SIZES if text_length(title, _face(s, True)) <= width), 20)
    title = clip(title, _face(size, True), width)
    draw_text(draw, (WIDTH / 2, TITLE_HEIGHT / 2 + 4), title, _face(size, True), INK, "mm")

    draw.rectangle((MARGIN, GRID_TOP, MARGIN + 3 * CELL, GRID_TOP + 3 * CELL), fill=PARCHMENT_DARK)
    number_face = _face(18)
    marks = list(view["board"])
    for square, seat in enumerate(marks):
        if seat is None:
            x0, y0, _, _ = _cell(square)
            draw.text((x0 + 8, y0 + 6), str(square + 1), font=number_face, fill=INK_SOFT)
        else:
            _mark(draw, square, int(seat))
    for k in (1, 2):
        x = MARGIN + k * CELL
        y = GRID_TOP + k * CELL
        draw.line((x, GRID_TOP, x, GRID_TOP + 3 * CELL), fill=INK, width=4)
        draw.line((MARGIN, y, MARGIN + 3 * CELL, y), fill=INK, width=4)
    draw.rectangle(
        (MARGIN, GRID_TOP, MARGIN + 3 * CELL, GRID_TOP + 3 * CELL), outline=GRID_LINE, width=2
    )
    line = view.get("line")
    if line:
        start, end = _centre(line[0]), _centre(line[2])
        draw.line((*start, *end), fill=GOLD, width=CELL // 10)

    face = _face(20)
    for number, text in enumerate(_footer(view, names, language)):
        shown = clip(text, face, WIDTH - 2 * MARGIN)
        draw_text(draw, (WIDTH / 2, FOOTER_TOP + 16 + 32 * number), shown, face, INK, "mm")
    return encode_png(image, flat=True)


#: The example the rules help shows: X has three in the diagonal.
EXAMPLE: dict[str, Any] = {
    "board": [0, 1, None, None, 0, 1, None, None, 0],
    "phase": "over",
    "current_player": None,
    "winners": [0],
    "line": [0, 4, 8],
}


def rules_board(*, language: str = DEFAULT_LANGUAGE) -> bytes:
    """A finished example game for the rules help."""
    names = [t("tictactoe.picture.example_x", language), t("tictactoe.picture.example_o", language)]
    return board(EXAMPLE, names, language=language)
