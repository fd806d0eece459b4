"""A tiny plain discord.py bot that proves the fake Discord (run as its own process).

It is not arkbot: it only exercises the protocol paths the real bot will use, so that a
failure in ``test_fake_discord.py`` points at the fake, not at the product.

Settings (tests only): ``ARKBOT_DISCORD_API`` is the REST base put into
``discord.http.Route.BASE``; ``ARKBOT_DISCORD_GATEWAY`` is the websocket URL put into
``DiscordWebSocket.DEFAULT_GATEWAY``. ``PROBE_GUILD_ID`` also syncs the commands to
that guild; ``PROBE_AUTOSHARD=1`` uses ``AutoShardedBot``, which finds the gateway
through ``GET /gateway/bot`` instead of DEFAULT_GATEWAY. The token is a dummy; the fake accepts any.
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import sys

import discord
import yarl
from discord import app_commands
from discord.ext import commands
from PIL import Image


def apply_test_endpoints() -> None:
    """Point discord.py at the loopback fake; must run before the client logs in."""
    api = os.environ.get("ARKBOT_DISCORD_API")
    gateway = os.environ.get("ARKBOT_DISCORD_GATEWAY")
    if api:
        discord.http.Route.BASE = api.rstrip("/")
    if gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


def tiny_png(color: tuple[int, int, int]) -> discord.File:
    """An 8x8 PNG made on the spot, so the test can decode what it received."""
    buf = io.BytesIO()
    Image.new("RGB", (8, 8), color).save(buf, format="PNG")
    buf.seek(0)
    return discord.File(buf, filename="probe.png", description="a probe square")


class PingView(discord.ui.View):
    """A button that edits its own message, and a select that answers ephemerally."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Again", custom_id="probe:again", style=discord.ButtonStyle.primary)
    async def again(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.edit_message(
            content=f"clicked by {interaction.user.name}", view=None
        )

    @discord.ui.select(
        custom_id="probe:pick",
        options=[
            discord.SelectOption(label="Red", value="red"),
            discord.SelectOption(label="Blue", value="blue"),
        ],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"picked {select.values[0]}", ephemeral=True)


class ProbeMixin:
    """Sync on start-up (global, plus the guild if asked) and say when ready."""

    tree: app_commands.CommandTree
    user: discord.ClientUser | None
    guilds: list[discord.Guild]

    async def setup_hook(self) -> None:
        await self.tree.sync()
        guild_id = os.environ.get("PROBE_GUILD_ID")
        if guild_id:
            guild = discord.Object(int(guild_id))
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)

    async def on_ready(self) -> None:
        # The test reads this from the log when something goes wrong.
        print(f"probe ready as {self.user} in {len(self.guilds)} guild(s)", flush=True)


class ProbeBot(ProbeMixin, commands.Bot):
    """The plain client: connects straight to DEFAULT_GATEWAY."""


class ShardedProbeBot(ProbeMixin, commands.AutoShardedBot):
    """The sharded client: asks GET /gateway/bot for the URL and shard count first."""


def build() -> commands.Bot:
    # A tiny guild_ready_timeout: the fake sends every GUILD_CREATE at once.
    cls = ShardedProbeBot if os.environ.get("PROBE_AUTOSHARD") else ProbeBot
    bot = cls(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.1)

    @bot.tree.command(name="ping", description="Answer with a picture and a button")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"pong for {interaction.user.name}", file=tiny_png((200, 30, 30)), view=PingView()
        )

    @bot.tree.command(name="echo", description="Say a word back")
    @app_commands.describe(word="the word")
    async def echo(interaction: discord.Interaction, word: str, times: int = 1) -> None:
        embed = discord.Embed(title="echo", description=" ".join([word] * times))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @echo.autocomplete("word")
    async def echo_words(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        words = ["ark", "covenant", "prophet", "temple"]
        return [app_commands.Choice(name=w, value=w) for w in words if w.startswith(current)]

    @bot.tree.command(name="slow", description="Defer, follow up, edit, post and DM")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.05)
        await interaction.followup.send("slow done", file=tiny_png((30, 30, 200)))
        await interaction.edit_original_response(content="slow done (edited)")
        channel_msg = await interaction.channel.send("a channel message")  # type: ignore[union-attr]
        await channel_msg.edit(content="a channel message (edited)")
        await interaction.user.send("a direct message")

    return bot


def main() -> None:
    logging.basicConfig(
        level=logging.INFO, stream=sys.stdout, format="%(levelname)s %(name)s: %(message)s"
    )
    apply_test_endpoints()
    build().run("probe-dummy-token", log_handler=None)


if __name__ == "__main__":
    main()
