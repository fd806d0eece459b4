"""What moderators may do at a table: end a game, remove or replace a player, change the
server's settings, read the log. The ``/moderate`` commands (:mod:`bot.cogs.moderation`)
only declare the commands and hand them here.

A moderator has the Manage Channels permission or the role set with ``/moderate settings``;
everyone else gets a clear, private refusal. The service logs every act with who did it.
"""

from __future__ import annotations

from collections.abc import Mapping

import discord
from discord import app_commands

from bot.discord_ui import Verbatim, message_text
from bot.i18n import Text, amount, language_of
from bot.panels import Refusal
from bot.service.pace import HOUR_MS, PACES, pace_of
from bot.service.zones import better_locale, likely_zone_of, matching_zones
from bot.table.common import Common
from bot.table.lobby import locale_of
from bot.table.posts import Announcer


def pace_words(name: str) -> Text:
    """A pace as the choices name it; a deployment's custom pace by its hours."""
    if name in PACES:
        return Text(f"table.choice.pace_{name}")
    pace = pace_of(name)
    assert pace is not None
    return Text(
        "table.mod.pace_custom",
        start=amount(pace.start_ms / HOUR_MS),
        increment=amount(pace.increment_ms / HOUR_MS),
        cap=amount(pace.cap_ms / HOUR_MS),
    )


class Moderating:
    """The moderators' acts, each checked first."""

    def __init__(self, common: Common, posts: Announcer) -> None:
        self.common = common
        self.posts = posts

    async def require_moderator(self, interaction: discord.Interaction) -> None:
        if not await self.common.moderator(interaction):
            raise Refusal("table.mod.not_moderator")

    async def end(self, interaction: discord.Interaction, reason: str) -> None:
        # Check first: after a public defer, even a refusal would be shown to everyone.
        await self.require_moderator(interaction)
        await interaction.response.defer(thinking=True)
        record = await self.common.service.moderation.end_game(
            interaction.channel_id or 0, interaction.user.id, moderator=True, reason=reason
        )
        interaction.extras["changed"] = True  # whatever fails now, the game has ended
        language = await self.common.public_language(interaction.guild_id)
        lines = [
            message_text(Text("table.mod.ended", moderator=interaction.user.display_name), language)
        ]
        if reason:
            lines.append(message_text(Text("table.mod.reason", reason=reason[:500]), language))
        await interaction.followup.send(
            "\n".join(lines), allowed_mentions=discord.AllowedMentions.none()
        )
        await self.posts.announce_end(interaction.channel, record)

    async def remove(self, interaction: discord.Interaction, player: discord.Member) -> None:
        await self.require_moderator(interaction)
        await interaction.response.defer(thinking=True)
        result = await self.common.service.moderation.remove_player(
            interaction.channel_id or 0, interaction.user.id, player.id, moderator=True
        )
        interaction.extras["changed"] = True
        text = Text(
            "table.mod.removed",
            player=player.display_name,
            moderator=interaction.user.display_name,
        )
        await interaction.followup.send(
            message_text(text, await self.common.public_language(interaction.guild_id)),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        if result.turns and result.state is not None:
            await self.posts.announce_result(interaction.channel, result)

    async def replace(
        self, interaction: discord.Interaction, player: discord.Member, newcomer: discord.Member
    ) -> None:
        await self.require_moderator(interaction)
        await interaction.response.defer(thinking=True)
        await self.common.service.moderation.hand_seat(
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
            message_text(text, await self.common.public_language(interaction.guild_id)),
            allowed_mentions=discord.AllowedMentions(users=[newcomer], roles=False, everyone=False),
        )

    async def settings(
        self, interaction: discord.Interaction, changes: Mapping[str, object]
    ) -> None:
        """Change the server's settings (``changes`` as the service names them) and show them
        all as they now are; a change is said to apply at once, which it does in this
        process (the one that serves the server), but for the pace and the threads, which a
        game takes when it starts."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.require_moderator(interaction)
        new = await self.common.service.set_guild_settings(
            interaction.guild_id or 0, interaction.user.id, moderator=True, **changes
        )
        # Kept once the command is accepted (a refused one changes nothing): where the
        # server most likely is, for its quiet hours until a moderator sets the zone.
        await self.common.service.note_locale(
            interaction.guild_id or 0,
            locale_of(interaction.guild_locale),
            locale_of(interaction.locale),
        )
        new = await self.common.service.recent_guild_settings(interaction.guild_id or 0)
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
        busy_from, busy_until = new.busy_hours()
        busy = (
            Text("table.mod.busy", start=busy_from, end=busy_until)
            if busy_from != busy_until
            else Text("table.mod.no_busy")
        )
        zone = (
            Text("table.mod.zone_guessed", zone=new.zone()) if new.timezone is None else new.zone()
        )
        # The week clock stops in the quiet hours: say which there are (none: it never does).
        hours = new.quiet_hours()
        stops = {(True, True): "both", (True, False): "night", (False, True): "school"}.get(
            (hours.has_night, hours.has_busy), "never"
        )
        text = Text(
            "table.mod.settings",
            pace=Text("table.mod.pace_week", stops=stops)
            if new.pace == "week"
            else pace_words(new.pace),
            action=Text(f"table.mod.action_{new.timeout_action}"),
            role=role,
            language=Text(f"table.choice.language_{new.language or 'server'}"),
            lobby=amount(new.lobby_expiry.total_seconds() / 3600),
            timezone=zone,
            quiet=quiet,
            busy=busy,
            threads=Text(f"table.choice.{'on' if new.threads else 'off'}"),
            stall=amount(new.stall_after.total_seconds() / 86400),
            level=Text(f"table.computer.{new.computer_level}"),
        )
        language = language_of(interaction)
        said = message_text(text, language)
        if changes:
            later = {"pace", "threads"} & changes.keys()
            applied = Text(f"table.mod.{'applied_later' if later else 'applied'}")
            said = f"{message_text(applied, language)}\n{said}"
        await interaction.followup.send(
            said,
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def zone_choices(
        self, interaction: discord.Interaction, typed: str
    ) -> list[app_commands.Choice[str]]:
        """The time zones an autocomplete offers for ``typed``: the one the server's
        settings use (chosen, or guessed from its language) first when it matches."""
        settings = await self.common.service.recent_guild_settings(interaction.guild_id or 0)
        locale = better_locale(
            settings.locale, locale_of(interaction.guild_locale), locale_of(interaction.locale)
        )
        guess = settings.timezone or likely_zone_of(settings.language, locale)
        return [app_commands.Choice(name=zone, value=zone) for zone in matching_zones(typed, guess)]

    async def log(self, interaction: discord.Interaction) -> None:
        """The server's last moderation acts, and its damaged games."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.require_moderator(interaction)
        language = language_of(interaction)
        service = self.common.service
        entries = await service.moderation.log(interaction.guild_id or 0, limit=15)
        damaged = await service.moderation.damaged_games(interaction.guild_id or 0)
        lines = [
            message_text(
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
        ] or [message_text(Text("table.mod.log_empty"), language)]
        lines += [
            message_text(
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
