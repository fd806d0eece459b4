"""Drawing pictures without holding up the bot.

A board takes tens of milliseconds of CPU, and much of that holds Python's GIL; drawn in a
thread of the bot's own process it still slows every other interaction down. So by default
the pictures are drawn in worker processes, which get a picture's description
(:class:`bot.panels.Picture`: a render function by name and its JSON-ready arguments, e.g. a
view's JSON) and send back PNG bytes. With ``workers=0`` they are drawn in threads instead
(tests, tiny machines). A worker that dies is replaced, and that picture is drawn in a thread.

A slow picture (``Picture.slow``: a replay takes seconds) goes to a lane of its own, one
process started when the first one is asked for, so the boards of other games never queue
behind it; slow pictures wait for each other there.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from importlib import import_module
from typing import Any

from bot.panels import Picture
from bot.workers import process_pool

log = logging.getLogger("arkbot.pictures")


def draw(function: str, args: Sequence[Any], language: str) -> bytes:
    """Call render function ``"module:name"`` (worker side: module level, so a worker process
    can import it by name)."""
    module, _, name = function.partition(":")
    return getattr(import_module(module), name)(*args, language=language)


def warm_up(functions: Sequence[str]) -> None:
    """Call each ``"module:name"`` once (sprites, fonts, palettes), e.g. in a new worker."""
    for function in functions:
        module, _, name = function.partition(":")
        getattr(import_module(module), name)()


class Pictures:
    """The bot's painter: ``await pictures.draw(picture, language)``."""

    def __init__(self, workers: int = 1, warm: Sequence[str] = ()) -> None:
        self.workers = workers
        self._warm = tuple(warm)
        self._pool: ProcessPoolExecutor | None = None
        self._slow_pool: ProcessPoolExecutor | None = None
        #: Threads mode: one slow picture at a time, like the slow lane's single process.
        self._slow_turn = asyncio.Lock()
        if workers > 0:
            self._pool = self._new_pool(workers, self._warm)

    def _new_pool(self, workers: int, warm: Sequence[str]) -> ProcessPoolExecutor:
        return process_pool(workers, warm_up, (tuple(warm),))

    async def draw(self, picture: Picture, language: str) -> bytes:
        args = (picture.function, picture.args, language)
        if self.workers <= 0:
            if picture.slow:
                async with self._slow_turn:
                    return await asyncio.to_thread(draw, *args)
            return await asyncio.to_thread(draw, *args)
        if picture.slow:
            if self._slow_pool is None:
                # Not warmed: its first replay builds the sprites it needs as it goes.
                self._slow_pool = self._new_pool(1, ())
            pool = self._slow_pool
        else:
            assert self._pool is not None
            pool = self._pool
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, draw, *args)
        except BrokenProcessPool:
            log.warning("a picture worker died; starting a new one")
            pool.shutdown(wait=False, cancel_futures=True)
            if pool is self._slow_pool:
                self._slow_pool = None
            else:
                self._pool = self._new_pool(self.workers, self._warm)
            return await asyncio.to_thread(draw, *args)

    async def draw_all(
        self, pictures: Sequence[Picture], language: str
    ) -> list[tuple[bytes, str, str | None]]:
        """Every picture of a panel: (PNG bytes, file name, alt text)."""
        from bot.i18n import say

        drawn = await asyncio.gather(*(self.draw(p, language) for p in pictures))
        return [
            (data, p.filename, say(p.description, language) if p.description else None)
            for data, p in zip(drawn, pictures, strict=True)
        ]

    async def warm_up(self) -> None:
        """Build sprites and fonts now, here and in the workers (which start now and warm up
        before they take their first picture)."""
        await asyncio.to_thread(warm_up, self._warm)
        if self._pool is not None:
            loop = asyncio.get_running_loop()
            await asyncio.gather(
                *(loop.run_in_executor(self._pool, warm_up, ()) for _ in range(self.workers))
            )

    def close(self) -> None:
        for pool in (self._pool, self._slow_pool):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
        self._pool = self._slow_pool = None
