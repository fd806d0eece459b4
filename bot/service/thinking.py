"""Computer players' thinking, done away from the event loop.

A strong computer searches for about a second per move; done on the event loop, that
second would hold up every other game's answers. :class:`Thinker` runs the search in a
worker process of its own (``settings.think_workers``; 0: a thread of the bot's process, for
tests and small machines) and hands back plain data: the action dicts of a whole turn, or a
hint's action and reason. The worker gets the game as JSON and rebuilds it, so nothing the
service holds is shared or changed.

The service asks for at most one turn per game at a time (see ``service.computers.wake``); the
stored move is what counts, so a turn thought twice (two processes after a crash) is stored
once by the version check.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Executor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from bot.workers import process_pool
from engine import registry

log = logging.getLogger("arkbot.thinking")

LEVELS: tuple[str, ...] = ("easy", "normal", "strong")
#: The level of a computer that takes over a seat, unless the server chose another.
DEFAULT_LEVEL = "normal"
#: The names of computer players added in a lobby: the same in every language, and fitting
#: the games' stories. A table takes the first that no seat has yet.
COMPUTER_NAMES: tuple[str, ...] = ("Miriam", "Jonah", "Ruth", "Caleb", "Esther", "Gideon")


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a computer thinks per move: ``seconds``, or exactly ``iterations`` search
    iterations (then the move is a function of the position and the seed: tests, the demo)."""

    seconds: float = 1.0
    iterations: int | None = None


@dataclass(frozen=True, slots=True)
class HintData:
    """A suggested move as data: the action's dict and the reason's key and parameters."""

    action: dict[str, Any]
    key: str
    params: dict[str, Any]
    rest: tuple[dict[str, Any], ...] = ()


def think_turn(
    game_name: str, state: str, seat: int, level: str, seed: int, budget: Budget
) -> list[dict[str, Any]]:
    """The actions a computer of ``level`` plays for ``seat`` until its turn ends (or the
    game does). Runs in a worker: everything in and out is plain data."""
    rules = registry.rules(game_name)
    game = rules.from_json(state)
    actions: list[dict[str, Any]] = []
    while not rules.is_over(game) and game.current_player == seat:
        action = rules.computer_action(
            game, level, seed + len(actions), budget.seconds, budget.iterations
        )
        game.apply(action, seat=seat)
        actions.append(rules.dump_action(action))
    return actions


def think_hint(game_name: str, state: str, seat: int, seed: int, budget: Budget) -> HintData:
    """A hint for ``seat`` (whose turn it is) in the game ``state``."""
    rules = registry.rules(game_name)
    game = rules.from_json(state)
    hint = rules.hint(game, seat, seed, budget.seconds, budget.iterations)
    key, params = hint.reason
    return HintData(
        rules.dump_action(hint.action),
        key,
        dict(params),
        tuple(rules.dump_action(a) for a in hint.alternatives),
    )


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

    async def _run(self, function: Any, *args: Any) -> Any:
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
