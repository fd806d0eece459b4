"""Computer players: a computer's turn thought out in the background and stored like any
other, computers whose thinking stopped (a crash, a restart) woken again, and hints.

A part of :class:`~bot.service.service.GameService` (``service.computers``); the thinking
itself is :mod:`bot.service.thinking`'s."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from functools import partial

from bot.service.common import ANNOUNCE_GRACE, CLAIM_BATCH, record_of, td_ms, think_seed
from bot.service.core import Core
from bot.service.may_act import may_act
from bot.service.models import GameRecord, ServiceError, TurnResult
from bot.service.play import Moves
from bot.service.thinking import HintData
from engine import registry

log = logging.getLogger("arkbot.service")

#: How long a process's claim on a computer's turn holds (renewed at each of its turns): a
#: turn is thought out in seconds. A process that dies thinking has its turn taken on by
#: its successor at once (see ``Core.claimant``), by any other after this.
THINK_LEASE_MS = td_ms(ANNOUNCE_GRACE)


class Computers:
    """The computer players of this process's games (``service.computers``)."""

    def __init__(
        self, core: Core, play: Moves, told: Callable[[TurnResult], Awaitable[None]]
    ) -> None:
        self._core = core
        #: Where a computer's turn is thought from (the game's state) and stored.
        self._play = play
        #: Tells a computer's turn stored in the background (the table posts it).
        self._told = told
        #: The games a computer is thinking for in this process: game id -> its task.
        self._thinking: dict[int, asyncio.Task[None]] = {}

    def wake(self, record: GameRecord) -> None:
        """If it is a computer's turn in ``record``'s game, have it play: it thinks in the
        background (off the event loop, one turn at a time per game), the turn is stored
        with the version check and handed to ``told`` (``service.on_computer_turn``)."""
        seat = record.current
        if record.status != "active" or seat is None or not seat.is_bot:
            return
        if record.id in self._thinking:
            return  # already thinking: that task looks again when its turn is stored
        task = asyncio.create_task(self._drive(record.id), name=f"arkbot-think-{record.id}")
        self._thinking[record.id] = task
        task.add_done_callback(partial(self._forget_task, record.id))

    def _forget_task(self, game_id: int, _task: asyncio.Task[None]) -> None:
        self._thinking.pop(game_id, None)

    async def settle(self) -> None:
        """Wait until no computer of this process is thinking (tests, the demo)."""
        while self._thinking:
            await asyncio.gather(*list(self._thinking.values()), return_exceptions=True)

    async def stop(self) -> None:
        """Stop every computer of this process thinking (the service is closing)."""
        for task in list(self._thinking.values()):
            task.cancel()
        await asyncio.gather(*self._thinking.values(), return_exceptions=True)

    async def wake_computers(self, grace: timedelta = ANNOUNCE_GRACE) -> int:
        """Claim the games waiting for a computer's turn for longer than ``grace`` (whoever
        was thinking for them stopped: a crash, a restart) and wake them here; the lease
        keeps other processes off them meanwhile. Returns how many were woken."""
        core = self._core
        holder = await core.claimant()
        now = core.now_ms()
        async with core.storage.write() as tx:
            ids = await tx.notices.claim_computer_turns(
                now - td_ms(grace), now, now + THINK_LEASE_MS, holder, core.shards, CLAIM_BATCH
            )
            records = [await record_of(tx, game_id) for game_id in ids]
        woken = 0
        for record in records:
            if record.id not in self._thinking:
                self.wake(record)
                woken += 1
        return woken

    async def _lease(self, game_id: int) -> bool:
        """Take the lease of the game's computer's turn for this process (or renew it);
        False if another live process holds it."""
        core = self._core
        holder = await core.claimant()
        now = core.now_ms()
        async with core.storage.write() as tx:
            return await tx.notices.lease_computer_turn(game_id, now, now + THINK_LEASE_MS, holder)

    async def hint(self, game_id: int, user_id: int) -> tuple[GameRecord, HintData]:
        """A suggested move for ``user_id``, whose turn it is, with its reason."""
        record, game = await self._play.state(game_id)
        if not registry.game(record.game_name).has_computers:
            raise ServiceError("no_computers")
        refused = may_act(record, user_id)
        if refused is not None:
            raise refused
        seat = record.seats[record.current_seat or 0]
        found = await self._core.thinker.hint(
            record.game_name, game.to_json(), seat.index, think_seed(record)
        )
        return record, found

    async def _drive(self, game_id: int) -> None:
        core = self._core
        try:
            while True:
                try:
                    record, game = await self._play.state(game_id)
                except ServiceError:
                    return  # ended, damaged or gone meanwhile
                seat = record.current
                if record.status != "active" or seat is None or not seat.is_bot:
                    return
                if not await self._lease(game_id):
                    # Another live process thinks for this game (it woke it first): one
                    # is enough, and its move would make this one's stale.
                    log.info("game %s: another process plays its computer's turn", game_id)
                    return
                level = seat.level
                if level is None:  # a seat taken over before computers had levels
                    level = (await core.recent_guild_settings(record.guild_id)).computer_level
                actions = await core.thinker.turn(
                    record.game_name, game.to_json(), seat.index, level, think_seed(record)
                )
                try:
                    result = await self._play.computer_turn(game_id, record.version, seat, actions)
                except ServiceError as error:
                    if error.code == "stale":
                        continue  # someone else moved meanwhile: look again
                    # The game ended while the computer thought: the race it is, not an
                    # error (a damaged game is worth a warning: the guard has marked it).
                    damaged = error.code == "game_damaged"
                    log.log(
                        logging.WARNING if damaged else logging.INFO,
                        "game %s ended while its computer thought (%s)",
                        game_id,
                        error,
                    )
                    return
                try:
                    await self._told(result)
                except Exception:
                    # The turn is stored; the missed-post round tells it later.
                    log.exception("could not tell the computer's turn in game %s", game_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            # The lease round wakes the game again later; other games are not concerned.
            log.exception("the computer player could not move in game %s", game_id)
