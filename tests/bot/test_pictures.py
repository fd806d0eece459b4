"""Pictures drawn in a worker process are the same bytes as drawn in the bot's process."""

from __future__ import annotations

import os
import signal

import render
from bot.pictures import Pictures
from engine.covenant import Deploy, Game, PlaceTile


def small_game() -> Game:
    game = Game.new(players=2, seed=0, deck=["T39", "T21", "T37"])
    game.apply(PlaceTile(1, 0, 0))
    game.apply(Deploy("E"))
    return game


async def test_a_worker_process_draws_the_same_picture() -> None:
    game = small_game()
    pictures = Pictures(workers=1)
    try:
        await pictures.warm_up()
        board = await pictures.board(game, spots=True, names=["Ruth", "Boaz"])
        assert board == render.board_png(game, spots=True, names=["Ruth", "Boaz"])
        assert await pictures.rotations("T37") == render.tile_rotations_png("T37")
        preview = await pictures.preview(game, 0, -1, 180, names=["Ruth", "Boaz"])
        assert preview == render.preview_png(game, 0, -1, 180, names=["Ruth", "Boaz"])
    finally:
        pictures.close()


async def test_a_dead_worker_is_replaced_and_the_picture_still_comes() -> None:
    game = small_game()
    pictures = Pictures(workers=1)
    try:
        await pictures.warm_up()
        pool = pictures._pool
        assert pool is not None
        for pid in list(pool._processes):  # the worker processes of this pool
            os.kill(pid, signal.SIGKILL)
        board = await pictures.board(game)
        assert board == render.board_png(game)
        assert pictures._pool is not pool  # a new pool for the next pictures
        assert await pictures.rotations("T21") == render.tile_rotations_png("T21")
    finally:
        pictures.close()
