"""Pictures drawn in a worker process are the same bytes as drawn in the bot's process."""

from __future__ import annotations

import os
import signal

import render.covenant as render
from bot.panels import Picture
from bot.pictures import Pictures
from engine.covenant import Deploy, Game, PlaceTile

WARM = ("render.covenant:warm_up",)


def small_game() -> Game:
    game = Game.new(players=2, seed=0, deck=["T39", "T21", "T37"])
    game.apply(PlaceTile(1, 0, 0))
    game.apply(Deploy("E"))
    return game


async def test_a_worker_process_draws_the_same_picture() -> None:
    game = small_game()
    save = game.view(None).to_json()
    pictures = Pictures(workers=1, warm=WARM)
    try:
        await pictures.warm_up()
        board = await pictures.draw(
            Picture("render.covenant:board", (save, True, ["Ruth", "Boaz"])), "en"
        )
        assert board == render.board_png(game.view(None), numbered=True, names=["Ruth", "Boaz"])
        rotations = await pictures.draw(Picture("render.covenant:rotations", ("T37",)), "en")
        assert rotations == render.tile_rotations_png("T37")
        latest = await pictures.draw(
            Picture("render.covenant:latest", (save, ["Ruth", "Boaz"])), "en"
        )
        assert latest == render.latest_png(game, names=["Ruth", "Boaz"])
    finally:
        pictures.close()


async def test_a_dead_worker_is_replaced_and_the_picture_still_comes() -> None:
    game = small_game()
    save = game.view(None).to_json()
    pictures = Pictures(workers=1, warm=WARM)
    try:
        await pictures.warm_up()
        pool = pictures._pool
        assert pool is not None
        for pid in list(pool._processes):  # the worker processes of this pool
            os.kill(pid, signal.SIGKILL)
        board = await pictures.draw(Picture("render.covenant:board", (save, False, [])), "en")
        assert board == render.board_png(game.view(None))
        assert pictures._pool is not pool  # a new pool for the next pictures
        again = await pictures.draw(Picture("render.covenant:rotations", ("T21",)), "en")
        assert again == render.tile_rotations_png("T21")
    finally:
        pictures.close()


def drawn_by(*, language: str) -> bytes:
    """A "picture" that says which process drew it (imported by name in the workers)."""
    return str(os.getpid()).encode()


async def test_a_slow_picture_has_a_process_of_its_own() -> None:
    pictures = Pictures(workers=1)
    try:
        here = __name__ + ":drawn_by"
        board = int(await pictures.draw(Picture(here), "en"))
        replay = int(await pictures.draw(Picture(here, slow=True), "en"))
        again = int(await pictures.draw(Picture(here, slow=True), "en"))
        # Boards never queue behind a replay: it is drawn in another worker, always the same.
        assert len({os.getpid(), board, replay}) == 3 and again == replay
    finally:
        pictures.close()


async def test_a_worker_process_draws_the_card_games_pictures_the_same() -> None:
    import render.noah as noah
    from engine.common import Rng
    from engine.noah import Game as Ark

    game, rng = Ark.new(players=3, seed=4), Rng(4)
    while game.turn < 12:
        game.apply(game.sample_action(rng))
    view, names = game.view(None), ["Ruth", "Boaz", "Maximiliaan van Oranje-Nassau II"]
    hand = list(game.hand(game.current_player))
    pictures = Pictures(workers=1, warm=("render.noah:warm_up",))
    try:
        await pictures.warm_up()
        board = await pictures.draw(Picture("render.noah:board", (view, names)), "nl")
        assert board == noah.board(view, names, language="nl")
        drawn = await pictures.draw(Picture("render.noah:hand", (hand, {}, None, "play")), "es")
        assert drawn == noah.hand(hand, {}, None, "play", language="es")
    finally:
        pictures.close()
