"""``/table``: open a game here, join, leave, start, see how it stands, learn the rules, and
your reminders and the server's statistics. For every game: the game is chosen at ``new``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_ui import say
from bot.games import plugins
from bot.i18n import Text, language_of

if TYPE_CHECKING:
    from bot.client import TableBot


def game_choices(ready_only: bool = True) -> list[app_commands.Choice[str]]:
    """The games a table can be opened for (their names in English; see the translator)."""
    return [
        app_commands.Choice(name=say(p.front.title(), "en"), value=name)
        for name, p in plugins().items()
        if p.front.ready or not ready_only
    ]


@app_commands.guild_only()
class Tables(commands.GroupCog, group_name="table", group_description="Games in this channel"):
    """Games in a channel: the lobby, the table's status, the rules and reminders."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        super().__init__()
        # The games are the plugins known when the bot starts (a test may add its own), so
        # the choices are filled in here, not when this module is imported.
        for command in self.__cog_app_commands__:
            if isinstance(command, app_commands.Command) and "game" in command._params:
                command._params["game"].choices = game_choices(ready_only=command.name == "new")

    @app_commands.command(name="new", description="Open a game here; friends tap Join")
    @app_commands.describe(
        game="Which game", seats="Shuffle the seating (default) or keep the joining order"
    )
    @app_commands.choices(
        seats=[
            app_commands.Choice(name="shuffled", value="shuffled"),
            app_commands.Choice(name="in joining order", value="kept"),
        ],
    )
    async def new(
        self, interaction: discord.Interaction, game: str = "covenant", seats: str = "shuffled"
    ) -> None:
        await self.bot.table.new_table(interaction, game, shuffle=seats != "kept")

    @app_commands.command(name="join", description="Join the game that is being set up here")
    async def join(self, interaction: discord.Interaction) -> None:
        await self.bot.table.lobby(interaction, "join")

    @app_commands.command(name="leave", description="Leave the game that is being set up here")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.bot.table.lobby(interaction, "leave")

    @app_commands.command(name="start", description="Start the game (its creator or a moderator)")
    async def start(self, interaction: discord.Interaction) -> None:
        await self.bot.table.lobby(interaction, "start")

    @app_commands.command(name="status", description="The board, the scores and whose turn it is")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.bot.table.status(interaction)

    @app_commands.command(name="rules", description="How to play, in a few short steps")
    @app_commands.describe(game="Which game (default: the one in this channel)")
    async def rules(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await self.bot.table.rules(interaction, game)

    @app_commands.command(name="reminders", description="Also get your turn reminders by DM")
    @app_commands.choices(
        dm=[
            app_commands.Choice(name="on", value="on"),
            app_commands.Choice(name="off", value="off"),
        ]
    )
    async def reminders(self, interaction: discord.Interaction, dm: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.service.set_dm_reminders(interaction.user.id, dm == "on")
        await interaction.followup.send(
            say(Text(f"table.reminders.dm_{dm}"), language_of(interaction)), ephemeral=True
        )

    @app_commands.command(name="stats", description="Games played and wins in this server")
    async def stats(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        language = language_of(interaction)
        stats = await self.bot.service.stats(interaction.guild_id or 0)
        ranking = sorted(stats.wins.items(), key=lambda kv: (-kv[1], stats.names.get(kv[0], "")))
        lines = [say(Text("table.stats.played", count=stats.games_played), language)]
        lines += [
            say(
                Text("table.stats.wins", player=stats.names.get(user, str(user)), wins=wins),
                language,
            )
            for user, wins in ranking[:10]
        ]
        await interaction.followup.send(
            "\n".join(lines), ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )
