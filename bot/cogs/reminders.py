"""Reminders, time-outs and missed posts: one background task that survives restarts and
catches up.

Nothing is kept in memory between rounds: each round asks the service which turns are due
now (all of them, however long the bot was away), claims each notice so it is sent once,
sends it, and marks it sent. A crash between claim and send means the notice is offered
again after the service's lease, never lost; a crash between send and mark has it sent
again with the same nonce, which Discord answers with the first message.

With several bot processes, each does this for the guilds of its own shards (the service
filters), and every piece is claimed in the database, so it is done once even while two
processes serve one shard.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.discord_ui import Mention, Verbatim, say
from bot.i18n import Text
from bot.service import DueTurn
from bot.service.service import ANNOUNCE_GRACE

if TYPE_CHECKING:
    from bot.client import TableBot

log = logging.getLogger("arkbot.reminders")


class Reminders(commands.Cog):
    def __init__(self, bot: TableBot) -> None:
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
        # At start-up nothing of this process is on its way, so whatever was stored but not
        # shown is told at once; later rounds leave a fresh move a moment to be posted.
        grace = timedelta(0)
        while not self.bot.is_closed():
            try:
                await self.run_once(grace=grace)
            except Exception:
                log.exception("reminder round failed")
            grace = ANNOUNCE_GRACE
            await asyncio.sleep(self.bot.settings.poll_seconds)

    async def run_once(
        self, now: datetime | None = None, *, grace: timedelta = ANNOUNCE_GRACE
    ) -> int:
        """Send the reminders due at ``now``, post missed turns, let computers whose turn
        was cut off play, close expired lobbies, then play the time-outs due; returns how
        many were handled.

        Reminders go first: they are a line of text each, and after a restart the missed
        posts (a board picture each, dozens of them) would hold them up for a minute.
        Time-outs come after the missed posts, so the boards are told in their order."""
        due = await self.bot.service.notices.due(now)
        handled = await self._notices([d for d in due if d.kind in ("reminder", "final")])
        handled += await self.announce_missed(grace)
        # Computers whose turn nobody is thinking about (this process restarted) play now.
        handled += await self.bot.service.computers.wake_computers(grace)
        handled += await self.close_expired_lobbies()
        handled += await self.end_stalled_games()
        return handled + await self._notices([d for d in due if d.kind == "timeout"])

    async def _notices(self, due: list[DueTurn]) -> int:
        handled = 0
        for notice in due:
            if not await self.bot.service.notices.claim(notice):
                continue
            try:
                await self.handle(notice)
            except Exception:
                log.exception("could not handle %s for game %s", notice.kind, notice.game.id)
                continue
            await self.bot.service.notices.mark_sent(notice)
            handled += 1
        return handled

    async def announce_missed(self, grace: timedelta = ANNOUNCE_GRACE) -> int:
        """Post the games whose latest moves were stored but never shown (the bot stopped in
        between, or Discord refused the post), so the next player is told without waiting
        for a reminder."""
        await self.bot.service.posts.flush_posted()
        posted = 0
        for record in await self.bot.service.posts.claim_missed(grace):
            try:
                channel = await self.bot.table.home_channel(record)
                posted += await self.bot.table.announce_stored(channel, record)
            except Exception:
                log.exception("could not announce game %s", record.id)
        if posted:
            # Written now, not with the next round: once the claims run out, no process
            # (this one restarted, or another) may take these posts for missed ones.
            await self.bot.service.posts.flush_posted()
        return posted

    async def close_expired_lobbies(self) -> int:
        """Lobbies nobody started in time are closed; their messages say so."""
        expired = await self.bot.service.lobby.expire_lobbies()
        for record in expired:
            try:
                channel = await self._channel(record.channel_id)
                await self.bot.table.announce_end(channel, record)
            except Exception:
                log.exception("could not update the lobby of game %s", record.id)
        return len(expired)

    async def end_stalled_games(self) -> int:
        """Games nobody moved in for long: warned once, then ended with their standings."""
        warn, end = await self.bot.service.notices.stalled()
        for record in warn:
            try:
                channel = await self.bot.table.home_channel(record)
                language = await self.bot.table.public_language(record.guild_id)
                settings = await self.bot.service.recent_guild_settings(record.guild_id)
                last = (record.last_move_ms or 0) // 1000
                ends = last + int(settings.stall_after.total_seconds())
                text = Text(
                    "table.stall.warning",
                    since=Verbatim(f"<t:{last}:R>"),
                    ends=Verbatim(f"<t:{ends}:R>"),
                )
                await channel.send(say(text, language))
                await self.bot.service.notices.warned_stall(record)
            except Exception:
                log.exception("could not warn stalled game %s", record.id)
        for record in end:
            try:
                ended = await self.bot.service.notices.end_stalled(record)
                channel = await self.bot.table.home_channel(record)
                await self.bot.table.announce_end(channel, ended, stalled=True)
            except Exception:
                log.exception("could not end stalled game %s", record.id)
        return len(warn) + len(end)

    async def _channel(self, channel_id: int) -> Any:
        return self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)

    async def handle(self, due: DueTurn) -> None:
        channel = await self.bot.table.home_channel(due.game)
        language = await self.bot.table.public_language(due.game.guild_id)
        if due.kind in ("reminder", "final"):
            await self.remind(channel, due, language)
            return
        if due.timeout_action == "notify":
            # Those who can act are pinged: the moderator role, and the game's creator.
            role, creator = due.moderator_role_id, due.game.creator_id
            who: Any = (
                Text("table.reminder.role_and_creator", role=Verbatim(f"<@&{role}>"),
                     creator=Mention(creator))
                if role
                else Mention(creator)
            )  # fmt: skip
            await channel.send(
                say(
                    Text("table.reminder.timeout_notify", player=due.seat.name, moderators=who),
                    language,
                ),
                nonce=_nonce("t", due),
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(creator)],
                    roles=[discord.Object(role)] if role else False,
                    everyone=False,
                ),
            )
            return
        result = await self.bot.service.play.time_out(due)
        await self.bot.table.announce(channel, result.game, result.state, result.turns)

    async def remind(self, channel: Any, due: DueTurn, language: str) -> None:
        """Half the player's time is used, or nearly all: tell them, where they asked to
        be told (the channel, a direct message, or both)."""
        user = due.seat.user_id
        when = Verbatim(f"<t:{(due.deadline_ms or 0) // 1000}:R>")
        key = "table.reminder.channel" if due.kind == "reminder" else "table.reminder.final"
        if due.seat.ping in ("channel", "both") or user is None:
            player: Any = Mention(user) if user else due.seat.name
            await channel.send(
                say(Text(key, player=player, deadline=when), language),
                nonce=_nonce(due.kind[0], due),
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(user)] if user else False, roles=False, everyone=False
                ),
            )
        if user is not None and due.dm:
            text = Text("table.reminder.dm", channel=Verbatim(f"<#{channel.id}>"), deadline=when)
            await self._dm(user, say(text, language), _nonce("d" + due.kind[0], due))

    async def _dm(self, user_id: int, text: str, nonce: str) -> None:
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(text, nonce=nonce)
        except discord.HTTPException:
            # DMs closed or the user is gone: the channel reminder was sent anyway.
            log.info("could not DM user %s", user_id)


def _nonce(kind: str, due: DueTurn) -> str:
    """The nonce of a notice: sent again (a crash before it was marked sent), Discord gives
    back the first message rather than a second one. At most 25 characters."""
    return f"{kind}.{due.game.id}.{due.version}"[-25:]
