"""PostgreSQL: games' rows and seats (:class:`~bot.service.storage.parts.GameRows`).

Every write locks a game's row before it reads it (see the notes of
:mod:`bot.service.storage.postgres`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import asyncpg

from bot.service.models import GameRecord, Seat, Shards
from bot.service.storage.parts import GameRows
from bot.service.storage.postgres.session import GAME_SELECT, OPEN, Session, on_shards
from bot.service.storage.rows import game_of
from bot.service.storage.values import GAME_FIELDS, Advance, ChannelBusy, NewGame


class PostgresGames(GameRows):
    """Games' rows and seats in the PostgreSQL database."""

    def __init__(self, session: Session) -> None:
        self._session = session
        self._connection = session.connection

    async def get(self, game_id: int) -> GameRecord | None:
        await self._session.lock(game_id)
        row = await self._connection.fetchrow(f"{GAME_SELECT} WHERE g.id = $1", game_id)
        return game_of(row) if row is not None else None

    async def open_in(self, channel_id: int) -> GameRecord | None:
        if self._session.writing:
            # Lock first: the game read next is the one committed once the lock is ours.
            game_id = await self._connection.fetchval(
                f"SELECT id FROM games WHERE channel_id = $1 AND status IN {OPEN} FOR UPDATE",
                channel_id,
            )
            if game_id is None:
                return None
            self._session.locked.add(game_id)
        row = await self._connection.fetchrow(
            f"{GAME_SELECT} WHERE g.channel_id = $1 AND g.status IN {OPEN}", channel_id
        )
        return game_of(row) if row is not None else None

    async def last_in(self, channel_id: int) -> GameRecord | None:
        row = await self._connection.fetchrow(
            f"{GAME_SELECT} WHERE g.channel_id = $1 ORDER BY g.id DESC LIMIT 1", channel_id
        )
        return game_of(row) if row is not None else None

    async def of_guild(self, guild_id: int, statuses: Sequence[str]) -> list[GameRecord]:
        rows = await self._connection.fetch(
            f"{GAME_SELECT} WHERE g.guild_id = $1 AND g.status = ANY($2::text[]) ORDER BY g.id",
            guild_id,
            list(statuses),
        )
        return [game_of(r) for r in rows]

    async def of_user(self, user_id: int, statuses: Sequence[str]) -> list[GameRecord]:
        rows = await self._connection.fetch(
            f"{GAME_SELECT} WHERE g.status = ANY($1::text[]) AND g.id IN "
            "(SELECT game_id FROM seats WHERE user_id = $2) ORDER BY g.id",
            list(statuses),
            user_id,
        )
        return [game_of(r) for r in rows]

    async def finished(self, guild_id: int) -> list[GameRecord]:
        return await self.of_guild(guild_id, ("finished",))

    async def lobbies(
        self, shards: Shards | None = None, *, claim: bool = False
    ) -> list[GameRecord]:
        if not (claim and self._session.writing):
            rows = await self._connection.fetch(
                f"{GAME_SELECT} WHERE g.status = 'lobby'{on_shards(shards)} ORDER BY g.id"
            )
            return [game_of(r) for r in rows]
        ids = [
            r[0]
            for r in await self._connection.fetch(
                f"SELECT g.id FROM games g WHERE g.status = 'lobby'{on_shards(shards)} "
                "ORDER BY g.id FOR UPDATE SKIP LOCKED"
            )
        ]
        self._session.locked.update(ids)
        rows = await self._connection.fetch(
            f"{GAME_SELECT} WHERE g.id = ANY($1::bigint[]) AND g.status = 'lobby' ORDER BY g.id",
            ids,
        )
        return [game_of(r) for r in rows]

    async def any_open(self, shards: Shards | None = None) -> bool:
        return bool(
            await self._connection.fetchval(
                "SELECT EXISTS (SELECT 1 FROM games g "
                f"WHERE g.status IN ('lobby', 'active'){on_shards(shards)})"
            )
        )

    async def lobby_counts(self, guild_id: int, user_id: int) -> tuple[int, int, int | None]:
        row = await self._connection.fetchrow(
            "SELECT (SELECT COUNT(*) FROM games WHERE creator_id = $1 AND status = 'lobby'), "
            "(SELECT COUNT(*) FROM games WHERE guild_id = $2 AND status = 'lobby'), "
            "(SELECT MAX(created_at) FROM games WHERE creator_id = $1 AND started_at IS NULL)",
            user_id,
            guild_id,
        )
        assert row is not None
        return row[0], row[1], row[2]

    async def insert(self, game: NewGame) -> int:
        try:
            game_id = await self._connection.fetchval(
                "INSERT INTO games (guild_id, channel_id, kind, seed, options, shuffle_seats, "
                "creator_id, status, created_at, updated_at) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, 'lobby', $8, $8) RETURNING id",
                game.guild_id,
                game.channel_id,
                game.game_name,
                game.seed,
                game.options,
                game.shuffle_seats,
                game.creator_id,
                game.now_ms,
            )
        except asyncpg.UniqueViolationError as exc:
            if exc.constraint_name == "games_open_per_channel":
                # Another open game in this channel, maybe another process's, created
                # between our check and our insert (the insert waited for it to commit).
                raise ChannelBusy(game.channel_id) from None
            raise
        self._session.locked.add(game_id)
        return int(game_id)

    async def update(self, game_id: int, **fields: Any) -> None:
        unknown = set(fields) - GAME_FIELDS
        if unknown:
            raise ValueError(f"not columns of games: {sorted(unknown)}")
        sets = ", ".join(f"{name} = ${i}" for i, name in enumerate(fields, start=2))
        await self._connection.execute(
            f"UPDATE games SET {sets} WHERE id = $1", game_id, *fields.values()
        )

    async def advance(self, game_id: int, old_version: int, row: Advance) -> bool:
        # The WHERE on the version is the optimistic check; the row lock taken when the
        # game was read makes it hold, but if it ever failed nothing may be committed.
        status = await self._connection.execute(
            "UPDATE games SET version = $3, current_seat = $4, waiting_since = $5, "
            "updated_at = $6, status = $7, finished_at = $8, result = $9, "
            "announced = GREATEST(announced, COALESCE($10::integer, -1)), "
            # A claim on an older version's post or computer's turn is void: this version
            # is news of its own.
            "lease_until = 0, think_until = 0, "
            "board_message_id = COALESCE($11::bigint, board_message_id), "
            "lobby_message_id = COALESCE($13::bigint, lobby_message_id), "
            "post_error = CASE WHEN $12::boolean THEN NULL ELSE post_error END, "
            "post_failures = CASE WHEN $12::boolean THEN 0 ELSE post_failures END, "
            "post_retry_at = CASE WHEN $12::boolean THEN NULL ELSE post_retry_at END, "
            "clock = $14, next_due_at = $15, last_move_at = $6 "
            "WHERE id = $1 AND version = $2",
            game_id,
            old_version,
            row.version,
            row.current_seat,
            row.waiting_since_ms,
            row.now_ms,
            row.status,
            row.finished_at_ms,
            row.result,
            row.announced,
            row.board_message_id,
            row.posted,
            row.lobby_message_id,
            row.clock,
            row.next_due_ms,
        )
        return bool(status == "UPDATE 1")

    async def set_seats(self, game_id: int, seats: Sequence[Seat]) -> None:
        await self._connection.execute("DELETE FROM seats WHERE game_id = $1", game_id)
        await self._connection.executemany(
            "INSERT INTO seats (game_id, seat, user_id, name, is_bot, level) "
            "VALUES ($1, $2, $3, $4, $5, $6)",
            [(game_id, i, s.user_id, s.name, s.is_bot, s.level) for i, s in enumerate(seats)],
        )

    async def update_seat(self, game_id: int, seat: Seat) -> None:
        await self._connection.execute(
            "UPDATE seats SET user_id = $3, name = $4, is_bot = $5, left_user_id = $6, "
            "level = $7 WHERE game_id = $1 AND seat = $2",
            game_id,
            seat.index,
            seat.user_id,
            seat.name,
            seat.is_bot,
            seat.left_user_id,
            seat.level,
        )
