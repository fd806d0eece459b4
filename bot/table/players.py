"""A player's own settings across their games: where they are pinged, and time away (their
clocks stand still, and each of their games is told)."""

from __future__ import annotations

import logging

import discord

from bot.discord_ui import Verbatim, message_text
from bot.i18n import Text, language_of
from bot.table.common import Common
from bot.table.posts import Announcer

log = logging.getLogger("arkbot.table")


class Players:
    """``/table pings`` and ``/table away``."""

    def __init__(self, common: Common, posts: Announcer) -> None:
        self.common = common
        self.posts = posts

    async def pings(self, interaction: discord.Interaction, where: str) -> None:
        """Where the player is told it is their turn: the channel, a direct message, both."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.common.service.notices.set_ping(interaction.user.id, where)
        await interaction.followup.send(
            message_text(Text(f"table.pings.{where}"), language_of(interaction)), ephemeral=True
        )

    async def away(self, interaction: discord.Interaction, days: float) -> None:
        """The player is away for ``days`` (0: back): their clocks stand still, and each of
        their games is told."""
        common = self.common
        await interaction.response.defer(ephemeral=True, thinking=True)
        until = common.service.notices.away_until(days)
        games = await common.service.notices.set_away(interaction.user.id, until)
        name = interaction.user.display_name
        for record in games:
            language = await common.game_language(record)
            if until is None:
                text = Text("table.away.back", player=name)
            else:
                text = Text(
                    "table.away.gone",
                    player=name,
                    until=Verbatim(f"<t:{int(until.timestamp())}:f>"),
                )
            try:
                home = await self.posts.home_channel(record)
                await home.send(
                    message_text(text, language), allowed_mentions=discord.AllowedMentions.none()
                )
            except discord.HTTPException:
                log.info("could not tell game %s that a player is away", record.id)
        key = "table.away.done_back" if until is None else "table.away.done"
        when = Verbatim(f"<t:{int(until.timestamp())}:f>") if until else None
        await interaction.followup.send(
            message_text(Text(key, count=len(games), until=when or ""), language_of(interaction)),
            ephemeral=True,
        )
