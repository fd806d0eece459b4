"""Posts: what the channel has been shown of each game (up to which version, in which
messages, in which thread), posts Discord refused and tried again later, and the posts the
bot missed (it stopped between storing a move and posting it), claimed by one process.

A part of :class:`~bot.service.service.GameService` (``service.posts``), and the one owner
of what a channel has seen of a game (:meth:`Posts.shown`): the stored columns, what this
process posted and has not written yet, and what it knows of the channel beyond the
database (the newest board it posted or found there), merged into one :class:`Shown`.
What this process posted is held in memory until the game's next write (``play`` writes it
with the move) or :meth:`Posts.flush_posted`, so that a click that ends a turn costs one
write transaction."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from bot.service.common import (
    ANNOUNCE_GRACE,
    CLAIM_BATCH,
    FIRST_SERVER_RETRY,
    MAX_POST_BACKOFF,
    record_of,
    td_ms,
)
from bot.service.core import Core
from bot.service.models import GameRecord
from bot.service.storage import Transaction


@dataclass(frozen=True, slots=True)
class Shown:
    """What the channel has seen of a game, as this process knows it (:meth:`Posts.shown`)."""

    #: The version up to which the channel was told of the game: all its turns that had
    #: ended by then (a turn in progress is told when it ends).
    announced: int
    #: The lobby message (a game played in a thread: the line its channel keeps about it).
    lobby_message_id: int | None
    #: The newest board.
    board_message_id: int | None
    #: The channel of the newest board when this process posted it (or found it) itself;
    #: None when only the database knows it (another process posted it, or this one before
    #: a restart): then the channel may have been told more since than was recorded.
    board_channel_id: int | None


class Posts:
    """The game's posts in its channel (``service.posts``)."""

    def __init__(self, core: Core) -> None:
        self._core = core
        #: What went out to Discord but is not written yet: game id -> columns (see posted()).
        self._pending: dict[int, dict[str, int]] = {}
        #: The version up to which this process knows what the channel was told of a game
        #: (it posted that itself, or found it there), written or not.
        self._told: dict[int, int] = {}
        #: The newest board of each game this process posted (or found): (channel, message).
        self._newest: dict[int, tuple[int, int]] = {}

    async def set_thread(self, game_id: int, thread_id: int | None) -> GameRecord:
        """The game is played in ``thread_id`` from now on (``None``: in its channel again)."""
        async with self._core.storage.write() as tx:
            await tx.games.update(game_id, thread_id=thread_id)
            return await record_of(tx, game_id)

    async def leave_thread(self, game_id: int, thread_id: int) -> GameRecord | None:
        """The game's thread ``thread_id`` is gone or closed to the bot: the game goes on in
        its channel. Returns the record as it is now if this call moved it, None if it was
        not in that thread any more (someone noticed first), so it is said once."""
        async with self._core.storage.write() as tx:
            record = await record_of(tx, game_id)
            if record.thread_id != thread_id:
                return None
            await tx.games.update(game_id, thread_id=None)
            return await record_of(tx, game_id)

    async def mark_announced(self, game_id: int, version: int) -> None:
        """Record now that the channel has seen the game up to ``version``."""
        async with self._core.storage.write() as tx:
            await tx.notices.mark_announced(game_id, version)

    def posted(
        self,
        game_id: int,
        version: int | None = None,
        *,
        board: tuple[int, int] | None = None,
        lobby_message_id: int | None = None,
    ) -> None:
        """The channel has been shown the game up to ``version`` (its newest board ``board``:
        channel id, message id), or its lobby is ``lobby_message_id``: recorded with the
        game's next write, or by :meth:`flush_posted`, whichever comes first, so that a click
        that ends a turn costs one write transaction. Until then this process knows it in
        memory; a crash before it is written has the post sent again at the restart, which
        the table makes idempotent with the post's nonce."""
        pending = self._pending.setdefault(game_id, {})
        if version is not None:
            pending["announced"] = max(version, pending.get("announced", -1))
            self._told[game_id] = max(version, self._told.get(game_id, -1))
        if board is not None:
            pending["board_message_id"] = board[1]
            self._newest[game_id] = board
        if lobby_message_id is not None:
            pending["lobby_message_id"] = lobby_message_id

    def may_have_ended(self, game_id: int) -> bool:
        """Whether this process is ending the game, or ended it, before its end (marked
        before the end is stored): only then does a post need to look at the stored status
        again. (Every end of a guild's game is its shard's process's.)"""
        return game_id in self._core.ending

    def shown(self, record: GameRecord) -> Shown:
        """What the channel has seen of the game: ``record``'s columns, with what this
        process posted since (written or not) over them."""
        pending = self._pending.get(record.id, {})
        board = pending.get("board_message_id", record.board_message_id)
        newest = self._newest.get(record.id)
        return Shown(
            announced=max(record.announced, self._told.get(record.id, -1)),
            lobby_message_id=pending.get("lobby_message_id", record.lobby_message_id),
            board_message_id=board,
            board_channel_id=newest[0] if newest is not None and newest[1] == board else None,
        )

    def unwritten(self, game_id: int) -> dict[str, int]:
        """A copy of what :meth:`posted` holds for the game and is not written yet (the
        game's next write takes it along, then calls :meth:`written`)."""
        return dict(self._pending.get(game_id, {}))

    def written(self, game_id: int, columns: dict[str, int]) -> None:
        """``columns`` of the pending posts are in the database now: forget them (unless a newer
        post changed them meanwhile)."""
        pending = self._pending.get(game_id)
        if pending is None:
            return
        for name, value in columns.items():
            if pending.get(name) == value:
                del pending[name]
        if not pending:
            del self._pending[game_id]

    async def flush_posted(self) -> None:
        """Write everything :meth:`posted` still holds, in one transaction."""
        storage = self._core.storage
        if not self._pending or storage.closed:
            return
        pending, self._pending = self._pending, {}
        try:
            async with storage.write() as tx:
                # In id order: two processes flushing the same games lock them in one order
                # (PostgreSQL would otherwise find a deadlock and refuse one of them).
                for game_id, columns in sorted(pending.items()):
                    await _write_posted(tx, game_id, columns)
        except BaseException:
            for game_id, columns in pending.items():
                self._pending.setdefault(game_id, {}).update(columns)
            raise

    async def post_failed(
        self, game_id: int, error: str, *, server: bool = False
    ) -> tuple[int, timedelta]:
        """Discord refused the game's post (``error`` says why; ``server``: it failed on
        Discord's side, a 5xx): it is tried again later, a little later each time, seconds
        after a failure on Discord's side, minutes after a refusal. Returns how many posts
        in a row have failed, and how long until the next try."""
        async with self._core.storage.write() as tx:
            record = await record_of(tx, game_id)
            failures = record.post_failures + 1
            first = FIRST_SERVER_RETRY if server else timedelta(minutes=1)
            backoff = min(first * 2 ** (failures - 1), MAX_POST_BACKOFF)
            await tx.games.update(
                game_id,
                post_error=error[:200],
                post_failures=failures,
                post_retry_at=self._core.now_ms() + td_ms(backoff),
                # The claim on the post goes back: its retry time says when it is due again.
                lease_until=0,
            )
        return failures, backoff

    async def unannounced(self, grace: timedelta = ANNOUNCE_GRACE) -> list[GameRecord]:
        """Active or finished games changed more than ``grace`` ago that the channel has not
        seen in their latest version (the bot stopped between storing a move and posting
        it), and lobbies whose message was never posted (it stopped between opening one and
        posting it). (The grace leaves a move that is being announced right now alone.)
        Only games of this process's shards."""
        core = self._core
        now = core.now_ms()
        async with core.storage.read() as tx:
            ids = await tx.notices.unannounced(now - td_ms(grace), now, core.shards)
            records = [await record_of(tx, game_id) for game_id in ids]
        return self._not_pending(records)

    async def claim_missed(self, grace: timedelta = ANNOUNCE_GRACE) -> list[GameRecord]:
        """What :meth:`unannounced` lists, claimed for this process: another process asking
        within the lease (``settings.claim_lease``) does not get these games, so a missed
        post goes out once however many processes look. A process that dies before posting
        leaves the lease to run out, and the post to whoever asks next."""
        core = self._core
        holder = await core.claimant()
        now = core.now_ms()
        async with core.storage.write() as tx:
            ids = await tx.notices.claim_unannounced(
                now - td_ms(grace),
                now,
                now + core.lease_ms,
                holder,
                core.shards,
                CLAIM_BATCH,
            )
            records = [await record_of(tx, game_id) for game_id in ids]
        records.sort(key=lambda r: r.updated_at)
        return self._not_pending(records)

    def _not_pending(self, records: list[GameRecord]) -> list[GameRecord]:
        # Posted by this process, but not written yet: not missed.
        return [r for r in records if not self._posted_unwritten(r)]

    def _posted_unwritten(self, record: GameRecord) -> bool:
        pending = self._pending.get(record.id, {})
        if record.status == "lobby":
            return "lobby_message_id" in pending
        return pending.get("announced", -1) >= record.version


async def _write_posted(tx: Transaction, game_id: int, columns: dict[str, int]) -> None:
    if "announced" in columns:
        await tx.notices.mark_announced(game_id, columns["announced"])
        # A post went out: whatever kept the channel from us is fixed.
        await tx.games.update(game_id, post_error=None, post_failures=0, post_retry_at=None)
    messages = {k: v for k, v in columns.items() if k != "announced"}
    if messages:
        await tx.games.update(game_id, **messages)
