"""``/table``: open a game here, join, leave, start, see how it stands, learn the rules (or
a game, by playing it against the computer), and your reminders and the server's
statistics. For every game: the game is chosen at ``new`` (or ``learn``).

Every name and description is a catalogue message (``table.command.*``), so Discord shows
the commands in each user's language (:class:`bot.i18n.CatalogueTranslator`).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import default_game, plugins, ready_plugins
from bot.i18n import command_text
from bot.table import Table


def c(name: str) -> app_commands.locale_str:
    return command_text(f"table.command.{name}")


def choice(name: str, value: str) -> app_commands.Choice[str]:
    return app_commands.Choice(name=command_text(f"table.choice.{name}"), value=value)


def game_choices(ready_only: bool = True) -> list[app_commands.Choice[str | int | float]]:
    """The games a table can be opened for, each named by its front's title."""
    offered = ready_plugins() if ready_only else plugins()
    return [
        app_commands.Choice(name=command_text(p.front.title().key), value=name)
        for name, p in offered.items()
    ]


@app_commands.guild_only()
class Tables(commands.GroupCog, group_name=c("group"), group_description=c("group_description")):
    """Games in a channel: the lobby, the table's status, the rules and reminders."""

    def __init__(self, table: Table) -> None:
        self.table = table
        super().__init__()
        # The games are the plugins known when the bot starts (a test may add its own), so
        # the choices are filled in here, not when this module is imported.
        for command in self.__cog_app_commands__:
            if isinstance(command, app_commands.Command) and "game" in command._params:
                offered = game_choices(ready_only=command.name in ("new", "learn"))
                if command.name == "learn":  # only the games that can teach
                    offered = [c for c in offered if plugins()[str(c.value)].teacher]
                command._params["game"].choices = offered

    @app_commands.command(name=c("new"), description=c("new_description"))
    @app_commands.rename(game=c("new_game"), seats=c("new_seats"))
    @app_commands.describe(game=c("new_game_description"), seats=c("new_seats_description"))
    @app_commands.choices(seats=[choice("shuffled", "shuffled"), choice("kept", "kept")])
    async def new(
        self, interaction: discord.Interaction, game: str | None = None, seats: str = "shuffled"
    ) -> None:
        chosen = game or default_game()
        await self.table.lobby.new_table(interaction, chosen, shuffle=seats != "kept")

    @app_commands.command(name=c("learn"), description=c("learn_description"))
    @app_commands.rename(game=c("learn_game"))
    @app_commands.describe(game=c("learn_game_description"))
    async def learn(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await self.table.learning.learn(interaction, game or default_game())

    @app_commands.command(name=c("join"), description=c("join_description"))
    async def join(self, interaction: discord.Interaction) -> None:
        await self.table.lobby.act(interaction, "join")

    @app_commands.command(name=c("leave"), description=c("leave_description"))
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.table.lobby.act(interaction, "leave")

    @app_commands.command(name=c("start"), description=c("start_description"))
    async def start(self, interaction: discord.Interaction) -> None:
        await self.table.lobby.act(interaction, "start")

    @app_commands.command(name=c("status"), description=c("status_description"))
    async def status(self, interaction: discord.Interaction) -> None:
        await self.table.browsing.status(interaction)

    @app_commands.command(name=c("rules"), description=c("rules_description"))
    @app_commands.rename(game=c("rules_game"))
    @app_commands.describe(game=c("rules_game_description"))
    async def rules(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await self.table.browsing.rules(interaction, game)

    @app_commands.command(name=c("pings"), description=c("pings_description"))
    @app_commands.rename(where=c("pings_where"))
    @app_commands.describe(where=c("pings_where_description"))
    @app_commands.choices(
        where=[
            choice("ping_channel", "channel"),
            choice("ping_dm", "dm"),
            choice("ping_both", "both"),
        ]
    )
    async def pings(self, interaction: discord.Interaction, where: str) -> None:
        await self.table.players.pings(interaction, where)

    @app_commands.command(name=c("away"), description=c("away_description"))
    @app_commands.rename(days=c("away_days"))
    @app_commands.describe(days=c("away_days_description"))
    async def away(
        self, interaction: discord.Interaction, days: app_commands.Range[float, 0.0, 30.0]
    ) -> None:
        await self.table.players.away(interaction, days)

    @app_commands.command(name=c("missed"), description=c("missed_description"))
    async def missed(self, interaction: discord.Interaction) -> None:
        await self.table.browsing.missed(interaction)

    @app_commands.command(name=c("hint"), description=c("hint_description"))
    async def hint(self, interaction: discord.Interaction) -> None:
        await self.table.turns.hint(interaction)

    @app_commands.command(name=c("history"), description=c("history_description"))
    async def history(self, interaction: discord.Interaction) -> None:
        await self.table.browsing.history(interaction)

    @app_commands.command(name=c("replay"), description=c("replay_description"))
    async def replay(self, interaction: discord.Interaction) -> None:
        await self.table.browsing.replay(interaction)

    @app_commands.command(name=c("stats"), description=c("stats_description"))
    @app_commands.rename(game=c("stats_game"))
    @app_commands.describe(game=c("stats_game_description"))
    async def stats(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await self.table.browsing.leaderboard(interaction, game or default_game())

    @app_commands.command(name=c("season"), description=c("season_description"))
    async def season(self, interaction: discord.Interaction) -> None:
        await self.table.seasons.standings(interaction)
