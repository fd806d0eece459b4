"""One round of the background work: reminders, missed posts, computers to wake, expired
lobbies, stalled games, seasons' rounds and time-outs. The reminders cog
(:mod:`bot.cogs.reminders`) runs a round every few seconds; a round may run at any time,
however long the bot was away.

Nothing is kept in memory between rounds: each round asks the service which turns are due
now (all of them), claims each notice so it is sent once, sends it, and marks it sent. A
crash between claim and send means the notice is offered again after the service's lease,
never lost; a crash between send and mark has it sent again with the same nonce, which
Discord answers with the first message.

With several bot processes, each does this for the guilds of its own shards (the service
filters), and every piece is claimed in the database, so it is done once even while two
processes serve one shard. A lost database connection (:class:`ConnectionLost`: the server
ended the session, or restarted) is no error of the bot: where a round takes its pieces it
ends the round, which the reminders cog runs again at once; in a piece it is a warning, and
the next piece gets a fresh connection (a notice claimed is offered again after the lease).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

import discord

from bot.discord_ui import Mention, Verbatim, message_text
from bot.i18n import Text
from bot.service import DueTurn, GameRecord, ServiceError
from bot.service.service import ANNOUNCE_GRACE
from bot.service.storage import ConnectionLost
from bot.table.common import Common
from bot.table.posts import Announcer
from bot.table.seasons import Seasons

log = logging.getLogger("arkbot.reminders")


def nonce(kind: str, due: DueTurn) -> str:
    """The nonce of a notice: sent again (a crash before it was marked sent), Discord gives
    back the first message rather than a second one. At most 25 characters."""
    return f"{kind}.{due.record.id}.{due.version}"[-25:]


@contextmanager
def _one_piece(what: str, *args: Any) -> Iterator[list[bool]]:
    """One piece of a round, whose failure must not stop the others: a game that moved on
    meanwhile (a move landing during its time-out) is the expected race (a line of
    information), a lost database connection a warning, anything else an error with its
    traceback. Yields a list that holds ``True`` once the piece has run to its end."""
    done: list[bool] = []
    try:
        yield done
        done.append(True)
    except ConnectionLost as exc:
        log.warning(f"could not {what} (its database connection was lost: %s)", *args, exc)
    except ServiceError as exc:
        if exc.code == "stale":
            log.info(f"did not {what}: the game moved on meanwhile", *args)
        else:
            log.exception(f"could not {what}", *args)
    except Exception:
        log.exception(f"could not {what}", *args)


def _computer_tells_it(record: GameRecord) -> bool:
    """Whether ``record``'s untold turn is one its player could take back, and a computer
    plays next (its post tells both)."""
    seat = record.current
    return (
        record.status == "active"
        and record.take_back is not None
        and seat is not None
        and (seat.is_bot)
    )


#: How often one round is tried when it loses its database connection.
ROUND_TRIES = 2


class Rounds:
    """The background work of the table, one round at a time."""

    def __init__(self, common: Common, posts: Announcer, seasons: Seasons) -> None:
        self.common = common
        self.posts = posts
        self.seasons = seasons

    async def run_round(
        self, now: datetime | None = None, *, grace: timedelta | None = None
    ) -> int:
        """:meth:`run_once`, run again at once on a fresh connection if it loses its
        database connection (the server ended the session, or restarted): every piece of a
        round is claimed in the database, so what the lost one did is not done twice, and
        what it claimed but did not finish is offered again when its claim runs out. Lost
        again, the round is given up with a warning (0 handled): the next one tries."""
        for tries_left in range(ROUND_TRIES - 1, -1, -1):
            try:
                return await self.run_once(now, grace=grace)
            except ConnectionLost as exc:
                if not tries_left:
                    log.warning("reminder round lost its database connection again: %s", exc)
                    return 0
                log.warning(
                    "reminder round lost its database connection, running it again: %s", exc
                )
        return 0

    async def run_once(self, now: datetime | None = None, *, grace: timedelta | None = None) -> int:
        """Send the reminders due at ``now``, post missed turns, let computers whose turn
        was cut off play, close expired lobbies, then play the time-outs due; returns how
        many were handled. ``grace``: how long a fresh move is left to be posted by the
        process that stored it (the service's usual grace when not given).

        Reminders go first: they are a line of text each, and after a restart the missed
        posts (a board picture each, dozens of them) would hold them up for a minute.
        Time-outs come after the missed posts, so the boards are told in their order."""
        grace = ANNOUNCE_GRACE if grace is None else grace
        service = self.common.service
        due = await service.notices.due(now)
        handled = await self._notices([d for d in due if d.kind in ("reminder", "final")])
        handled += await self.announce_missed(grace)
        # Computers whose turn nobody is thinking about (this process restarted) play now.
        handled += await service.computers.wake_computers(grace)
        handled += await self.close_expired_lobbies()
        handled += await self.end_stalled_games()
        # Seasons: a round's tables dealt, a round closed, a season over (each told once),
        # and what a stop between a step and its post left untold.
        with _one_piece("step the seasons"):
            handled += await self.seasons.tell_due()
        return handled + await self._notices([d for d in due if d.kind == "timeout"])

    async def _notices(self, due: list[DueTurn]) -> int:
        service = self.common.service
        handled = 0
        for notice in due:
            if not await service.notices.claim(notice):
                continue
            with _one_piece("handle %s for game %s", notice.kind, notice.record.id) as done:
                await self.handle(notice)
            if not done:
                continue
            await service.notices.mark_sent(notice)
            handled += 1
        return handled

    async def announce_missed(self, grace: timedelta = ANNOUNCE_GRACE) -> int:
        """Post the games whose latest moves were stored but never shown (the bot stopped in
        between, or Discord refused the post), so the next player is told without waiting
        for a reminder."""
        service = self.common.service
        await service.posts.flush_posted()
        posted = 0
        for record in await service.posts.claim_missed(grace):
            if _computer_tells_it(record):
                # A turn that could be taken back, before a computer's: the computer plays
                # now, and one post tells both turns (as when nothing waited); the claim
                # on this post ends with the computer's move.
                service.computers.wake(record)
                continue
            with _one_piece("announce game %s", record.id):
                channel = await self.posts.home_channel(record)
                posted += await self.posts.announce_stored(channel, record)
        if posted:
            # Written now, not with the next round: once the claims run out, no process
            # (this one restarted, or another) may take these posts for missed ones.
            await service.posts.flush_posted()
        return posted

    async def close_expired_lobbies(self) -> int:
        """Lobbies nobody started in time are closed; their messages say so."""
        expired = await self.common.service.lobby.expire_lobbies()
        for record in expired:
            with _one_piece("update the lobby of game %s", record.id):
                channel = await self.common.channel(record.channel_id)
                await self.posts.announce_end(channel, record)
        return len(expired)

    async def end_stalled_games(self) -> int:
        """Games nobody moved in for long: warned once, then ended with their standings."""
        common = self.common
        warn, end = await common.service.notices.stalled()
        for record in warn:
            with _one_piece("warn stalled game %s", record.id):
                channel = await self.posts.home_channel(record)
                language = await common.game_language(record)
                settings = await common.service.recent_guild_settings(record.guild_id)
                last = (record.last_move_ms or 0) // 1000
                ends = last + int(settings.stall_after.total_seconds())
                text = Text(
                    "table.stall.warning",
                    since=Verbatim(f"<t:{last}:R>"),
                    ends=Verbatim(f"<t:{ends}:R>"),
                )
                await channel.send(message_text(text, language))
                await common.service.notices.warned_stall(record)
        for record in end:
            with _one_piece("end stalled game %s", record.id):
                ended = await common.service.notices.end_stalled(record)
                channel = await self.posts.home_channel(record)
                await self.posts.announce_end(channel, ended, stalled=True)
        return len(warn) + len(end)

    async def handle(self, due: DueTurn) -> None:
        """One notice: a reminder, or a time-out (the moderators told, or the turn played)."""
        if due.kind == "timeout" and due.timeout_action != "notify":
            result = await self.common.service.play.time_out(due)
            await self.posts.announce_result(None, result)
            return
        channel = await self.posts.home_channel(due.record)
        try:
            await self._notice(channel, due)
        except discord.HTTPException as error:
            # The game's thread is gone or locked: the game and its notice go to the channel.
            moved = await self.posts.left_thread(due.record, channel, error)
            if moved is None:
                raise
            await self._notice(moved, due)

    async def _notice(self, channel: Any, due: DueTurn) -> None:
        """A reminder, or the moderators told that a player's time ran out, in ``channel``."""
        language = await self.common.game_language(due.record)
        if due.kind in ("reminder", "final"):
            await self.remind(channel, due, language)
            return
        # Those who can act are pinged: the moderator role, and the game's creator.
        role, creator = due.moderator_role_id, due.record.creator_id
        who: Any = (
            Text("table.reminder.role_and_creator", role=Verbatim(f"<@&{role}>"),
                 creator=Mention(creator))
            if role
            else Mention(creator)
        )  # fmt: skip
        await channel.send(
            message_text(
                Text("table.reminder.timeout_notify", player=due.seat.name, moderators=who),
                language,
            ),
            nonce=nonce("t", due),
            allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(creator)],
                roles=[discord.Object(role)] if role else False,
                everyone=False,
            ),
        )

    async def remind(self, channel: Any, due: DueTurn, language: str) -> None:
        """Half the player's time is used, or nearly all: tell them, where they asked to
        be told (the channel, a direct message, or both)."""
        user = due.seat.user_id
        when = Verbatim(f"<t:{(due.deadline_ms or 0) // 1000}:R>")
        key = "table.reminder.channel" if due.kind == "reminder" else "table.reminder.final"
        if due.seat.ping in ("channel", "both") or user is None:
            player: Any = Mention(user) if user else due.seat.name
            await channel.send(
                message_text(Text(key, player=player, deadline=when), language),
                nonce=nonce(due.kind[0], due),
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(user)] if user else False, roles=False, everyone=False
                ),
            )
        if user is not None and due.dm:
            text = Text("table.reminder.dm", channel=Verbatim(f"<#{channel.id}>"), deadline=when)
            await self._dm(user, message_text(text, language), nonce("d" + due.kind[0], due))

    async def _dm(self, user_id: int, text: str, nonce: str) -> None:
        host = self.common.host
        try:
            user = host.get_user(user_id) or await host.fetch_user(user_id)
            await user.send(text, nonce=nonce)
        except discord.HTTPException:
            # DMs closed or the user is gone: the channel reminder was sent anyway.
            log.info("could not DM user %s", user_id)
