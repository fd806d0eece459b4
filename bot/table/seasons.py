"""Seasons at the table: ``/moderate season new`` and ``end``, the sign-up message with Join
and Leave, each dealt table in a thread of its own with its members mentioned, the standings
picture when a round closes and the podium at the end, and ``/table season`` (privately).

The service (:mod:`bot.service.seasons`) decides and stores everything; this part says it.
A round's dealing runs in the background rounds (:meth:`tell_due`), which make a table's
thread when the service asks for one (:meth:`_make_home`)."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import discord

from bot import scheme
from bot.discord_ui import Mention, Verbatim, files, message_text, table_view
from bot.games import plugins
from bot.i18n import Text, language_of
from bot.panels import Picture, Refusal
from bot.pictures import Priority
from bot.service.models import Seat
from bot.service.season.dealing import SeatRange, best_sizes
from bot.service.season.records import SeasonRecord, Untold
from bot.service.seasons import (
    DAYS,
    DEFAULT_DAYS,
    DEFAULT_GAME,
    DEFAULT_ROUNDS,
    ROUNDS,
    SeasonNews,
    SeasonStandings,
)
from bot.table.common import Common, with_view
from bot.table.lobby import Seating, may_make_threads
from bot.table.posts import Announcer
from render.i18n import ListOf

#: What ``/moderate season new`` offers (the service's ranges and defaults).
__all__ = ["DAYS", "DEFAULT_DAYS", "DEFAULT_GAME", "DEFAULT_ROUNDS", "ROUNDS", "Seasons"]

log = logging.getLogger("arkbot.seasons")

#: The hour of the first day, in the server's time zone, at which round 1 is dealt: after
#: school, when the group looks at their phones.
FIRST_HOUR = 16


def closes_at(ms: int) -> Verbatim:
    """A moment as Discord shows it to each reader, in their own time zone and language."""
    return Verbatim(f"<t:{ms // 1000}:f>")


class Seasons:
    """Seasons in a channel (see the module)."""

    def __init__(self, common: Common, posts: Announcer, lobby: Seating) -> None:
        self.common = common
        self.posts = posts
        self.lobby = lobby

    # ================================================================ moderators

    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        length: str | None,
        rounds: int,
        days: int,
        first_day: str | None,
    ) -> None:
        """``/moderate season new``: the season, and its sign-up message in the channel."""
        common = self.common
        if not await common.moderator(interaction):
            raise Refusal("table.mod.not_moderator")
        chosen = plugins().get(game)
        if chosen is None:
            raise Refusal("table.lobby.no_such_game")
        channel = interaction.channel
        if isinstance(channel, discord.Thread) or not isinstance(channel, discord.TextChannel):
            raise Refusal("table.season.not_here")
        if not may_make_threads(channel):
            raise Refusal("table.season.no_threads")
        settings = await common.service.recent_guild_settings(interaction.guild_id or 0)
        first_ms = _first_ms(first_day, settings.zone()) if first_day else None
        options: dict[str, Any] | None = None
        if length is not None:
            if "length" not in {option.name for option in chosen.front.table_options}:
                raise Refusal("table.season.no_length")
            options = {"length": length}
        await interaction.response.defer(thinking=True)
        season = await common.service.seasons.create(
            interaction.guild_id or 0,
            channel.id,
            interaction.user.id,
            moderator=True,
            game_name=game,
            options=options,
            rounds=rounds,
            days=days,
            first_ms=first_ms,
        )
        interaction.extras["changed"] = True
        text, view = await self._signup(season)
        message = await interaction.followup.send(
            text, allowed_mentions=discord.AllowedMentions.none(), wait=True, **with_view(view)
        )
        await common.service.seasons.set_message(season.id, message.id)

    async def end(self, interaction: discord.Interaction) -> None:
        """``/moderate season end``: the season ends now; the podium is posted."""
        common = self.common
        if not await common.moderator(interaction):
            raise Refusal("table.mod.not_moderator")
        season = await common.service.seasons.current(interaction.channel_id or 0)
        if season is None:
            raise Refusal("table.error.no_season")
        await interaction.response.defer(thinking=True)
        news = await common.service.seasons.end(season.id, interaction.user.id, moderator=True)
        interaction.extras["changed"] = True
        language = await common.public_language(interaction.guild_id)
        said = Text("table.season.ended", moderator=interaction.user.display_name)
        await interaction.followup.send(
            message_text(said, language), allowed_mentions=discord.AllowedMentions.none()
        )
        await self._tell(news)

    # ================================================================ members

    async def act(self, interaction: discord.Interaction, op: str, season_id: int) -> None:
        """Join or Leave on the sign-up message: said privately, the message updated."""
        common = self.common
        await interaction.response.defer(ephemeral=True, thinking=True)
        language = language_of(interaction)
        user = interaction.user
        if op == "join":
            member = await common.service.seasons.join(season_id, user.id, user.display_name)
            said = Text("table.season.joined", round=member.joined)
        else:
            taken = await common.service.seasons.leave(season_id, user.id)
            said = Text("table.season.left")
            for result in taken:
                home = await self.posts.home_channel(result.record)
                if result.turns and result.state is not None:
                    await self.posts.announce_result(home, result)
        interaction.extras["changed"] = True
        await interaction.followup.send(message_text(said, language), ephemeral=True)
        season = await common.service.seasons.get(season_id)
        await self._update_signup(season)

    async def standings(self, interaction: discord.Interaction) -> None:
        """``/table season``: the channel's season standings, privately, in the reader's
        language (in a table's thread: its channel's season)."""
        common = self.common
        await interaction.response.defer(ephemeral=True, thinking=True)
        channel = interaction.channel
        if isinstance(channel, discord.Thread):
            channel_id = channel.parent_id
        else:
            channel_id = interaction.channel_id or 0
        season = await common.service.seasons.current(channel_id)
        if season is None:
            raise Refusal("table.error.no_season")
        table = await common.service.seasons.standings(season.id)
        if not table.lines:
            raise Refusal("table.season.nobody")
        language = language_of(interaction)
        drawn = await common.host.pictures.draw_all(
            [_standings_picture(table, language, over=False)], language, priority=Priority.ASKED
        )
        await interaction.followup.send(
            message_text(_heading(table), language),
            files=files(drawn),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    # ================================================================ background

    async def tell_due(self) -> int:
        """Step every season that has something due (this process's shards), and tell what
        happened, then what is still owed from before (the bot stopped between a step and
        its post, or Discord refused it); how many pieces of news were told."""
        told = 0
        seasons = self.common.service.seasons
        for season in await seasons.due():
            for news in await seasons.step(season.id, self._make_home):
                await self._tell(news)
                told += 1
            for post in (await seasons.get(season.id)).untold:
                try:
                    told += await self._say(season.id, post)
                except (discord.NotFound, discord.Forbidden):
                    # Its thread or channel is gone, or closed to the bot: it can never be
                    # said, and is not tried again every round.
                    log.warning("season %s cannot post %s: dropped", season.id, post)
                    await seasons.told(season.id, post)
                except discord.HTTPException:
                    log.info("season %s could not post %s: tried next round", season.id, post)
        return told

    async def _make_home(
        self, season: SeasonRecord, round_number: int, table: int, seats: Sequence[Seat]
    ) -> int:
        """A dealt table's thread, on a line in the season's channel naming its players."""
        channel = await self.common.channel(season.channel_id)
        language = await self.common.public_language(season.guild_id)
        names = ListOf(tuple(s.name for s in seats), "standard")
        line = Text("table.season.table", round=round_number, table=table + 1, players=names)
        opening = await channel.send(
            message_text(line, language), allowed_mentions=discord.AllowedMentions.none()
        )
        name = message_text(
            Text("table.season.thread", round=round_number, table=table + 1), language
        )
        thread = await opening.create_thread(name=name[:100], auto_archive_duration=10080)
        return int(thread.id)

    async def _tell(self, news: SeasonNews) -> None:
        """Say one piece of a season's news where it belongs: what it owes through
        :meth:`_say` (once, also across a restart), a dealt table's first board after its
        hello (a board left unposted comes back through the missed posts)."""
        common = self.common
        season = news.season
        if news.kind == "dealt":
            await self._update_signup(season)
            if news.problem is not None:
                language = await common.public_language(season.guild_id)
                channel = await common.channel(season.channel_id)
                rules = common.service.core.game_rules(season.game_name)
                fewest = min(best_sizes(SeatRange(rules.min_players, rules.max_players)))
                key = f"season.round.{news.problem}"
                said = Text(key, count=len(news.unseated), fewest=fewest)
                await channel.send(message_text(said, language))
            for record in news.games:
                await self._say(season.id, f"hello.{news.round_number}.{record.id}")
                await self.lobby.begin(await common.channel(record.home), record)
            return
        if news.kind == "over":
            await self._update_signup(season)
        await self._say(season.id, f"{news.kind}.{news.round_number}")

    async def _say(self, season_id: int, post: Untold) -> int:
        """Post what the season owes (see :data:`~bot.service.season.records.Untold`) if
        it still owes it, under a nonce of its own (posted again before it was marked told,
        Discord gives back the first message), and mark it told; 1 if it was owed."""
        common = self.common
        season = await common.service.seasons.get(season_id)
        if post not in season.untold:
            return 0
        language = await common.public_language(season.guild_id)
        kind, _, rest = post.partition(".")
        nonce = f"s{season.id}.{post}"[-25:]
        if kind == "hello":
            round_text, _, game_text = rest.partition(".")
            round_number = int(round_text)
            record = await common.service.play.get_game(int(game_text))
            thread = await common.channel(record.home)
            people = tuple(Mention(s.user_id) for s in record.seats if s.user_id is not None)
            hello = Text(
                "table.season.hello",
                players=ListOf(people, "standard"),
                round=round_number,
                rounds=season.rounds,
                closes=closes_at(season.starts_ms(round_number + 1)),
            )
            await thread.send(
                message_text(hello, language),
                nonce=nonce,
                allowed_mentions=discord.AllowedMentions(users=True),
            )
        else:
            round_number = int(rest)
            over = kind == "over"
            table = await common.service.seasons.standings(
                season.id, None if over else round_number
            )
            drawn = await common.host.pictures.draw_all(
                [_standings_picture(table, language, over=over, round_number=round_number)],
                language,
                priority=Priority.WAITED,
            )
            key = "table.season.over" if over else "table.season.closed"
            channel = await common.channel(season.channel_id)
            await channel.send(
                message_text(Text(key, round=round_number), language),
                files=files(drawn),
                nonce=nonce,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        await common.service.seasons.told(season.id, post)
        return 1

    # ================================================================ the sign-up message

    async def _signup(self, season: SeasonRecord) -> tuple[str, discord.ui.View | None]:
        """The sign-up message's text and its Join and Leave buttons (none once over)."""
        common = self.common
        language = await common.public_language(season.guild_id)
        members = await common.service.seasons.members(season.id)
        chosen = plugins()[season.game_name]
        lines = [
            Text(
                "table.season.signup",
                game=chosen.front.title(),
                rounds=season.rounds,
                days=season.days,
            )
        ]
        options = chosen.front.options_line(season.options)
        if options is not None:
            lines.append(options)
        if season.status == "signup":
            lines.append(Text("table.season.closes", closes=closes_at(season.first_ms)))
        elif season.status == "running":
            lines.append(
                Text("table.season.running", round=max(1, season.dealt), rounds=season.rounds)
            )
        else:
            lines.append(Text("table.season.finished"))
        present = [m.name for m in members if m.left is None]
        lines.append(Text("table.season.members", count=len(present), names=ListOf(tuple(present))))
        text = "\n".join(message_text(line, language) for line in lines)
        if season.status == "over":
            return text, None
        view = table_view(
            (scheme.season_id(season.id, "join"), Text("table.button.join"), "success", None),
            (scheme.season_id(season.id, "leave"), Text("table.button.leave"), "secondary", None),
            language=language,
        )
        return text, view

    async def _update_signup(self, season: SeasonRecord) -> None:
        """Edit the sign-up message to say the season as it is now (who is in, its round)."""
        if season.message_id is None:
            return
        text, view = await self._signup(season)
        try:
            channel = await self.common.channel(season.channel_id)
            await channel.get_partial_message(season.message_id).edit(
                content=text, view=view, allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException:
            log.info("could not update the sign-up message of season %s", season.id)


def _standings_picture(
    table: SeasonStandings, language: str, *, over: bool, round_number: int | None = None
) -> Picture:
    """The standings (or, at the end, the podium) as a picture for the workers to draw
    (the game's name said in ``language``: a picture's arguments are plain values)."""
    season = table.season
    title = message_text(plugins()[season.game_name].front.title(), language)
    rows = [line.picture_row() for line in table.lines]
    if over:
        return Picture(
            "render.season:podium",
            (title, rows, {"rounds": table.rounds}),
            "season.png",
            Text("table.season.picture_alt"),
        )
    after = round_number if round_number is not None else max(season.closed, 1)
    options: Mapping[str, int] = {
        "round_number": min(after, table.rounds),
        "rounds": season.rounds,
        "playing": table.playing,
    }
    return Picture(
        "render.season:standings",
        (title, rows, dict(options)),
        "season.png",
        Text("table.season.picture_alt"),
    )


def _heading(table: SeasonStandings) -> Text:
    return Text(
        "table.season.standings",
        game=plugins()[table.season.game_name].front.title(),
        round=max(table.season.closed, table.season.dealt, 1),
        rounds=table.season.rounds,
    )


def _first_ms(first_day: str, zone: str) -> int:
    """``YYYY-MM-DD`` at :data:`FIRST_HOUR` in the server's time zone, in ms."""
    try:
        day = datetime.strptime(first_day.strip(), "%Y-%m-%d")
    except ValueError:
        raise Refusal("table.season.bad_day", day=first_day[:20]) from None
    moment = day.replace(hour=FIRST_HOUR, tzinfo=ZoneInfo(zone))
    return int(moment.timestamp() * 1000)
