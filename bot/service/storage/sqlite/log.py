"""SQLite: a game's log and caches (:class:`~bot.service.storage.parts.GameLog`)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.service.models import ActionRecord
from bot.service.storage.parts import GameLog
from bot.service.storage.rows import action_of
from bot.service.storage.sqlite.statements import Statements


class SqliteLog(GameLog):
    """A game's actions, snapshots and caches in the SQLite file."""

    def __init__(self, statements: Statements) -> None:
        self._sql = statements

    async def append(self, records: Sequence[ActionRecord]) -> None:
        await self._sql.executemany(
            "INSERT INTO actions (game_id, seq, seat, user_id, source, action, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
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
        rows = await self._sql.rows(
            "SELECT seq, seat, user_id, source, action, created_at FROM actions "
            "WHERE game_id = ? AND seq > ? ORDER BY seq",
            (game_id, after),
        )
        return [action_of(game_id, tuple(r)) for r in rows]

    async def save_snapshot(self, game_id: int, version: int, state: str, digest: str) -> None:
        await self._sql.execute(
            "INSERT OR REPLACE INTO snapshots (game_id, version, state, digest) "
            "VALUES (?, ?, ?, ?)",
            (game_id, version, state, digest),
        )

    async def latest_snapshot(self, game_id: int, version: int) -> tuple[int, str, str] | None:
        rows = await self._sql.rows(
            "SELECT version, state, digest FROM snapshots WHERE game_id = ? AND version <= ? "
            "ORDER BY version DESC LIMIT 1",
            (game_id, version),
        )
        return (rows[0][0], rows[0][1], rows[0][2]) if rows else None

    async def forget_caches(self, game_id: int) -> None:
        await self._sql.execute("DELETE FROM snapshots WHERE game_id = ?", (game_id,))
        await self._sql.execute("DELETE FROM notices WHERE game_id = ?", (game_id,))

    async def take_back(self, game_id: int, after: int, now_ms: int) -> int:
        rows = await self._sql.rows(
            "INSERT INTO taken_back (game_id, seq, seat, user_id, source, action, created_at, "
            "taken_back_at) SELECT game_id, seq, seat, user_id, source, action, created_at, ? "
            "FROM actions WHERE game_id = ? AND seq > ? RETURNING seq",
            (now_ms, game_id, after),
        )
        await self._sql.execute(
            "DELETE FROM actions WHERE game_id = ? AND seq > ?", (game_id, after)
        )
        await self._sql.execute(
            "DELETE FROM snapshots WHERE game_id = ? AND version > ?", (game_id, after)
        )
        await self._sql.execute(
            "DELETE FROM notices WHERE game_id = ? AND version > ?", (game_id, after)
        )
        return len(rows)

    async def taken_back(self, game_id: int) -> list[tuple[int, ActionRecord]]:
        rows = await self._sql.rows(
            "SELECT taken_back_at, seq, seat, user_id, source, action, created_at "
            "FROM taken_back WHERE game_id = ? ORDER BY taken_back_at, seq",
            (game_id,),
        )
        return [(r[0], action_of(game_id, r[1:])) for r in rows]
