"""What every part of the table shares: the bot, the turn check, private panels, the
language of public posts, the game's home channel, direct messages.

The parts (lobby, turns, posts, browsing, ...) each hold one :class:`Common` and use it;
none of them inherits from it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from bot.discord_ui import Verbatim, files, lines_of, message_text, split_message, view_of
from bot.games import Plugin, Seen, plugin
from bot.host import Host
from bot.i18n import DEFAULT_LANGUAGE, Text, language_for, language_of
from bot.panels import Panel, Picture, Refusal
from bot.pictures import Priority, Superseded, picture_key
from bot.service import GameRecord, GameService, Seat, may_act

log = logging.getLogger("arkbot.table")


def is_moderator(member: Any, moderator_role_id: int | None) -> bool:
    """Manage Channels in the guild, or the guild's moderator role."""
    if not isinstance(member, discord.Member):
        return False
    if member.guild_permissions.manage_channels:
        return True
    return moderator_role_id is not None and any(r.id == moderator_role_id for r in member.roles)


def names_of(record: GameRecord) -> tuple[str, ...]:
    """Every seat's name as players see it; a computer's seat is marked as one."""
    return tuple(f"🤖 {seat.name}" if seat.is_bot else seat.name for seat in record.seats)


def shown_as(picture: Picture, language: str) -> Picture:
    """``picture`` under a file name that says what it shows: its own name with a digest of
    its drawing (the render function, its arguments and the language). An edited private
    panel keeps an attachment of the same name rather than drawing and uploading it again,
    so a picture is sent again only when what it shows changed."""
    digest = picture_key(picture, language)[:10]
    stem, dot, extension = picture.filename.rpartition(".")
    name = f"{stem}-{digest}.{extension}" if dot else f"{picture.filename}-{digest}"
    return dataclasses.replace(picture, filename=name)


def with_view(view: discord.ui.View | None) -> dict[str, Any]:
    """``view=`` for a send, or nothing (discord.py refuses ``view=None`` there)."""
    return {"view": view} if view is not None else {}


#: Discord's answers to a post in a thread the bot can no longer post in: the thread was
#: deleted (404, 10003 "Unknown Channel"), or it is locked (400, 50083 "Thread is
#: archived": a locked thread stays closed to all who lack Manage Threads).
UNKNOWN_CHANNEL = 10003
THREAD_ARCHIVED = 50083


def thread_refused(error: BaseException) -> bool:
    """Whether Discord refused a post because its thread is gone or locked."""
    return isinstance(error, discord.HTTPException) and error.code in (
        UNKNOWN_CHANNEL,
        THREAD_ARCHIVED,
    )


def locked_to_me(channel: Any) -> bool:
    """A thread locked by a moderator, in which the bot (without Manage Threads) cannot post,
    as far as discord.py's cache tells."""
    if not isinstance(channel, discord.Thread) or not channel.locked:
        return False
    me = getattr(channel.guild, "me", None)
    return me is None or not channel.permissions_for(me).manage_threads


#: May-act refusals as the table words them for the player who clicked (in the context of
#: a turn button, friendlier than the service's plain text); the rest are said as they are.
_SAID_AT_THE_TABLE = {
    "game_over": "table.turn.game_not_active",
    "not_started": "table.turn.not_started",
    "not_a_player": "table.turn.stranger",
    "stale": "table.turn.stale",
    "not_your_turn": "table.turn.not_yours",
}


class Common:
    """The table's shared parts: the bot it runs in and what every command needs of it."""

    def __init__(self, host: Host) -> None:
        self.host = host
        #: Work done after an answer (replays).
        self._tasks: set[asyncio.Task[Any]] = set()
        #: Shows a game's board in its channel after the game left its thread (the posts
        #: set it): the players need a board there to play on.
        self.board_in_channel: Callable[[GameRecord], Awaitable[None]] | None = None

    @property
    def service(self) -> GameService:
        return self.host.service

    def plugin(self, record: GameRecord) -> Plugin:
        return plugin(record.game_name)

    def seen(
        self, record: GameRecord, game: Any, seat: Seat | None, language: str = DEFAULT_LANGUAGE
    ) -> Seen:
        return Seen(
            game,
            None if seat is None else seat.index,
            names_of(record),
            record.version,
            record.options,
            language,
        )

    async def public_language(self, guild_id: int | None) -> str:
        """The language of the server's public posts: the one its moderators chose, else
        the server's preferred locale, else English."""
        if not guild_id:
            return DEFAULT_LANGUAGE
        chosen = (await self.service.recent_guild_settings(guild_id)).language
        if chosen:
            return language_for(chosen)
        guild = self.host.get_guild(guild_id)
        return language_for(guild.preferred_locale if guild is not None else None)

    async def game_language(self, record: GameRecord) -> str:
        """The language a game's public posts are said in: a practice game's learner's, else
        the server's (:meth:`public_language`)."""
        if record.practice is not None:
            return record.practice.language
        return await self.public_language(record.guild_id)

    async def channel(self, channel_id: int) -> Any:
        """A channel by its id: from the cache, else asked of Discord."""
        return self.host.get_channel(channel_id) or await self.host.fetch_channel(channel_id)

    async def home_channel(self, record: GameRecord, given: Any = None) -> Any:
        """Where the game is played: its thread, else its channel (``given`` if it is that one).
        A thread that is gone (a moderator deleted it) or locked sends the game back to its
        channel (:meth:`leave_thread`)."""
        found = given if given is not None and getattr(given, "id", None) == record.home else None
        if found is None:
            found = self.host.get_channel(record.home)
        if found is None:
            try:
                found = await self.host.fetch_channel(record.home)
            except discord.NotFound:
                if record.thread_id is None:
                    raise
                return await self.leave_thread(record, locked=False)
        if record.thread_id is not None and locked_to_me(found):
            return await self.leave_thread(record, locked=True)
        return found

    async def left_thread(self, record: GameRecord, channel: Any, error: Exception) -> Any:
        """If ``error`` is Discord refusing a post in the game's thread (``channel``) because
        the thread is gone or locked, the game leaves it (:meth:`leave_thread`): its channel,
        to post in instead. Else None."""
        if record.thread_id is None or getattr(channel, "id", None) != record.thread_id:
            return None
        if not thread_refused(error):
            return None
        locked = getattr(error, "code", None) == THREAD_ARCHIVED
        return await self.leave_thread(record, locked=locked)

    async def leave_thread(self, record: GameRecord, *, locked: bool) -> Any:
        """The game's thread is gone (a moderator deleted it) or, ``locked``, closed to the
        bot: the game goes on in its channel, which is returned. The line the channel keeps
        about the game says so (it would point at the thread for good), and a locked
        thread, which may be a slip, is told to the game's creator: once, by whoever
        notices first."""
        thread = record.thread_id
        if thread is None:
            return await self.channel(record.channel_id)
        moved = await self.service.posts.leave_thread(record.id, thread)
        if moved is not None:
            if self.board_in_channel is not None:
                self.later(self.board_in_channel(moved))
            why = "locked" if locked else "gone"
            log.info("the thread of game %s is %s; it goes on in its channel", record.id, why)
            title = self.plugin(record).front.title()
            await self.edit_standing(record, Text("table.standing.moved", game=title))
            if locked:
                told = Text(
                    "table.thread.locked",
                    game=title,
                    thread=Verbatim(f"<#{thread}>"),
                    channel=Verbatim(f"<#{record.channel_id}>"),
                )
                await self.tell_user(record.creator_id, told, record.guild_id)
        return await self.channel(record.channel_id)

    async def edit_standing(self, record: GameRecord, text: Text) -> None:
        """Say ``text`` in the line the game's channel keeps about a game played in a thread
        (its lobby message, edited, never posted again)."""
        lobby, _ = self.service.posts.message_ids(record)
        if lobby is None:
            return
        language = await self.game_language(record)
        try:
            parent = await self.channel(record.channel_id)
            await parent.get_partial_message(lobby).edit(
                content=message_text(text, language),
                view=None,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            log.info("could not update the standing line of game %s", record.id)

    async def my_turn(
        self,
        interaction: discord.Interaction,
        game_id: int | None = None,
        *,
        version: int | None = None,
        turn: int | None = None,
        need_turn: bool = True,
    ) -> tuple[GameRecord, Any, Seat]:
        """The game ``interaction.user`` acts in, the state and their seat, or a refusal
        saying why not (the decision is the service's :func:`bot.service.may_act`, which
        the service asks again inside the write that stores the move)."""
        if game_id is None:
            found = await self.service.play.game_in(interaction.channel_id or 0)
            if found is None:
                raise Refusal("table.turn.no_game")
            if found.status == "lobby":
                raise Refusal("table.turn.not_started")
            game_id = found.id
        record, game = await self.service.play.state(game_id)
        if interaction.channel_id not in (record.channel_id, record.thread_id):
            # A control of another channel's game (only a forged click can do this).
            raise Refusal("table.error.unknown_control")
        # Checked on the state the move will be played on: a double click may have moved
        # the game on since the control was made.
        seat = self.may_act(record, interaction.user.id, need_turn=False)
        if need_turn:
            # A button of a turn already played is stale, whoever presses it now.
            if turn is not None and game.turn != turn:
                raise Refusal("table.turn.stale")
            self.may_act(record, interaction.user.id, need_turn=True, version=version)
        return record, game, seat

    def may_act(
        self, record: GameRecord, user_id: int, *, need_turn: bool, version: int | None = None
    ) -> Seat:
        """The seat of ``user_id`` if they may act in ``record`` now (the service's one
        decision, :func:`bot.service.may_act`), or its refusal in the table's words."""
        refused = may_act(record, user_id, need_turn=need_turn, version=version)
        if refused is not None:
            key = _SAID_AT_THE_TABLE.get(refused.code)
            if key is None:
                raise refused
            named = {"player": refused.params["player"]} if "player" in refused.params else {}
            raise Refusal(key, **named)
        seat = record.seat_of(user_id)
        assert seat is not None  # may_act refuses a stranger
        return seat

    async def moderator(self, interaction: discord.Interaction) -> bool:
        """Whether the user of ``interaction`` moderates its server."""
        settings = await self.service.guild_settings(interaction.guild_id or 0)
        return is_moderator(interaction.user, settings.moderator_role_id)

    async def show(
        self,
        interaction: discord.Interaction,
        panel: Panel,
        record: GameRecord,
        *,
        edit: bool,
        priority: Priority = Priority.WAITED,
    ) -> None:
        """Put a private panel on screen: edit the clicked message, or send a new one.
        ``priority``: whether its player waits for it (their turn's next step) or only asked
        to look at something."""
        language = language_of(interaction)
        pictures = [shown_as(p, language) for p in panel.pictures]
        content = "\n".join(lines_of(panel, language))
        content = split_message([content])[0]
        view = view_of(panel.controls, record.id, record.version, language)
        mentions = discord.AllowedMentions.none()
        if edit:
            try:
                attachments = await self._attachments(interaction, pictures, language, priority)
            except Superseded:  # a newer tap on the same message: the newer panel is shown
                return
            await interaction.edit_original_response(
                content=content, attachments=attachments, view=view, allowed_mentions=mentions
            )
            return
        drawn = await self.host.pictures.draw_all(pictures, language, priority=priority)
        await interaction.followup.send(
            content,
            files=files(drawn),
            ephemeral=True,
            allowed_mentions=mentions,
            **with_view(view),
        )

    async def _attachments(
        self,
        interaction: discord.Interaction,
        pictures: Sequence[Picture],
        language: str,
        priority: Priority,
    ) -> list[discord.Attachment | discord.File]:
        """The attachments of an edited panel, in order: those the message already has that
        show the same (kept as they are), the others drawn now. Raises
        :class:`~bot.pictures.Superseded` when a newer tap on the same message came first."""
        message = interaction.message
        had = {a.filename: a for a in (message.attachments if message is not None else [])}
        fresh = [p for p in pictures if p.filename not in had]
        slot = ("panel", message.id) if message is not None else None
        drawn_now = await self.host.pictures.draw_all(fresh, language, priority=priority, slot=slot)
        drawn = dict(zip((p.filename for p in fresh), files(drawn_now), strict=True))
        return [had.get(p.filename) or drawn[p.filename] for p in pictures]

    async def tell_user(self, user_id: int, text: Text, guild_id: int | None) -> bool:
        """A direct message (closed DMs are no error: False)."""
        try:
            user = self.host.get_user(user_id) or await self.host.fetch_user(user_id)
            await user.send(message_text(text, await self.public_language(guild_id)))
            return True
        except discord.HTTPException:
            log.info("could not DM user %s", user_id)
            return False

    def later(self, work: Any) -> None:
        """Run ``work`` after the answer (a replay takes seconds to draw); keep a reference
        so the task is not collected, and log what fails."""
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
