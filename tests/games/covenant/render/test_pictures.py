"""Rotations, final scoring, gallery, tile art and the rules of the render package."""

from __future__ import annotations

import ast
import math
from pathlib import Path

import pytest

import render.covenant as render
from engine.common import Rng
from engine.common.data import DATA_DIR
from engine.covenant import TILES, Deploy, Game, PlaceTile
from engine.covenant.players import sensible_action
from render.covenant import gallery
from render.covenant.board import deploy_ports
from render.covenant.colours import CHOICE
from render.covenant.pictures import ROTATION_GAP, ROTATION_TILE
from render.covenant.tileart import EMPTY, MAP, anchors, piece_point, port_point, segment_map
from render.style import PLAYERS
from tests.games.covenant.render.conftest import decode, play

RENDER = Path(render.__file__).parent


def test_rotations_picture_shows_four_different_turns() -> None:
    image = decode(render.tile_rotations_png("T25"))
    assert image.width == ROTATION_GAP + 4 * (ROTATION_TILE + ROTATION_GAP)
    tiles = []
    for i in range(4):
        x = ROTATION_GAP + i * (ROTATION_TILE + ROTATION_GAP)
        tiles.append(
            image.crop((x + 4, 56, x + ROTATION_TILE - 4, 52 + ROTATION_TILE - 4)).tobytes()
        )
    assert len(set(tiles)) == 4


def test_rotations_refuse_unknown_tiles() -> None:
    with pytest.raises(ValueError):
        render.tile_rotations_png("T99")


@pytest.mark.parametrize("fixture", ["full_two", "full_five", "mid_three"])
def test_final_scoring(fixture: str, request: pytest.FixtureRequest) -> None:
    game: Game = request.getfixturevalue(fixture)
    image = decode(render.final_png(game))
    assert 800 <= image.width <= 2000 and 600 <= image.height <= 2000
    colours = {c for _, c in image.getcolors(image.width * image.height) or []}
    for seat in range(game.players):
        assert PLAYERS[seat].colour in colours


def test_gallery_writes_every_design(tmp_path: Path) -> None:
    out = tmp_path / "gallery.png"
    assert gallery.main([str(out)]) == 0
    image = decode(out.read_bytes())
    rows = -(-len(TILES) // gallery.COLUMNS)
    assert len(TILES) == 61
    assert image.height >= rows * (gallery.TILE + gallery.LABEL)
    assert gallery.main([]) == 2


@pytest.mark.parametrize("tile_id", list(TILES))
def test_tile_geometry_matches_the_data(tile_id: str) -> None:
    """Each port point lies on its own segment, and each piece spot inside its segment."""
    design = TILES[tile_id]
    seg_map = segment_map(tile_id)
    for index, segment in enumerate(design.segments):
        spot = anchors(tile_id)[index].piece
        assert seg_map.getpixel((int(spot[0] * MAP), int(spot[1] * MAP))) == index
        for port in segment.ports:
            x, y = port_point(port)
            px = min(MAP - 2, max(1, round(x * MAP)))
            py = min(MAP - 2, max(1, round(y * MAP)))
            assert seg_map.getpixel((px, py)) in (index, EMPTY), (segment.kind, port)
    # Almost every pixel belongs to a segment (a few may fall between curves).
    assert seg_map.tobytes().count(bytes([EMPTY])) < 10


def test_render_imports_no_bot_libraries() -> None:
    for path in RENDER.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            for name in names:
                assert name.split(".")[0] not in {"discord", "aiosqlite", "bot"}, path


def test_fonts_are_shipped_with_their_licence() -> None:
    fonts = DATA_DIR / "fonts"
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "LICENSE-DejaVu.txt"):
        assert (fonts / name).is_file()
    from render.style import font

    assert Path(font(20).path).parent == fonts


def test_icons_keep_clear_of_every_piece_spot_of_their_tile() -> None:
    # A sheep, wolf, scroll or oasis never sits on the spot where a piece of another
    # segment of the same tile would stand (units: tile widths; icons are 0.2 wide).
    closest = min(
        math.dist(icon, other.piece)
        for tile_id in TILES
        for index, spots in enumerate(anchors(tile_id))
        for icon in spots.icons
        for other_index, other in enumerate(anchors(tile_id))
        if other_index != index
    )
    assert closest >= 0.14


def test_the_placed_tile_picture_letters_each_free_feature_of_the_new_tile() -> None:
    from render.covenant.window import LABEL_BAND, ZOOM_TILE

    game = Game.new(players=2, seed=0, deck=["T39", "T34", "T39"])
    game.apply(PlaceTile(1, 0, 0))
    game.apply(Deploy("NNW"))  # the field north of the road, which T34's strip will join
    game.apply(PlaceTile(2, 0, 0))  # T34: city north, a crossing, three fields
    ports = deploy_ports(game)
    # The northern field strip is joined to the occupied one: it gets no letter.
    assert ports == ["NNW", "E", "ESE", "S", "SSW", "W"]
    image = decode(render.placed_png(game)).convert("RGB")
    tile = ZOOM_TILE
    assert image.size == (3 * tile + 2 * LABEL_BAND, 3 * tile + 2 * LABEL_BAND)
    for port in ports:
        px, py = piece_point("T34", 0, port)
        # Just inside the marker's edge, left of its centre: marker blue, not the letter.
        x = round(LABEL_BAND + tile * (1 + px) - 12)
        y = round(LABEL_BAND + tile * (1 + py))
        assert image.getpixel((x, y)) == CHOICE, port


# --------------------------------------------------------------------- issue 11 close-ups


def _ark_game() -> Game:
    from engine.covenant import PlaceArk

    game = Game.new(players=2, seed=0, deck=["T21", "T39", "T39", "T39"])
    for action in (
        PlaceTile(0, -1, 180),
        Deploy("SSE"),
        PlaceArk(0, -1),
        PlaceTile(1, 0, 0),
        Deploy("E"),
        PlaceTile(-1, 0, 0),
    ):
        game.apply(action)
    return game


def test_the_ark_picture_shows_its_reach_and_path() -> None:
    """11.3: the squares the Ark can reach, large, with the path drawn on them."""
    from render.covenant.closeups import ark_reach, ark_window

    game = _ark_game()
    assert set(ark_reach(game)) == {(0, 0), (1, 0), (-1, 0)}
    still = decode(render.ark_png(game, names=["Ruth", "Boaz"]))
    moved = decode(render.ark_png(game, "SE", names=["Ruth", "Boaz"]))
    # Three columns and two rows of squares (M12 and the row of the start tile), 150 px each.
    window = ark_window(game)
    assert (window.columns, window.rows, window.tile) == (3, 2, 150)
    assert still.size == moved.size == window.size
    assert still.tobytes() != moved.tobytes()
    # The path's golden line crosses the start tile's centre.
    cx, cy = window.centre((0, 0))
    r, g, b = moved.getpixel((cx, cy - 20))
    assert r > 180 and g > 130 and b < 90, (r, g, b)
    with pytest.raises(ValueError):
        render.ark_png(game, "NN")


def test_the_placed_tile_close_up_is_large_at_any_board_size() -> None:
    """11.15: three squares of 150 px across, however small the board's tiles have become."""
    from render.covenant.window import LABEL_BAND

    game = play(3, 3, turns=50)
    (x, y), rotations = next(iter(game.placements().items()))
    game.apply(PlaceTile(x, y, rotations[0]))
    zoom = decode(render.placed_png(game))
    assert zoom.size == (3 * 150 + 2 * LABEL_BAND, 3 * 150 + 2 * LABEL_BAND)
    assert render.board_layout(game).tile < 150


def _piece_north_of_the_ark_window() -> Game:
    """A game where a follower stands on a tile just north of the squares the Ark can reach
    (so that tile is outside the Ark's picture, right above its caption's edge)."""
    from render.covenant.closeups import ark_window

    game, rng = Game.new(players=3, seed=2), Rng(2)
    while True:
        game.apply(sensible_action(game, rng))
        if game.phase == "deploy" and game.ark is not None:
            window = ark_window(game)
            above = [
                pos
                for pos, placed in game.board.items()
                if pos[1] == window.top - 1
                and window.left <= pos[0] < window.left + window.columns
                and placed.pieces
            ]
            if above:
                return game


def test_no_piece_outside_a_close_up_is_drawn_over_its_caption() -> None:
    """The Ark's picture drew every piece of the board, those of the tiles above its squares
    over its caption; a close-up draws only the pieces of its own squares."""
    from render.covenant.closeups import ARK_CAPTION

    game = _piece_north_of_the_ark_window()
    image = decode(render.ark_png(game, names=["Ruth", "Boaz", "Naomi"]))
    band = image.crop((0, 0, image.width, ARK_CAPTION))
    colours = {c for _, c in band.getcolors(band.width * band.height) or []}
    for seat in range(3):
        assert not any(
            sum(abs(a - b) for a, b in zip(c, PLAYERS[seat].colour, strict=True)) < 30
            for c in colours
        ), seat


def test_the_put_the_ark_picture_numbers_the_squares_allowed() -> None:
    """Issue 27.4: the tiles of the city just completed are numbered, as the buttons are;
    no other square is."""
    from render.covenant.closeups import put_ark_window

    game = Game.new(players=2, seed=0, deck=["T21", "T39"])
    game.apply(PlaceTile(0, -1, 180))
    game.apply(Deploy("SSE"))
    assert game.phase == "place_ark" and set(game.ark_choices) == {(0, -1), (0, 0)}
    image = decode(render.put_ark_png(game))
    window = put_ark_window(game)
    assert image.size == window.size
    for pos in window.squares:
        cx, cy = window.centre(pos)
        # Left of the number, inside its disc.
        blue = image.getpixel((round(cx - window.tile * 0.2), round(cy))) == CHOICE
        assert blue == (pos in game.ark_choices), pos


def test_the_rules_pictures_have_no_bag_and_a_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """11.14: the example board does not say "Tiles left: 0"; the key names every icon."""
    from tests.support.fit import record_texts

    drawn: list[str] = []
    record_texts(monkeypatch, lambda draw, xy, text, *_: drawn.append(text))
    render.rules_board()
    assert drawn and not [text for text in drawn if "Tiles left" in text]
    drawn.clear()
    key = decode(render.rules_key())
    assert key.width <= 800
    for word in ("follower", "Prophet", "Ark", "temple", "scroll", "oasis", "sheep", "wolf"):
        assert any(word in text for text in drawn), word
    assert any("M13" in text for text in drawn)
