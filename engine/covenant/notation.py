"""Square names a player can say, fixed for the whole game: a column letter and a row number.

The start tile is always **M13**: column M, row 13. East of it come N, O, ... Z, then ZA, ZB,
...; west of it L, K, ... A, then AZ, AY, ... (so the labels along the top read
``AY AZ A B ... Y Z ZA ZB``). Rows count down the board: 12 is north of the start tile, 14
south of it, and on a board that grows very far north rows go on to 0, -1, ... A square's
name never changes while the board grows, so "C4" means the same square in every message,
picture, menu and typed command of a game.

:class:`Grid` is only the window that a picture shows: the placed tiles and one free ring
around them; it does not change the names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from engine.covenant.geometry import Pos

#: The start tile's column letter and row number.
START_COLUMN, START_ROW = "M", 13
_LETTERS = 26
_START_INDEX = ord(START_COLUMN) - ord("A")
_SQUARE = re.compile(r"^\s*([A-Za-z]{1,4})\s*(-?\d{1,3})\s*$")


def column_name(x: int) -> str:
    """The letter(s) of column ``x`` (0 is the start tile's column, M)."""
    index = x + _START_INDEX
    if 0 <= index < _LETTERS:
        return chr(65 + index)
    if index >= _LETTERS:  # east of Z: ZA ... ZZ, then ZZA ...
        k = index - _LETTERS
        return "Z" * (k // _LETTERS + 1) + chr(65 + k % _LETTERS)
    k = -index - 1  # west of A: AZ ... AA, then AAZ ...
    return "A" * (k // _LETTERS + 1) + chr(65 + _LETTERS - 1 - k % _LETTERS)


def column_x(name: str) -> int:
    """The inverse of :func:`column_name`; ``ValueError`` for a name no column has."""
    name = name.upper()
    if not name.isascii() or not name.isalpha():
        raise ValueError(f"{name!r} is not a column")
    if len(name) == 1:
        return ord(name) - 65 - _START_INDEX
    prefix, last = name[:-1], ord(name[-1]) - 65
    rings = len(prefix) - 1
    if set(prefix) == {"Z"}:
        return _LETTERS + rings * _LETTERS + last - _START_INDEX
    if set(prefix) == {"A"}:
        return -(rings * _LETTERS + (_LETTERS - 1 - last)) - 1 - _START_INDEX
    raise ValueError(f"{name!r} is not a column")


def row_name(y: int) -> str:
    """The number of row ``y`` (0 is the start tile's row, 13)."""
    return str(y + START_ROW)


def square_name(pos: Pos) -> str:
    """The name of square ``pos``, e.g. ``"M13"`` for the start tile."""
    return f"{column_name(pos[0])}{row_name(pos[1])}"


def parse_square(text: str) -> Pos:
    """The square named ``text`` (any case, spaces allowed); ``ValueError`` if it names none."""
    match = _SQUARE.match(text)
    if not match:
        raise ValueError(f"{text.strip()[:20]!r} is not a square name like M13")
    return (column_x(match.group(1)), int(match.group(2)) - START_ROW)


@dataclass(frozen=True, slots=True)
class Grid:
    """The window a picture shows: ``left``/``top`` are the board coordinates of its top-left
    square; ``columns`` x ``rows`` squares in all."""

    left: int
    top: int
    columns: int
    rows: int

    @classmethod
    def around(cls, squares: Iterable[Pos]) -> Grid:
        """The squares given and one free ring around them."""
        squares = list(squares) or [(0, 0)]
        xs = [x for x, _ in squares]
        ys = [y for _, y in squares]
        return cls(min(xs) - 1, min(ys) - 1, max(xs) - min(xs) + 3, max(ys) - min(ys) + 3)

    def contains(self, pos: Pos) -> bool:
        return (
            self.left <= pos[0] < self.left + self.columns
            and self.top <= pos[1] < self.top + self.rows
        )

    def name(self, pos: Pos) -> str:
        """The name of board square ``pos`` (the same as :func:`square_name`)."""
        return square_name(pos)
