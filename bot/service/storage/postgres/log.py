"""PostgreSQL: a game's log and caches (:class:`~bot.service.storage.parts.GameLog`)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.service.models import ActionRecord
from bot.service.storage.parts import GameLog
from bot.service.storage.postgres.session import Session
from bot.service.storage.rows import action_of


class PostgresLog(GameLog):
    """A game's actions, snapshots and caches in the PostgreSQL database."""

    def __init__(self, session: Session) -> None:
        self._session = session
        self._connection = session.connection

    async def append(self, records: Sequence[ActionRecord]) -> None:
        await self._connection.executemany(
            "INSERT INTO actions (game_id, seq, seat, user_id, source, action, created_at) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7)",
            [
                (
                    r.game_id,
                    r.seq,
                    r.seat,
                    r.user_id,
                    r.source,
                    json.dumps(r.action),
                    int(r.created_at.timestamp() * 1000),
                )
                for r in records
            ],
        )

    async def actions(self, game_id: int, after: int = 0) -> list[ActionRecord]:
        rows = await self._connection.fetch(
            "SELECT seq, seat, user_id, source, action, created_at FROM actions "
            "WHERE game_id = $1 AND seq > $2 ORDER BY seq",
            game_id,
            after,
        )
        return [action_of(game_id, tuple(r)) for r in rows]

    async def save_snapshot(self, game_id: int, version: int, state: str, digest: str) -> None:
        await self._connection.execute(
            "INSERT INTO snapshots (game_id, version, state, digest) VALUES ($1, $2, $3, $4) "
            "ON CONFLICT (game_id, version) DO UPDATE "
            "SET state = EXCLUDED.state, digest = EXCLUDED.digest",
            game_id,
            version,
            state,
            digest,
        )

    async def latest_snapshot(self, game_id: int, version: int) -> tuple[int, str, str] | None:
        row = await self._connection.fetchrow(
            "SELECT version, state, digest FROM snapshots WHERE game_id = $1 AND version <= $2 "
            "ORDER BY version DESC LIMIT 1",
            game_id,
            version,
        )
        return (row[0], row[1], row[2]) if row is not None else None

    async def forget_caches(self, game_id: int) -> None:
        await self._connection.execute("DELETE FROM snapshots WHERE game_id = $1", game_id)
        await self._connection.execute("DELETE FROM notices WHERE game_id = $1", game_id)

    async def take_back(self, game_id: int, after: int, now_ms: int) -> int:
        connection = self._connection
        rows = await connection.fetch(
            "INSERT INTO taken_back (game_id, seq, seat, user_id, source, action, created_at, "
            "taken_back_at) SELECT game_id, seq, seat, user_id, source, action, created_at, $3 "
            "FROM actions WHERE game_id = $1 AND seq > $2 RETURNING seq",
            game_id,
            after,
            now_ms,
        )
        await connection.execute(
            "DELETE FROM actions WHERE game_id = $1 AND seq > $2", game_id, after
        )
        await connection.execute(
            "DELETE FROM snapshots WHERE game_id = $1 AND version > $2", game_id, after
        )
        await connection.execute(
            "DELETE FROM notices WHERE game_id = $1 AND version > $2", game_id, after
        )
        return len(rows)

    async def taken_back(self, game_id: int) -> list[tuple[int, ActionRecord]]:
        rows = await self._connection.fetch(
            "SELECT taken_back_at, seq, seat, user_id, source, action, created_at "
            "FROM taken_back WHERE game_id = $1 ORDER BY taken_back_at, seq",
            game_id,
        )
        return [(r[0], action_of(game_id, tuple(r)[1:])) for r in rows]
