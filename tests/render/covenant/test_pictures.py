"""Rotations, final scoring, gallery, tile art and the rules of the render package."""

from __future__ import annotations

import ast
import math
from pathlib import Path

import pytest

import render.covenant as render
from engine.common.data import DATA_DIR
from engine.covenant import TILES, Deploy, Game, PlaceTile
from render.covenant import gallery
from render.covenant.board import DEPLOY_TILE, deploy_ports
from render.covenant.palette import SPOT
from render.covenant.pictures import ROTATION_GAP, ROTATION_TILE
from render.covenant.tileart import EMPTY, MAP, anchors, piece_point, port_point, segment_map
from render.style import PLAYERS
from tests.render.covenant.conftest import decode

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


def test_the_deploy_picture_letters_each_free_feature_of_the_new_tile() -> None:
    game = Game.new(players=2, seed=0, deck=["T39", "T34", "T39"])
    game.apply(PlaceTile(1, 0, 0))
    game.apply(Deploy("NNW"))  # the field north of the road, which T34's strip will join
    game.apply(PlaceTile(2, 0, 0))  # T34: city north, a crossing, three fields
    ports = deploy_ports(game)
    # The northern field strip is joined to the occupied one: it gets no letter.
    assert ports == ["NNW", "E", "ESE", "S", "SSW", "W"]
    image = decode(render.deploy_png(game)).convert("RGB")
    assert image.size == (3 * DEPLOY_TILE, 3 * DEPLOY_TILE)
    for port in ports:
        px, py = piece_point("T34", 0, port)
        # Just inside the marker's edge, left of its centre: marker blue, not the letter.
        x = round(DEPLOY_TILE * (1 + px) - DEPLOY_TILE * 0.07)
        y = round(DEPLOY_TILE * (1 + py))
        assert image.getpixel((x, y)) == SPOT, port
