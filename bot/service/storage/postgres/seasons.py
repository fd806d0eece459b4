"""PostgreSQL: seasons (:class:`~bot.service.storage.parts.Seasons`)."""

from __future__ import annotations

import json
from typing import Any

from bot.service.models import Shards
from bot.service.season.members import Member
from bot.service.season.records import NewSeason, SeasonRecord, SeasonTable
from bot.service.storage.parts import Seasons
from bot.service.storage.postgres.session import Session, on_shards
from bot.service.storage.rows import SEASON_FIELDS, SEASON_UPDATES, same_place, season_of

_SELECT = f"SELECT {SEASON_FIELDS} FROM seasons s"


class PostgresSeasons(Seasons):
    """Seasons, their members and dealt tables in PostgreSQL."""

    def __init__(self, session: Session) -> None:
        self._session = session
        self._connection = session.connection

    async def insert(self, season: NewSeason) -> int:
        return int(
            await self._connection.fetchval(
                "INSERT INTO seasons (guild_id, channel_id, creator_id, kind, options, pace, "
                "rounds, days, first_at, seed, status, created_at) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'signup', $11) RETURNING id",
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
            )
        )

    async def get(self, season_id: int) -> SeasonRecord | None:
        if self._session.writing:
            # Locked first, in a statement of its own (as a game is): the row read next is
            # the one committed once the lock is ours, so a change made from it (what the
            # season owes) cannot undo another process's.
            await self._connection.execute(
                "SELECT 1 FROM seasons WHERE id = $1 FOR UPDATE", season_id
            )
        row = await self._connection.fetchrow(f"{_SELECT} WHERE s.id = $1", season_id)
        return season_of(row) if row is not None else None

    async def current_in(self, channel_id: int) -> SeasonRecord | None:
        row = await self._connection.fetchrow(
            f"{_SELECT} WHERE s.channel_id = $1 AND s.status != 'over' ORDER BY s.id DESC LIMIT 1",
            channel_id,
        )
        return season_of(row) if row is not None else None

    async def of_game(self, game_id: int) -> tuple[int, int] | None:
        row = await self._connection.fetchrow(
            "SELECT season_id, round FROM season_games WHERE game_id = $1", game_id
        )
        return (int(row[0]), int(row[1])) if row is not None else None

    async def due(self, now_ms: int, shards: Shards | None = None) -> list[SeasonRecord]:
        rows = await self._connection.fetch(
            f"{_SELECT} WHERE (s.status != 'over' OR s.untold IS NOT NULL) "
            "AND s.lease_until <= $1"
            f"{on_shards(shards, 's')} ORDER BY s.id",
            now_ms,
        )
        return [season_of(row) for row in rows]

    async def claim(self, season_id: int, holder: str, now_ms: int, until_ms: int) -> bool:
        # One statement: of two processes claiming at once, the second waits for the first's
        # row, sees its lease and takes nothing.
        taken = await self._connection.fetchval(
            "UPDATE seasons SET lease_holder = $1, lease_until = $2 WHERE id = $3 "
            "AND (lease_until <= $4 OR lease_holder = $1 OR lease_holder LIKE $5) RETURNING 1",
            holder,
            until_ms,
            season_id,
            now_ms,
            same_place(holder),
        )
        return bool(taken)

    async def release(self, season_id: int, holder: str) -> None:
        await self._connection.execute(
            "UPDATE seasons SET lease_holder = NULL, lease_until = 0 "
            "WHERE id = $1 AND lease_holder = $2",
            season_id,
            holder,
        )

    async def update(self, season_id: int, **fields: Any) -> None:
        columns = SEASON_UPDATES.keys() & fields.keys()
        if set(fields) - columns:
            raise ValueError(f"not a season field: {sorted(set(fields) - columns)}")
        if not columns:
            return
        names = sorted(columns)
        sets = ", ".join(f"{SEASON_UPDATES[name]} = ${n}" for n, name in enumerate(names, 2))
        await self._connection.execute(
            f"UPDATE seasons SET {sets} WHERE id = $1",
            season_id,
            *(fields[name] for name in names),
        )

    async def members(self, season_id: int) -> list[Member]:
        rows = await self._connection.fetch(
            "SELECT user_id, name, joined, left_round FROM season_members "
            "WHERE season_id = $1 ORDER BY signed_at, user_id",
            season_id,
        )
        return [Member(int(u), str(n), joined=int(j), left=gone) for u, n, j, gone in rows]

    async def put_member(self, season_id: int, member: Member, now_ms: int) -> None:
        await self._connection.execute(
            "INSERT INTO season_members (season_id, user_id, name, joined, left_round, "
            "signed_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (season_id, user_id) DO "
            "UPDATE SET name = EXCLUDED.name, joined = EXCLUDED.joined, "
            "left_round = EXCLUDED.left_round",
            season_id,
            member.user_id,
            member.name,
            member.joined,
            member.left,
            now_ms,
        )

    async def add_table(self, season_id: int, table: SeasonTable) -> bool:
        added = await self._connection.fetchval(
            "INSERT INTO season_games (season_id, round, table_no, game_id) "
            "VALUES ($1, $2, $3, $4) ON CONFLICT (season_id, round, table_no) DO NOTHING "
            "RETURNING 1",
            season_id,
            table.round_number,
            table.table,
            table.game_id,
        )
        return bool(added)

    async def tables(self, season_id: int) -> list[SeasonTable]:
        rows = await self._connection.fetch(
            "SELECT round, table_no, game_id FROM season_games WHERE season_id = $1 "
            "ORDER BY round, table_no",
            season_id,
        )
        return [SeasonTable(int(r), int(t), int(g)) for r, t, g in rows]
