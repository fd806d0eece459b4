"""Drawing pictures without holding up the bot.

A board takes tens of milliseconds of CPU, and much of that holds Python's GIL; drawn in a
thread of the bot's own process it still slows every other interaction down. So by default
the pictures are drawn in worker processes, which get the game as its JSON save (a few KB)
and send back PNG bytes. With ``workers=0`` they are drawn in threads instead (tests, tiny
machines). A worker that dies is replaced, and that picture is drawn in a thread.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import render
from engine.covenant import Game

log = logging.getLogger("arkbot.pictures")


# Worker-side functions: module level, so a worker process can import them by name.


def _board(save: str, spots: bool, names: Sequence[str] | None) -> bytes:
    return render.board_png(Game.from_json(save), spots=spots, names=names)


def _preview(save: str, x: int, y: int, rotation: int, names: Sequence[str] | None) -> bytes:
    return render.preview_png(Game.from_json(save), x, y, rotation, names=names)


def _deploy(save: str) -> bytes:
    return render.deploy_png(Game.from_json(save))


def _final(save: str, names: Sequence[str] | None) -> bytes:
    return render.final_png(Game.from_json(save), names=names)


def _rotations(tile_id: str) -> bytes:
    return render.tile_rotations_png(tile_id)


class Pictures:
    """The bot's painter: ``await pictures.board(game, ...)`` and friends."""

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        if workers > 0:
            self._pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        # "spawn": forking a process that runs an event loop and a database thread is unsafe.
        return ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=render.warm_up,
        )

    async def _draw(self, function: Callable[..., bytes], *args: Any) -> bytes:
        if self._pool is None:
            return await asyncio.to_thread(function, *args)
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, function, *args)
        except BrokenProcessPool:
            log.warning("a picture worker died; starting a new one")
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = self._new_pool()
            return await asyncio.to_thread(function, *args)

    async def board(
        self, game: Game, *, spots: bool = False, names: Sequence[str] | None = None
    ) -> bytes:
        return await self._draw(_board, game.to_json(), spots, list(names or []) or None)

    async def preview(
        self, game: Game, x: int, y: int, rotation: int, *, names: Sequence[str] | None = None
    ) -> bytes:
        return await self._draw(_preview, game.to_json(), x, y, rotation, list(names or []) or None)

    async def deploy(self, game: Game) -> bytes:
        return await self._draw(_deploy, game.to_json())

    async def final(self, game: Game, *, names: Sequence[str] | None = None) -> bytes:
        return await self._draw(_final, game.to_json(), list(names or []) or None)

    async def rotations(self, tile_id: str) -> bytes:
        return await self._draw(_rotations, tile_id)

    async def warm_up(self) -> None:
        """Build the tile sprites now (in this process too: threads draw here on failure)."""
        await asyncio.to_thread(render.warm_up)
        if self._pool is not None:
            await self.rotations("T27")  # starts the worker and waits until it is ready

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
