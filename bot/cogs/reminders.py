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

from bot.service.storage.postgres import ConnectionLost
from bot.table import Table

log = logging.getLogger("arkbot.reminders")

#: How often one round is tried when it loses its database connection.
ROUND_TRIES = 2


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
            except ConnectionLost as exc:
                # Lost twice in a row (the database is restarting): the next round tries.
                log.warning("reminder round lost its database connection again: %s", exc)
            except Exception:
                log.exception("reminder round failed")
            grace = None
            await asyncio.sleep(host.settings.poll_seconds)

    async def run_once(self, now: datetime | None = None, *, grace: timedelta | None = None) -> int:
        """One round now (see :meth:`bot.table.rounds.Rounds.run_once`); how many were
        handled.

        A round that loses its database connection (the server ended the session, or
        restarted) is run again at once, on a fresh connection: every piece of it is
        claimed in the database, so what the lost one did is not done twice, and what it
        claimed but did not finish is offered again when its claim runs out."""
        for _ in range(ROUND_TRIES - 1):
            try:
                return await self.table.rounds.run_once(now, grace=grace)
            except ConnectionLost as exc:
                log.warning(
                    "reminder round lost its database connection, running it again: %s", exc
                )
        return await self.table.rounds.run_once(now, grace=grace)
