"""The Discord client: wires settings, the game service, the table, the cogs and controls."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.games import group_for
from bot.cogs.moderation import Moderation
from bot.cogs.reminders import Reminders
from bot.cogs.tables import Tables
from bot.discord_ui import COMPONENTS, taken
from bot.errors import report
from bot.games import plugins
from bot.i18n import CatalogueTranslator
from bot.pictures import Pictures
from bot.service import GameService
from bot.settings import Settings
from bot.table import Table

log = logging.getLogger("arkbot")


class TableBot(commands.AutoShardedBot):
    """arkbot: slash commands and buttons over the game service, for every game plugin.

    Needs no privileged intents: everything arrives as interactions. Sharded: with
    ``ARKBOT_SHARD_COUNT`` and ``ARKBOT_SHARD_IDS`` this process connects the shards it is
    given (several processes share a bot, each answering its shards' interactions);
    without them, Discord's recommended number of shards, all in this process.
    """

    def __init__(self, settings: Settings, *, service: GameService | None = None) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        # Without ARKBOT_SHARD_IDS every shard is here: discord.py's default, left unnamed.
        sharding: dict[str, Any] = {"shard_count": settings.shard_count}
        if settings.shard_ids is not None:
            sharding["shard_ids"] = list(settings.shard_ids)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            # Nobody is pinged unless a message says whom (see bot.discord_ui).
            allowed_mentions=discord.AllowedMentions.none(),
            **sharding,
        )
        self.settings = settings
        self.service: GameService = service  # type: ignore[assignment]  # opened in setup_hook
        self.table = Table(self)
        warm = [f for p in plugins().values() for f in p.front.warm_up]
        self.pictures = Pictures(settings.render_workers, warm)
        self.tree.error(self._on_tree_error)

    async def setup_hook(self) -> None:
        if self.service is None:
            self.service = await GameService.open(self.settings.db_path, settings=self.settings)
        self.service.on_computer_turn = self.table.posts.computer_played
        for cog in (Tables(self.table), Moderation(self.table), Reminders(self.table)):
            await self.add_cog(cog)
        for game in plugins().values():
            if game.front.ready and game.front.commands:
                self.tree.add_command(group_for(self.table, game.front))
        self.add_dynamic_items(*COMPONENTS)
        await self.tree.set_translator(CatalogueTranslator())
        # With a game open, its next picture may be wanted in seconds: the picture workers
        # start warming up now, not during a player's click, but the bot does not wait for
        # them to log in (that made start-up seconds longer: a picture asked for meanwhile
        # waits for its worker instead). With none, the bot holds no worker (its sprites and
        # fonts: half its memory) until the first table opens or a picture is wanted.
        if await self.service.any_game_open():
            self.pictures.expect()
        else:
            log.info("no game open: the picture workers start when a table opens")
        await self.sync_commands()

    @property
    def reminders(self) -> commands.Cog | None:
        return self.get_cog("Reminders")

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

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        # A button or menu discord.py hands to no control of ours would go unanswered, and
        # Discord would show "This interaction failed": it is answered as a stale one.
        if interaction.type is discord.InteractionType.component and not taken(interaction):
            await self.table.stale(interaction)

    async def on_ready(self) -> None:
        shards = sorted(self.shards)
        log.info(
            "logged in as %s in %d servers, shards %s of %s",
            self.user, len(self.guilds), shards, self.shard_count,
        )  # fmt: skip

    async def close(self) -> None:
        await super().close()
        self.pictures.close()
        if self.service is not None:
            await self.service.close()
