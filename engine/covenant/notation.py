"""Square names a player can say: columns A, B, ... and rows 1, 2, ... like a chess board.

The grid covers the placed tiles and one free ring around them (where new tiles can go),
so its names shift when the board grows to the west or north. Always name squares with the
grid of the board as it is now.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from engine.covenant.geometry import Pos

_SQUARE = re.compile(r"^\s*([A-Za-z]{1,2})\s*(\d{1,3})\s*$")


def column_name(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA, ..."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(65 + rest) + name
    return name


def column_index(name: str) -> int:
    index = 0
    for char in name.upper():
        index = index * 26 + ord(char) - 64
    return index - 1


@dataclass(frozen=True, slots=True)
class Grid:
    """The labelled area of a board: ``left``/``top`` are the board coordinates of A1."""

    left: int
    top: int
    columns: int
    rows: int

    @classmethod
    def around(cls, squares: Iterable[Pos]) -> Grid:
        squares = list(squares) or [(0, 0)]
        xs = [x for x, _ in squares]
        ys = [y for _, y in squares]
        return cls(min(xs) - 1, min(ys) - 1, max(xs) - min(xs) + 3, max(ys) - min(ys) + 3)

    def name(self, pos: Pos) -> str:
        """The name of board square ``pos``, e.g. ``"C4"``."""
        return f"{column_name(pos[0] - self.left)}{pos[1] - self.top + 1}"

    def parse(self, text: str) -> Pos:
        """The board square named ``text``; raises ``ValueError`` for a name off the grid."""
        match = _SQUARE.match(text)
        if not match:
            raise ValueError(f"{text!r} is not a square name like C4")
        col, row = column_index(match.group(1)), int(match.group(2)) - 1
        if not (0 <= col < self.columns and 0 <= row < self.rows):
            raise ValueError(f"{text.strip().upper()} is off the board")
        return (self.left + col, self.top + row)
