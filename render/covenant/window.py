"""A few squares of the board, large enough for a phone: where a close-up puts its squares,
and the parts of the board the squares where the tile fits are shown in.

A phone shows a picture about 400 px wide (see :mod:`render.style`): a close-up is at most
:data:`WIDTH` px wide, so a square of it is at least 24 px there as long as its window is
no wider than :data:`MOST_SQUARES` squares.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.covenant.game import Game
from engine.covenant.geometry import Pos
from render.style import PHONE_SQUARE, on_phone

ZOOM_TILE = 150  # px a tile in a close-up at most
WIDTH = 840  # px a close-up at most
HEIGHT = 1000  # px its squares and their names at most: a phone shows it without scrolling
LABEL_BAND = 44
Box = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Window:
    """Squares ``left..left+columns-1`` x ``top..top+rows-1``, ``tile`` px each, drawn with
    a band of square names around them, below a caption of ``caption`` px; ``margin`` px of
    parchment left and right make a narrow window wide enough for its caption."""

    left: int
    top: int
    columns: int
    rows: int
    tile: int
    caption: int = 0
    margin: int = 0

    @classmethod
    def around(
        cls, squares: Sequence[Pos], *, ring: int = 1, caption: int = 0, least: int = 0
    ) -> Window:
        """The squares given and ``ring`` squares around them, tiles as large as fits
        :data:`WIDTH` and :data:`HEIGHT`; at least ``least`` px wide (room for a caption)."""
        xs = [x for x, _ in squares]
        ys = [y for _, y in squares]
        left, top = min(xs) - ring, min(ys) - ring
        columns = max(xs) - min(xs) + 1 + 2 * ring
        rows = max(ys) - min(ys) + 1 + 2 * ring
        tile = min(
            ZOOM_TILE, (WIDTH - 2 * LABEL_BAND) // columns, (HEIGHT - 2 * LABEL_BAND) // rows
        )
        margin = max(0, (least - columns * tile - 2 * LABEL_BAND + 1) // 2)
        return cls(left, top, columns, rows, tile, caption, margin)

    @property
    def origin(self) -> tuple[int, int]:
        return (self.margin + LABEL_BAND, self.caption + LABEL_BAND)

    @property
    def size(self) -> tuple[int, int]:
        return (
            self.columns * self.tile + 2 * LABEL_BAND + 2 * self.margin,
            self.caption + self.rows * self.tile + 2 * LABEL_BAND,
        )

    @property
    def phone_tile(self) -> float:
        """How large a square is on a phone, the picture no wider than :data:`WIDTH`."""
        return on_phone(self.tile, max(WIDTH, self.size[0]))

    def box(self, pos: Pos) -> Box:
        x0 = self.origin[0] + (pos[0] - self.left) * self.tile
        y0 = self.origin[1] + (pos[1] - self.top) * self.tile
        return (x0, y0, x0 + self.tile, y0 + self.tile)

    def centre(self, pos: Pos) -> tuple[float, float]:
        x0, y0, x1, y1 = self.box(pos)
        return ((x0 + x1) / 2, (y0 + y1) / 2)

    def contains(self, pos: Pos) -> bool:
        return (
            self.left <= pos[0] < self.left + self.columns
            and self.top <= pos[1] < self.top + self.rows
        )

    @property
    def squares(self) -> list[Pos]:
        return [
            (self.left + c, self.top + r) for r in range(self.rows) for c in range(self.columns)
        ]


# --------------------------------------------------------------------- the numbered squares

#: The squares where the tile fits are shown a part of the board at a time: at most this
#: many squares (the buttons of one panel), with a free square around them still large on
#: a phone.
PAGE_SQUARES = 20


def readable(squares: Sequence[Pos], ring: int = 1) -> bool:
    """Whether a window of ``squares`` and ``ring`` around them shows a square at least
    24 px on a phone (with a pixel to spare)."""
    return Window.around(squares, ring=ring).phone_tile >= PHONE_SQUARE + 1


def squares_pages(game: Game) -> tuple[tuple[Pos, ...], ...]:
    """The squares where the tile in hand fits, a part of the board at a time, numbered in
    this order (1, 2, ... from the first part's first square): each part at most
    :data:`PAGE_SQUARES` squares, :func:`readable` with a free square around them, its
    squares in reading order. Every picture, button and typed number of the turn uses this
    numbering."""
    squares = list(game.placements())
    if not squares:
        return ()
    return tuple(tuple(sorted(part, key=lambda p: (p[1], p[0]))) for part in _split(squares))


def numbered_squares(game: Game) -> list[Pos]:
    """The squares where the tile in hand fits, in the order of their numbers."""
    return [pos for page in squares_pages(game) for pos in page]


def _split(squares: list[Pos]) -> list[list[Pos]]:
    """Cut ``squares`` in two, west from east or north from south (across the longer side),
    until each part is small enough (see :func:`squares_pages`); the west or north part
    first."""
    if len(squares) <= PAGE_SQUARES and readable(squares):
        return [squares]
    xs = [x for x, _ in squares]
    ys = [y for _, y in squares]
    wide, tall = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
    axis = 0 if wide * HEIGHT >= tall * WIDTH else 1
    ordered = sorted(squares, key=lambda p: (p[axis], p[1 - axis]))
    half = len(ordered) // 2
    # Cut between two columns (or rows) near the middle where there is such a place.
    cuts = [i for i in range(1, len(ordered)) if ordered[i - 1][axis] != ordered[i][axis]]
    cut = min(cuts, key=lambda i: abs(i - half)) if cuts else half
    return _split(ordered[:cut]) + _split(ordered[cut:])
