"""The board's geometry: nine squares numbered 0 to 8, row by row from the top left."""

from __future__ import annotations

from collections.abc import Sequence

SQUARES = 9
CENTRE = 4
CORNERS = (0, 2, 6, 8)
#: Every row, column and diagonal: three in one of them wins.
LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
)

#: A square holds ``None`` or the seat (0 or 1) whose mark is on it.
Board = Sequence[int | None]


def line_won(board: Board) -> tuple[int, int, int] | None:
    """The first line three marks of one seat fill, if any."""
    for line in LINES:
        a, b, c = (board[i] for i in line)
        if a is not None and a == b == c:
            return line
    return None


def winning_squares(board: Board, seat: int) -> list[int]:
    """The empty squares where ``seat``'s mark would fill a line now."""
    found = []
    for line in LINES:
        marks = [board[i] for i in line]
        if marks.count(seat) == 2 and marks.count(None) == 1:
            found.append(line[marks.index(None)])
    return sorted(set(found))
