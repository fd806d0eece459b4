"""``/ark``: open a game in this channel, join, leave, start, see how it stands, learn the rules."""

from __future__ import annotations

import asyncio
from functools import cache
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import render
from bot.controller import names_of, png
from bot.errors import Refusal
from bot.i18n import t
from engine.covenant import Deploy, Game, Pass, PlaceArk, PlaceTile

if TYPE_CHECKING:
    from bot.client import ArkBot


@cache
def rules_picture() -> bytes:
    """A small board after a few turns, to show what the game looks like."""
    game = Game.new(players=2, seed=0, deck=["T21", "T39", "T48", "T37", "T39"])
    for action in (
        PlaceTile(0, -1, 180),
        Deploy("S"),
        PlaceArk(0, -1),
        PlaceTile(1, 0, 0),
        Deploy("E"),
        PlaceTile(0, 1, 0),
        Deploy("NNW"),
        PlaceTile(-1, 0, 180),
        Pass(),
    ):
        game.apply(action)
    return render.board_png(game, spots=True, names=["Ruth", "Boaz"])


class Lobby(commands.GroupCog, group_name="ark", group_description="The Ark of the Covenant"):
    """Games in a channel: the lobby, the table's status, the rules and reminders."""

    def __init__(self, bot: ArkBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="new", description="Open a game of The Ark of the Covenant here")
    @app_commands.describe(seats="Shuffle the seating (default) or keep the order people join in")
    @app_commands.choices(
        seats=[
            app_commands.Choice(name="shuffled", value="shuffled"),
            app_commands.Choice(name="in joining order", value="kept"),
        ]
    )
    @app_commands.guild_only()
    async def new(self, interaction: discord.Interaction, seats: str = "shuffled") -> None:
        await self.bot.controller.new_game(interaction, shuffle=seats != "kept")

    @app_commands.command(name="join", description="Join the game that is being set up here")
    @app_commands.guild_only()
    async def join(self, interaction: discord.Interaction) -> None:
        await self.bot.controller.lobby(interaction, "join")

    @app_commands.command(name="leave", description="Leave the game that is being set up here")
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.bot.controller.lobby(interaction, "leave")

    @app_commands.command(name="start", description="Start the game (its creator or a moderator)")
    @app_commands.guild_only()
    async def start(self, interaction: discord.Interaction) -> None:
        await self.bot.controller.lobby(interaction, "start")

    @app_commands.command(name="status", description="The board, the scores and whose turn it is")
    @app_commands.guild_only()
    async def status(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        record = await self.bot.service.game_in(interaction.channel_id)
        if record is None:
            raise Refusal("turn.no_game")
        if record.status == "lobby":
            content, _ = self.bot.controller.lobby_message(record)
            await interaction.followup.send(content, ephemeral=True)
            return
        if record.status == "error":
            raise Refusal("error.game_damaged")
        record, game = await self.bot.service.state(record.id)
        names = names_of(record)
        data = await self.bot.pictures.board(game, spots=True, names=names)
        scores = ", ".join(f"{n} {s}" for n, s in zip(names, game.scores, strict=True))
        lines = [
            t("status.turn", turn=game.turn, player=names[game.current_player]),
            t("turn.scores", scores=scores),
            t("status.tiles_left", left=game.tiles_left),
        ]
        await interaction.followup.send(
            "\n".join(lines), file=png(data, "board.png"), ephemeral=True
        )

    @app_commands.command(name="rules", description="How to play, in a few short steps")
    async def rules(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await asyncio.to_thread(rules_picture)
        await interaction.followup.send(
            t("rules.text"), file=png(data, "rules.png"), ephemeral=True
        )

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
        await interaction.followup.send(t(f"reminders.dm_{dm}"), ephemeral=True)

    @app_commands.command(name="stats", description="Games played and wins in this server")
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        stats = await self.bot.service.stats(interaction.guild_id or 0)
        ranking = sorted(stats.wins.items(), key=lambda kv: (-kv[1], stats.names.get(kv[0], "")))
        lines = [t("stats.played", count=stats.games_played)]
        lines += [
            t("stats.wins", player=stats.names.get(user, str(user)), wins=wins)
            for user, wins in ranking[:10]
        ]
        await interaction.followup.send("\n".join(lines), ephemeral=True)
