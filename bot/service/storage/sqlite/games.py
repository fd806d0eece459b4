"""SQLite: games' rows and seats (:class:`~bot.service.storage.parts.GameRows`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import aiosqlite

from bot.service.models import GameRecord, Seat, Shards
from bot.service.storage.parts import GameRows
from bot.service.storage.rows import game_of
from bot.service.storage.sqlite.statements import GAME_SELECT, Statements, on_shards
from bot.service.storage.values import GAME_FIELDS, Advance, ChannelBusy, NewGame


class SqliteGames(GameRows):
    """Games' rows and seats in the SQLite file."""

    def __init__(self, statements: Statements) -> None:
        self._sql = statements

    async def get(self, game_id: int) -> GameRecord | None:
        rows = await self._sql.rows(f"{GAME_SELECT} WHERE g.id = ?", (game_id,))
        return game_of(rows[0]) if rows else None

    async def open_in(self, channel_id: int) -> GameRecord | None:
        rows = await self._sql.rows(
            f"{GAME_SELECT} WHERE (g.channel_id = ? OR g.thread_id = ?) "
            "AND g.status IN ('lobby', 'active', 'error')",
            (channel_id, channel_id),
        )
        return game_of(rows[0]) if rows else None

    async def last_in(self, channel_id: int) -> GameRecord | None:
        rows = await self._sql.rows(
            f"{GAME_SELECT} WHERE g.channel_id = ? OR g.thread_id = ? ORDER BY g.id DESC LIMIT 1",
            (channel_id, channel_id),
        )
        return game_of(rows[0]) if rows else None

    async def of_guild(self, guild_id: int, statuses: Sequence[str]) -> list[GameRecord]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self._sql.rows(
            f"{GAME_SELECT} WHERE g.guild_id = ? AND g.status IN ({marks}) ORDER BY g.id",
            (guild_id, *statuses),
        )
        return [game_of(r) for r in rows]

    async def of_user(self, user_id: int, statuses: Sequence[str]) -> list[GameRecord]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self._sql.rows(
            f"{GAME_SELECT} WHERE g.status IN ({marks}) AND g.id IN "
            "(SELECT game_id FROM seats WHERE user_id = ?) ORDER BY g.id",
            (*statuses, user_id),
        )
        return [game_of(r) for r in rows]

    async def finished(self, guild_id: int) -> list[GameRecord]:
        return await self.of_guild(guild_id, ("finished",))

    async def lobbies(
        self, shards: Shards | None = None, *, claim: bool = False
    ) -> list[GameRecord]:
        # ``claim`` needs nothing more here: BEGIN IMMEDIATE already keeps every other writer
        # out until this transaction ends.
        rows = await self._sql.rows(
            f"{GAME_SELECT} WHERE g.status = 'lobby'{on_shards(shards)} ORDER BY g.id"
        )
        return [game_of(r) for r in rows]

    async def any_open(self, shards: Shards | None = None) -> bool:
        rows = await self._sql.rows(
            "SELECT EXISTS (SELECT 1 FROM games g "
            f"WHERE g.status IN ('lobby', 'active'){on_shards(shards)})"
        )
        return bool(rows[0][0])

    async def lobby_counts(self, guild_id: int, user_id: int) -> tuple[int, int, int | None]:
        rows = await self._sql.rows(
            "SELECT (SELECT COUNT(*) FROM games WHERE creator_id = :user AND status = 'lobby'), "
            "(SELECT COUNT(*) FROM games WHERE guild_id = :guild AND status = 'lobby'), "
            "(SELECT MAX(created_at) FROM games WHERE creator_id = :user AND started_at IS NULL)",
            {"user": user_id, "guild": guild_id},
        )
        return rows[0][0], rows[0][1], rows[0][2]

    async def insert(self, game: NewGame) -> int:
        try:
            return await self._sql.execute(
                "INSERT INTO games (guild_id, channel_id, kind, seed, options, shuffle_seats, "
                "creator_id, status, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, 'lobby', ?, ?)",
                (
                    game.guild_id,
                    game.channel_id,
                    game.game_name,
                    game.seed,
                    game.options,
                    int(game.shuffle_seats),
                    game.creator_id,
                    game.now_ms,
                    game.now_ms,
                ),
            )
        except aiosqlite.IntegrityError:
            # The partial unique index: another open game in this channel (maybe another
            # process's, created between our check and our insert).
            raise ChannelBusy(game.channel_id) from None

    async def update(self, game_id: int, **fields: Any) -> None:
        unknown = set(fields) - GAME_FIELDS
        if unknown:
            raise ValueError(f"not columns of games: {sorted(unknown)}")
        sets = ", ".join(f"{name} = ?" for name in fields)
        await self._sql.execute(
            f"UPDATE games SET {sets} WHERE id = ?", (*fields.values(), game_id)
        )

    async def advance(self, game_id: int, old_version: int, row: Advance) -> bool:
        # ``announced`` never goes down: MAX with what is stored.
        # The WHERE on the version is the optimistic check itself: inside BEGIN IMMEDIATE it
        # cannot fail, but if it ever did, nothing of the transaction may be committed.
        cursor = await self._sql.connection.execute(
            "UPDATE games SET version = ?, current_seat = ?, waiting_since = ?, updated_at = ?, "
            "status = ?, finished_at = ?, result = ?, announced = MAX(announced, COALESCE(?, -1)), "
            # A claim on an older version's post or computer's turn is void: this version
            # is news of its own.
            "lease_until = 0, think_until = 0, "
            "board_message_id = COALESCE(?, board_message_id), "
            "lobby_message_id = COALESCE(?, lobby_message_id), "
            "post_error = CASE WHEN ? THEN NULL ELSE post_error END, "
            "post_failures = CASE WHEN ? THEN 0 ELSE post_failures END, "
            "post_retry_at = CASE WHEN ? THEN NULL ELSE post_retry_at END, "
            "clock = ?, next_due_at = ?, last_move_at = ? "
            "WHERE id = ? AND version = ?",
            (
                row.version,
                row.current_seat,
                row.waiting_since_ms,
                row.now_ms,
                row.status,
                row.finished_at_ms,
                row.result,
                row.announced,
                row.board_message_id,
                row.lobby_message_id,
                row.posted,
                row.posted,
                row.posted,
                row.clock,
                row.next_due_ms,
                row.now_ms,
                game_id,
                old_version,
            ),
        )
        return cursor.rowcount == 1

    async def set_seats(self, game_id: int, seats: Sequence[Seat]) -> None:
        await self._sql.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        await self._sql.executemany(
            "INSERT INTO seats (game_id, seat, user_id, name, is_bot, level) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [(game_id, i, s.user_id, s.name, int(s.is_bot), s.level) for i, s in enumerate(seats)],
        )

    async def update_seat(self, game_id: int, seat: Seat) -> None:
        await self._sql.execute(
            "UPDATE seats SET user_id = ?, name = ?, is_bot = ?, left_user_id = ?, level = ? "
            "WHERE game_id = ? AND seat = ?",
            (
                seat.user_id,
                seat.name,
                int(seat.is_bot),
                seat.left_user_id,
                seat.level,
                game_id,
                seat.index,
            ),
        )
