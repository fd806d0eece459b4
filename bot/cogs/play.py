"""``/play``: every step of a turn as a typed command, for those who prefer typing.

Each command does exactly what the matching button does (see :mod:`bot.controller`);
autocomplete offers the same choices, named as on the picture.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.controller import names_of
from bot.errors import Refusal
from bot.i18n import t
from bot.turns import (
    ark_choices,
    deploy_choices,
    find_spot,
    gains_text,
    grid,
    parse_deploy,
    spot_choices,
)
from engine.covenant import Game, MoveArk, Pass, PlaceArk, PlaceTile

if TYPE_CHECKING:
    from bot.client import ArkBot

MAX_CHOICES = 25  # Discord shows at most 25 autocomplete choices
NAME_LIMIT = 100  # and refuses a choice whose name is longer than 100 characters


def clip(text: str) -> str:
    return text if len(text) <= NAME_LIMIT else text[: NAME_LIMIT - 1] + "…"


class Play(commands.GroupCog, group_name="play", group_description="Play your turn"):
    """The steps of a turn: the tile, where it goes, a follower, the Ark, or pass."""

    def __init__(self, bot: ArkBot) -> None:
        self.bot = bot
        super().__init__()

    async def _game(self, interaction: discord.Interaction) -> Game | None:
        """The game of this channel as it stands, for autocomplete (None if there is none)."""
        record = await self.bot.service.game_in(interaction.channel_id)
        if record is None or record.status != "active":
            return None
        _, game = await self.bot.service.state(record.id)
        return game

    @app_commands.command(name="tile", description="See your tile and choose where it goes")
    @app_commands.guild_only()
    async def tile(self, interaction: discord.Interaction) -> None:
        await self.bot.controller.open_turn(interaction)

    @app_commands.command(name="place", description="Place your tile on a square, e.g. C4")
    @app_commands.describe(
        square="A square from the picture, or its number", rotation="Degrees clockwise"
    )
    @app_commands.guild_only()
    async def place(self, interaction: discord.Interaction, square: str, rotation: int = 0) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        record, game = await self.bot.controller.my_turn(interaction)
        if game.phase != "place_tile":
            raise Refusal("turn.tile_already_placed")
        spot = find_spot(game, square)
        if spot is None:
            raise Refusal("turn.no_such_square", square=square.strip().upper())
        if rotation not in spot.rotations:
            raise Refusal(
                "turn.bad_rotation",
                square=spot.square,
                rotations=", ".join(f"{r}°" for r in spot.rotations),
            )
        await self.bot.controller.act(
            interaction, record, game, PlaceTile(spot.x, spot.y, rotation), edit=False
        )

    @place.autocomplete("square")
    async def place_square(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        game = await self._game(interaction)
        if game is None:
            return []
        typed = current.strip().upper()
        return [
            app_commands.Choice(
                name=t(
                    "turn.spot_choice", number=s.number, square=s.square, count=len(s.rotations)
                ),
                value=s.square,
            )
            for s in spot_choices(game)
            if not typed or s.square.startswith(typed) or str(s.number) == typed
        ][:MAX_CHOICES]

    @place.autocomplete("rotation")
    async def place_rotation(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        game = await self._game(interaction)
        square = getattr(interaction.namespace, "square", None)
        spot = find_spot(game, square) if game is not None and square else None
        rotations = spot.rotations if spot is not None else (0, 90, 180, 270)
        return [app_commands.Choice(name=f"{r}°", value=r) for r in rotations]

    @app_commands.command(
        name="follower", description="Put a follower (or your Prophet) on your new tile"
    )
    @app_commands.describe(spot="Where on the tile")
    @app_commands.guild_only()
    async def follower(self, interaction: discord.Interaction, spot: str) -> None:
        if ":" not in spot:
            spot = f"{spot.upper()}:0"
        await self.bot.controller.typed(interaction, parse_deploy(spot))

    @follower.autocomplete("spot")
    async def follower_spot(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        game = await self._game(interaction)
        if game is None:
            return []
        typed = current.lower()
        return [
            app_commands.Choice(name=c.label, value=c.value)
            for c in deploy_choices(game)
            if typed in c.label.lower()
        ][:MAX_CHOICES]

    @app_commands.command(name="ark", description="Move the Ark 1 to 5 steps, e.g. NNE")
    @app_commands.describe(path="Letters N, E, S, W: one step each")
    @app_commands.guild_only()
    async def ark(self, interaction: discord.Interaction, path: str) -> None:
        await self.bot.controller.typed(interaction, MoveArk(path.strip().upper()))

    @ark.autocomplete("path")
    async def ark_path(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        record = await self.bot.service.game_in(interaction.channel_id)
        if record is None or record.status != "active":
            return []
        record, game = await self.bot.service.state(record.id)
        typed = current.strip().upper()
        names = names_of(record)
        return [
            app_commands.Choice(name=clip(f"{c.path}: {gains_text(c.points, names)}"), value=c.path)
            for c in ark_choices(game)
            if c.path.startswith(typed)
        ][:MAX_CHOICES]

    @app_commands.command(name="pass", description="End your turn without a follower or the Ark")
    @app_commands.guild_only()
    async def pass_(self, interaction: discord.Interaction) -> None:
        await self.bot.controller.typed(interaction, Pass())

    @app_commands.command(
        name="putark", description="Put the Ark on a tile of the city you completed"
    )
    @app_commands.guild_only()
    async def putark(self, interaction: discord.Interaction, square: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        record, game = await self.bot.controller.my_turn(interaction)
        try:
            x, y = grid(game).parse(square)
        except ValueError:
            raise Refusal("turn.no_such_square", square=square.strip().upper()) from None
        await self.bot.controller.act(interaction, record, game, PlaceArk(x, y), edit=False)

    @putark.autocomplete("square")
    async def putark_square(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        game = await self._game(interaction)
        if game is None:
            return []
        names = grid(game)
        return [
            app_commands.Choice(name=names.name(p), value=names.name(p)) for p in game.ark_choices
        ][:MAX_CHOICES]
