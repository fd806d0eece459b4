"""``/moderate``: what moderators may do: end a game, remove or replace a player, settings,
and a season for the whole group (``/moderate season new`` and ``end``).

This declares the commands (names, options and their choices, each in every language) and
hands them to the table (:mod:`bot.table.moderation`), which checks the user moderates the
server and acts.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import plugins
from bot.i18n import LANGUAGES, command_text
from bot.table import LEVELS, Table
from bot.table.seasons import DAYS, DEFAULT_DAYS, DEFAULT_GAME, DEFAULT_ROUNDS, ROUNDS


def c(name: str) -> app_commands.locale_str:
    return command_text(f"table.mod_command.{name}")


def choice(name: str, value: str) -> app_commands.Choice[str]:
    return app_commands.Choice(name=command_text(f"table.choice.{name}"), value=value)


@app_commands.guild_only()
class Moderation(
    commands.GroupCog, group_name=c("group"), group_description=c("group_description")
):
    #: ``/moderate season``: a season for the whole group (:mod:`bot.table.seasons`).
    season = app_commands.Group(name=c("season"), description=c("season_description"))

    def __init__(self, table: Table) -> None:
        self.table = table
        super().__init__()
        # The games are the plugins known when the bot starts, as for /table new.
        games = [
            app_commands.Choice(name=command_text(p.front.title().key), value=name)
            for name, p in plugins().items()
            if p.front.ready
        ]
        for command in self.walk_app_commands():
            if (
                isinstance(command, app_commands.Command)
                and command.callback == Moderation.season_new.callback
            ):
                command._params["game"].choices = games  # type: ignore[assignment]

    @app_commands.command(name=c("end"), description=c("end_description"))
    @app_commands.rename(reason=c("end_reason"))
    @app_commands.describe(reason=c("end_reason_description"))
    async def end(self, interaction: discord.Interaction, reason: str = "") -> None:
        await self.table.moderation.end(interaction, reason)

    @app_commands.command(name=c("remove"), description=c("remove_description"))
    @app_commands.rename(player=c("remove_player"))
    @app_commands.describe(player=c("remove_player_description"))
    async def remove(self, interaction: discord.Interaction, player: discord.Member) -> None:
        await self.table.moderation.remove(interaction, player)

    @app_commands.command(name=c("replace"), description=c("replace_description"))
    @app_commands.rename(player=c("replace_player"), newcomer=c("replace_newcomer"))
    @app_commands.describe(
        player=c("replace_player_description"), newcomer=c("replace_newcomer_description")
    )
    async def replace(
        self, interaction: discord.Interaction, player: discord.Member, newcomer: discord.Member
    ) -> None:
        await self.table.moderation.replace(interaction, player, newcomer)

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
        busy_from=c("settings_busy_from"),
        busy_until=c("settings_busy_until"),
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
        busy_from=c("settings_busy_from_description"),
        busy_until=c("settings_busy_until_description"),
        threads=c("settings_threads_description"),
        stall_days=c("settings_stall_days_description"),
        computer_level=c("settings_computer_level_description"),
    )
    @app_commands.choices(
        pace=[
            choice(f"pace_{name}", name) for name in ("relaxed", "normal", "fast", "week", "none")
        ],
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
        busy_from: app_commands.Range[int, 0, 23] | None = None,
        busy_until: app_commands.Range[int, 0, 23] | None = None,
        threads: str | None = None,
        stall_days: app_commands.Range[float, 1.0, 365.0] | None = None,
        computer_level: str | None = None,
    ) -> None:
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
            changes["lobby_hours"] = lobby_hours  # the service checks it, then makes it a duration
        if timezone is not None:
            changes["timezone"] = timezone.strip()
        if quiet_from is not None:
            changes["quiet_start"] = quiet_from
        if quiet_until is not None:
            changes["quiet_end"] = quiet_until
        if busy_from is not None:
            changes["busy_start"] = busy_from
        if busy_until is not None:
            changes["busy_end"] = busy_until
        if threads is not None:
            changes["threads"] = threads  # "on" or "off": the service refuses anything else
        if stall_days is not None:
            changes["stall_days"] = stall_days
        if computer_level is not None:
            changes["computer_level"] = computer_level
        await self.table.moderation.settings(interaction, changes)

    @settings.autocomplete("timezone")
    async def timezone_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Time zones holding what was typed, the server's likeliest first."""
        return await self.table.moderation.zone_choices(interaction, current)

    @app_commands.command(name=c("log"), description=c("log_description"))
    async def log(self, interaction: discord.Interaction) -> None:
        await self.table.moderation.log(interaction)

    @season.command(name=c("season_new"), description=c("season_new_description"))
    @app_commands.rename(
        game=c("season_game"),
        length=c("season_length"),
        rounds=c("season_rounds"),
        days=c("season_days"),
        first_day=c("season_first_day"),
    )
    @app_commands.describe(
        game=c("season_game_description"),
        length=c("season_length_description"),
        rounds=c("season_rounds_description"),
        days=c("season_days_description"),
        first_day=c("season_first_day_description"),
    )
    @app_commands.choices(
        length=[choice(f"length_{name}", name) for name in ("short", "medium", "full")]
    )
    async def season_new(
        self,
        interaction: discord.Interaction,
        game: str = DEFAULT_GAME,
        length: str | None = None,
        rounds: app_commands.Range[int, ROUNDS[0], ROUNDS[-1]] = DEFAULT_ROUNDS,
        days: app_commands.Range[int, DAYS[0], DAYS[-1]] = DEFAULT_DAYS,
        first_day: app_commands.Range[str, 1, 20] | None = None,
    ) -> None:
        await self.table.seasons.new(interaction, game, length, rounds, days, first_day)

    @season.command(name=c("season_end"), description=c("season_end_description"))
    async def season_end(self, interaction: discord.Interaction) -> None:
        await self.table.seasons.end(interaction)
