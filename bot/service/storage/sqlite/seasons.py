"""SQLite: seasons (:class:`~bot.service.storage.parts.Seasons`)."""

from __future__ import annotations

import json
from typing import Any

from bot.service.models import Shards
from bot.service.season.members import Member
from bot.service.season.records import NewSeason, SeasonRecord, SeasonTable
from bot.service.storage.parts import Seasons
from bot.service.storage.rows import SEASON_FIELDS, SEASON_UPDATES, same_place, season_of
from bot.service.storage.sqlite.statements import Statements, on_shards

_SELECT = f"SELECT {SEASON_FIELDS} FROM seasons s"


class SqliteSeasons(Seasons):
    """Seasons, their members and dealt tables in the SQLite file."""

    def __init__(self, statements: Statements) -> None:
        self._sql = statements

    async def insert(self, season: NewSeason) -> int:
        return await self._sql.execute(
            "INSERT INTO seasons (guild_id, channel_id, creator_id, kind, options, pace, "
            "rounds, days, first_at, seed, status, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'signup', ?)",
            (
                season.guild_id,
                season.channel_id,
                season.creator_id,
                season.game_name,
                json.dumps(season.options),
                season.pace,
                season.rounds,
                season.days,
                season.first_ms,
                season.seed,
                season.created_ms,
            ),
        )

    async def get(self, season_id: int) -> SeasonRecord | None:
        rows = await self._sql.rows(f"{_SELECT} WHERE s.id = ?", (season_id,))
        return season_of(rows[0]) if rows else None

    async def current_in(self, channel_id: int) -> SeasonRecord | None:
        rows = await self._sql.rows(
            f"{_SELECT} WHERE s.channel_id = ? AND s.status != 'over' ORDER BY s.id DESC LIMIT 1",
            (channel_id,),
        )
        return season_of(rows[0]) if rows else None

    async def of_game(self, game_id: int) -> tuple[int, int] | None:
        rows = await self._sql.rows(
            "SELECT season_id, round FROM season_games WHERE game_id = ?", (game_id,)
        )
        return (int(rows[0][0]), int(rows[0][1])) if rows else None

    async def due(self, now_ms: int, shards: Shards | None = None) -> list[SeasonRecord]:
        rows = await self._sql.rows(
            f"{_SELECT} WHERE (s.status != 'over' OR s.untold IS NOT NULL) AND s.lease_until <= ?"
            f"{on_shards(shards, 's')} ORDER BY s.id",
            (now_ms,),
        )
        return [season_of(row) for row in rows]

    async def claim(self, season_id: int, holder: str, now_ms: int, until_ms: int) -> bool:
        taken = await self._sql.rows(
            "UPDATE seasons SET lease_holder = ?, lease_until = ? WHERE id = ? "
            "AND (lease_until <= ? OR lease_holder = ? OR lease_holder LIKE ?) RETURNING 1",
            (holder, until_ms, season_id, now_ms, holder, same_place(holder)),
        )
        return bool(taken)

    async def release(self, season_id: int, holder: str) -> None:
        await self._sql.execute(
            "UPDATE seasons SET lease_holder = NULL, lease_until = 0 "
            "WHERE id = ? AND lease_holder = ?",
            (season_id, holder),
        )

    async def update(self, season_id: int, **fields: Any) -> None:
        columns = SEASON_UPDATES.keys() & fields.keys()
        if set(fields) - columns:
            raise ValueError(f"not a season field: {sorted(set(fields) - columns)}")
        if not columns:
            return
        names = sorted(columns)
        sets = ", ".join(f"{SEASON_UPDATES[name]} = ?" for name in names)
        await self._sql.execute(
            f"UPDATE seasons SET {sets} WHERE id = ?",
            (*(fields[name] for name in names), season_id),
        )

    async def members(self, season_id: int) -> list[Member]:
        rows = await self._sql.rows(
            "SELECT user_id, name, joined, left_round FROM season_members "
            "WHERE season_id = ? ORDER BY signed_at, user_id",
            (season_id,),
        )
        return [Member(int(u), str(n), joined=int(j), left=gone) for u, n, j, gone in rows]

    async def put_member(self, season_id: int, member: Member, now_ms: int) -> None:
        await self._sql.execute(
            "INSERT INTO season_members (season_id, user_id, name, joined, left_round, "
            "signed_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (season_id, user_id) DO UPDATE "
            "SET name = excluded.name, joined = excluded.joined, "
            "left_round = excluded.left_round",
            (season_id, member.user_id, member.name, member.joined, member.left, now_ms),
        )

    async def add_table(self, season_id: int, table: SeasonTable) -> bool:
        added = await self._sql.rows(
            "INSERT INTO season_games (season_id, round, table_no, game_id) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (season_id, round, table_no) DO NOTHING RETURNING 1",
            (season_id, table.round_number, table.table, table.game_id),
        )
        return bool(added)

    async def tables(self, season_id: int) -> list[SeasonTable]:
        rows = await self._sql.rows(
            "SELECT round, table_no, game_id FROM season_games WHERE season_id = ? "
            "ORDER BY round, table_no",
            (season_id,),
        )
        return [SeasonTable(int(r), int(t), int(g)) for r, t, g in rows]
