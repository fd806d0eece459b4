"""Reminders and time-outs: a background task that survives restarts and catches up.

Nothing is kept in memory between rounds: each round asks the service which turns are due
now (all of them, however long the bot was away), claims each notice so it is sent once,
sends it, and marks it sent. A crash between claim and send means the notice is offered
again after the service's lease, never lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.i18n import t
from bot.service import DueTurn

if TYPE_CHECKING:
    from bot.client import ArkBot

log = logging.getLogger("arkbot.reminders")


class Reminders(commands.Cog):
    def __init__(self, bot: ArkBot) -> None:
        self.bot = bot
        self._task: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        if self.bot.settings.poll_seconds > 0:
            self._task = asyncio.create_task(self._loop(), name="arkbot-reminders")

    async def cog_unload(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _loop(self) -> None:
        await self.bot.wait_until_ready()
        while not self.bot.is_closed():
            try:
                await self.run_once()
            except Exception:
                log.exception("reminder round failed")
            await asyncio.sleep(self.bot.settings.poll_seconds)

    async def run_once(self, now: datetime | None = None) -> int:
        """Post missed turns, then send every reminder and time-out due at ``now``; returns
        how many were handled."""
        handled = await self.announce_missed()
        for due in await self.bot.service.due(now):
            if not await self.bot.service.claim(due):
                continue
            try:
                await self.handle(due)
            except Exception:
                log.exception("could not handle %s for game %s", due.kind, due.game.id)
                continue
            await self.bot.service.mark_sent(due)
            handled += 1
        return handled

    async def announce_missed(self) -> int:
        """Post the board of games whose latest move was stored but never shown (the bot
        stopped in between), so the next player is told without waiting for a reminder."""
        posted = 0
        for record in await self.bot.service.unannounced():
            try:
                record, game = await self.bot.service.state(record.id)
                if record.status == "active" and game.phase in ("deploy", "place_ark"):
                    # Mid-turn: the player carries on from their panel or /play tile.
                    await self.bot.service.mark_announced(record.id, record.version)
                    continue
                channel = await self._channel(record.channel_id)
                await self.bot.controller.post_turn(channel, record, game, [t("turn.recovered")])
                posted += 1
            except Exception:
                log.exception("could not announce game %s", record.id)
        return posted

    async def _channel(self, channel_id: int) -> Any:
        return self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)

    async def handle(self, due: DueTurn) -> None:
        channel = await self._channel(due.game.channel_id)
        player = f"<@{due.seat.user_id}>" if due.seat.user_id else due.seat.name
        mentions = discord.AllowedMentions(users=True, roles=False, everyone=False)
        if due.kind == "reminder":
            await channel.send(t("reminder.channel", player=player), allowed_mentions=mentions)
            if due.dm and due.seat.user_id:
                await self._dm(due.seat.user_id, t("reminder.dm", channel=f"<#{channel.id}>"))
            return
        if due.timeout_action == "notify":
            who = (
                f"<@&{due.moderator_role_id}>"
                if due.moderator_role_id
                else t("reminder.moderators")
            )
            await channel.send(
                t("reminder.timeout_notify", player=due.seat.name, moderators=who),
                allowed_mentions=discord.AllowedMentions(users=False, roles=True),
            )
            return
        record, before = await self.bot.service.state(due.game.id)
        result = await self.bot.service.time_out(due)
        after_record, after = await self.bot.service.state(due.game.id)
        story = [t("reminder.skipped", player=due.seat.name)]
        story += self.bot.controller.story(record, before, result.events)
        await self.bot.controller.post_turn(channel, after_record, after, story)

    async def _dm(self, user_id: int, text: str) -> None:
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(text)
        except discord.HTTPException:
            # DMs closed or the user is gone: the channel reminder was sent anyway.
            log.info("could not DM user %s", user_id)
