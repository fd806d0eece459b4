"""Reminders, time-outs and missed posts: one background task that survives restarts and
catches up.

The task runs a round of the table's background work (:class:`bot.table.rounds.Rounds`)
every ``poll_seconds``; a round asks the database what is due, so nothing is lost while the
bot is away and nothing is done twice by two processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime, timedelta

from discord.ext import commands

from bot.table import Table

log = logging.getLogger("arkbot.reminders")


class Reminders(commands.Cog):
    def __init__(self, table: Table) -> None:
        self.table = table
        self._task: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        if self.table.host.settings.poll_seconds > 0:
            self._task = asyncio.create_task(self._loop(), name="arkbot-reminders")

    async def cog_unload(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _loop(self) -> None:
        host = self.table.host
        await host.wait_until_ready()
        # At start-up nothing of this process is on its way, so whatever was stored but not
        # shown is told at once; later rounds leave a fresh move a moment to be posted (the
        # service's grace).
        grace: timedelta | None = timedelta(0)
        while not host.is_closed():
            try:
                await self.run_once(grace=grace)
            except Exception:
                log.exception("reminder round failed")
            grace = None
            # The next poll, or sooner: a turn that could be taken back is posted as soon as
            # that time is over (the table asks for a round then).
            common = self.table.common
            common.rounds_asked.clear()
            pause = common.next_round_in(host.settings.poll_seconds)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(common.rounds_asked.wait(), pause)

    async def run_once(self, now: datetime | None = None, *, grace: timedelta | None = None) -> int:
        """One round now, run again if it loses its database connection (see
        :meth:`bot.table.rounds.Rounds.run_round`); how many were handled."""
        return await self.table.rounds.run_round(now, grace=grace)
