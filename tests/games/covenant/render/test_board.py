"""Board pictures: size limits, labels, highlight, pieces in their colours, spots, preview."""

from __future__ import annotations

import threading
from unittest.mock import patch

import pytest
from PIL import Image

import render.covenant as render
from engine.common import Rng
from engine.covenant import Game
from engine.covenant.notation import Grid, column_name, row_name
from engine.covenant.players import sensible_action
from render.covenant.board import (
    MAX_SIDE,
    board_layout,
    draw_board,
    outline_width,
    piece_stamps,
)
from render.covenant.colours import CHOICE, LAST_TILE
from render.covenant.palette import to_png
from render.covenant.tileart import piece_point
from render.style import INK, PLAYERS
from tests.games.covenant.render.conftest import decode, play

TWO_MB = 2 * 1024 * 1024


def colour_count(
    image: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int]
) -> int:
    """How many pixels inside ``box`` have exactly ``colour``."""
    region = image.crop(box)
    return sum(n for n, c in region.getcolors(region.width * region.height) or [] if c == colour)


@pytest.mark.parametrize("players, seed, turns", [(2, 1, 0), (2, 1, 5), (5, 2, 30), (3, 6, None)])
def test_size_bounds_and_png_limit(players: int, seed: int, turns: int | None) -> None:
    game = play(players, seed, turns)
    data = render.board_png(game, numbered=True)
    image = decode(data)
    assert 400 <= image.width <= MAX_SIDE
    assert 300 <= image.height <= MAX_SIDE
    assert len(data) < TWO_MB
    layout = board_layout(game)
    assert (image.width, image.height) == (layout.width, layout.height)


def test_full_board_is_small_enough(full_five: Game, full_two: Game) -> None:
    for game in (full_five, full_two):
        assert len(game.board) == 72
        data = render.board_png(game)
        assert len(data) < TWO_MB
        image = decode(data)
        assert max(image.size) <= MAX_SIDE


def test_tile_size_shrinks_as_the_board_grows(full_five: Game) -> None:
    small = board_layout(Game.new(players=5, seed=1))
    big = board_layout(full_five)
    assert small.tile > big.tile
    assert big.tile >= 40  # still readable on a phone when zoomed


def test_layout_uses_the_engine_grid(mid_three: Game) -> None:
    layout = board_layout(mid_three)
    assert layout.grid == Grid.around(mid_three.board)
    # Every grid square lies inside the board box, side by side.
    x0, y0, x1, y1 = layout.board_box
    assert (x1 - x0, y1 - y0) == (layout.grid.columns * layout.tile, layout.grid.rows * layout.tile)
    assert layout.box((layout.grid.left, layout.grid.top))[:2] == (x0, y0)


def test_every_row_and_column_is_labelled(mid_three: Game) -> None:
    image, layout = draw_board(mid_three)
    grid = layout.grid
    columns = {label.text for label in layout.column_labels}
    rows = {label.text for label in layout.row_labels}
    assert columns == {column_name(grid.left + c) for c in range(grid.columns)}
    assert rows == {row_name(grid.top + r) for r in range(grid.rows)}
    # The start tile's square is always labelled M and 13, wherever the board has grown.
    x0, y0, _, _ = layout.box((0, 0))
    assert any(lab.text == "M" and x0 <= lab.x < x0 + layout.tile for lab in layout.column_labels)
    assert any(lab.text == "13" and y0 <= lab.y < y0 + layout.tile for lab in layout.row_labels)
    x0, y0, x1, y1 = layout.board_box
    half = layout.label_size // 2 + 2
    for label in (*layout.column_labels, *layout.row_labels):
        # Labels sit outside the squares, and text pixels are really drawn there.
        assert not (x0 <= label.x < x1 and y0 <= label.y < y1)
        box = (label.x - half, label.y - half, label.x + half, label.y + half)
        assert colour_count(image, box, INK) > 5, label


def test_labels_name_squares_like_the_grid(mid_three: Game) -> None:
    layout = board_layout(mid_three)
    pos = next(iter(mid_three.board))
    name = layout.grid.name(pos)
    x0, y0, x1, y1 = layout.box(pos)
    column = [lab for lab in layout.column_labels if x0 <= lab.x < x1]
    row = [lab for lab in layout.row_labels if y0 <= lab.y < y1]
    assert {lab.text for lab in column} | {lab.text for lab in row} == {
        name.rstrip("0123456789"),
        name.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
    }


def test_last_placed_tile_is_highlighted(mid_three: Game) -> None:
    image, layout = draw_board(mid_three)
    assert mid_three.last_placed is not None
    x0, y0, x1, y1 = layout.box(mid_three.last_placed)
    w = outline_width(layout.tile)
    edge = [(x, y0 + w // 2) for x in range(x0 + 2, x1 - 2, 7)] + [
        (x0 + w // 2, y) for y in range(y0 + 2, y1 - 2, 7)
    ]
    assert all(image.getpixel(p) == LAST_TILE for p in edge)
    # No other tile carries the highlight colour on its frame.
    other = next(p for p in mid_three.board if p != mid_three.last_placed)
    ox0, oy0, ox1, _ = layout.box(other)
    assert colour_count(image, (ox0, oy0, ox1, oy0 + w), LAST_TILE) == 0


def test_highlight_survives_png_encoding(mid_three: Game) -> None:
    image = decode(render.board_png(mid_three))
    layout = board_layout(mid_three)
    assert mid_three.last_placed is not None
    x0, y0, x1, _ = layout.box(mid_three.last_placed)
    assert image.getpixel(((x0 + x1) // 2, y0 + 1)) == LAST_TILE


def test_pieces_show_their_seat_colour(scripted: Game) -> None:
    image = decode(render.board_png(scripted))
    layout = board_layout(scripted)
    found = 0
    for pos, placed in scripted.board.items():
        for piece in placed.pieces:
            px, py = piece_point(placed.id, placed.rotation, piece.port)
            x0, y0, _, _ = layout.box(pos)
            cx, cy, r = x0 + px * layout.tile, y0 + py * layout.tile, layout.tile * 0.25
            box = (round(cx - r), round(cy - r), round(cx + r), round(cy + r))
            assert colour_count(image, box, PLAYERS[piece.seat].colour) > 20
            found += 1
    assert found == 2
    # Seats 2-4 are not playing: their colours appear nowhere on the board.
    for seat in (2, 3):
        assert colour_count(image, layout.board_box, PLAYERS[seat].colour) == 0


def test_every_piece_of_a_full_game_is_drawn(full_five: Game) -> None:
    image, layout = draw_board(full_five)
    pieces = [p for t in full_five.board.values() for p in t.pieces]
    assert len(pieces) >= 5
    for piece in pieces:
        placed = full_five.board[(piece.x, piece.y)]
        px, py = piece_point(placed.id, placed.rotation, piece.port)
        x0, y0, _, _ = layout.box((piece.x, piece.y))
        cx, cy, r = x0 + px * layout.tile, y0 + py * layout.tile, layout.tile * 0.3
        box = (round(cx - r), round(cy - r), round(cx + r), round(cy + r))
        assert colour_count(image, box, PLAYERS[piece.seat].colour) > 10, piece


def test_pieces_stand_on_their_segment(full_five: Game) -> None:
    from engine.covenant.geometry import PORT_INDEX
    from render.covenant.tileart import MAP, segment_map, turn_point

    for placed in full_five.board.values():
        for piece in placed.pieces:
            point = piece_point(placed.id, placed.rotation, piece.port)
            # Turn the point back to rotation 0 and look it up on the design's segment map.
            back = turn_point(point, (360 - placed.rotation) % 360)
            x, y = (min(MAP - 1, int(v * MAP)) for v in back)
            index = placed.view.port_segment[PORT_INDEX[piece.port]]
            assert segment_map(placed.id).getpixel((x, y)) == index


def test_spots_are_numbered_where_the_tile_fits(mid_three: Game) -> None:
    placements = mid_three.placements()
    assert placements
    numbered, layout = draw_board(mid_three, numbered=True)
    without, _ = draw_board(mid_three, numbered=False)
    for pos in placements:
        x0, y0, x1, y1 = layout.box(pos)
        assert colour_count(numbered, (x0, y0, x1, y1), CHOICE) > 50
        assert colour_count(without, (x0, y0, x1, y1), CHOICE) == 0


def test_the_squares_picture_numbers_the_squares_of_its_part(mid_three: Game) -> None:
    """Each part of the board numbers its own squares, as the panel's buttons do; the game
    is not changed."""
    from render.covenant.closeups import squares_window
    from render.covenant.window import squares_pages

    before = mid_three.to_json()
    pages = squares_pages(mid_three)
    assert sorted(p for page in pages for p in page) == sorted(mid_three.placements())
    for page, squares in enumerate(pages):
        image = decode(render.squares_png(mid_three, page))
        window = squares_window(mid_three, page)
        assert image.size == window.size
        for pos in squares:
            assert colour_count(image, window.box(pos), CHOICE) > 4 * window.tile
    assert mid_three.to_json() == before
    with pytest.raises(ValueError):
        render.squares_png(mid_three, len(pages))


def test_ark_and_panel_on_a_full_game(full_five: Game) -> None:
    image, layout = draw_board(full_five, names=["Ruth", "Boaz", "Naomi", "Obed", "Jesse"])
    x0, y0, x1, y1 = layout.panel
    for seat in range(5):
        assert colour_count(image, (x0, y0, x1, y1), PLAYERS[seat].colour) > 30


def test_rendering_is_thread_safe_and_pure(full_two: Game) -> None:
    expected = render.board_png(full_two)
    results: list[bytes] = []

    def work() -> None:
        results.append(render.board_png(full_two))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [expected] * 4


@pytest.mark.parametrize("players, seed", [(2, 1), (5, 3)])
def test_the_board_in_the_palette_is_the_board_reduced(players: int, seed: int) -> None:
    """board_png puts the ground and the tiles down in the palette's indices and reduces only
    what is blended onto them: its file is byte for byte the RGB board reduced as a whole,
    the squares where the tile fits numbered or not, turn after turn to the end."""
    game = Game.new(players=players, seed=seed)
    rng = Rng(seed)
    names = ["Ruth", "Boaz", "Naomi", "Obed", "Orpah"][:players]
    turn = 0
    while True:
        if turn % 9 == 0 or game.phase == "over":
            for numbered in (False, True):
                image, _ = draw_board(game, numbered=numbered, names=names)
                assert render.board_png(game, numbered=numbered, names=names) == to_png(image)
        if game.phase == "over":
            break
        game.apply(sensible_action(game, rng))
        turn += 1


def test_a_piece_over_a_label_is_drawn_as_on_the_whole_board(full_five: Game) -> None:
    """A piece reaching out of the grid (over a label band) cannot be reduced on a ground
    without labels: the board is then drawn with its whole ground, and is the same."""
    game = full_five
    layout = board_layout(game)
    stamps = piece_stamps(game, layout)
    # The board's first piece, moved half out of the grid over the left labels.
    picture, _ = stamps[0]
    out = (layout.board_box[0] - picture.width // 2, layout.board_box[1] + layout.tile)
    moved = [(picture, out), *stamps[1:]]
    with patch("render.covenant.board.piece_stamps", return_value=moved):
        image, _ = draw_board(game)
        assert render.board_png(game) == to_png(image)


@pytest.mark.parametrize("players, seed", [(2, 1), (5, 3)])
def test_the_board_in_the_palette_says_you_and_drops_its_panel_as_the_rgb_board(
    players: int, seed: int
) -> None:
    """Drawn privately for the seat on turn ("you"), and without the players' panel (the
    final board, beside the final scores), the palette board is the RGB board reduced."""
    game = Game.new(players=players, seed=seed)
    rng = Rng(seed)
    for _ in range(12):
        game.apply(sensible_action(game, rng))
    names = ["Ruth", "Boaz", "Naomi", "Obed", "Orpah"][:players]
    viewer = game.current_player
    image, layout = draw_board(game, names=names, viewer=viewer)
    assert render.board_png(game, names=names, viewer=viewer) == to_png(image)
    left, top, _, _ = layout.panel
    if layout.panel_side == "bottom":
        alone = image.crop((0, 0, image.width, top))
    else:
        alone = image.crop((0, 0, left, image.height))
    assert render.board_png(game, names=names, panel=False) == to_png(alone)
    assert render.board_png(game, names=names, viewer=viewer) != render.board_png(game, names=names)
