"""The leaderboard: a server's best players in one game, with their rating, games and wins.

Shared by every game (it shows people, not boards). Names are drawn with the fallback fonts,
so emoji and any script show as written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from render.i18n import DEFAULT_LANGUAGE, t
from render.style import (
    INK,
    INK_SOFT,
    PARCHMENT,
    PARCHMENT_DARK,
    clip,
    draw_text,
    encode_png,
    fitting,
    font,
    text_length,
)

WIDTH = 760
ROW = 54
TOP = 96
PAD = 24
#: Where the player column starts (after the rank), and the widest a name may be drawn.
NAME_X = PAD + 60
NAME_MAX = 296
#: The right edges of the rating, games and wins columns, where their words are short.
RIGHTS = (WIDTH - 260, WIDTH - 140, WIDTH - PAD)
#: Room between two columns.
GAP = 20
#: The sizes a column's heading may shrink to before it is shortened.
HEADING_SIZES = (20, 18, 16)
#: The widest a number column may grow for its heading, at the names' cost.
COLUMN_MAX = 170


@dataclass(frozen=True)
class Column:
    """A heading of the table: its words, the face they fit in, where and how anchored."""

    text: str
    face: ImageFont.FreeTypeFont
    x: float
    anchor: str
    width: float


def columns(
    rows: Sequence[Sequence[object]], language: str = DEFAULT_LANGUAGE
) -> tuple[list[Column], float]:
    """The headings (rank, player, rating, games, wins) and the room left for the names.

    Each number column is as wide as its heading or its widest number, whichever is more,
    so a language with longer words (Dutch "Gewonnen") moves the columns left instead of
    cutting the heading; a heading too long even so shrinks, then is shortened.
    """
    body = font(24)
    numbers = [
        [_rating(row[1]) for row in rows],
        [str(row[2]) for row in rows],
        [str(row[3]) for row in rows],
    ]
    keys = ("common.picture.rating", "common.picture.games", "common.picture.wins")
    placed: list[Column] = []
    limit = float(WIDTH - PAD)
    for key, right, values in reversed(list(zip(keys, RIGHTS, numbers, strict=True))):
        text = t(key, language)
        face = fitting(text, COLUMN_MAX, HEADING_SIZES, bold=True)
        widest = max([text_length(v, body) for v in values], default=0.0)
        width = max(min(text_length(text, face), COLUMN_MAX), widest)
        x = min(float(right), limit)
        placed.insert(0, Column(clip(text, face, COLUMN_MAX), face, x, "ra", width))
        limit = x - width - GAP
    rank = t("common.picture.rank", language)
    player = t("common.picture.player_column", language)
    rank_face = fitting(rank, NAME_X - PAD - 8, HEADING_SIZES, bold=True)
    names = min(float(NAME_MAX), limit - NAME_X)
    player_face = fitting(player, names, HEADING_SIZES, bold=True)
    return [
        Column(clip(rank, rank_face, NAME_X - PAD - 8), rank_face, PAD, "la", NAME_X - PAD - 8),
        Column(clip(player, player_face, names), player_face, NAME_X, "la", names),
        *placed,
    ], names


def _rating(value: object) -> str:
    # A row arrives as JSON from the bot's process: its rating is a number, typed object.
    return f"{float(value):.0f}"  # type: ignore[arg-type]  # a JSON number


def leaderboard_png(
    title: str, rows: Sequence[Sequence[object]], *, language: str = DEFAULT_LANGUAGE
) -> bytes:
    """``rows``: (name, rating, games, wins) each, best first; ``title``: the game's name."""
    height = TOP + ROW * (len(rows) + 1) + PAD
    image = Image.new("RGB", (WIDTH, height), PARCHMENT)
    draw = ImageDraw.Draw(image)
    heading = t("common.picture.leaderboard", language, game=title)
    face = fitting(heading, WIDTH - 2 * PAD, (32, 28, 24), bold=True)
    draw_text(draw, (PAD, 28), clip(heading, face, WIDTH - 2 * PAD), face, INK)
    headings, names = columns(rows, language)
    for column in headings:
        draw_text(draw, (column.x, TOP), column.text, column.face, INK_SOFT, column.anchor)
    body = font(24)
    rating_x, games_x, wins_x = (column.x for column in headings[2:])
    for number, (name, rating, games, wins) in enumerate(rows, start=1):
        y = TOP + ROW * number
        if number % 2:
            draw.rectangle([PAD // 2, y - 10, WIDTH - PAD // 2, y + ROW - 14], fill=PARCHMENT_DARK)
        draw_text(draw, (PAD, y), str(number), body, INK)
        draw_text(draw, (NAME_X, y), clip(str(name), body, names), body, INK)
        for value, x in ((_rating(rating), rating_x), (games, games_x), (wins, wins_x)):
            draw_text(draw, (x, y), str(value), body, INK, "ra")
    return encode_png(image, flat=True)


def leaderboard(title: str, rows: list[list[object]], *, language: str = DEFAULT_LANGUAGE) -> bytes:
    """The painter's entry point (JSON-ready arguments)."""
    return leaderboard_png(title, rows, language=language)
