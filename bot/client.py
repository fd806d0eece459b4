"""The Discord client: wires settings, the game service, the cogs and the controls."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.controller import Controller
from bot.controls import ArkButton, ArkSelect
from bot.errors import report
from bot.pictures import Pictures
from bot.service import GameService
from bot.settings import Settings

log = logging.getLogger("arkbot")


class ArkBot(commands.Bot):
    """arkbot: slash commands and buttons over the game service.

    Needs no privileged intents: everything arrives as interactions.
    """

    def __init__(self, settings: Settings, *, service: GameService | None = None) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
        )
        self.settings = settings
        self.service: GameService = service  # type: ignore[assignment]  # opened in setup_hook
        self.controller = Controller(self)
        self.pictures = Pictures(settings.render_workers)
        self.tree.on_error = self._on_tree_error  # type: ignore[method-assign]

    async def setup_hook(self) -> None:
        if self.service is None:
            self.service = await GameService.open(self.settings.db_path, settings=self.settings)
        from bot.cogs.lobby import Lobby
        from bot.cogs.moderation import Moderation
        from bot.cogs.play import Play
        from bot.cogs.reminders import Reminders

        for cog in (Lobby(self), Play(self), Moderation(self), Reminders(self)):
            await self.add_cog(cog)
        self.add_dynamic_items(ArkButton, ArkSelect)
        # Draw the tile sprites now, not during a player's first click.
        await self.pictures.warm_up()
        await self.sync_commands()

    async def sync_commands(self) -> None:
        if self.settings.dev_guild:
            guild = discord.Object(id=self.settings.dev_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d commands", len(synced))

    async def _on_tree_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await report(interaction, error)

    async def on_ready(self) -> None:
        log.info("logged in as %s in %d servers", self.user, len(self.guilds))

    async def close(self) -> None:
        await super().close()
        self.pictures.close()
        if self.service is not None:
            await self.service.close()
