"""Public posts, sent: a game's turns and board in its channel, its lobby message, the line
that keeps a thread's channel up to date, and the replay after the result.

What a post says is composed elsewhere (:func:`bot.table.compose.compose_post`); this sends
it once (a nonce per part, so a post sent again after a crash is the same message), takes
the controls off the board it replaces, and, when Discord refuses it, has it tried again.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot.discord_ui import Verbatim, files, message_text, table_view, with_controls
from bot.games import TurnRecord
from bot.i18n import ListOf, Text
from bot.service import GameRecord, TurnResult
from bot.table.common import Common, names_of, with_view
from bot.table.compose import Post, compose_post
from bot.table.lobby_message import lobby_text

log = logging.getLogger("arkbot.table")

#: The permissions the bot needs in a game's channel, as discord.py names them.
NEEDED = ("view_channel", "send_messages", "attach_files", "read_message_history")


def missing_permissions(channel: Any) -> tuple[Text, ...]:
    """The permissions the bot lacks in ``channel``, as far as it can tell."""
    guild = getattr(channel, "guild", None)
    me = getattr(guild, "me", None)
    if me is None or not hasattr(channel, "permissions_for"):
        return ()
    have = channel.permissions_for(me)
    return tuple(Text(f"table.permission.{name}") for name in NEEDED if not getattr(have, name))


def nonce(game_id: int, version: int, part: int) -> str:
    """A post's nonce (Discord keeps at most 25 characters)."""
    return f"{game_id}.{version}.{part}"[-25:]


class Posts:
    """Everything the table posts in public."""

    def __init__(self, common: Common) -> None:
        self.common = common
        #: Games whose post is being sent right now.
        self._posting: set[int] = set()

    async def post_lobby(self, channel: Any, record: GameRecord) -> Text | None:
        """Show the lobby as it stands: edit its message, or post it (and remember it).

        Returns None when it is shown, else why not, to say to the one who asked: by then
        their change is stored (a started game has started), so a refusal from Discord must
        not read as "nothing was changed"."""
        common = self.common
        language = await common.public_language(record.guild_id)
        content, view = await lobby_text(common, record, language)
        mentions = discord.AllowedMentions.none()
        lobby_id, _ = common.service.posts.message_ids(record)
        try:
            if lobby_id is not None:
                try:
                    await channel.get_partial_message(lobby_id).edit(
                        content=content, view=view, allowed_mentions=mentions
                    )
                    return None
                except discord.NotFound:
                    pass  # deleted: post it again
            message = await channel.send(content, allowed_mentions=mentions, **with_view(view))
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
        turns: Sequence[TurnRecord],
        *,
        intro: Sequence[Text] = (),
        stalled: bool = False,
    ) -> bool:
        """Post what happened and how the game stands now (see :func:`compose_post`), where
        the game is played. Returns whether it was posted (a post that fails is posted again
        later). ``stalled``: the game ended because nobody moved, not by a moderator."""
        common = self.common
        # Always where the game is played, wherever the last move was typed.
        channel = await common.home_channel(record, channel)
        language = await common.public_language(record.guild_id)
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
        if not await self.send(channel, record, post):
            return False
        if post.direct is not None:
            user_id, text = post.direct
            await common.tell_user(user_id, text, record.guild_id)
        await self.update_standing(record, game, post.over, stalled=stalled)
        if post.finished:
            common.later(self.post_replay(channel, record))
        return True

    async def send(self, channel: Any, record: GameRecord, post: Post) -> bool:
        """Send ``post`` in ``channel``, remember it as the game's board, and take the
        controls off the board before it. Returns whether Discord took it."""
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
        # Posts in flight are not "missed": the dispatcher leaves them alone.
        self._posting.add(record.id)
        try:
            drawn = await common.host.pictures.draw_all(post.pictures, language)
            messages = post.messages()
            quiet = discord.AllowedMentions.none()
            # The nonce names the post, so sending it again (after a crash, before it was
            # recorded) gives back the same message instead of a second one.
            last = len(messages) - 1
            for part, text in enumerate(messages[:-1]):
                await channel.send(
                    text,
                    allowed_mentions=quiet,
                    nonce=nonce(post.game_id, post.version, part),
                    silent=post.silent,
                )
            posted = await channel.send(
                messages[-1],
                files=files(drawn),
                allowed_mentions=mentions,
                nonce=nonce(post.game_id, post.version, last),
                silent=post.silent,
                **with_view(view),
            )
        except discord.HTTPException as error:
            await self.post_failed(channel, record, error)
            return False
        finally:
            self._posting.discard(record.id)
        _, previous = common.service.posts.message_ids(record)
        common.service.posts.posted(record.id, record.version, board_message_id=posted.id)
        if previous is not None and previous != posted.id:
            await self.retire(channel, previous)
        return True

    async def computer_played(self, result: TurnResult) -> None:
        """A computer's turn was stored in the background: tell it (with the turns before
        it that were waiting for it) where the game is played."""
        channel = await self.common.home_channel(result.record)
        await self.announce_stored(channel, result.record, recovered=False)

    async def announce_stored(
        self, channel: Any, record: GameRecord, *, recovered: bool = True
    ) -> bool:
        """Tell what was stored but not yet posted in the game's channel (``recovered``: it
        was missed, the bot was down; otherwise a computer just played)."""
        if record.id in self._posting:
            return False  # on its way right now
        service = self.common.service
        record, game, turns = await service.history.told_since(record.id, record.announced)
        if record.status == "active" and not any(t.complete for t in turns) and turns:
            # Mid-turn: the player carries on from their panel.
            await service.posts.mark_announced(record.id, record.version)
            return False
        intro = (Text("table.turn.recovered"),) if recovered else ()
        return await self.announce(channel, record, game, turns, intro=intro)

    async def announce_end(
        self, channel: Any, record: GameRecord, *, stalled: bool = False
    ) -> None:
        """A moderator ended the game (or nobody moved for too long): the standings and the
        board as they were; a lobby's message says it is closed. No control stays live."""
        common = self.common
        lobby, board = common.service.posts.message_ids(record)
        if record.started_at is None:
            if lobby is not None:
                await self.post_lobby(channel, record)
            return
        record, game = await common.service.play.state(record.id)
        channel = await common.home_channel(record, channel)
        intro = (Text("table.stall.ended"),) if stalled else ()
        posted = await self.announce(channel, record, game, (), intro=intro, stalled=stalled)
        if posted and board is not None:
            await self.retire(channel, board)

    async def update_standing(
        self, record: GameRecord, game: Any, over: bool, *, stalled: bool = False
    ) -> None:
        """A game played in a thread keeps one line in its channel up to date: its lobby
        message says whose turn it is (edited, never posted again, so the channel does not
        fill with pings), and at the end who won, or that it was ended before its end (by a
        moderator, or, ``stalled``, because nobody moved): then nobody won."""
        common = self.common
        if record.thread_id is None:
            return
        lobby, _ = common.service.posts.message_ids(record)
        if lobby is None:
            return
        language = await common.public_language(record.guild_id)
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
        try:
            parent = await common.channel(record.channel_id)
            await parent.get_partial_message(lobby).edit(
                content=message_text(text, language),
                view=None,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            log.info("could not update the standing line of game %s", record.id)

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
        reason = f"{getattr(error, 'status', '?')} {getattr(error, 'code', '')}".strip()
        failures = await self.common.service.posts.post_failed(record.id, reason)
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
            drawn = await self.draw_replay(record, await common.public_language(record.guild_id))
            if drawn is None:
                return
            language = await common.public_language(record.guild_id)
            await channel.send(
                message_text(Text("table.replay.caption"), language),
                files=files([drawn]),
                allowed_mentions=discord.AllowedMentions.none(),
                silent=True,
            )
        except Exception:
            log.exception("could not post the replay of game %s", record.id)
