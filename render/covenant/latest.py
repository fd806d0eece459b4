"""The board post: the latest moves, large, and how the players stand, readable on a phone.

The whole board grows to some 17 x 15 squares: on a phone a tile of it is some 16 px. So the
post after a turn shows the part of the board where the last round was played (one turn of
each player: what happened since the next player last played), with a free square around
it, every square at least 24 px and every word at least 9 px tall on a phone 400 px wide;
while the whole board is small enough it shows the whole board. The whole board stays
available (:func:`render.covenant.board.draw_board`: the status, the end of the game).
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine.covenant.game import Game
from engine.covenant.geometry import Pos
from render.covenant.board import (
    HEADER_H,
    _outline,
    cards_height,
    draw_cards,
    draw_header,
)
from render.covenant.closeups import _draw_window, _number
from render.covenant.colours import LAST_TILE
from render.covenant.window import WIDTH, Window, numbered_squares
from render.i18n import DEFAULT_LANGUAGE
from render.style import GOLD, PARCHMENT, player_names

#: Squares the window shows at most across and down (the latest moves and a free ring),
#: and at least (so that there is something around them to see).
MOST_COLUMNS = 12
MOST_ROWS = 10
LEAST_COLUMNS = 7
LEAST_ROWS = 5
PAD = 12


def latest_squares(game: Game) -> list[Pos]:
    """The squares of the tiles placed in the last round, the latest last: one per player
    (the board keeps its tiles in the order they were placed), or fewer where they lie too
    far apart for one window."""
    placed = list(game.board)[1:] or list(game.board)
    latest = placed[-game.players :]
    while len(latest) > 1 and not _fits(latest):
        latest = latest[1:]
    return latest


def _fits(squares: list[Pos]) -> bool:
    xs = [x for x, _ in squares]
    ys = [y for _, y in squares]
    return max(xs) - min(xs) + 3 <= MOST_COLUMNS and max(ys) - min(ys) + 3 <= MOST_ROWS


def latest_window(game: Game) -> Window:
    """The squares the post shows: the whole board while it fits, else the latest moves
    with at least a few squares around them, within the board and a free ring."""
    board = list(game.board)
    if _fits(board):
        return Window.around(board)
    latest = latest_squares(game)
    xs = [x for x, _ in board]
    ys = [y for _, y in board]
    bounds = (min(xs) - 1, min(ys) - 1, max(xs) + 1, max(ys) + 1)
    lx = [x for x, _ in latest]
    ly = [y for _, y in latest]
    left, right = _grow(min(lx) - 1, max(lx) + 1, LEAST_COLUMNS, bounds[0], bounds[2])
    top, bottom = _grow(min(ly) - 1, max(ly) + 1, LEAST_ROWS, bounds[1], bounds[3])
    return Window.around([(left, top), (right, bottom)], ring=0)


def _grow(low: int, high: int, least: int, floor: int, ceiling: int) -> tuple[int, int]:
    """``low..high`` widened on both sides to ``least`` squares, within ``floor..ceiling``."""
    while high - low + 1 < least and (low > floor or high < ceiling):
        if low > floor:
            low -= 1
        if high - low + 1 < least and high < ceiling:
            high += 1
    return low, high


def latest_image(
    game: Game,
    names: list[str] | None = None,
    language: str = DEFAULT_LANGUAGE,
    *,
    numbered: bool = False,
    bag: bool = True,
) -> Image.Image:
    """Whose turn it is and the tile in hand; the latest moves (the last tile framed in red,
    the round's other tiles in gold; with ``numbered`` the squares shown where the tile in
    hand fits numbered instead, as the player's own panel numbers them); the players' cards,
    two by two. Not ``bag``: a made-up game (the rules' example), no tiles left said."""
    shown = player_names(game.players, names, language)
    window = latest_window(game)
    board, _ = _draw_window(game, window)
    draw = ImageDraw.Draw(board, "RGBA")
    if numbered:
        for number, pos in enumerate(numbered_squares(game), start=1):
            if window.contains(pos):
                _number(draw, window, pos, number)
    else:
        latest = latest_squares(game)
        for pos in latest[:-1]:
            if window.contains(pos):
                _outline(draw, window.box(pos), GOLD, window.tile)
        if latest and game.last_placed is not None and window.contains(latest[-1]):
            _outline(draw, window.box(latest[-1]), LAST_TILE, window.tile)
    width = max(WIDTH, board.width)
    columns = 2
    cards = cards_height(game.players, columns)
    height = PAD + HEADER_H + board.height + PAD + cards + PAD
    image = Image.new("RGB", (width, height), PARCHMENT)
    draw_header(image, game, (PAD, PAD, width - PAD, PAD + HEADER_H), shown, language, bag)
    image.paste(board, ((width - board.width) // 2, PAD + HEADER_H))
    top = PAD + HEADER_H + board.height + PAD
    draw_cards(image, game, (PAD, top, width - PAD, top + cards), columns, shown, language)
    return image
