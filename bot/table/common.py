"""What every part of the table shares: the bot, the turn check, private panels, the
language of public posts, direct messages. (Where a game is played, its thread and the line
its channel keeps about it are the posts': :mod:`bot.table.posts`.)

The parts (lobby, turns, posts, browsing, ...) each hold one :class:`Common` and use it;
none of them inherits from it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import heapq
import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot.discord_ui import files, lines_of, message_text, split_message, view_of
from bot.games import Plugin, Seen, plugin
from bot.host import Host
from bot.i18n import DEFAULT_LANGUAGE, Text, language_for, language_of
from bot.panels import Panel, Picture, Refusal
from bot.pictures import Priority, Superseded, picture_key
from bot.service import GameRecord, GameService, Seat, ServiceError, may_act

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


#: May-act refusals as the table words them for the player who clicked (in the context of
#: a turn button, friendlier than the service's plain text); the rest are said as they are.
#: A round asked for at a moment runs this long after it (the clock of the database's
#: condition must have passed it).
ROUND_MARGIN_MS = 200

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
        #: When rounds were asked for (ms, a heap; see :meth:`round_at`), and the signal
        #: that wakes the reminders cog to look at them.
        self._rounds_at: list[int] = []
        self.rounds_asked = asyncio.Event()

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
        refused = may_act(
            record, user_id, need_turn=need_turn, version=version, now_ms=self.now_ms()
        )
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

    def now_ms(self) -> int:
        """The service's clock, in ms."""
        return int(self.service.clock.now().timestamp() * 1000)

    def round_at(self, when_ms: int) -> None:
        """Have the background rounds run at ``when_ms`` (service clock) rather than at their
        next poll: a turn that could be taken back is posted when that time is over, not up to
        a poll later (the reminders cog waits on :meth:`next_round_in`)."""
        heapq.heappush(self._rounds_at, when_ms)
        self.rounds_asked.set()

    def next_round_in(self, poll_seconds: float) -> float:
        """Seconds until the next round: the poll, or sooner if a round was asked for."""
        now = self.now_ms()
        while self._rounds_at and self._rounds_at[0] <= now - ROUND_MARGIN_MS:
            heapq.heappop(self._rounds_at)  # its round has run (or runs now)
        if not self._rounds_at:
            return poll_seconds
        return max(0.0, min(poll_seconds, (self._rounds_at[0] - now + ROUND_MARGIN_MS) / 1000))

    def not_before_posted(self, record: GameRecord) -> None:
        """Refuse (``just_moved``) to show ``record``'s game while its last turn may still be
        taken back: nobody sees the board after it, its story or the next turn before the
        channel does (issue 40.5)."""
        if record.taking_back(self.now_ms()):
            raise ServiceError("just_moved")

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
