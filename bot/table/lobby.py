"""The lobby: a table is opened, players join and leave, computers sit down, the options are
chosen, the game starts (in a thread of its own when the server plays in threads), a player
leaves a started game for good, and the same people play again.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from typing import Any

import discord

from bot import scheme
from bot.discord_ui import Verbatim, clip, message_text, table_view
from bot.games import plugins
from bot.i18n import ListOf, Text, language_of
from bot.panels import Refusal
from bot.service import GameRecord, Seat
from bot.service.thinking import LEVELS
from bot.table.common import Common
from bot.table.lobby_message import lobby_text
from bot.table.posts import Announcer

log = logging.getLogger("arkbot.table")

#: Joining and leaving one lobby: at most this many times per user in :data:`CHURN_WINDOW`.
#: Each time edits the lobby's public message; beyond that the clicks are refused privately
#: (refused rather than coalesced: a refusal is said at once and needs no delayed edit that
#: could outlive the lobby, and nobody at a youth group's table joins five times a minute).
CHURN_LIMIT = 5
CHURN_WINDOW = 60.0


def locale_of(locale: discord.Locale | None) -> str | None:
    """A Discord locale's code ("es-ES"), or None."""
    return locale.value if locale is not None else None


def _bot_may(channel: Any, *permissions: str) -> bool:
    """Whether the bot has every one of ``permissions`` in ``channel`` (when it can tell)."""
    guild = getattr(channel, "guild", None)
    me = getattr(guild, "me", None)
    if me is None or not hasattr(channel, "permissions_for"):
        return False
    have = channel.permissions_for(me)
    return all(getattr(have, name) for name in permissions)


def may_make_threads(channel: Any) -> bool:
    """Whether the bot may open a thread in ``channel`` and write there (when it can tell)."""
    return _bot_may(channel, "create_public_threads", "send_messages_in_threads")


def may_make_private_threads(channel: Any) -> bool:
    """Whether the bot may open a private thread in ``channel`` and write there."""
    return _bot_may(channel, "create_private_threads", "send_messages_in_threads")


def saying(texts: Sequence[Text], language: str) -> str:
    """Texts said one after the other in one message."""
    return " ".join(message_text(text, language) for text in texts)


class Seating:
    """Everything before a game's first move, and leaving it."""

    def __init__(self, common: Common, posts: Announcer) -> None:
        self.common = common
        self.posts = posts
        #: (game, user) -> when they joined or left it lately (seconds, service clock).
        self._churn: dict[tuple[int, int], list[float]] = {}

    def _check_churn(self, game_id: int, user_id: int) -> None:
        """Refuse a join or leave beyond :data:`CHURN_LIMIT` in :data:`CHURN_WINDOW`."""
        now = self.common.service.clock.now().timestamp()
        if len(self._churn) > 1000:  # forget who has been quiet for a while
            self._churn = {k: v for k, v in self._churn.items() if v and v[-1] > now - CHURN_WINDOW}
        recent = [t for t in self._churn.get((game_id, user_id), ()) if t > now - CHURN_WINDOW]
        self._churn[(game_id, user_id)] = recent
        if len(recent) >= CHURN_LIMIT:
            wait = recent[0] + CHURN_WINDOW - now
            raise Refusal("table.lobby.churn", seconds=max(1, math.ceil(wait)))

    def _churned(self, game_id: int, user_id: int) -> None:
        now = self.common.service.clock.now().timestamp()
        self._churn.setdefault((game_id, user_id), []).append(now)

    async def new_table(
        self, interaction: discord.Interaction, game: str, *, shuffle: bool
    ) -> None:
        # Deferred privately first: the answer comes in time however slow the database is,
        # and a refusal ("there is already a game here") stays private. The lobby itself is
        # a message of its own in the channel.
        await interaction.response.defer(ephemeral=True, thinking=True)
        chosen = plugins().get(game)
        if chosen is None or not chosen.front.ready:
            raise Refusal("table.lobby.no_such_game")
        user = interaction.user
        record = await self.common.service.lobby.create_game(
            interaction.guild_id or 0,
            interaction.channel_id or 0,
            user.id,
            user.display_name,
            game,
            {},
            shuffle_seats=shuffle,
            # Where the server most likely is, for its quiet hours until a moderator says.
            locale=(locale_of(interaction.guild_locale), locale_of(interaction.locale)),
        )
        self.common.host.pictures.expect()  # its first board is a start away
        problem = await self.posts.post_lobby(interaction.channel, record)
        if problem is None:
            await interaction.delete_original_response()
        else:  # the table is open all the same: say so, and why nobody can see it
            said = saying((Text("table.lobby.opened"), problem), language_of(interaction))
            await interaction.followup.send(said, ephemeral=True)

    async def act(
        self,
        interaction: discord.Interaction,
        op: str,
        game_id: int | None = None,
        values: Sequence[str] = (),
    ) -> None:
        """Join, leave or start, add or remove a computer player, from a lobby button or
        menu (``game_id`` given) or a command."""
        common = self.common
        service = common.service
        from_button = game_id is not None
        if from_button:
            # Deferring a button's update keeps later refusals private (as follow-ups).
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        channel_id = interaction.channel_id or 0
        current = await service.play.game_in(channel_id)
        if from_button and (current is None or current.id != game_id or current.status != "lobby"):
            raise Refusal("table.lobby.gone")
        if op == "leave" and current is not None and current.status == "active":
            if current.practice is not None and current.creator_id == interaction.user.id:
                await self.stop_practice(interaction, current)
            else:
                await self.confirm_leaving(interaction, current)
            return
        user = interaction.user
        if op in ("join", "leave") and current is not None:
            self._check_churn(current.id, user.id)
        if op == "join":
            record = await service.lobby.join(channel_id, user.id, user.display_name)
        elif op == "leave":
            record = await service.lobby.leave(channel_id, user.id)
        elif op in ("bot", "unbot"):
            moderator = await common.moderator(interaction)
            if current is not None and current.creator_id != user.id and not moderator:
                creator = current.seat_of(current.creator_id)
                raise Refusal(
                    "table.computer.only_creator", creator=creator.name if creator else "?"
                )
            if op == "unbot":
                record = await service.lobby.remove_computer(
                    channel_id, user.id, moderator=moderator
                )
            elif values and values[0] in LEVELS:
                record = await service.lobby.add_computer(
                    channel_id, user.id, values[0], moderator=moderator
                )
            else:
                raise Refusal("table.error.unknown_control")
        else:
            moderator = await common.moderator(interaction)
            in_lobby = current is not None and current.status == "lobby"
            if current is not None and in_lobby and current.creator_id != user.id and not moderator:
                creator = current.seat_of(current.creator_id)
                raise Refusal("table.lobby.only_creator", creator=creator.name if creator else "?")
            record = await service.lobby.start(channel_id, user.id, moderator=moderator)
        if op in ("join", "leave"):
            self._churned(record.id, user.id)
        if from_button:
            language = await common.game_language(record)
            content, view = await lobby_text(common, record, language)
            await interaction.edit_original_response(
                content=content, view=view, allowed_mentions=discord.AllowedMentions.none()
            )
        else:
            # A typed join updates the lobby's own message; the user hears it privately, and
            # hears it truly: what they did is done even when Discord refuses the message.
            problem = await self.posts.post_lobby(interaction.channel, record)
            done = (Text(f"table.lobby.you_{op}"),) + ((problem,) if problem else ())
            await interaction.followup.send(saying(done, language_of(interaction)), ephemeral=True)
        if op == "start":
            await self.begin(interaction.channel, record)

    async def set_option(
        self, interaction: discord.Interaction, game_id: int, option: str, values: Sequence[str]
    ) -> None:
        """The lobby's creator (or a moderator) chose a table option in its menu."""
        common = self.common
        await interaction.response.defer()
        current = await common.service.play.game_in(interaction.channel_id or 0)
        if current is None or current.id != game_id or current.status != "lobby":
            raise Refusal("table.lobby.gone")
        moderator = await common.moderator(interaction)
        if current.creator_id != interaction.user.id and not moderator:
            creator = current.seat_of(current.creator_id)
            raise Refusal(
                "table.lobby.only_creator_options", creator=creator.name if creator else "?"
            )
        if not values:
            raise Refusal("table.error.unknown_control")
        record = await common.service.lobby.set_options(
            current.channel_id, interaction.user.id, {option: values[0]}, moderator=moderator
        )
        language = await common.game_language(record)
        content, view = await lobby_text(common, record, language)
        await interaction.edit_original_response(
            content=content, view=view, allowed_mentions=discord.AllowedMentions.none()
        )

    async def stop_practice(self, interaction: discord.Interaction, record: GameRecord) -> None:
        """The learner leaves their practice game: it simply ends (nobody else plays in it)."""
        ended = await self.common.service.moderation.end_game(
            record.channel_id, interaction.user.id, moderator=False, reason="practice stopped"
        )
        interaction.extras["changed"] = True
        await self.posts.announce_end(interaction.channel, ended)
        said = message_text(Text("table.learn.stopped"), language_of(interaction))
        await interaction.followup.send(said, ephemeral=True)

    async def confirm_leaving(self, interaction: discord.Interaction, record: GameRecord) -> None:
        """Leaving a started game is for good: ask first, privately."""
        self.common.may_act(record, interaction.user.id, need_turn=False)
        language = language_of(interaction)
        view = table_view(
            (scheme.control_id(record.id, 0, "table_leave", (), menu=False, who="seat"),
             Text("table.button.leave_game"), "danger", None),
            language=language,
        )  # fmt: skip
        title = self.common.plugin(record).front.title()
        await interaction.followup.send(
            message_text(Text("table.leave.confirm", game=title), language),
            view=view,
            ephemeral=True,
        )

    async def leave_game(self, interaction: discord.Interaction, record: GameRecord) -> None:
        """The player confirmed: a computer takes the seat; everyone is told."""
        common = self.common
        result = await common.service.moderation.leave_game(record.channel_id, interaction.user.id)
        language = await common.game_language(record)
        channel = interaction.channel
        assert isinstance(channel, discord.abc.Messageable)  # pressed on a post in a channel
        await channel.send(
            message_text(Text("table.leave.left", player=interaction.user.display_name), language),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        if result.turns and result.state is not None:
            await self.posts.announce_result(interaction.channel, result)
        await interaction.edit_original_response(
            content=message_text(Text("table.leave.done"), language_of(interaction)), view=None
        )

    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """The result's Rematch button: a lobby with the one who asked seated, posted in
        the channel, and the last game's other players invited by name (mentioned once,
        below it): each is seated only when they press Join."""
        common = self.common
        await interaction.response.defer(ephemeral=True, thinking=True)
        old = await common.service.play.get_game(game_id)
        if old.channel_id != interaction.channel_id and old.home != interaction.channel_id:
            raise Refusal("table.error.unknown_control")
        record = await common.service.lobby.rematch(game_id, interaction.user.id)
        parent = await common.channel(record.channel_id)
        problem = await self.posts.post_lobby(parent, record)
        invited = await common.service.lobby.invited(record)
        if problem is None and invited:
            problem = await self._invite(parent, record, invited)
        done = Text("table.rematch.done", channel=Verbatim(f"<#{record.channel_id}>"))
        said = saying((done,) + ((problem,) if problem else ()), language_of(interaction))
        await interaction.followup.send(said, ephemeral=True)

    async def _invite(
        self, channel: Any, record: GameRecord, invited: Sequence[Seat]
    ) -> Text | None:
        """Mention the invited players (the only post that notifies them) under the lobby."""
        language = await self.common.game_language(record)
        people = [seat.user_id for seat in invited if seat.user_id is not None]
        text = Text(
            "table.rematch.invite",
            players=ListOf(tuple(Verbatim(f"<@{user}>") for user in people), "standard"),
            player=record.seats[0].name,
        )
        try:
            await channel.send(
                message_text(text, language),
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(user) for user in people], roles=False, everyone=False
                ),
            )
        except discord.HTTPException:
            log.info("could not invite the players of the rematch %s", record.id)
            return Text("table.lobby.not_shown", channel=Verbatim(f"<#{record.channel_id}>"))
        return None

    async def begin(self, channel: Any, record: GameRecord) -> None:
        """A game has started: into its thread (when the server plays in threads and the bot
        may make one), and its first board."""
        common = self.common
        record = await self.open_thread(channel, record)
        home = await self.posts.home_channel(record, channel)
        record, game = await common.service.play.state(record.id)
        await self.posts.announce(home, record, game, (), intro=(Text("table.lobby.go"),))
        common.service.computers.wake(record)  # a computer in the first seat plays now

    async def open_thread(self, channel: Any, record: GameRecord) -> GameRecord:
        common = self.common
        settings = await common.service.recent_guild_settings(record.guild_id)
        lobby = common.service.posts.shown(record).lobby_message_id
        if not settings.threads or lobby is None or not may_make_threads(channel):
            return record
        language = await common.game_language(record)
        title = message_text(common.plugin(record).front.title(), language)
        names = ", ".join(s.name for s in record.seats)
        try:
            thread = await channel.get_partial_message(lobby).create_thread(
                name=clip(f"{title}: {names}", 100), auto_archive_duration=10080
            )
        except (discord.HTTPException, KeyError, TypeError, ValueError):
            log.info("could not open a thread for game %s; it is played in the channel", record.id)
            return record
        return await common.service.posts.set_thread(record.id, thread.id)
