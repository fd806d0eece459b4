"""Public posts, sent: a game's turns and board where it is played (its thread, else its
channel; a thread gone or locked sends the game back to its channel), its lobby message, the
line that keeps a thread's channel up to date, and the replay after the result. What the
channel has seen of a game is the service's (``service.posts.shown``), written by these
posts and read back by them.

What a post says is composed elsewhere (:func:`bot.table.compose.compose_post`); this sends
it, takes the controls off the board it replaces, and, when Discord refuses it, has it tried
again.

Every stored turn is told once. The posts of a game go out one at a time (a lock per game),
each telling the turns stored since the last one told: a turn whose post failed, or was cut
off by a crash, is told with the next (its story first). A post is sent again under the same
nonce, made of the turns it tells, so a post sent again (after a crash, before it was
recorded) gives back the same message instead of a second one; and a process that does not
know what the channel was told since the last recorded board (it just started) looks there
before it tells those turns again.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Sequence
from datetime import timedelta
from typing import Any
from weakref import WeakValueDictionary

import discord

from bot import scheme
from bot.discord_ui import Verbatim, files, message_text, table_view, with_controls
from bot.games import TurnRecord
from bot.i18n import ListOf, Text
from bot.service import GameRecord, ServiceError, TurnResult
from bot.service.posts import Shown
from bot.table.common import Common, names_of, with_view
from bot.table.compose import Post, compose_post
from bot.table.lobby_message import lobby_text

log = logging.getLogger("arkbot.table")

#: The permissions the bot needs in a game's channel, as discord.py names them.
NEEDED = ("view_channel", "send_messages", "attach_files", "read_message_history")

#: Discord's 403 for a permission the bot lacks (here: Attach Files, for the pictures).
MISSING_PERMISSIONS = 50013

#: How many messages after the game's last recorded message (its board, else its lobby) are
#: read for a board posted but not recorded, from that message on (ten of Discord's pages
#: of history), and as many of the newest if there are more: the board is found unless
#: over a thousand messages came both before and after it.
READ_BACK = 1000
#: How far back a channel is looked at for a game that has no recorded message at all.
LOOK_BACK = 50


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


def lacking(channel: Any) -> tuple[str, ...]:
    """The permissions of :data:`NEEDED` the bot lacks in ``channel``, as far as it can tell."""
    guild = getattr(channel, "guild", None)
    me = getattr(guild, "me", None)
    if me is None or not hasattr(channel, "permissions_for"):
        return ()
    have = channel.permissions_for(me)
    return tuple(name for name in NEEDED if not getattr(have, name))


def missing_permissions(channel: Any) -> tuple[Text, ...]:
    """The permissions the bot lacks in ``channel``, as far as it can tell, in words."""
    return tuple(Text(f"table.permission.{name}") for name in lacking(channel))


def nonce(post: Post, part: int) -> str:
    """The nonce of a post's ``part``-th message: the game and the turns it tells (a post
    that tells no turn: the game's version). At most 25 characters (Discord keeps no more)."""
    told = f"t{post.told[0]}-{post.told[1]}" if post.told else f"v{post.version}"
    return f"{post.game_id}.{told}.{part}"[-25:]


#: :func:`turn_shown` of a board that closed its game: every turn is told.
ALL_TOLD = 1 << 62


def turn_shown(message: Any, game_id: int) -> int | None:
    """The turn a board of game ``game_id`` hands on to (its "Play my turn" button): every
    turn before it was told there; :data:`ALL_TOLD` for the result of a finished game (its
    "Rematch" button); None for any other message."""
    for row in getattr(message, "components", None) or ():
        for item in getattr(row, "children", ()):
            try:
                cid = scheme.parse(getattr(item, "custom_id", None) or "")
            except scheme.BadId:
                continue
            if cid.game_id != game_id:
                continue
            if cid.kind == "ob":
                return cid.version
            if cid.kind == "sb" and cid.control == "table_rematch":
                return ALL_TOLD
    return None


class _ThreadClosed(Exception):
    """Discord refused a post in the game's thread: it is gone, or locked."""

    def __init__(self, error: discord.HTTPException) -> None:
        super().__init__("the game's thread is gone or locked")
        self.error = error


class Announcer:
    """Everything the table posts in public."""

    def __init__(self, common: Common) -> None:
        self.common = common
        #: One post of a game at a time (held while it is drawn and sent), so that each
        #: knows what the one before it told (what the channel has seen of a game is the
        #: service's: ``service.posts.shown``).
        self._locks: WeakValueDictionary[int, asyncio.Lock] = WeakValueDictionary()
        #: Games whose creator heard that their boards go out without pictures.
        self._told_no_pictures: set[int] = set()

    def _lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def _shown(self, record: GameRecord) -> Shown:
        """What the channel has seen of the game (the service keeps it)."""
        return self.common.service.posts.shown(record)

    async def _replaced(
        self, channel: Any, record: GameRecord, version: int, message_id: int
    ) -> None:
        """The channel was told the game up to ``version``, its newest board ``message_id``
        in ``channel``: recorded, and the controls taken off the board it replaces."""
        previous = self._shown(record).board_message_id
        self.common.service.posts.posted(record.id, version, board=(channel.id, message_id))
        if previous is not None and previous != message_id:
            await self.retire(channel, previous)

    async def home_channel(self, record: GameRecord, given: Any = None) -> Any:
        """Where the game is played: its thread, else its channel (``given`` if it is that one).
        A thread that is gone (a moderator deleted it) or locked sends the game back to its
        channel (:meth:`leave_thread`)."""
        found = given if given is not None and getattr(given, "id", None) == record.home else None
        if found is None:
            found = self.common.host.get_channel(record.home)
        if found is None:
            try:
                found = await self.common.host.fetch_channel(record.home)
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
            return await self.common.channel(record.channel_id)
        moved = await self.common.service.posts.leave_thread(record.id, thread)
        if moved is not None:
            # The players need a board there to play on.
            self.common.later(self.board_in_channel(moved))
            why = "locked" if locked else "gone"
            log.info("the thread of game %s is %s; it goes on in its channel", record.id, why)
            title = self.common.plugin(record).front.title()
            await self.edit_standing(record, Text("table.standing.moved", game=title))
            if locked:
                told = Text(
                    "table.thread.locked",
                    game=title,
                    thread=Verbatim(f"<#{thread}>"),
                    channel=Verbatim(f"<#{record.channel_id}>"),
                )
                await self.common.tell_user(record.creator_id, told, record.guild_id)
        return await self.common.channel(record.channel_id)

    async def edit_standing(self, record: GameRecord, text: Text) -> None:
        """Say ``text`` in the line the game's channel keeps about a game played in a thread
        (its lobby message, edited, never posted again)."""
        lobby = self._shown(record).lobby_message_id
        if lobby is None:
            return
        language = await self.common.game_language(record)
        try:
            parent = await self.common.channel(record.channel_id)
            await parent.get_partial_message(lobby).edit(
                content=message_text(text, language),
                view=None,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            log.info("could not update the standing line of game %s", record.id)

    async def post_lobby(self, channel: Any, record: GameRecord) -> Text | None:
        """Show the lobby as it stands: edit its message, or post it (and remember it).

        Returns None when it is shown, else why not, to say to the one who asked: by then
        their change is stored (a started game has started), so a refusal from Discord must
        not read as "nothing was changed"."""
        common = self.common
        language = await common.game_language(record)
        content, view = await lobby_text(common, record, language)
        mentions = discord.AllowedMentions.none()
        lobby_id = self._shown(record).lobby_message_id
        try:
            if lobby_id is not None:
                try:
                    await channel.get_partial_message(lobby_id).edit(
                        content=content, view=view, allowed_mentions=mentions
                    )
                    return None
                except discord.NotFound:
                    pass  # deleted: post it again
            # Its first message under a nonce of its own: posted again soon (the bot stopped
            # before it recorded it), it is the same message. (One posted again because it
            # was deleted is a new one.)
            first = {"nonce": f"{record.id}.lobby"} if lobby_id is None else {}
            message = await channel.send(
                content, allowed_mentions=mentions, **first, **with_view(view)
            )
        except discord.HTTPException as error:
            log.warning(
                "could not show the lobby of game %s (%s %s)",
                record.id, error.status, error.code,
            )  # fmt: skip
            where = Verbatim(f"<#{getattr(channel, 'id', record.channel_id)}>")
            if isinstance(error, discord.Forbidden):
                missing = missing_permissions(channel)
                return Text(
                    "table.lobby.not_shown_denied",
                    channel=where,
                    permissions=missing or (Text("table.post.some_permission"),),
                )
            return Text("table.lobby.not_shown", channel=where)
        common.service.posts.posted(record.id, lobby_message_id=message.id)
        return None

    async def announce(
        self,
        channel: Any,
        record: GameRecord,
        game: Any,
        turns: Sequence[TurnRecord] = (),
        *,
        intro: Sequence[Text] = (),
        stalled: bool = False,
    ) -> Any | None:
        """Post how the game stands now, after ``turns`` (see :func:`compose_post`), where
        the game is played. Returns the channel it was posted in, or None (a post that fails
        is posted again later). ``stalled``: the game ended because nobody moved."""
        async with self._lock(record.id):
            if await self._ended_meanwhile(record):
                return await self.home_channel(record, channel)
            return await self._announce(channel, record, game, turns, intro=intro, stalled=stalled)

    async def announce_result(self, channel: Any, result: TurnResult) -> Any | None:
        """Tell the turns a move (a time-out, a computer's turn) ended where the game is
        played, with any turn before them not told yet, first; nothing if they were told
        meanwhile (a round that caught up). Returns the channel the game is told in, or
        None if the post failed (it is posted again later)."""
        record, game = result.record, result.state
        async with self._lock(record.id):
            told = self._shown(record).announced
            if told >= record.version or await self._ended_meanwhile(record):
                return await self.home_channel(record, channel)
            if told < result.turn_began:
                return (await self._tell_untold(channel, record))[0]
            return await self._announce(channel, record, game, result.turns)

    async def _ended_meanwhile(self, record: GameRecord) -> bool:
        """Whether the game, active in ``record``, was ended since (by a moderator, or for
        want of moves), as stored now: asked under the game's lock, since a post composed
        from ``record`` would ask someone to play a game that is over. The end's own post
        (:meth:`announce_end`, which waits for the lock) tells what is untold, with the
        standings."""
        service = self.common.service
        if record.status != "active" or not service.posts.may_have_ended(record.id):
            return False  # no read: a click reads the game once
        return (await service.play.get_game(record.id)).status == "ended"

    async def board_in_channel(self, record: GameRecord) -> None:
        """The game left its thread (gone, or locked): its board, in its channel, to play
        on; unless a post there showed it since (the one that found the thread closed)."""
        async with self._lock(record.id):
            shown = self._shown(record)
            if record.status != "active" or shown.board_channel_id == record.channel_id:
                return
            moved = (Text("table.thread.moved_here"),)
            await self._tell_untold(None, record, intro=moved, always=True)

    async def computer_played(self, result: TurnResult) -> None:
        """A computer's turn was stored in the background: tell it (with the turns before
        it that were waiting for it) where the game is played."""
        await self.announce_result(None, result)

    async def announce_stored(self, channel: Any, record: GameRecord) -> bool:
        """Tell what was stored but not yet posted (the bot stopped before it could, or
        Discord refused the post) where the game is played. Whether a post went out."""
        if record.status == "lobby":
            return await self._lobby_unseen(channel, record)
        async with self._lock(record.id):
            key = "table.turn.recovered_refused" if record.post_failures else "table.turn.recovered"
            # A turn its player could take back is posted when that time is over: nothing
            # went wrong, there is nothing to explain.
            waited = record.take_back is not None and not record.post_failures
            intro = () if waited else (Text(key),)
            _, posted = await self._tell_untold(channel, record, intro=intro)
            return posted

    async def _lobby_unseen(self, channel: Any, record: GameRecord) -> bool:
        """A lobby whose message never went out (the bot stopped between opening it and
        posting it): posted now, or tried again later, a little later each time. Whether
        it went out."""
        if await self.post_lobby(channel, record) is None:
            return True
        await self.common.service.posts.post_failed(record.id, "lobby not shown")
        return False

    async def _tell_untold(
        self,
        channel: Any,
        record: GameRecord,
        *,
        intro: Sequence[Text] = (),
        stalled: bool = False,
        always: bool = False,
    ) -> tuple[Any | None, bool]:
        """Tell every turn stored and not yet told (held under the game's lock); with
        ``always``, post how the game stands even if there is none. A turn that a board
        already in the channel told (posted by a process that stopped before it recorded
        it) is recorded as told, not told again. Returns the channel the game is told in
        (None: the post failed, it is tried again later) and whether a post went out."""
        service = self.common.service
        since = self._shown(record).announced
        record, game, turns, ends = await service.history.told_since(record.id, since)
        complete = [turn for turn in turns if turn.complete]
        channel = await self.home_channel(record, channel)
        shown = self._shown(record)
        if complete and shown.board_channel_id is None:
            # Another process (this one before a restart) had the last word here.
            complete = await self._shown_already(channel, record, complete, ends)
        # A game none of whose boards was ever posted (the bot stopped between starting it
        # and its first board) is shown as it stands: its players have nothing to play on.
        if complete or always or shown.board_message_id is None:
            told = await self._announce(
                channel, record, game, complete, intro=intro, stalled=stalled
            )
            return told, told is not None
        # Told already, or mid-turn: the player carries on from their panel, and the turn
        # is told when it ends. Written now, so that no round takes it for missed.
        if record.version > self._shown(record).announced or record.version > record.announced:
            service.posts.posted(record.id, record.version)
            await service.posts.flush_posted()
        return channel, False

    async def _shown_already(
        self, channel: Any, record: GameRecord, complete: list[TurnRecord], ends: list[int]
    ) -> list[TurnRecord]:
        """``complete`` without the turns that a board in ``channel`` after the one recorded
        already told (one posted by a process that stopped before it recorded it): that
        board is recorded in their place, as the game's newest."""
        found = await self._unrecorded_board(channel, record)
        if found is None:
            return complete
        message_id, turn = found
        shown = sum(1 for t in complete if t.number < turn)
        if not shown:
            return complete
        upto = record.version if shown == len(complete) else ends[shown - 1]
        log.info("game %s: turns up to version %s were shown already", record.id, upto)
        await self._replaced(channel, record, upto, message_id)
        return complete[shown:]

    async def _unrecorded_board(self, channel: Any, record: GameRecord) -> tuple[int, int] | None:
        """The newest board of the game in ``channel`` after the one recorded, and the turn
        it hands on to (see :func:`turn_shown`); None if there is none (or the channel's
        history cannot be read)."""
        shown = self._shown(record)
        anchor = shown.board_message_id or shown.lobby_message_id
        me = self.common.host.user
        if me is None:
            return None
        # From the recorded message on, oldest first: the board went out soon after it,
        # before any amount of chatter. Should there be more since than that reads, the
        # newest too (chatter may have come before the board). Without a recorded message,
        # the newest messages.
        after = discord.Object(anchor) if anchor else None
        reads = [(READ_BACK, True), (READ_BACK, False)] if anchor else [(LOOK_BACK, False)]
        found: tuple[int, int] | None = None
        try:
            for limit, oldest_first in reads:
                read = 0
                async for message in channel.history(
                    limit=limit, after=after, oldest_first=oldest_first
                ):
                    read += 1
                    turn = turn_shown(message, record.id) if message.author.id == me.id else None
                    if turn is not None and (found is None or message.id > found[0]):
                        found = message.id, turn
                if read < limit:
                    break  # read to the end
        except discord.HTTPException as error:
            log.info("could not read back the channel of game %s (%s)", record.id, error.status)
        return found

    async def _announce(
        self,
        channel: Any,
        record: GameRecord,
        game: Any,
        turns: Sequence[TurnRecord],
        *,
        intro: Sequence[Text] = (),
        stalled: bool = False,
    ) -> Any | None:
        """:meth:`announce`, under the game's lock. A thread that turns out to be gone or
        locked sends the game to its channel, and the post with it."""
        common = self.common
        for _ in range(2):
            # Always where the game is played, wherever the last move was typed.
            channel = await self.home_channel(record, channel)
            if getattr(channel, "id", None) != record.home:  # it left its thread just now
                record = dataclasses.replace(record, thread_id=None)
                intro = (*intro, Text("table.thread.moved_here"))
            language = await common.game_language(record)
            settings = await common.service.recent_guild_settings(record.guild_id)
            now_ms = int(common.service.clock.now().timestamp() * 1000)
            # At night (the server's quiet hours) a post notifies nobody.
            quiet = settings.quiet_hours().quiet(now_ms)
            post = compose_post(
                common.plugin(record),
                record,
                game,
                turns,
                language=language,
                quiet=quiet,
                intro=intro,
                stalled=stalled,
            )
            try:
                if not await self.send(channel, record, post):
                    return None
            except _ThreadClosed as closed:
                # Gone or locked, and the cache did not know: into the channel.
                channel = await self.left_thread(record, channel, closed.error)
                record = dataclasses.replace(record, thread_id=None)
                intro = (*intro, Text("table.thread.moved_here"))
                continue
            if post.direct is not None:
                user_id, text = post.direct
                await common.tell_user(user_id, text, record.guild_id)
            await self.update_standing(record, game, post.over, stalled=stalled)
            if post.finished:
                common.later(self.post_replay(channel, record))
            return channel
        return None

    async def send(self, channel: Any, record: GameRecord, post: Post) -> bool:
        """Send ``post`` in ``channel``, remember it as the game's board, and take the
        controls off the board before it. Returns whether Discord took it. Without Attach
        Files the turn is told without its pictures (and the creator told why, once)."""
        common = self.common
        language = post.language
        view = table_view(*post.buttons, language=language) if post.buttons else None
        view = with_controls(view, post.controls, post.game_id, post.version, language)
        if post.ping is not None:
            mentions = discord.AllowedMentions(
                users=[discord.Object(post.ping)], roles=False, everyone=False
            )
        else:
            mentions = discord.AllowedMentions.none()
        ending = {"allowed_mentions": mentions, "silent": post.silent, **with_view(view)}
        try:
            drawn = await common.host.pictures.draw_all(post.pictures, language)
            pictures = bool(drawn) and "attach_files" not in lacking(channel)
            told = post if pictures or not drawn else post.without_pictures()
            try:
                posted = await self._send_parts(
                    channel, told, files(drawn) if pictures else [], ending
                )
            except discord.Forbidden as error:
                if not pictures or error.code != MISSING_PERMISSIONS:
                    raise
                # Refused for its pictures (no Attach Files): the turn in words at least.
                pictures = False
                posted = await self._send_parts(
                    channel, post.without_pictures(), [], ending, start=len(post.messages()) - 1
                )
        except discord.HTTPException as error:
            if thread_refused(error) and channel.id == record.thread_id:
                raise _ThreadClosed(error) from error
            await self.post_failed(channel, record, error)
            return False
        await self._replaced(channel, record, record.version, posted.id)
        if drawn and not pictures:
            await self._without_pictures(channel, record)
        else:
            self._told_no_pictures.discard(record.id)
        return True

    @staticmethod
    async def _send_parts(
        channel: Any,
        post: Post,
        attached: list[discord.File],
        ending: dict[str, Any],
        start: int = 0,
    ) -> Any:
        """The messages of ``post`` from the ``start``-th on (those before went out), each
        with its nonce; the last with the pictures and the controls. Returns the last."""
        messages = post.messages()
        quiet = discord.AllowedMentions.none()
        last = len(messages) - 1
        for part in range(start, last):
            await channel.send(
                messages[part], allowed_mentions=quiet, nonce=nonce(post, part), silent=post.silent
            )
        return await channel.send(messages[last], files=attached, nonce=nonce(post, last), **ending)

    async def _without_pictures(self, channel: Any, record: GameRecord) -> None:
        """A board went out without its pictures (the bot may not attach files there):
        the game's creator hears why, once."""
        if record.id in self._told_no_pictures:
            return
        self._told_no_pictures.add(record.id)
        log.warning("game %s: its board was posted without pictures (no Attach Files)", record.id)
        text = Text("table.post.no_pictures", channel=Verbatim(f"<#{channel.id}>"))
        await self.common.tell_user(record.creator_id, text, record.guild_id)

    async def announce_end(
        self, channel: Any, record: GameRecord, *, stalled: bool = False
    ) -> None:
        """A moderator ended the game (or nobody moved for too long): the standings and the
        board as they were; a lobby's message says it is closed. No control stays live."""
        shown = self._shown(record)
        board = shown.board_message_id
        if record.started_at is None:
            if shown.lobby_message_id is not None:
                await self.post_lobby(channel, record)
            return
        intro = (Text("table.stall.ended"),) if stalled else ()
        async with self._lock(record.id):
            try:
                # With the turns that were not told yet, if any.
                told, _ = await self._tell_untold(
                    channel, record, intro=intro, stalled=stalled, always=True
                )
            except ServiceError as error:
                if error.code != "game_damaged":
                    raise
                # Its log does not replay: no standings to show, but the end is said, and
                # no control of it stays live.
                told = await self._ended_damaged(channel, record)
        if told is not None and board is not None:
            await self.retire(told, board)

    async def _ended_damaged(self, channel: Any, record: GameRecord) -> Any | None:
        """A damaged game (its log does not replay) was ended: its channel hears that its
        standings cannot be shown. Returns the channel, or None if Discord refused."""
        log.info("game %s ended damaged: no standings", record.id)
        channel = await self.home_channel(record, channel)
        text = message_text(
            Text("table.game.ended_damaged"), await self.common.game_language(record)
        )
        try:
            await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as error:
            log.warning("could not say that damaged game %s ended (%s)", record.id, error.status)
            return None
        return channel

    async def update_standing(
        self, record: GameRecord, game: Any, over: bool, *, stalled: bool = False
    ) -> None:
        """A game played in a thread keeps one line in its channel up to date: its lobby
        message says whose turn it is (edited, never posted again, so the channel does not
        fill with pings), and at the end who won, or that it was ended before its end (by a
        moderator, or, ``stalled``, because nobody moved): then nobody won."""
        common = self.common
        if record.practice is not None:
            if over:
                await self._practice_over(record)
            return
        if record.thread_id is None:
            return
        names = names_of(record)
        title = common.plugin(record).front.title()
        where = Verbatim(f"<#{record.thread_id}>")
        if over and record.status == "finished" and game.winners:
            winners = tuple(names[s] for s in game.winners)
            text = Text(
                "table.standing.over", game=title, where=where, winners=ListOf(winners, "standard")
            )
        elif over:
            key = "table.standing.stalled" if stalled else "table.standing.ended"
            text = Text(key, game=title, where=where)
        else:
            deadline = record.deadline_ms()
            text = Text(
                "table.standing.turn" if deadline else "table.standing.turn_no_clock",
                game=title,
                where=where,
                player=names[game.current_player],
                deadline=Verbatim(f"<t:{deadline // 1000}:R>" if deadline else ""),
            )
        await self.edit_standing(record, text)

    async def _practice_over(self, record: GameRecord) -> None:
        """A practice game in a public thread began from a line in its channel ("Noor is
        learning …, watch along"): once the game is over, the line says so. Discord gives a
        thread begun from a message that message's id. (A private thread has no such line.)"""
        common = self.common
        learner = next(
            (s.name for s in record.seats if record.creator_id in (s.user_id, s.left_user_id)),
            None,
        )
        try:
            thread = await common.channel(record.channel_id)
            if learner is None or thread.type != discord.ChannelType.public_thread:
                return
            parent = await common.channel(thread.parent_id)
            title = common.plugin(record).front.title()
            text = Text("table.learn.opening_over", player=learner, game=title)
            await parent.get_partial_message(thread.id).edit(
                content=message_text(text, await common.public_language(record.guild_id)),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            log.info("could not say on its opening line that practice game %s is over", record.id)

    async def retire(self, channel: Any, message_id: int) -> None:
        """Take the controls off a board that a newer post replaced (old buttons would only
        say "already played"; better none at all)."""
        try:
            await channel.get_partial_message(message_id).edit(view=None)
        except discord.HTTPException:
            log.info("could not take the controls off message %s", message_id)

    async def post_failed(self, channel: Any, record: GameRecord, error: Exception) -> None:
        """Discord refused a post: it is tried again later, later each time. A missing
        permission is said plainly, once, to the game's creator, who can ask for it."""
        denied = isinstance(error, discord.Forbidden)
        server = isinstance(error, discord.DiscordServerError)
        reason = f"{getattr(error, 'status', '?')} {getattr(error, 'code', '')}".strip()
        posts = self.common.service.posts
        failures, backoff = await posts.post_failed(record.id, reason, server=server)
        rounds = timedelta(seconds=self.common.host.settings.poll_seconds)
        if server and backoff < rounds:
            # Discord's side failed: tried again in seconds, not at the next round (a
            # minute away); the rounds try it when they come sooner (or when tests run
            # them by hand: no background rounds at all).
            self.common.later(self._try_again(record.id, backoff.total_seconds()))
        log.warning(
            "post of game %s version %s refused (%s), try %d",
            record.id, record.version, reason, failures,
        )  # fmt: skip
        if denied and failures == 1:
            missing = missing_permissions(channel)
            text = Text(
                "table.post.denied",
                channel=Verbatim(f"<#{record.channel_id}>"),
                permissions=missing or (Text("table.post.some_permission"),),
            )
            await self.common.tell_user(record.creator_id, text, record.guild_id)

    async def _try_again(self, game_id: int, delay: float) -> None:
        """Tell the game's untold turns after ``delay`` seconds (a post failed on Discord's
        side); nothing if they were told meanwhile (the next move's post told them). A
        process that stops before leaves them to the rounds, when their retry is due."""
        await asyncio.sleep(delay)
        service = self.common.service
        try:
            record = await service.play.get_game(game_id)
            if not record.post_failures or record.status not in ("active", "finished"):
                return  # a post went out since, or the game is over
            if await self.announce_stored(None, record):
                await service.posts.flush_posted()
        except Exception:
            log.exception("could not try the post of game %s again", game_id)

    async def draw_replay(
        self, record: GameRecord, language: str
    ) -> tuple[bytes, str, str | None] | None:
        """The finished game drawn as an animation (None: the game has no replay)."""
        common = self.common
        record, turns, final = await common.service.history.replay_turns(record.id)
        views = [view for view, _ in turns] + [final]
        picture = common.plugin(record).front.replay_picture(views, names_of(record))
        if picture is None:
            return None
        return (await common.host.pictures.draw_all([picture], language))[0]

    async def post_replay(self, channel: Any, record: GameRecord) -> None:
        """The finished game as an animation, after its result (it takes seconds to draw)."""
        common = self.common
        try:
            drawn = await self.draw_replay(record, await common.game_language(record))
            if drawn is None:
                return
            language = await common.game_language(record)
            await channel.send(
                message_text(Text("table.replay.caption"), language),
                files=files([drawn]),
                allowed_mentions=discord.AllowedMentions.none(),
                silent=True,
            )
        except discord.Forbidden:
            # Without Attach Files: the result and the boards said it all.
            log.info("may not post the replay of game %s", record.id)
        except Exception:
            log.exception("could not post the replay of game %s", record.id)
