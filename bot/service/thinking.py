"""Computer players' thinking, done away from the event loop.

A strong computer searches for about a second per move; done on the event loop, that
second would hold up every other game's answers. :class:`Thinker` runs the search in a
worker process of its own (``settings.think_workers``; 0: a thread of the bot's process, for
tests and small machines) and hands back plain data: the action dicts of a whole turn, or a
hint's action and reason. The worker gets the game as JSON and rebuilds it, so nothing the
service holds is shared or changed. What runs in the worker is :mod:`engine.ai.thinking`:
it needs the engines alone (no Discord, no Pillow, no front, not even the service), so a
worker is small.

The service asks for at most one turn per game at a time (see ``service.computers.wake``); the
stored move is what counts, so a turn thought twice (two processes after a crash) is stored
once by the version check.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from bot.workers import process_pool
from engine.ai.thinking import Budget, HintData, think_hint, think_turn

__all__ = [
    "COMPUTER_NAMES",
    "DEFAULT_LEVEL",
    "LEVELS",
    "Budget",
    "HintData",
    "Thinker",
    "think_hint",
    "think_turn",
]

log = logging.getLogger("arkbot.thinking")

#: What a function run in a worker gives back.
T = TypeVar("T")

LEVELS: tuple[str, ...] = ("easy", "normal", "strong")
#: The level of a computer that takes over a seat, unless the server chose another.
DEFAULT_LEVEL = "normal"
#: The names of computer players added in a lobby: the same in every language, and fitting
#: the games' stories. A table takes the first that no seat has yet.
COMPUTER_NAMES: tuple[str, ...] = ("Miriam", "Jonah", "Ruth", "Caleb", "Esther", "Gideon")


class Thinker:
    """Runs :func:`think_turn` and :func:`think_hint` off the event loop."""

    def __init__(self, workers: int = 1, budget: Budget | None = None) -> None:
        self.workers = workers
        self.budget = budget or Budget()
        self._pool: Executor | None = None

    def _executor(self) -> Executor:
        if self._pool is None:
            if self.workers > 0:
                self._pool = process_pool(self.workers)
            else:
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="arkbot-think")
        return self._pool

    async def _run(self, function: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), function, *args)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): start a new pool and try once more.
            log.warning("the thinking worker died; starting a new one")
            self._pool = None
            return await loop.run_in_executor(self._executor(), function, *args)

    async def turn(
        self, game_name: str, state: str, seat: int, level: str, seed: int
    ) -> list[dict[str, Any]]:
        return await self._run(think_turn, game_name, state, seat, level, seed, self.budget)

    async def hint(self, game_name: str, state: str, seat: int, seed: int) -> HintData:
        # A hint answers a waiting player: a third of a move's thinking is plenty.
        budget = Budget(self.budget.seconds / 3, self.budget.iterations)
        return await self._run(think_hint, game_name, state, seat, seed, budget)

    def close(self) -> None:
        if self._pool is not None:
            # Waits for a move being thought (a second at most): no worker outlives the bot.
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
