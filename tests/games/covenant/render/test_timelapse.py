"""The replay: every board frame is the board reduced by a whole factor, at most 720 px."""

from __future__ import annotations

import io

from PIL import Image

import render.covenant as render
from bot.pictures import draw
from engine.covenant import Game
from render.covenant.board import board_layout, draw_board
from render.covenant.palette import shared_palette
from render.covenant.timelapse import WIDTH, reduction
from tests.games.covenant.render.conftest import play


def test_the_least_whole_factor_that_brings_a_board_to_720_px() -> None:
    assert [reduction(w) for w in (400, 720, 721, 1440, 1441, 1788, 2160)] == [
        1, 1, 2, 2, 3, 3, 3,
    ]  # fmt: skip


def test_a_replay_frame_is_the_board_reduced_and_in_the_palette() -> None:
    game = play(3, seed=4, turns=6)
    saves = [Game.new(players=3, seed=4).view(None).to_json(), game.view(None).to_json()]
    data = draw(f"{render.__name__}:replay", (saves, ["Ruth", "Boaz", "Naomi"]), "en")
    gif = Image.open(io.BytesIO(data))
    # The start, the board now (held longer), the final scores.
    assert gif.n_frames == 3
    layout = board_layout(game)
    factor = reduction(layout.width)
    assert factor >= 2 and WIDTH // 2 < gif.width <= WIDTH
    board, _ = draw_board(game, names=["Ruth", "Boaz", "Naomi"], layout=layout)
    expected = board.reduce(factor).quantize(palette=shared_palette(), dither=Image.Dither.NONE)
    assert gif.size == expected.size
    gif.seek(1)
    assert gif.info["duration"] == 2500
    assert gif.convert("RGB").tobytes() == expected.convert("RGB").tobytes()
