"""``/moderate``: what moderators may do: end a game, remove or replace a player, settings.

A moderator has the Manage Channels permission or the role set with ``/moderate settings``.
Everyone else gets a clear, private refusal. The service logs every act with who did it.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_ui import Verbatim, say
from bot.i18n import LANGUAGES, Text, command_text, language_of
from bot.panels import Refusal
from bot.service.pace import HOUR_MS, PACES, pace_of
from bot.service.thinking import LEVELS
from bot.table import is_moderator

if TYPE_CHECKING:
    from bot.client import TableBot


def c(name: str) -> app_commands.locale_str:
    return command_text(f"table.mod_command.{name}")


def choice(name: str, value: str) -> app_commands.Choice[str]:
    return app_commands.Choice(name=command_text(f"table.choice.{name}"), value=value)


@app_commands.guild_only()
class Moderation(
    commands.GroupCog, group_name=c("group"), group_description=c("group_description")
):
    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        super().__init__()

    async def _require_moderator(self, interaction: discord.Interaction) -> None:
        settings = await self.bot.service.guild_settings(interaction.guild_id or 0)
        if not is_moderator(interaction.user, settings.moderator_role_id):
            raise Refusal("table.mod.not_moderator")

    async def _public(self, interaction: discord.Interaction) -> str:
        return await self.bot.table.public_language(interaction.guild_id)

    @app_commands.command(name=c("end"), description=c("end_description"))
    @app_commands.rename(reason=c("end_reason"))
    @app_commands.describe(reason=c("end_reason_description"))
    async def end(self, interaction: discord.Interaction, reason: str = "") -> None:
        # Check first: after a public defer, even a refusal would be shown to everyone.
        await self._require_moderator(interaction)
        await interaction.response.defer(thinking=True)
        record = await self.bot.service.moderation.end_game(
            interaction.channel_id or 0, interaction.user.id, moderator=True, reason=reason
        )
        language = await self._public(interaction)
        lines = [say(Text("table.mod.ended", moderator=interaction.user.display_name), language)]
        if reason:
            lines.append(say(Text("table.mod.reason", reason=reason[:500]), language))
        await interaction.followup.send(
            "\n".join(lines), allowed_mentions=discord.AllowedMentions.none()
        )
        await self.bot.table.announce_end(interaction.channel, record)

    @app_commands.command(name=c("remove"), description=c("remove_description"))
    @app_commands.rename(player=c("remove_player"))
    @app_commands.describe(player=c("remove_player_description"))
    async def remove(self, interaction: discord.Interaction, player: discord.Member) -> None:
        await self._require_moderator(interaction)
        await interaction.response.defer(thinking=True)
        result = await self.bot.service.moderation.remove_player(
            interaction.channel_id or 0, interaction.user.id, player.id, moderator=True
        )
        text = Text(
            "table.mod.removed",
            player=player.display_name,
            moderator=interaction.user.display_name,
        )
        await interaction.followup.send(
            say(text, await self._public(interaction)),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        if result.turns and result.state is not None:
            await self.bot.table.announce(
                interaction.channel, result.game, result.state, result.turns
            )

    @app_commands.command(name=c("replace"), description=c("replace_description"))
    @app_commands.rename(player=c("replace_player"), newcomer=c("replace_newcomer"))
    @app_commands.describe(
        player=c("replace_player_description"), newcomer=c("replace_newcomer_description")
    )
    async def replace(
        self, interaction: discord.Interaction, player: discord.Member, newcomer: discord.Member
    ) -> None:
        await self._require_moderator(interaction)
        await interaction.response.defer(thinking=True)
        await self.bot.service.moderation.hand_seat(
            interaction.channel_id or 0,
            interaction.user.id,
            newcomer.id,
            newcomer.display_name,
            moderator=True,
            from_user_id=player.id,
        )
        text = Text(
            "table.mod.replaced",
            player=player.display_name,
            newcomer=Verbatim(newcomer.mention),
        )
        await interaction.followup.send(
            say(text, await self._public(interaction)),
            allowed_mentions=discord.AllowedMentions(users=[newcomer], roles=False, everyone=False),
        )

    @app_commands.command(name=c("settings"), description=c("settings_description"))
    @app_commands.rename(
        pace=c("settings_pace"),
        timeout_action=c("settings_timeout_action"),
        moderator_role=c("settings_moderator_role"),
        language=c("settings_language"),
        lobby_hours=c("settings_lobby_hours"),
        timezone=c("settings_timezone"),
        quiet_from=c("settings_quiet_from"),
        quiet_until=c("settings_quiet_until"),
        threads=c("settings_threads"),
        stall_days=c("settings_stall_days"),
        computer_level=c("settings_computer_level"),
    )
    @app_commands.describe(
        pace=c("settings_pace_description"),
        timeout_action=c("settings_timeout_action_description"),
        moderator_role=c("settings_moderator_role_description"),
        language=c("settings_language_description"),
        lobby_hours=c("settings_lobby_hours_description"),
        timezone=c("settings_timezone_description"),
        quiet_from=c("settings_quiet_from_description"),
        quiet_until=c("settings_quiet_until_description"),
        threads=c("settings_threads_description"),
        stall_days=c("settings_stall_days_description"),
        computer_level=c("settings_computer_level_description"),
    )
    @app_commands.choices(
        pace=[choice(f"pace_{name}", name) for name in ("relaxed", "normal", "fast", "none")],
        timeout_action=[
            choice("computer", "computer"),
            choice("skip", "skip"),
            choice("notify", "notify"),
        ],
        language=[
            choice("language_server", "server"),
            *(choice(f"language_{code}", code) for code in LANGUAGES),
        ],
        threads=[choice("on", "on"), choice("off", "off")],
        computer_level=[
            app_commands.Choice(name=command_text(f"table.computer.{level}"), value=level)
            for level in LEVELS
        ],
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        pace: str | None = None,
        timeout_action: str | None = None,
        moderator_role: discord.Role | None = None,
        language: str | None = None,
        lobby_hours: app_commands.Range[float, 1.0, 720.0] | None = None,
        timezone: app_commands.Range[str, 1, 60] | None = None,
        quiet_from: app_commands.Range[int, 0, 23] | None = None,
        quiet_until: app_commands.Range[int, 0, 23] | None = None,
        threads: str | None = None,
        stall_days: app_commands.Range[float, 1.0, 365.0] | None = None,
        computer_level: str | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._require_moderator(interaction)
        changes: dict[str, object] = {}
        if pace is not None:
            changes["pace"] = pace
        if timeout_action is not None:
            changes["timeout_action"] = timeout_action
        if moderator_role is not None:
            changes["moderator_role_id"] = moderator_role.id
        if language is not None:
            changes["language"] = None if language == "server" else language
        if lobby_hours is not None:
            changes["lobby_expiry"] = timedelta(hours=lobby_hours)
        if timezone is not None:
            changes["timezone"] = timezone.strip()
        if quiet_from is not None:
            changes["quiet_start"] = quiet_from
        if quiet_until is not None:
            changes["quiet_end"] = quiet_until
        if threads is not None:
            changes["threads"] = threads == "on"
        if stall_days is not None:
            changes["stall_after"] = timedelta(days=stall_days)
        if computer_level is not None:
            changes["computer_level"] = computer_level
        new = await self.bot.service.set_guild_settings(
            interaction.guild_id or 0, interaction.user.id, moderator=True, **changes
        )
        role = (
            Verbatim(f"<@&{new.moderator_role_id}>")
            if new.moderator_role_id
            else Text("table.mod.no_role")
        )
        quiet = (
            Text("table.mod.quiet", start=new.quiet_start, end=new.quiet_end)
            if new.quiet_start != new.quiet_end
            else Text("table.mod.no_quiet")
        )
        text = Text(
            "table.mod.settings",
            pace=_pace_words(new.pace),
            action=Text(f"table.mod.action_{new.timeout_action}"),
            role=role,
            language=Text(f"table.choice.language_{new.language or 'server'}"),
            lobby=_amount(new.lobby_expiry.total_seconds() / 3600),
            timezone=new.timezone,
            quiet=quiet,
            threads=Text(f"table.choice.{'on' if new.threads else 'off'}"),
            stall=_amount(new.stall_after.total_seconds() / 86400),
            level=Text(f"table.computer.{new.computer_level}"),
        )
        await interaction.followup.send(
            say(text, language_of(interaction)),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(name=c("log"), description=c("log_description"))
    async def log(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._require_moderator(interaction)
        language = language_of(interaction)
        entries = await self.bot.service.moderation.log(interaction.guild_id or 0, limit=15)
        damaged = await self.bot.service.moderation.damaged_games(interaction.guild_id or 0)
        lines = [
            say(
                Text(
                    "table.mod.log_line",
                    when=Verbatim(discord.utils.format_dt(e.created_at, "R")),
                    moderator=Verbatim(f"<@{e.moderator_id}>"),
                    act=Text(f"table.mod.act_{e.act}"),
                    target=Verbatim(f"<@{e.target_user_id}>" if e.target_user_id else ""),
                ),
                language,
            )
            for e in entries
        ] or [say(Text("table.mod.log_empty"), language)]
        lines += [
            say(
                Text(
                    "table.mod.damaged",
                    channel=Verbatim(f"<#{g.channel_id}>"),
                    error=(g.error or "?")[:200],
                ),
                language,
            )
            for g in damaged
        ]
        await interaction.followup.send(
            "\n".join(lines)[:2000],
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )


def _amount(value: float) -> int | float:
    """A whole number without its ".0" (24 hours, not 24.0), else one decimal."""
    rounded = round(value, 1)
    return int(rounded) if rounded == int(rounded) else rounded


def _pace_words(name: str) -> Text:
    """A pace as the choices name it; a deployment's custom pace by its hours."""
    if name in PACES:
        return Text(f"table.choice.pace_{name}")
    pace = pace_of(name)
    assert pace is not None
    return Text(
        "table.mod.pace_custom",
        start=_amount(pace.start_ms / HOUR_MS),
        increment=_amount(pace.increment_ms / HOUR_MS),
        cap=_amount(pace.cap_ms / HOUR_MS),
    )
