"""PostgreSQL: background work on games (:class:`~bot.service.storage.parts.Notices`).

A notice is written with its game's row locked first, in the same order as every other
write of the game, and claims skip rows that others hold (see the notes of
:mod:`bot.service.storage.postgres`).
"""

from __future__ import annotations

from bot.service.models import GameRecord, Shards
from bot.service.storage.parts import Notices
from bot.service.storage.postgres.session import (
    COMPUTER_TURN,
    GAME_FIELDS_SQL,
    GAME_SELECT,
    UNANNOUNCED,
    Session,
    on_shards,
)
from bot.service.storage.rows import game_of, json_list
from bot.service.storage.values import DueGame

#: The claims :meth:`PostgresNotices.release` gives back: (table, until when, held by, what
#: else holds, the rows' key), as in SQLite's.
RELEASED = (
    ("games", "lease_until", "lease_holder", "", "id"),
    ("games", "think_until", "think_holder", "", "id"),
    (
        "notices",
        "claimed_at",
        "claimed_by",
        " AND sent_at IS NULL",
        "game_id, version, user_id, kind",
    ),
)


class PostgresNotices(Notices):
    """Turn notices, announcements and computer turns in the PostgreSQL database."""

    def __init__(self, session: Session) -> None:
        self._session = session
        self._connection = session.connection

    async def due_games(
        self, now_ms: int, lease_ms: int, shards: Shards | None = None
    ) -> list[DueGame]:
        rows = await self._connection.fetch(
            f"SELECT {GAME_FIELDS_SQL}, "
            "(SELECT COALESCE(json_agg(n.kind), '[]') FROM notices n WHERE n.game_id = g.id "
            " AND n.version = g.version AND n.user_id = s.user_id "
            " AND (n.sent_at IS NOT NULL OR n.claimed_at > $1)) AS sent_json "
            "FROM games g JOIN seats s ON s.game_id = g.id AND s.seat = g.current_seat "
            "WHERE g.status = 'active' AND s.user_id IS NOT NULL AND g.next_due_at <= $2"
            f"{on_shards(shards)} ORDER BY g.next_due_at",
            lease_ms,
            now_ms,
        )
        return [DueGame(game_of(r), tuple(json_list(r["sent_json"]))) for r in rows]

    async def quiet_games(self, before_ms: int, shards: Shards | None = None) -> list[GameRecord]:
        rows = await self._connection.fetch(
            f"{GAME_SELECT} WHERE g.status = 'active' AND g.last_move_at <= $1"
            f"{on_shards(shards)} ORDER BY g.last_move_at",
            before_ms,
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
        # The game first, then the notice (see the package's notes).
        await self._session.lock(game_id)
        # One statement: of two processes claiming at once, the second waits for the first's
        # row, then finds it claimed.
        claimed = await self._connection.fetchval(
            "INSERT INTO notices (game_id, version, user_id, kind, claimed_at, claimed_by) "
            "VALUES ($1, $2, $3, $4, $5, $7) ON CONFLICT (game_id, version, user_id, kind) "
            "DO UPDATE SET claimed_at = EXCLUDED.claimed_at, claimed_by = EXCLUDED.claimed_by "
            "WHERE notices.sent_at IS NULL AND notices.claimed_at <= $6 RETURNING 1",
            game_id,
            version,
            user_id,
            kind,
            now_ms,
            stale_ms,
            holder,
        )
        return claimed is not None

    async def sent(self, game_id: int, version: int, user_id: int, kind: str) -> bool:
        found = await self._connection.fetchval(
            "SELECT 1 FROM notices WHERE game_id = $1 AND version = $2 AND user_id = $3 "
            "AND kind = $4 AND sent_at IS NOT NULL",
            game_id,
            version,
            user_id,
            kind,
        )
        return found is not None

    async def mark_sent(
        self, game_id: int, version: int, user_id: int, kind: str, now_ms: int
    ) -> None:
        # The game first, then the notice (see the package's notes).
        await self._session.lock(game_id)
        await self._connection.execute(
            "INSERT INTO notices (game_id, version, user_id, kind, claimed_at, sent_at) "
            "VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (game_id, version, user_id, kind) "
            "DO UPDATE SET sent_at = EXCLUDED.sent_at",
            game_id,
            version,
            user_id,
            kind,
            now_ms,
        )

    async def reminded_since(self, game_id: int, user_id: int, since_ms: int) -> int:
        found = await self._connection.fetchval(
            "SELECT COUNT(*) FROM (SELECT DISTINCT version, sent_at FROM notices "
            "WHERE game_id = $1 AND user_id = $2 AND kind IN ('reminder', 'final') "
            "AND sent_at >= $3) AS sent",
            game_id,
            user_id,
            since_ms,
        )
        return int(found or 0)

    async def mark_announced(self, game_id: int, version: int) -> None:
        await self._connection.execute(
            # Seen up to its version: the claim on its post (if any) is done with.
            "UPDATE games SET announced = GREATEST(announced, $2), "
            "lease_until = CASE WHEN $2 >= version THEN 0 ELSE lease_until END WHERE id = $1",
            game_id,
            version,
        )

    async def unannounced(
        self, before_ms: int, now_ms: int, shards: Shards | None = None
    ) -> list[int]:
        rows = await self._connection.fetch(
            f"SELECT g.id FROM games g WHERE {UNANNOUNCED}{on_shards(shards)} "
            "ORDER BY g.updated_at",
            before_ms,
            now_ms,
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
        return await self._lease(UNANNOUNCED, before_ms, now_ms, until_ms, holder, shards, limit)

    async def claim_computer_turns(
        self,
        before_ms: int,
        now_ms: int,
        until_ms: int,
        holder: str,
        shards: Shards | None = None,
        limit: int = 100,
    ) -> list[int]:
        return await self._lease(
            COMPUTER_TURN, before_ms, now_ms, until_ms, holder, shards, limit, lease="think"
        )

    async def lease_computer_turn(
        self, game_id: int, now_ms: int, until_ms: int, holder: str
    ) -> bool:
        # The row lock first, as every write of a game takes it (see the package's notes).
        await self._session.lock(game_id)
        leased = await self._connection.fetchval(
            "UPDATE games SET think_holder = $2, think_until = $3 WHERE id = $1 "
            "AND (think_until <= $4 OR think_holder = $2) RETURNING id",
            game_id,
            holder,
            until_ms,
            now_ms,
        )
        return leased is not None

    async def release(self, prefix: str, holder: str) -> int:
        released = 0
        for table, until, by, also, key in RELEASED:
            # The rows locked in key order, as two processes releasing at once (or a
            # release and a flush of posts) would otherwise deadlock.
            rows = await self._connection.fetch(
                f"UPDATE {table} SET {until} = 0 WHERE ({key}) IN (SELECT {key} FROM {table} "
                f"WHERE {until} > 0{also} AND left({by}, length($1)) = $1 AND {by} <> $2 "
                f"ORDER BY {key} FOR UPDATE) RETURNING 1",
                prefix,
                holder,
            )
            released += len(rows)
        return released

    async def _lease(
        self,
        where: str,
        before_ms: int,
        now_ms: int,
        until_ms: int,
        holder: str,
        shards: Shards | None,
        limit: int,
        lease: str = "lease",
    ) -> list[int]:
        """Lease the games matching ``where`` ($1: before_ms, $2: now_ms) whose ``lease``
        (the columns ``<lease>_holder`` and ``<lease>_until``) ran out."""
        # SKIP LOCKED: games another process is claiming (or a click is writing) right now
        # are left to it; the lease keeps them from the next claimer until it runs out.
        rows = await self._connection.fetch(
            f"UPDATE games SET {lease}_holder = $3, {lease}_until = $4 WHERE id IN ("
            f"SELECT g.id FROM games g WHERE {where} AND g.{lease}_until <= $2"
            f"{on_shards(shards)} ORDER BY g.updated_at LIMIT $5 FOR UPDATE SKIP LOCKED) "
            "RETURNING id",
            before_ms,
            now_ms,
            holder,
            until_ms,
            limit,
        )
        ids = [r[0] for r in rows]
        self._session.locked.update(ids)
        return ids
