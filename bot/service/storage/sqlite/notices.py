"""SQLite: background work on games (:class:`~bot.service.storage.parts.Notices`)."""

from __future__ import annotations

from typing import Any

from bot.service.models import GameRecord, Shards
from bot.service.storage.parts import Notices
from bot.service.storage.rows import game_of, json_list
from bot.service.storage.sqlite.statements import (
    COMPUTER_TURN,
    GAME_FIELDS_SQL,
    GAME_SELECT,
    UNANNOUNCED,
    Statements,
    on_shards,
)
from bot.service.storage.values import DueGame

#: The claims :meth:`SqliteNotices.release` gives back: (table, until when, held by, and
#: what else holds). A notice's claim is its time; a notice sent is done, not claimed.
RELEASED = (
    ("games", "lease_until", "lease_holder", ""),
    ("games", "think_until", "think_holder", ""),
    ("notices", "claimed_at", "claimed_by", " AND sent_at IS NULL"),
)


class SqliteNotices(Notices):
    """Turn notices, announcements and computer turns in the SQLite file."""

    def __init__(self, statements: Statements) -> None:
        self._sql = statements

    async def due_games(
        self, now_ms: int, lease_ms: int, shards: Shards | None = None
    ) -> list[DueGame]:
        rows = await self._sql.rows(
            f"SELECT {GAME_FIELDS_SQL}, "
            "(SELECT json_group_array(n.kind) FROM notices n WHERE n.game_id = g.id "
            " AND n.version = g.version AND n.user_id = s.user_id "
            " AND (n.sent_at IS NOT NULL OR n.claimed_at > ?)) "
            "AS sent_json "
            "FROM games g JOIN seats s ON s.game_id = g.id AND s.seat = g.current_seat "
            "WHERE g.status = 'active' AND s.user_id IS NOT NULL AND g.next_due_at <= ?"
            f"{on_shards(shards)} ORDER BY g.next_due_at",
            (lease_ms, now_ms),
        )
        return [DueGame(game_of(r), tuple(json_list(r["sent_json"]))) for r in rows]

    async def quiet_games(self, before_ms: int, shards: Shards | None = None) -> list[GameRecord]:
        rows = await self._sql.rows(
            f"{GAME_SELECT} WHERE g.status = 'active' AND g.last_move_at <= ?"
            f"{on_shards(shards)} ORDER BY g.last_move_at",
            (before_ms,),
        )
        return [game_of(r) for r in rows]

    async def claim(
        self,
        game_id: int,
        version: int,
        user_id: int,
        kind: str,
        now_ms: int,
        stale_ms: int,
        holder: str,
    ) -> bool:
        rows = await self._sql.rows(
            "INSERT INTO notices (game_id, version, user_id, kind, claimed_at, claimed_by) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET "
            "claimed_at = excluded.claimed_at, claimed_by = excluded.claimed_by "
            "WHERE sent_at IS NULL AND claimed_at <= ? RETURNING 1",
            (game_id, version, user_id, kind, now_ms, holder, stale_ms),
        )
        return bool(rows)

    async def sent(self, game_id: int, version: int, user_id: int, kind: str) -> bool:
        return bool(
            await self._sql.integer(
                "SELECT 1 FROM notices WHERE game_id = ? AND version = ? AND user_id = ? "
                "AND kind = ? AND sent_at IS NOT NULL",
                (game_id, version, user_id, kind),
            )
        )

    async def mark_sent(
        self, game_id: int, version: int, user_id: int, kind: str, now_ms: int
    ) -> None:
        await self._sql.execute(
            "INSERT INTO notices (game_id, version, user_id, kind, claimed_at, sent_at) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET sent_at = excluded.sent_at",
            (game_id, version, user_id, kind, now_ms, now_ms),
        )

    async def reminded_since(self, game_id: int, user_id: int, since_ms: int) -> int:
        return (
            await self._sql.integer(
                "SELECT COUNT(*) FROM (SELECT DISTINCT version, sent_at FROM notices "
                "WHERE game_id = ? AND user_id = ? AND kind IN ('reminder', 'final') "
                "AND sent_at >= ?)",
                (game_id, user_id, since_ms),
            )
            or 0
        )

    async def mark_announced(self, game_id: int, version: int) -> None:
        await self._sql.execute(
            # Seen up to its version: the claim on its post (if any) is done with.
            "UPDATE games SET announced = MAX(announced, ?), "
            "lease_until = CASE WHEN ? >= version THEN 0 ELSE lease_until END WHERE id = ?",
            (version, version, game_id),
        )

    async def unannounced(
        self, before_ms: int, now_ms: int, shards: Shards | None = None
    ) -> list[int]:
        rows = await self._sql.rows(
            f"SELECT g.id FROM games g WHERE {UNANNOUNCED}{on_shards(shards)} "
            "ORDER BY g.updated_at",
            (before_ms, now_ms, now_ms, now_ms),
        )
        return [r[0] for r in rows]

    async def claim_unannounced(
        self,
        before_ms: int,
        now_ms: int,
        until_ms: int,
        holder: str,
        shards: Shards | None = None,
        limit: int = 100,
    ) -> list[int]:
        where, params = UNANNOUNCED, (before_ms, now_ms, now_ms, now_ms)
        return await self._lease(where, params, now_ms, until_ms, holder, shards, limit)

    async def claim_computer_turns(
        self,
        before_ms: int,
        now_ms: int,
        until_ms: int,
        holder: str,
        shards: Shards | None = None,
        limit: int = 100,
    ) -> list[int]:
        where, params = COMPUTER_TURN, (before_ms, now_ms, now_ms)
        return await self._lease(
            where, params, now_ms, until_ms, holder, shards, limit, lease="think"
        )

    async def lease_computer_turn(
        self, game_id: int, now_ms: int, until_ms: int, holder: str
    ) -> bool:
        rows = await self._sql.rows(
            "UPDATE games SET think_holder = ?, think_until = ? WHERE id = ? "
            "AND (think_until <= ? OR think_holder = ?) RETURNING id",
            (holder, until_ms, game_id, now_ms, holder),
        )
        return bool(rows)

    async def release(self, prefix: str, holder: str) -> int:
        released = 0
        for table, until, by, also in RELEASED:
            rows = await self._sql.rows(
                f"UPDATE {table} SET {until} = 0 WHERE {until} > 0{also} "
                f"AND substr({by}, 1, length(:prefix)) = :prefix AND {by} <> :holder "
                "RETURNING 1",
                {"prefix": prefix, "holder": holder},
            )
            released += len(rows)
        return released

    async def _lease(
        self,
        where: str,
        params: tuple[Any, ...],
        now_ms: int,
        until_ms: int,
        holder: str,
        shards: Shards | None,
        limit: int,
        lease: str = "lease",
    ) -> list[int]:
        """Lease the games matching ``where`` (with ``params``) whose ``lease`` (the
        columns ``<lease>_holder`` and ``<lease>_until``) ran out."""
        # Inside BEGIN IMMEDIATE no other writer runs: the lease check and the lease taken
        # are one step for every process on the file.
        rows = await self._sql.rows(
            f"UPDATE games SET {lease}_holder = ?, {lease}_until = ? WHERE id IN ("
            f"SELECT g.id FROM games g WHERE {where} AND g.{lease}_until <= ?"
            f"{on_shards(shards)} ORDER BY g.updated_at LIMIT ?) RETURNING id",
            (holder, until_ms, *params, now_ms, limit),
        )
        return [r[0] for r in rows]
